// seccomp-notify: the seccomp user-notification ping-pong of the
// WF_CURRENT_CPU series (schedlab's own tools/seccomp_notify.c, installed
// as schedlab-seccomp-notify): nanoseconds per notified syscall, `basic` or
// `sync` (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, Linux 6.6+; on an older kernel
// the cell is n/a with the reason, never a number).
#pragma once

#include "workloads/param_table.h"
#include "workloads/workload.h"

namespace schedlab {

// seccomp-notify's parameters, as its rows (seccomp_notify.cc) declare them.
struct SeccompNotifyParams {
  std::string modes;
  std::int64_t loops;
  std::chrono::milliseconds timeout;
};

class SeccompNotify final : public Workload {
 public:
  SeccompNotify();
  std::string name() const override { return "seccomp-notify"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_.specs(); }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override {
    return "schedlab itself (build/runner/, or cmake --install)";
  }
  std::vector<ProgramSpec> programs() const override {
    return {{.name = "schedlab-seccomp-notify", .guest = true}};
  }
  std::string block_label(const Point&) const override { return "seccomp-notify"; }
  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override;
  std::optional<std::string> unsupported(const Point& p, const std::string& out,
                                         const std::string& err) const override;
  // What the output states it ran with (Workload::stated_params).
  std::vector<std::string> stated_params(const Point& given, const std::string& out,
                                         const std::string& err) const override;
  std::vector<Sample> parse(const Point& p, const std::string& out,
                            const std::string& err) const override;

 private:
  ParamTable<SeccompNotifyParams> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace schedlab
