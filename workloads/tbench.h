// tbench (Debian dbench): the network half of dbench. tbench_srv runs on the
// SUT, tbench clients on the loadgen replay a Samba-like trace over TCP. Its
// throughput is dominated by wakeups between the client and server tasks.
#pragma once

#include "workloads/param_table.h"
#include "workloads/workload.h"

namespace schedlab {

// tbench's parameters, as its rows (tbench.cc) declare them.
struct TbenchParams {
  std::int64_t clients;
  std::chrono::milliseconds duration;
  std::string loadfile;
  std::chrono::milliseconds timeout;
};

class Tbench final : public Workload {
 public:
  // dbench 4.0 hard-codes the port in both tbench_srv and tbench.
  static constexpr int kPort = 7003;

  Tbench();
  std::string name() const override { return "tbench"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_.specs(); }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return "dbench"; }
  // The client runs on the loadgen, the server on the SUT (a lab guest too).
  std::vector<ProgramSpec> programs() const override {
    return {{.name = "tbench"}, {.name = "tbench_srv", .guest = true}};
  }
  GuestNeeds guest_needs() const override { return {.fixed_ports = {kPort}}; }
  std::vector<MmtestsFormat> mmtests_formats() const override;
  std::vector<Step> point_setup_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override;
  // tbench_srv and its per-client children on the SUT; tbench when the SUT is the loadgen.
  std::vector<std::string> task_names(const Point&, const StepContext&) const override {
    return {"tbench", "tbench_srv"};
  }
  // What the output states it ran with (Workload::stated_params).
  std::vector<std::string> stated_params(const Point& given, const std::string& out,
                                         const std::string& err) const override;
  std::vector<Sample> parse(const Point& p, const std::string& out,
                            const std::string& err) const override;

 private:
  ParamTable<TbenchParams> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace schedlab
