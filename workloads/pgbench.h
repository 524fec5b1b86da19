// pgbench (PostgreSQL 15) against a throw-away cluster on the SUT, in the
// spirit of mmtests' db-pgbench-timed-ro-small: cache-hot, read-only by
// default, scaled from memory. Clients and server share the SUT (Unix
// socket), so the scheduler sees both sides of every transaction.
#pragma once

#include "workloads/managed_server.h"
#include "workloads/pg_cluster.h"

namespace schedlab {

class Pgbench final : public ManagedServerWorkload<PgCluster> {
 public:
  Pgbench();
  std::string name() const override { return "pgbench"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_; }
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
  std::int64_t scale(const Point& p, const StepContext& ctx) const;

 private:
  std::vector<ParamSpec> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace schedlab
