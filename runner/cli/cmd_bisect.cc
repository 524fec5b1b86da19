// schedlab bisect: find the first bad kernel or commit between a good and a
// bad one, on statistical verdicts (runner/bisect/bisect.h).
//
//   schedlab bisect start --good G --bad B --config C --metric M
//                         (--kernels LIST | --kernels-file F | --repo DIR)
//                         [--param P=V ...] [-- HOOK ARGV... | --hook-file F]
//   schedlab bisect status | continue | reset
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/compare.h"
#include "analysis/render.h"
#include "analysis/render_schedstat.h"
#include "analysis/schedstat_diff.h"
#include "analysis/schedstat_runs.h"
#include "analysis/significance.h"
#include "base/file.h"
#include "base/text.h"
#include "results/store.h"
#include "runner/bisect/bisect.h"
#include "runner/bisect/bisect_page.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_format.h"
#include "runner/cli/vega_assets.h"
#include "runner/hosts/interrupt.h"
#include "runner/input/units.h"
#include "runner/run/progress.h"

namespace schedlab::cli {
namespace {

using nlohmann::json;

struct BisectCmdOptions {
  std::string good, bad, config, metric;
  std::vector<std::string> params;
  std::string kernels, kernels_file, repo;
  std::vector<std::string> hook;
  std::string hook_file, hook_cwd, hook_timeout = "30m";
  bool hook_timeout_given = false;  // --hook-timeout on the line (it has a default)
  Format format = Format::kText;  // status
  bool reboots = false;
  std::string reboot_timeout = "10m";
  std::string uname;
  std::string test = "mwu";
  double alpha = 0.05;
  double min_effect = 0;
  std::string direction = "worse";
  int max_iterations = 0;
  int max_candidates = -1;
  DbOption db;
};

struct BadArgs : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<std::string> read_lines(const std::string& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const FileError& e) {
    throw BadArgs(e.what());
  }
  std::vector<std::string> out;
  for (const std::string_view line : split_lines(text)) {
    const std::string_view kept = trim_end(line);
    if (!kept.empty() && kept.front() != '#') out.emplace_back(kept);
  }
  return out;
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::chrono::milliseconds duration_arg(const std::string& text, const char* option) {
  const auto d = parse_duration(text);
  if (!d) throw BadArgs(fmt::format("{}: '{}' is not a duration (30s, 5m, ...)", option, text));
  return *d;
}

// The session `status`, `continue` and `reset` act on: the latest one.
std::optional<BisectSession> current(const Store& store) { return store.bisect_log().latest_bisect(); }

int drive(Store& store, std::int64_t id, int max_candidates);
int print_status(const Store& store, const BisectSession& session);

// The bisection the flags ask for; throws BadArgs or BisectError.
BisectSpec spec_of(const BisectCmdOptions& o) {
  BisectSpec spec;
  const int sources = !o.kernels.empty() + !o.kernels_file.empty() + !o.repo.empty();
  if (sources != 1) throw BadArgs("give exactly one of --kernels, --kernels-file and --repo");
  spec.mode = o.repo.empty() ? "kernels" : "git";
  spec.metric = o.metric;
  for (const auto& p : o.params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0)
      throw BadArgs(fmt::format("--param '{}': want NAME=VALUE", p));
    spec.params[p.substr(0, eq)] = p.substr(eq + 1);
  }
  spec.test = o.test;
  spec.alpha = o.alpha;
  spec.min_effect_pct = o.min_effect;
  spec.direction = o.direction;
  spec.max_iterations = o.max_iterations;
  spec.hook_argv = o.hook;
  if (!o.hook_file.empty()) {
    if (!spec.hook_argv.empty()) throw BadArgs("give the hook either after -- or with --hook-file");
    spec.hook_argv = read_lines(o.hook_file);
  }
  // Options of a hook, given with none, would change nothing.
  if (spec.hook_argv.empty())
    for (const auto& [given, option] :
         {std::pair{!o.hook_cwd.empty(), "--hook-cwd"},
          std::pair{o.hook_timeout_given, "--hook-timeout"}, std::pair{o.reboots, "--reboots"},
          std::pair{!o.uname.empty(), "--uname"}})
      if (given)
        throw BadArgs(fmt::format(
            "{} does nothing without a hook: give its argv after -- or with --hook-file", option));
  if (!o.repo.empty()) spec.repo = std::filesystem::absolute(o.repo).string();
  spec.hook_cwd = o.hook_cwd.empty() ? spec.repo : o.hook_cwd;
  spec.hook_timeout = duration_arg(o.hook_timeout, "--hook-timeout");
  spec.hook_reboots = o.reboots;
  spec.reboot_timeout = std::chrono::duration_cast<std::chrono::seconds>(
      duration_arg(o.reboot_timeout, "--reboot-timeout"));
  spec.uname = o.uname;
  set_bisect_config(spec, o.config);
  if (spec.mode == "git")
    fill_git_candidates(spec, o.good, o.bad);
  else
    fill_kernel_candidates(spec,
                           o.kernels.empty() ? read_lines(o.kernels_file) : split_list(o.kernels),
                           o.good, o.bad);
  return spec;
}

int start_command(const BisectCmdOptions& o) {
  BisectSpec spec;
  if (const int rc = guarded<BadArgs, BisectError>({.prefix = "schedlab bisect"}, [&] {
        spec = spec_of(o);
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

std::string opt_num(const std::optional<double>& v, const char* fmt_spec = "{:.4g}") {
  return v ? fmt::format(fmt::runtime(fmt_spec), *v) : "-";
}

std::vector<std::int64_t> run_ids(const BisectDecision& d) {
  return json::parse(d.run_ids_json).get<std::vector<std::int64_t>>();
}

// Summed schedstat deltas of a run's first variant, when it has them.
std::optional<schedstat::Snapshot> schedstat_sum(const Store& store, std::int64_t run) {
  const auto variants = store.variants_table().variants(run);
  if (variants.empty()) return std::nullopt;
  return run_schedstat(store, {.run_id = run, .variant_id = variants.front().id}).sum;
}

void print_result(const Store& store, const BisectSpec& spec, const json& r,
                  const std::vector<BisectDecision>& decisions) {
  const std::size_t first_bad = r.at("first_bad"), last_good = r.at("last_good");
  const auto skipped = r.at("skipped_between");
  // How an end was decided, when it was not a test's clear verdict.
  const auto how = [&](const char* key) -> std::string {
    const json d = r.value(key, json(nullptr));
    if (!d.is_object()) return "";
    std::string out;
    if (d.value("decided_by", "") == "nearest-median") out += " (by nearest median at the iteration cap, not by the test)";
    if (d.contains("flipped") && d["flipped"].is_string())
      out += fmt::format(" (its batches flipped: {})", d["flipped"].get<std::string>());
    return out;
  };
  if (skipped.empty())
    fmt::print("\nfirst bad: {}{}\nlast good: {}{}\n", spec.labels[first_bad], how("first_bad_decision"),
               spec.labels[last_good], how("last_good_decision"));
  else
    fmt::print("\nthe first bad is one of (skipped candidates in between):\n  {}\nlast good: {}\n",
               [&] {
                 std::vector<std::string> l;
                 for (std::size_t i = last_good + 1; i <= first_bad; ++i) l.push_back(spec.labels[i]);
                 return fmt::format("{}", fmt::join(l, "\n  "));
               }(),
               spec.labels[last_good]);
  fmt::print("measured candidates: {} (plus the 2 references), skipped: {}\n",
             r.at("measured_candidates").get<int>(), r.at("skipped_candidates").get<int>());
  // The error rates the verdicts held (sessions before repeated looks have none).
  if (r.contains("error_rates") && r["error_rates"].is_string())
    fmt::print("error rates: {}\n", r["error_rates"].get<std::string>());
  for (const auto& [key, what] : {std::pair{"first_bad_decision", "first bad"}, {"last_good_decision", "last good"}}) {
    const json d = r.value(key, json(nullptr));
    if (d.is_object() && d.contains("error_rates") && d["error_rates"].is_string())
      fmt::print("  {}: {}\n", what, d["error_rates"].get<std::string>());
  }
  // The table: the first batch run of each, all the config's metrics.
  auto first_run = [&](std::size_t pos) -> std::optional<std::int64_t> {
    for (const auto& d : decisions)
      if (d.position == static_cast<int>(pos))
        if (const auto ids = run_ids(d); !ids.empty()) return ids.front();
    return std::nullopt;
  };
  const auto a = first_run(last_good), b = first_run(first_bad);
  if (!a || !b) return;
  std::vector<ColumnRef> cols;
  for (const auto& [run, label] : {std::pair{*a, "last-good"}, std::pair{*b, "first-bad"}}) {
    auto c = default_columns(store, {run}).front();
    c.label = label;
    cols.push_back(c);
  }
  fmt::print("\n{}", render_text(compare(store, cols, {.alpha = spec.alpha, .test = *test_from_name(spec.test)})));
  try {
    const auto sa = schedstat_sum(store, *a), sb = schedstat_sum(store, *b);
    if (sa && sb)
      fmt::print("\nschedstat, last good vs first bad:\n{}",
                 schedstat::render_text(schedstat::compare(schedstat::summarize(*sa),
                                                           schedstat::summarize(*sb), "last-good",
                                                           "first-bad")));
  } catch (const std::exception& e) {
    fmt::print("\nschedstat diff not available: {}\n", e.what());
  }
}

int print_status(const Store& store, const BisectSession& session) {
  const BisectSpec spec = spec_from_json(session.spec_json);
  const auto decisions = store.bisect_log().bisect_decisions(session.id);
  fmt::print("bisection {} ({}): {}, {} over {} candidates between {} and {}\n", session.id,
             to_string(session.status), spec.config_path, spec.metric, spec.candidates.size() - 2,
             spec.labels.front(), spec.labels.back());
  fmt::print("{} at alpha {}{}; up to {} samples per candidate; started {}\n\n",
             verdict_test_title(spec.test), spec.alpha,
             spec.min_effect_pct > 0 ? fmt::format(", minimum effect {}%", spec.min_effect_pct) : "",
             spec.max_iterations, session.created_at);
  fmt::print("{:>4}  {:<40} {:<8} {:>4} {:>10} {:>9} {:>9}  {:<14} {}\n", "pos", "candidate",
             "verdict", "n", "centre", "p(good)", "p(bad)", "decided by", "runs / note");
  for (const auto& d : decisions) {
    std::string label = spec.labels.at(static_cast<std::size_t>(d.position));
    if (label.size() > 40) label = label.substr(0, 37) + "...";
    std::string note = d.run_ids_json == "[]" ? "" : "runs " + d.run_ids_json;
    // The levels this look's tests were held to (alpha spent across looks).
    if (d.level_good && d.level_bad)
      note += fmt::format("{}levels {:.3g}/{:.3g}", note.empty() ? "" : "; ", *d.level_good, *d.level_bad);
    if (!d.note.empty()) note += (note.empty() ? "" : "; ") + d.note;
    if (note.size() > 160) note = note.substr(0, 157) + "...";
    fmt::print("{:>4}  {:<40} {:<8} {:>4} {:>10} {:>9} {:>9}  {:<14} {}\n", d.position, label,
               d.verdict, d.n, opt_num(d.centre), opt_num(d.p_good, "{:.3g}"),
               opt_num(d.p_bad, "{:.3g}"), d.decided_by, note);
  }
  const json r = json::parse(session.result_json);
  if (session.status == BisectStatus::kDone) print_result(store, spec, r, decisions);
  if (session.status == BisectStatus::kRefused) {
    // A centre that is undefined (hmean of a zero) is stored as null, printed n/a.
    auto number = [&](const char* key, const char* fmt_spec) {
      const json v = r.value(key, json(nullptr));
      return v.is_null() ? std::string("n/a")
                         : fmt::format(fmt::runtime(fmt_spec), v.get<double>());
    };
    if (r.value("reason", "") == "bad reference better than good")
      fmt::print("\nrefused: the bad reference is better than the good one ({} is better): good {} (n={}), bad {} "
                 "(n={}), p = {}; --direction either bisects a change either way\n",
                 r.value("direction", "lower"), number("good_centre", "{}"), r.value("n_good", 0),
                 number("bad_centre", "{}"), r.value("n_bad", 0), number("p", "{:.4g}"));
    else
      fmt::print(
          "\nrefused: the references are not significantly different: good {} (n={}), bad {} "
          "(n={}), p = {}\n",
          number("good_centre", "{}"), r.value("n_good", 0), number("bad_centre", "{}"),
          r.value("n_bad", 0), number("p", "{:.4g}"));
  }
  if (session.status == BisectStatus::kRunning) {
    const auto states = candidate_states(spec, decisions);
    if (const auto step = next_candidate(states); step.next)
      fmt::print("\nnext: {} ({} untested left between {} and {})\n", spec.labels[*step.next],
                 remaining(states), spec.labels[step.last_good], spec.labels[step.first_bad]);
  }
  return kOk;
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
  start->add_option("--good", o->good, "a good kernel (in the list) or commit")->required();
  start->add_option("--bad", o->bad, "a bad kernel (in the list) or commit")->required();
  start->add_option("--config", o->config, "the experiment each candidate runs")->required();
  start->add_option("--metric", o->metric, "the metric that tells good from bad")->required();
  start->add_option("--param", o->params, "NAME=VALUE: the point of the sweep to judge on (repeatable)");
  start->add_option("--kernels", o->kernels, "ordered lab kernels, comma separated, oldest first");
  start->add_option("--kernels-file", o->kernels_file, "ordered kernels, one a line, oldest first");
  start->add_option("--repo", o->repo, "git tree: candidates are the first-parent commits good..bad (no hook and a lab "
                    "SUT: schedlab builds and boots each)");
  start->add_option("hook", o->hook,
                    "after --: the hook argv that builds, installs (and boots) {commit} or "
                    "{kernel}; never a shell");
  start->add_option("--hook-file", o->hook_file, "the hook argv, one argument a line");
  start->add_option("--hook-cwd", o->hook_cwd, "the hook's directory (default: the --repo tree)");
  start->add_option("--hook-timeout", o->hook_timeout, "a hook still running after this is killed "
                    "with its process group and the candidate skipped")->capture_default_str();
  auto* reboots = start->add_flag("--reboots", o->reboots,
                                  "the hook reboots the ssh:// SUT: wait for a new boot");
  start
      ->add_option("--reboot-timeout", o->reboot_timeout,
                   "with --reboots: how long the SUT may take to come back")
      ->capture_default_str()
      ->needs(reboots);
  start->add_option("--uname", o->uname, "the `uname -r` the ssh:// SUT must report after the hook "
                    "({commit} / {kernel} allowed)");
  start->add_option("--test", o->test, "mwu (Mann-Whitney U, the default: robust to the outliers "
                    "of a noisy machine) or welch")->check(CLI::IsMember(test_names()))
      ->capture_default_str();
  start->add_option("--alpha", o->alpha, "significance level of every verdict")
      ->check(CLI::Range(1e-9, 0.5))->capture_default_str();
  start->add_option("--min-effect", o->min_effect,
                    "percent: two sides differ only when significant and their centres are at "
                    "least this far apart (0: the test alone)")
      ->check(CLI::Range(0.0, 1000.0))->capture_default_str();
  start->add_option("--direction", o->direction,
                    "worse (the default): the bad reference must be worse than the good one in the metric's "
                    "direction, else nothing regressed and the bisection is refused; either: find a change "
                    "either way")
      ->check(CLI::IsMember({"worse", "either"}))
      ->capture_default_str();
  start->add_option("--max-iterations", o->max_iterations,
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
    o->hook_timeout_given = start->count("--hook-timeout") > 0;
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
