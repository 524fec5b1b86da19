// pgbench (PostgreSQL 15) against a throw-away cluster on the SUT, in the
// spirit of mmtests' db-pgbench-timed-ro-small: cache-hot, read-only by
// default, scaled from memory. Clients and server share the SUT (Unix
// socket), so the scheduler sees both sides of every transaction.
#pragma once

#include "workloads/managed_server.h"
#include "workloads/param_table.h"
#include "workloads/pg_cluster.h"

namespace schedlab {

// pgbench's parameters, as its rows (pgbench.cc) declare them.
struct PgbenchParams {
  std::string builtin;
  std::string script;
  std::int64_t clients;
  std::int64_t threads;
  std::chrono::milliseconds duration;
  std::chrono::milliseconds warmup;
  std::int64_t scale;
  std::int64_t shared_buffers;
  std::string query_mode;
  std::string user;
  std::string bindir;
  std::string client;
  bool keep;
  std::chrono::milliseconds init_timeout;
  std::chrono::milliseconds timeout;
};

class Pgbench final : public ManagedServerWorkload<PgCluster> {
 public:
  Pgbench();
  std::string name() const override { return "pgbench"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_.specs(); }
  bool keeps_workdir(const Point& p) const override { return params_.read(p).keep; }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return "postgresql"; }
  std::vector<ProgramSpec> programs() const override {
    return {{.name = "pgbench"}, {.name = "initdb", .versioned_dir = "/usr/lib/postgresql"}};
  }
  // A PostgreSQL server for the guest: from the default bindir's version.
  GuestNeeds guest_needs() const override;
  std::string block_label(const Point& p) const override;
  std::vector<MmtestsFormat> mmtests_formats() const override;
  // Cluster, database and data once (workloads/managed_server.h: the rest).
  std::vector<Step> setup_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override;
  // The PostgreSQL backends, and pgbench when it runs on the SUT.
  std::vector<std::string> task_names(const Point&, const StepContext&) const override {
    return {"pgbench", "postgres"};
  }
  // What the output states it ran with (Workload::stated_params).
  std::vector<std::string> stated_params(const Point& given, const std::string& out,
                                         const std::string& err) const override;
  std::vector<Sample> parse(const Point& p, const std::string& out,
                            const std::string& err) const override;

  PgCluster server(const Point& p, const StepContext& ctx) const override;
  // The scale the point asks for, or the one derived from the SUT's memory.
  std::int64_t scale(const Point& p, const StepContext& ctx) const {
    return scale(params_.read(p), ctx);
  }
  std::int64_t scale(const PgbenchParams& p, const StepContext& ctx) const;

 private:
  ParamTable<PgbenchParams> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace schedlab
