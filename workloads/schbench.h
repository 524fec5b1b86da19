// schbench (Chris Mason's scheduler wakeup-latency benchmark; upstream
// git.kernel.org/pub/scm/linux/kernel/git/mason/schbench.git, one C file,
// not packaged in Debian): message threads wake worker threads and time how
// long each waits for a CPU, each request's run time and the requests per
// second. schbench writes every report to stderr; the final one (or the -j
// JSON file, which holds the same) gives one sample per iteration.
#pragma once

#include "workloads/param_table.h"
#include "workloads/workload.h"

namespace schedlab {

// schbench's parameters, as its rows (schbench.cc) declare them.
struct SchbenchParams {
  std::int64_t message_threads;
  std::int64_t threads;
  std::chrono::milliseconds runtime;
  std::chrono::milliseconds interval;
  std::chrono::milliseconds warmup;
  std::int64_t rps;
  std::int64_t pipe;
  std::int64_t cache_footprint;
  std::int64_t operations;
  bool intervals;
  std::string path;
  std::chrono::milliseconds timeout;
};

class Schbench final : public Workload {
 public:
  Schbench();
  std::string name() const override { return "schbench"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_.specs(); }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override {
    return "schbench (not in Debian; see workloads/README.md)";
  }
  // On the SUT; a lab guest gets the host's copy from PATH (it needs only
  // libc, libm and pthreads).
  std::vector<ProgramSpec> programs() const override {
    return {{.name = "schbench", .package = kUpstream, .guest = true}};
  }
  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<std::string> task_names(const Point&, const StepContext&) const override {
    return {"schbench", "schbench-msg", "schbench-worker"};
  }
  std::vector<Sample> parse(const Point& p, const std::string& out,
                            const std::string& err) const override;
  // The final report's runtime, pipe mode or not, the rps goal; a -j
  // file's command line (-m, -t, -r, ...).
  std::vector<std::string> stated_params(const Point& given, const std::string& out,
                                         const std::string& err) const override;
  // wakeup_p99, the line schbench marks with '*' (and the one mmtests and
  // the threads quote).
  const MetricSpec& primary_metric(const Point&) const override {
    return *find_metric("wakeup_p99");
  }
  // Settings schbench would silently drop: a warm-up under a 30 s runtime or
  // in rps or pipe mode; rps together with pipe; intervals in pipe mode.
  std::string check_fixed(const Point& p) const override;

  static constexpr const char* kUpstream =
      "not packaged in Debian: build schbench from "
      "git.kernel.org/pub/scm/linux/kernel/git/mason/schbench.git "
      "(one C file, make) and put it on PATH or give its path (see workloads/README.md)";

 private:
  ParamTable<SchbenchParams> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace schedlab
