// sysbench 1.0's OLTP tests (oltp_read_write, oltp_read_only,
// oltp_point_select, oltp_write_only) against a throw-away MariaDB on the
// SUT, as the EEVDF thread measured with sysbench + MySQL. The tables are
// prepared once per run; the server runs per point (under the variant's
// knobs, owned by the runner); the client runs on the SUT over the socket or
// on the loadgen over TCP.
#pragma once

#include "workloads/managed_server.h"
#include "workloads/maria_server.h"
#include "workloads/param_table.h"

namespace schedlab {

// sysbench's parameters, as its rows (sysbench.cc) declare them.
struct SysbenchParams {
  std::string test;
  std::int64_t threads;
  std::chrono::milliseconds duration;
  std::chrono::milliseconds warmup;
  std::int64_t tables;
  std::int64_t table_size;
  std::string client;
  bool allow_errors;
  std::string user;
  bool keep;
  std::chrono::milliseconds prepare_timeout;
  std::chrono::milliseconds timeout;
};

class Sysbench final : public ManagedServerWorkload<MariaServer> {
 public:
  Sysbench();
  std::string name() const override { return "sysbench"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_.specs(); }
  bool keeps_workdir(const Point& p) const override { return params_.read(p).keep; }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return "sysbench"; }
  std::vector<ProgramSpec> programs() const override {
    return {{.name = "sysbench"},
            {.name = "mariadbd", .package = "mariadb-server"},
            {.name = "mariadb-install-db", .package = "mariadb-server"}};
  }
  // A MariaDB server for the guest, and sysbench for client: sut.
  GuestNeeds guest_needs() const override;
  std::string block_label(const Point& p) const override;
  // Server, user and tables once (workloads/managed_server.h: the rest).
  std::vector<Step> setup_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<std::string> task_names(const Point&, const StepContext&) const override {
    return {"sysbench", "mariadbd"};
  }
  // What the output states it ran with (Workload::stated_params).
  std::vector<std::string> stated_params(const Point& given, const std::string& out,
                                         const std::string& err) const override;
  std::vector<Sample> parse(const Point& p, const std::string& out,
                            const std::string& err) const override;
  // errors > 0 fails the iteration unless the point allows errors.
  std::string judge(const Point& p, const std::vector<Sample>& samples) const override;

  MariaServer server(const Point& p, const StepContext& ctx) const override;
  MariaServer server(const SysbenchParams& p, const StepContext& ctx) const;
  // sysbench's connection and table options for a client on `role`.
  std::vector<std::string> client_args(const SysbenchParams& p, const StepContext& ctx,
                                       Role role) const;

 private:
  ParamTable<SysbenchParams> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace schedlab
