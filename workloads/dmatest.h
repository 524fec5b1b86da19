// The kernel's dmatest module: DMA engine memcpy threads started through
// module parameters, reporting in the kernel log. Used in the DMA-engine
// regression threads where sched/fair changes moved the completion wakeups.
// The sysfs parameter root and the log source are parameters, so tests run
// the same steps against a directory that mimics the module's files.
#pragma once

#include "workloads/param_table.h"
#include "workloads/workload.h"

namespace schedlab {

// dmatest's parameters, as its rows (dmatest.cc) declare them.
struct DmatestParams {
  std::int64_t threads_per_chan;
  std::int64_t tests;
  std::int64_t transfer_timeout;
  std::int64_t test_buf_size;
  std::int64_t transfer_size;
  bool norandom;
  bool noverify;
  bool polled;
  std::string channel;
  std::string sysfs;
  std::string log;
  std::string kmsg;
  bool load_module;
  std::chrono::milliseconds timeout;
};

class Dmatest final : public Workload {
 public:
  // Written to the kernel log before each start; only lines after the last
  // one belong to the iteration.
  static constexpr const char* kMarker = "schedlab: dmatest iteration start";

  Dmatest();
  std::string name() const override { return "dmatest"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_.specs(); }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return "kmod"; }
  std::vector<ProgramSpec> programs() const override { return {{.name = "modprobe"}}; }
  // Debian builds no dmatest.ko: a lab board with DMA engines gets one.
  GuestNeeds guest_needs() const override;
  std::vector<Step> setup_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<Step> teardown_steps(const Point& p, const StepContext& ctx) const override;
  // None: the copies run in kernel threads named after the channel
  // ("dma0chan0-copy0"), known only on the SUT; `task_monitor: {comm: [...]}`
  // names them.
  std::vector<std::string> task_names(const Point&, const StepContext&) const override {
    return {};
  }
  std::vector<Sample> parse(const Point& p, const std::string& out,
                            const std::string& err) const override;
  std::string judge(const Point& p, const std::vector<Sample>& samples) const override;

 private:
  ParamTable<DmatestParams> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace schedlab
