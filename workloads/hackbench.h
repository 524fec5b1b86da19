// rt-tests hackbench: groups of senders and receivers passing messages over
// pipes or sockets, as processes or threads. The scheduler's wakeup path
// dominates its time.
#pragma once

#include "workloads/param_table.h"
#include "workloads/workload.h"

namespace schedlab {

// Hackbench's parameters, as its rows (hackbench.cc) declare them.
struct HackbenchParams {
  std::string modes;
  std::int64_t groups;
  std::int64_t loops;
  std::int64_t fds;
  std::int64_t datasize;
  std::string backend;
  std::chrono::milliseconds timeout;
};

class Hackbench final : public Workload {
 public:
  Hackbench();
  std::string name() const override { return "hackbench"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_.specs(); }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return "rt-tests"; }
  // perf runs `backend: perf`.
  std::vector<ProgramSpec> programs() const override {
    return {{.name = "hackbench", .guest = true}, {.name = "perf", .package = "linux-perf"}};
  }
  std::string block_label(const Point& p) const override;
  std::vector<MmtestsFormat> mmtests_formats() const override;
  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<Sample> parse(const Point& p, const std::string& out,
                            const std::string& err) const override;
  // hackbench's header: mode (process or thread), groups, fds, loops,
  // message size; perf's: mode and groups.
  std::vector<std::string> stated_params(const Point& given, const std::string& out,
                                         const std::string& err) const override;

 private:
  std::vector<Sample> parse_perf(const ParamTable<HackbenchParams>::Values& p,
                                 const std::string& out, const std::string& err) const;
  ParamTable<HackbenchParams> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace schedlab
