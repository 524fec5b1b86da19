#include "runner/bisect/bisect_session.h"

#include <fmt/format.h>

#include "analysis/sequential/bisect_verdict.h"
#include "base/message.h"
#include "base/text.h"
#include "runner/bisect/bisect_spec.h"

namespace schedlab {

std::optional<std::string> bisect_start_refusal(const BisectLog& log, const std::string& db) {
  const auto s = log.latest_bisect();
  if (!s || s->status != BisectStatus::kRunning) return std::nullopt;
  return fmt::format(
      "bisection {} is still running in {}; `schedlab bisect continue` it or `schedlab bisect "
      "reset` first",
      s->id, db);
}

std::int64_t start_bisect(BisectLog& log, const BisectSpec& spec) {
  const auto id =
      log.create_bisect({.status = BisectStatus::kRunning, .spec_json = spec_to_json(spec)});
  print_message(fmt::format(
      "schedlab bisect: bisection {}: {} candidates between {} and {} ({} at alpha {})\n", id,
      spec.candidates.size() - 2, terminal_safe(spec.labels.front()),
      terminal_safe(spec.labels.back()), verdict_test_title(spec.test), spec.alpha));
  return id;
}

std::optional<std::string> bisect_continue_refusal(const BisectSession& s) {
  // Its hook and config run on this host: only a bisection this user
  // started here (a database from elsewhere is data, never instructions).
  if (s.status == BisectStatus::kRunning && !spec_made_here(s.spec_json))
    return fmt::format(
        "bisection {} was not started by this user on this machine (a database from elsewhere, "
        "or a schedlab before such bisections were marked): its hook and config are not run; "
        "`schedlab bisect status` shows it, `schedlab bisect start` begins one here",
        s.id);
  if (s.status == BisectStatus::kRunning) return std::nullopt;
  return fmt::format("bisection {} is {}; nothing to continue", s.id, to_string(s.status));
}

void reset_bisect(BisectLog& log, const BisectSession& s) {
  if (s.status == BisectStatus::kRunning)
    log.set_bisect_status(s.id, BisectStatus::kReset, s.result_json);
  print_message(fmt::format("schedlab bisect: bisection {} {}\n", s.id,
                            s.status == BisectStatus::kRunning
                                ? "reset"
                                : "was already " + std::string(to_string(s.status))));
}

void print_drive_end(BisectOutcome outcome) {
  if (outcome == BisectOutcome::kInterrupted)
    print_message("schedlab bisect: interrupted; `schedlab bisect continue` picks up here\n");
  if (outcome == BisectOutcome::kStopped)
    print_message("schedlab bisect: stopped as asked; `schedlab bisect continue` goes on\n");
}

}  // namespace schedlab
