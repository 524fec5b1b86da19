// netperf 2.7 (Debian non-free `netperf`): netserver on the SUT, netperf on
// the loadgen against the SUT's address. Streams (TCP_STREAM, TCP_MAERTS,
// UDP_STREAM) measure throughput, request/response tests (TCP_RR, UDP_RR,
// TCP_CRR) transactions and, with omni output selectors, their latency.
// netperf's own repetition (-i/-I) stays netperf's: a confidence interval it
// could not reach is a note on the iteration, shown under the table.
#pragma once

#include "workloads/param_table.h"
#include "workloads/workload.h"

namespace schedlab {

// netperf's parameters, as its rows (netperf.cc) declare them.
struct NetperfParams {
  std::string test;
  std::int64_t message_size;
  std::chrono::milliseconds duration;
  std::int64_t confidence;
  double confidence_width;
  std::int64_t confidence_max;
  std::int64_t confidence_min;
  bool cpu_util;
  bool latency;
  std::chrono::milliseconds timeout;
};

class Netperf final : public Workload {
 public:
  Netperf();
  std::string name() const override { return "netperf"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_.specs(); }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return "netperf"; }
  // netperf on the loadgen; netserver on the SUT (a lab guest gets a copy).
  std::vector<ProgramSpec> programs() const override {
    return {{.name = "netperf"}, {.name = "netserver", .guest = true}};
  }
  // The control port (netserver -p) and the data port (netperf's -- -P ,PORT):
  // a lab guest is reached only through forwarded ports.
  int ports() const override { return 2; }
  // The message size, or "default" (netperf's own) for 0.
  std::string row_label(const Point& p) const override;
  std::vector<Step> point_setup_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<std::string> task_names(const Point&, const StepContext&) const override {
    return {"netserver", "netperf"};
  }
  std::vector<Sample> parse(const Point& p, const std::string& out,
                            const std::string& err) const override;
  // netperf's confidence interval not reached (-i/-I).
  std::vector<std::string> stated_params(const Point& given, const std::string& out,
                                         const std::string& err) const override;
  std::vector<std::string> notes(const Point& p, const std::string& out,
                                 const std::string& err) const override;
  // throughput for streams, transactions for RR tests.
  const MetricSpec& primary_metric(const Point& p) const override;
  // The confidence options netperf would silently change (-i clamped to
  // 3..30, -I levels other than 95 and 99 refused).
  std::string check_fixed(const Point& p) const override;

  // The omni output selectors of an RR test with `latency: true`.
  static constexpr const char* kLatencySelectors =
      "MIN_LATENCY,MEAN_LATENCY,P50_LATENCY,P90_LATENCY,P99_LATENCY,MAX_LATENCY,TRANSACTION_RATE";

 private:
  ParamTable<NetperfParams> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace schedlab
