// schedlab bisect: find the first bad kernel or commit between a good and a
// bad one, on statistical verdicts (runner/bisect/bisect.h).
//
//   schedlab bisect start --good G --bad B --config C --metric M
//                         (--kernels LIST | --kernels-file F | --repo DIR)
//                         [--param P=V ...] [-- HOOK ARGV... | --hook-file F]
//   schedlab bisect status | continue | reset
#include <fmt/format.h>

#include <memory>

#include "analysis/sequential/bisect_verdict.h"
#include "analysis/stats/significance.h"
#include "results/bisect_log.h"
#include "results/store.h"
#include "runner/bisect/bisect.h"
#include "runner/bisect/bisect_page.h"
#include "runner/bisect/bisect_request.h"
#include "runner/bisect/bisect_status.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_format.h"
#include "runner/cli/vega_assets.h"
#include "runner/hosts/interrupt.h"
#include "runner/input/units.h"
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

// The session `status`, `continue` and `reset` act on: the latest one.
std::optional<BisectSession> current(const Store& store) { return store.bisect_log().latest_bisect(); }

int drive(Store& store, std::int64_t id, int max_candidates);


int start_command(const BisectCmdOptions& o) {
  BisectSpec spec;
  if (const int rc = guarded<BisectError>({.prefix = "schedlab bisect"}, [&] {
        spec = make_bisect_spec(o.start);
        return kOk;
      }))
    return rc;
  return guarded({}, [&]() -> int {
    Store store(o.db.resolve());
    if (const auto s = current(store); s && s->status == BisectStatus::kRunning) {
      fmt::print(stderr,
                 "schedlab bisect: bisection {} is still running in {}; `schedlab bisect "
                 "continue` it or `schedlab bisect reset` first\n",
                 s->id, store.path());
      return kBadInput;
    }
    const auto id = store.bisect_log().create_bisect({.status = BisectStatus::kRunning, .spec_json = spec_to_json(spec)});
    fmt::print(stderr, "schedlab bisect: bisection {}: {} candidates between {} and {} ({} at alpha {})\n",
               id, spec.candidates.size() - 2, spec.labels.front(), spec.labels.back(),
               verdict_test_title(spec.test), spec.alpha);
    return drive(store, id, o.max_candidates);
  });
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
  switch (outcome) {
    case BisectOutcome::kRefused: return kBadInput;
    case BisectOutcome::kInterrupted:
      fmt::print(stderr, "schedlab bisect: interrupted; `schedlab bisect continue` picks up here\n");
      return 128 + interrupt_signal();
    case BisectOutcome::kStopped:
      fmt::print(stderr, "schedlab bisect: stopped as asked; `schedlab bisect continue` goes on\n");
      return kOk;
    case BisectOutcome::kDone: break;
  }
  return print_status(store, *store.bisect_log().find_bisect(id));
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

int session_command(const std::string& what, const BisectCmdOptions& o) {
  return guarded({}, [&]() -> int {
    Store store(o.db.resolve());
    const auto s = current(store);
    if (!s) {
      fmt::print(stderr, "schedlab bisect: no bisection in {}\n", store.path());
      return kBadInput;
    }
    if (what == "status") return kStatusOutputs.of(o.format)(store, *s);
    if (what == "continue") {
      if (s->status != BisectStatus::kRunning) {
        fmt::print(stderr, "schedlab bisect: bisection {} is {}; nothing to continue\n", s->id,
                   to_string(s->status));
        return s->status == BisectStatus::kDone ? print_status(store, *s) : kBadInput;
      }
      return drive(store, s->id, o.max_candidates);
    }
    // reset: the session ends as it stands (its decisions and runs stay).
    if (s->status == BisectStatus::kRunning)
      store.bisect_log().set_bisect_status(s->id, BisectStatus::kReset, s->result_json);
    fmt::print(stderr, "schedlab bisect: bisection {} {}\n", s->id,
               s->status == BisectStatus::kRunning ? "reset"
                                                   : "was already " + std::string(to_string(s->status)));
    return kOk;
  });
}

}  // namespace

void register_bisect(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<BisectCmdOptions>();
  auto* cmd = app.add_subcommand("bisect", "find the first bad kernel or commit on statistical verdicts");
  document(
      *cmd,
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
  start->add_option("--good", o->start.good, "a good kernel (in the list) or commit")->required();
  start->add_option("--bad", o->start.bad, "a bad kernel (in the list) or commit")->required();
  start->add_option("--config", o->start.config, "the experiment each candidate runs")->required();
  start->add_option("--metric", o->start.metric, "the metric that tells good from bad")->required();
  start->add_option("--param", o->start.params,
                    "NAME=VALUE: the point of the sweep to judge on (repeatable)");
  start->add_option("--kernels", o->start.kernels,
                    "ordered lab kernels, comma separated, oldest first");
  start->add_option("--kernels-file", o->start.kernels_file,
                    "ordered kernels, one a line, oldest first");
  start->add_option(
      "--repo", o->start.repo,
      "git tree: candidates are the first-parent commits good..bad (no hook and a lab "
      "SUT: schedlab builds and boots each)");
  start->add_option("hook", o->start.hook,
                    "after --: the hook argv that builds, installs (and boots) {commit} or "
                    "{kernel}; never a shell");
  start->add_option("--hook-file", o->start.hook_file, "the hook argv, one argument a line");
  start->add_option("--hook-cwd", o->start.hook_cwd,
                    "the hook's directory (default: the --repo tree)");
  start
      ->add_option("--hook-timeout", o->start.hook_timeout,
                   "a hook still running after this is killed "
                   "with its process group and the candidate skipped")
      ->capture_default_str();
  auto* reboots = start->add_flag("--reboots", o->start.reboots,
                                  "the hook reboots the ssh:// SUT: wait for a new boot");
  start
      ->add_option("--reboot-timeout", o->start.reboot_timeout,
                   "with --reboots: how long the SUT may take to come back")
      ->capture_default_str()
      ->needs(reboots);
  start->add_option("--uname", o->start.uname,
                    "the `uname -r` the ssh:// SUT must report after the hook "
                    "({commit} / {kernel} allowed)");
  start
      ->add_option("--test", o->start.test,
                   "mwu (Mann-Whitney U, the default: robust to the outliers "
                   "of a noisy machine) or welch")
      ->check(CLI::IsMember(test_names()))
      ->capture_default_str();
  start->add_option("--alpha", o->start.alpha, "significance level of every verdict")
      ->check(CLI::Range(1e-9, 0.5))
      ->capture_default_str();
  start
      ->add_option("--min-effect", o->start.min_effect,
                   "percent: two sides differ only when significant and their centres are at "
                   "least this far apart (0: the test alone)")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  start
      ->add_option(
          "--direction", o->start.direction,
          "worse (the default): the bad reference must be worse than the good one in the metric's "
          "direction, else nothing regressed and the bisection is refused; either: find a change "
          "either way")
      ->check(CLI::IsMember({"worse", "either"}))
      ->capture_default_str();
  start->add_option("--max-iterations", o->start.max_iterations,
                    "pooled samples per candidate before the nearest-median rule (default: 3x the "
                    "config's iterations)");
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
