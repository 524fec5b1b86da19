// schedlab bisect: find the first bad kernel or commit between a good and a
// bad one, on statistical verdicts (runner/bisect/bisect.h).
//
//   schedlab bisect start --good G --bad B --config C --metric M
//                         (--kernels LIST | --kernels-file F | --repo DIR)
//                         [--param P=V ...] [-- HOOK ARGV... | --hook-file F]
//   schedlab bisect status | continue | reset
#include <fmt/format.h>

#include <memory>

#include "base/text.h"
#include "results/bisect_log.h"
#include "results/store.h"
#include "runner/bisect/bisect.h"
#include "runner/bisect/bisect_page.h"
#include "runner/bisect/bisect_request.h"
#include "runner/bisect/bisect_session.h"
#include "runner/bisect/bisect_status.h"
#include "runner/cli/bisect_start_options.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_format.h"
#include "runner/cli/vega_assets.h"
#include "runner/hosts/interrupt.h"
#include "runner/run/progress.h"
#include "workloads/registry.h"

namespace schedlab::cli {
namespace {

struct BisectCmdOptions {
  BisectRequest start;
  Format format = Format::kText;  // status
  int max_candidates = -1;
  DbOption db;
};

int print_status(const Store& store, const BisectSession& session) {
  print_bisect_status(store, session);
  return kOk;
}

int drive(Store& store, std::int64_t id, int max_candidates) {
  install_interrupt_handlers();
  BisectOutcome outcome;
  // A bisection that cannot go on is an error (1) here, with what to do next;
  // anything else goes to the command's guard.
  if (const int rc = guarded<BisectError>(
          {.prefix = "schedlab bisect",
           .listed = kError,
           .other = kPropagate,
           .hint = "(fix it and `schedlab bisect continue`)"},
          [&] {
            outcome = drive_bisect(
                store, id, {.max_candidates = max_candidates, .progress = default_progress_style() == ProgressStyle::kLine});
            return kOk;
          }))
    return rc;
  print_drive_end(outcome);
  switch (outcome) {
    case BisectOutcome::kRefused: return kBadInput;
    case BisectOutcome::kInterrupted:
      return 128 + interrupt_signal();
    case BisectOutcome::kStopped:
      return kOk;
    case BisectOutcome::kDone: break;
  }
  return print_status(store, *store.bisect_log().find_bisect(id));
}

int start_command(const BisectCmdOptions& o) {
  BisectSpec spec;
  if (const int rc = guarded<BisectError>({.prefix = "schedlab bisect"}, [&] {
        spec = make_bisect_spec(o.start);
        return kOk;
      }))
    return rc;
  return guarded({}, [&]() -> int {
    Store store(o.db.resolve());
    if (const auto why = bisect_start_refusal(store.bisect_log(), store.path())) {
      print_message(fmt::format("schedlab bisect: {}\n", *why));
      return kBadInput;
    }
    return drive(store, start_bisect(store.bisect_log(), spec), o.max_candidates);
  });
}

// `bisect status`: the decisions and the result as text, or the page.
const Renderers<int (*)(const Store&, const BisectSession&)> kStatusOutputs{
    {Format::kText, print_status},
    {Format::kHtml,
     [](const Store& store, const BisectSession& session) -> int {
       fmt::print("{}", bisect_page(store, session, vega_script()));
       return kOk;
     }},
};

// status, continue and reset: of the latest session.
int session_command(const std::string& what, const BisectCmdOptions& o) {
  return guarded({}, [&]() -> int {
    // A bisection lives in a database: a mistyped --db is no new one.
    Store store(o.db.resolve(), Store::Access::kExisting);
    const auto s = store.bisect_log().latest_bisect();
    if (!s) {
      print_message(
          fmt::format("schedlab bisect: no bisection in {}\n", terminal_safe(store.path())));
      return kBadInput;
    }
    if (what == "status") return kStatusOutputs.of(o.format)(store, *s);
    if (what == "continue") {
      if (const auto why = bisect_continue_refusal(*s)) {
        print_message(fmt::format("schedlab bisect: {}\n", *why));
        return s->status == BisectStatus::kDone ? print_status(store, *s) : kBadInput;
      }
      return drive(store, s->id, o.max_candidates);
    }
    reset_bisect(store.bisect_log(), *s);
    return kOk;
  });
}

}  // namespace

void register_bisect(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<BisectCmdOptions>();
  auto* cmd = add_command(
      app, "bisect", "find the first bad kernel or commit on statistical verdicts",
      {"Finds the first bad kernel or commit between a good and a bad one, deciding each candidate "
       "good or bad by a statistical test on its samples (more iterations while undecided); a hook "
       "builds and installs each candidate, or schedlab builds and boots git commits in its lab.",
       {{"schedlab bisect start --good v6.11 --bad v6.12 --repo ~/linux --config c.yaml --metric "
         "time",
         "bisect a tree's commits in the lab"},
        {"schedlab bisect status --format html > bisect.html", "every decision so far, as a page"},
        {"schedlab bisect continue", "go on after an interruption"}}});
  cmd->require_subcommand(1);
  auto* start = cmd->add_subcommand("start", "measure good and bad, then bisect between them");
  add_bisect_start_options(*start, o->start);
  // --max-candidates for the commands that decide candidates: status and
  // reset decide none.
  const auto add_max_candidates = [&](CLI::App* c) {
    c->add_option("--max-candidates", o->max_candidates, "stop after deciding this many candidates");
  };
  add_db_option(*start, o->db);
  add_max_candidates(start);
  start->callback([o, start, &exit_code] {
    o->start.hook_timeout_given = start->count("--hook-timeout") > 0;
    exit_code = start_command(*o);
  });
  for (const char* name : {"status", "continue", "reset"}) {
    auto* sub = cmd->add_subcommand(
        name, std::string(name) == "status"     ? "every decision so far, and the result"
              : std::string(name) == "continue" ? "go on after an interruption, restart or reboot"
                                                : "end the current bisection (its records stay)");
    add_db_option(*sub, o->db);
    if (std::string(name) == "continue") add_max_candidates(sub);
    if (std::string(name) == "status") kStatusOutputs.add_option(*sub, o->format);
    sub->callback([o, &exit_code, what = std::string(name)] { exit_code = session_command(what, *o); });
  }
}

}  // namespace schedlab::cli
