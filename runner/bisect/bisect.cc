#include "runner/bisect/bisect.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/analyse.h"
#include "analysis/bisect_looks.h"
#include "base/placeholders.h"
#include "runner/bisect/bisect_git.h"
#include "runner/bisect/bisect_samples.h"
#include "runner/config/config.h"
#include "runner/hosts/interrupt.h"
#include "runner/hosts/lab/kernel_build.h"
#include "runner/hosts/local_host.h"
#include "runner/input/param_values.h"
#include "runner/input/suggest.h"
#include "runner/nightly/hook.h"
#include "runner/run/executor.h"
#include "runner/run/plan.h"
#include "runner/run/session.h"

namespace schedlab {

using nlohmann::json;

std::string spec_to_json(const BisectSpec& s) {
  json j = {{"mode", s.mode},
            {"candidates", s.candidates},
            {"labels", s.labels},
            {"config_path", s.config_path},
            {"config_text", s.config_text},
            {"metric", s.metric},
            {"params", s.params},
            {"repo", s.repo},
            {"hook_reboots", s.hook_reboots},
            {"reboot_timeout_s", s.reboot_timeout.count()},
            {"uname", s.uname},
            {"test", s.test},
            {"hook", {{"argv", s.hook_argv}, {"cwd", s.hook_cwd}, {"timeout_ms", s.hook_timeout.count()}}},
            {"alpha", s.alpha},
            {"min_effect_pct", s.min_effect_pct},
            {"max_iterations", s.max_iterations},
            {"direction", s.direction}};
  return j.dump();
}

BisectSpec spec_from_json(const std::string& text) {
  const json j = json::parse(text);
  BisectSpec s;
  s.mode = j.at("mode");
  s.candidates = j.at("candidates").get<std::vector<std::string>>();
  s.labels = j.at("labels").get<std::vector<std::string>>();
  s.config_path = j.at("config_path");
  s.config_text = j.at("config_text");
  s.metric = j.at("metric");
  s.params = j.at("params").get<std::map<std::string, std::string>>();
  s.repo = j.at("repo");
  s.hook_reboots = j.at("hook_reboots");
  s.reboot_timeout = std::chrono::seconds(j.at("reboot_timeout_s").get<std::int64_t>());
  s.uname = j.at("uname");
  s.test = j.at("test");
  s.alpha = j.at("alpha");
  s.min_effect_pct = j.at("min_effect_pct");
  s.max_iterations = j.at("max_iterations");
  s.direction = j.value("direction", "worse");
  const auto& h = j.at("hook");
  s.hook_argv = h.at("argv").get<std::vector<std::string>>();
  s.hook_cwd = h.at("cwd");
  s.hook_timeout = std::chrono::milliseconds(h.at("timeout_ms").get<std::int64_t>());
  return s;
}

void set_bisect_config(BisectSpec& spec, const std::string& path) {
  Config config;
  try {
    config = load_config_file(path);
  } catch (const ConfigError& e) {
    throw BisectError(e.what());
  }
  spec.config_path = path;
  spec.config_text = config.text;
  std::vector<std::string> metrics;
  bool known = false;
  for (const auto& w : config.workloads)
    for (const auto& m : w.workload->metrics()) {
      metrics.push_back(m.name);
      known = known || m.name == spec.metric;
    }
  if (!known)
    throw BisectError(fmt::format("{}: no workload has metric '{}'{}; its metrics are: {}", path,
                                  spec.metric, did_you_mean(spec.metric, metrics),
                                  fmt::join(metrics, ", ")));
  const Plan plan = expand_plan(config);
  for (auto& [name, value] : spec.params) {
    const ParamSpec* param = nullptr;
    for (const auto& w : config.workloads)
      if (!param) param = w.workload->find_param(name);
    if (!param)
      throw BisectError(
          fmt::format("{}: --param {}: no workload has a parameter '{}'", path, name, name));
    // Typed as the config types it, then written as the store writes it:
    // 1000, +1000 and 1e3 pick the same point of an int parameter.
    try {
      value = stored_param_text(parse_param_value(*param, value));
    } catch (const ValueError& e) {
      throw BisectError(fmt::format("{}: --param {}={}: {}", path, name, value, e.what()));
    }
  }
  int iterations = 0;
  for (const auto& p : plan.points) iterations = std::max(iterations, p.iterations.max);
  if (spec.max_iterations <= 0) spec.max_iterations = 3 * iterations;
  if (spec.mode == "git" && spec.hook_argv.empty() && !config.sut_lab)
    throw BisectError(fmt::format(
        "{}: --repo with no hook builds each commit as a lab kernel: give the config a lab SUT "
        "(hosts: sut: {{lab: {{kernel: 'git:{}'}}}}), or a hook that builds and installs {{commit}} (after --)",
        path, spec.repo));
  if (spec.mode == "kernels" && !config.sut_lab && spec.hook_argv.empty())
    throw BisectError(fmt::format("{}: a kernel list needs a lab SUT (hosts: sut: {{lab: ...}}) or "
                                  "a hook that installs {{kernel}}", path));
  if (!spec.hook_argv.empty()) {
    const std::string known_name = spec.mode == "git" ? "commit" : "kernel";
    std::vector<std::string> unknown;
    try {
      unknown = unknown_placeholders(spec.hook_argv, {known_name});
    } catch (const PlaceholderError& e) {
      throw BisectError(fmt::format("hook: {}", e.what()));
    }
    if (!unknown.empty())
      throw BisectError(fmt::format("hook: unknown placeholder {{{}}} (it may use {{{}}})",
                                    unknown.front(), known_name));
  }
}

void fill_git_candidates(BisectSpec& spec, const std::string& good, const std::string& bad) {
  const std::string g = resolve_commit(spec.repo, good);
  const std::string b = resolve_commit(spec.repo, bad);
  const auto path = first_parent_path(spec.repo, g, b);
  if (path.empty() || path.back() != b)
    throw BisectError(fmt::format("{}: bad {} is not a descendant of good {}", spec.repo, bad, good));
  spec.candidates = {g};
  spec.candidates.insert(spec.candidates.end(), path.begin(), path.end());
  spec.labels.clear();
  for (const auto& c : spec.candidates) spec.labels.push_back(commit_label(spec.repo, c));
}

void fill_kernel_candidates(BisectSpec& spec, const std::vector<std::string>& kernels,
                            const std::string& good, const std::string& bad) {
  const auto g = std::find(kernels.begin(), kernels.end(), good);
  const auto b = std::find(kernels.begin(), kernels.end(), bad);
  if (g == kernels.end()) throw BisectError(fmt::format("good kernel '{}' is not in the list", good));
  if (b == kernels.end()) throw BisectError(fmt::format("bad kernel '{}' is not in the list", bad));
  if (b <= g)
    throw BisectError(fmt::format("good kernel '{}' must come before bad kernel '{}' in the list",
                                  good, bad));
  spec.candidates.assign(g, b + 1);
  spec.labels = spec.candidates;
}

std::string error_rates_statement(const BisectSpec& spec) {
  return fmt::format(
      "each candidate's verdict by the tests: at most {:g}% of GOOD verdicts on a bad candidate and of BAD verdicts "
      "on a good one, over all its looks ({} at alpha {:g} spent across the batches, Lan-DeMets O'Brien-Fleming "
      "type); a verdict by the nearer median at the cap holds no such rate",
      spec.alpha * 100, verdict_test_title(spec.test), spec.alpha);
}

std::vector<CandidateState> candidate_states(const BisectSpec& spec,
                                             const std::vector<BisectDecision>& decisions) {
  std::vector<CandidateState> states(spec.candidates.size(), CandidateState::kUntested);
  states.front() = CandidateState::kGood;
  states.back() = CandidateState::kBad;
  for (const auto& d : decisions) {
    if (d.position <= 0 || d.position + 1 >= static_cast<int>(states.size())) continue;
    auto& s = states[static_cast<std::size_t>(d.position)];
    if (d.verdict == "GOOD") s = CandidateState::kGood;
    if (d.verdict == "BAD") s = CandidateState::kBad;
    if (d.verdict == "SKIP") s = CandidateState::kSkipped;
  }
  return states;
}

namespace {

// Thrown when schedlab is interrupted inside a hook.
struct Interrupted {};

// One bisection being driven: the session, its spec and the store.
class Driver {
 public:
  Driver(Store& store, std::int64_t id, const DriveOptions& options)
      : store_(store), id_(id), options_(options) {
    const auto session = store.bisect_log().find_bisect(id);
    if (!session) throw BisectError(fmt::format("no bisection {} in {}", id, store.path()));
    if (session->status != BisectStatus::kRunning)
      throw BisectError(
          fmt::format("bisection {} is {}, not running", id, to_string(session->status)));
    spec_ = spec_from_json(session->spec_json);
    verdict_.test = spec_.test;
    verdict_.alpha = spec_.alpha;
    verdict_.min_effect_pct = spec_.min_effect_pct;
  }

  BisectOutcome run() {
    const std::size_t last = spec_.candidates.size() - 1;
    // The references: a batch each, then more batches (pooled) while they
    // do not differ, up to the cap; only then is the bisection refused.
    ReferenceCheck check;
    while (true) {
      for (const std::size_t ref : {std::size_t{0}, last})
        if (finished_runs(ref).empty())
          if (const auto r = reference_batch(ref)) return *r;
      verdict_.centre = metric_centre(0);
      check = check_references(samples(0), samples(last), verdict_);
      if (check.differ) break;
      const auto cap = static_cast<std::size_t>(spec_.max_iterations);
      if (check.n_good >= cap && check.n_bad >= cap) break;
      fmt::print(stderr, "schedlab bisect: references not yet different ({}); another batch each\n",
                 check.describe());
      for (const std::size_t ref : {std::size_t{0}, last})
        if (samples(ref).size() < cap)
          if (const auto r = reference_batch(ref)) return *r;
    }
    for (const std::size_t ref : {std::size_t{0}, last})
      if (!has_decision(ref)) record_reference(ref);
    const auto good = samples(0), bad = samples(last);
    if (!check.differ) {
      fmt::print(stderr,
                 "schedlab bisect: the good and bad references are not significantly different "
                 "({} at alpha {}): {}; nothing to bisect\n",
                 verdict_test_title(spec_.test), spec_.alpha, check.describe());
      return refuse("references not different", check);
    }
    // The references must differ the way a regression does: a "bad"
    // kernel measured better than the good one has nothing to find.
    const Direction direction = bisect_metric_direction(store_, spec_, finished_runs(0));
    if (spec_.direction != "either" && check.good_centre && check.bad_centre) {
      const bool worse = direction == Direction::kHigherIsBetter
                             ? *check.bad_centre < *check.good_centre
                             : *check.bad_centre > *check.good_centre;
      if (!worse) {
        fmt::print(
            stderr,
            "schedlab bisect: the bad reference is better than the good one ({} is better: {}): "
            "nothing regressed between them; --direction either bisects a change either way\n",
            to_string(direction), check.describe());
        return refuse("bad reference better than good", check,
                      {{"direction", to_string(direction)}});
      }
    }
    int decided = 0;
    while (true) {
      const auto states = candidate_states(spec_, store_.bisect_log().bisect_decisions(id_));
      const SearchStep step = next_candidate(states);
      if (!step.next) {
        finish(step, states);
        return BisectOutcome::kDone;
      }
      if (options_.max_candidates >= 0 && decided >= options_.max_candidates)
        return BisectOutcome::kStopped;
      fmt::print(stderr, "schedlab bisect: candidate {}/{} {} ({} untested left in the range)\n",
                 *step.next, last, spec_.labels[*step.next], remaining(states));
      if (!measure_candidate(*step.next, good, bad)) return BisectOutcome::kInterrupted;
      ++decided;
    }
  }

 private:
  // The session refused, with the references' numbers as its result (null,
  // not 0, where a centre is undefined).
  BisectOutcome refuse(const std::string& reason, const ReferenceCheck& check, json extra = json::object()) {
    json result = {{"reason", reason},
                   {"good_centre", check.good_centre ? json(*check.good_centre) : json(nullptr)},
                   {"bad_centre", check.bad_centre ? json(*check.bad_centre) : json(nullptr)},
                   {"n_good", check.n_good},
                   {"n_bad", check.n_bad},
                   {"p", check.p.p ? json(*check.p.p) : json(nullptr)},
                   {"p_reason", check.p.reason}};
    result.update(extra);
    store_.bisect_log().set_bisect_status(id_, BisectStatus::kRefused, result.dump());
    return BisectOutcome::kRefused;
  }

  std::string run_name(std::size_t pos, std::size_t batch) const {
    return fmt::format("bisect{}-c{}-b{}", id_, pos, batch);
  }

  // The finished batch runs of a candidate, in order.
  std::vector<std::int64_t> finished_runs(std::size_t pos) const {
    std::vector<std::int64_t> ids;
    for (std::size_t k = 1;; ++k) {
      const auto r = store_.runs_table().find_run_by_name(run_name(pos, k));
      if (!r || r->status != RunStatus::kFinished) break;
      ids.push_back(r->id);
    }
    return ids;
  }

  std::vector<double> samples(std::size_t pos) const {
    return bisect_samples(store_, spec_, finished_runs(pos));
  }

  bool has_decision(std::size_t pos) const {
    for (const auto& d : store_.bisect_log().bisect_decisions(id_))
      if (d.position == static_cast<int>(pos)) return true;
    return false;
  }

  // Checks out the commit (git mode) and runs the hook; the failure's
  // description, or nothing when it went well. Throws BisectError on an
  // interrupt.
  std::optional<std::string> prepare(std::size_t pos) {
    const std::string& c = spec_.candidates[pos];
    if (builds_itself()) return build(pos);
    if (spec_.mode == "git") {
      checkout_detached(spec_.repo, c);
    }
    if (spec_.hook_argv.empty()) return std::nullopt;
    const Hook hook{.argv = spec_.hook_argv, .cwd = spec_.hook_cwd, .timeout = spec_.hook_timeout};
    const HookValues values = spec_.mode == "git" ? HookValues{{"commit", c}}
                                                  : HookValues{{"kernel", c}};
    const Config config = parse_config(spec_.config_text, spec_.config_path);
    std::optional<std::string> before_boot;
    const bool ssh_sut = config.sut.starts_with("ssh://");
    if (spec_.hook_reboots && ssh_sut) {
      const auto host = wait_for_ssh(config.sut, config.ssh,
                                     {.deadline = std::chrono::steady_clock::now() + spec_.reboot_timeout});
      before_boot = boot_id(*host);
    }
    fmt::print(stderr, "schedlab bisect: hook for {}\n", spec_.labels[pos]);
    const HookResult h = run_hook(hook, values);
    if (h.exec.outcome == ExecResult::Outcome::kInterrupted) throw Interrupted{};
    if (!h.ok()) return h.describe();
    if (ssh_sut && (spec_.hook_reboots || !spec_.uname.empty())) {
      try {
        const auto host = wait_for_ssh(
            config.sut, config.ssh,
            {.deadline = std::chrono::steady_clock::now() + spec_.reboot_timeout,
             .not_boot_id = before_boot});
        if (!spec_.uname.empty())
          verify_kernel(*host, {.release = substitute(spec_.uname, values)});
      } catch (const HookError& e) {
        return std::string(e.what());
      }
    }
    return std::nullopt;
  }

  // git mode with no hook: each commit is built as a lab kernel
  // (git:REPO@COMMIT, kernel_build.h) in the lab cache's persistent build
  // directory, so the user's tree is never checked out and consecutive
  // candidates rebuild incrementally.
  bool builds_itself() const { return spec_.mode == "git" && spec_.hook_argv.empty(); }
  std::string lab_kernel(std::size_t pos) const {
    return "git:" + spec_.repo + "@" + spec_.candidates[pos];
  }

  // Builds the candidate (or finds it built); a failed build is the
  // failure's description (the candidate is skipped, like git bisect skip).
  std::optional<std::string> build(std::size_t pos) {
    const Config config = parse_config(spec_.config_text, spec_.config_path);
    const LabConfig& lab = *config.sut_lab;
    fmt::print(stderr, "schedlab bisect: building {}\n", spec_.labels[pos]);
    LocalHost local;
    try {
      lab::build_kernel(lab_kernel(pos),
                        {.fragments = lab.config_fragments, .symbols = lab.config, .board = lab.board},
                        lab::LabPaths::from_env(), local,
                        [](const std::string& line) { fmt::print(stderr, "{}\n", line); });
    } catch (const lab::KernelBuildFailed& e) {
      if (interrupted()) throw Interrupted{};
      return fmt::format("build failed: {}", e.what());
    }
    return std::nullopt;
  }

  // Runs `name` on the kernel of candidate `which` (resuming the run when
  // an earlier invocation was interrupted in it). False when interrupted.
  bool run_batch(std::size_t which, const std::string& name) {
    Config config = parse_config(spec_.config_text, spec_.config_path);
    if (spec_.mode == "kernels" && config.sut_lab) config.sut_lab->kernel = spec_.candidates[which];
    if (builds_itself()) config.sut_lab->kernel = lab_kernel(which);
    ExecOptions exec;
    exec.name = name;
    exec.progress = options_.progress ? ProgressStyle::kLine : ProgressStyle::kNone;
    if (const auto r = store_.runs_table().find_run_by_name(exec.name)) {
      exec.resume_run = r->id;
      fmt::print(stderr, "schedlab bisect: resuming run {} '{}'\n", r->id, r->name);
    }
    const RunSummary s = run_config(store_, config, exec);
    for (const auto& e : s.errors) fmt::print(stderr, "schedlab: {}\n", e);
    if (s.status == RunStatus::kInterrupted) return false;
    if (s.status != RunStatus::kFinished)
      throw BisectError(fmt::format("run {} '{}' {}", s.run_id, s.name, to_string(s.status)));
    return true;
  }
  bool run_batch(std::size_t pos, std::size_t batch) { return run_batch(pos, run_name(pos, batch)); }

  std::string runs_json(std::size_t pos) const { return json(finished_runs(pos)).dump(); }

  // One more batch of a reference (its hook first). Nothing on success;
  // the outcome to return otherwise. A reference whose hook fails is an
  // error: there is nothing to bisect against.
  std::optional<BisectOutcome> reference_batch(std::size_t pos) {
    const char* which = pos == 0 ? "good" : "bad";
    fmt::print(stderr, "schedlab bisect: measuring the {} reference {}\n", which, spec_.labels[pos]);
    try {
      if (const auto failure = prepare(pos))
        throw BisectError(fmt::format("the {} reference {}: {}", which, spec_.labels[pos], *failure));
      if (!run_batch(pos, finished_runs(pos).size() + 1)) return BisectOutcome::kInterrupted;
    } catch (const Interrupted&) {
      return BisectOutcome::kInterrupted;
    }
    if (samples(pos).size() < 2)
      throw BisectError(fmt::format("the {} reference {} gave {} samples of metric '{}' (need 2)",
                                    which, spec_.labels[pos], samples(pos).size(), spec_.metric));
    return std::nullopt;
  }

  void record_reference(std::size_t pos) {
    const auto x = samples(pos);
    store_.bisect_log().add_bisect_decision({.session_id = id_,
                                .position = static_cast<int>(pos),
                                .candidate = spec_.candidates[pos],
                                .verdict = pos == 0 ? "REF-GOOD" : "REF-BAD",
                                .decided_by = "reference",
                                .n = static_cast<int>(x.size()),
                                .centre = centre_of(x, verdict_.centre),
                                .run_ids_json = runs_json(pos)});
  }

  // The centre the metric declared, as stored with the runs.
  Centre metric_centre(std::size_t pos) const {
    return bisect_metric_centre(store_, spec_, finished_runs(pos));
  }

  void record(std::size_t pos, const std::string& verdict, const std::string& by,
              const std::vector<double>& x, const VerdictResult* v, const std::string& note,
              const SequentialVerdict* looks = nullptr) {
    store_.bisect_log().add_bisect_decision({.session_id = id_, .position = static_cast<int>(pos),
                                .candidate = spec_.candidates[pos], .verdict = verdict,
                                .decided_by = by, .n = static_cast<int>(x.size()),
                                .centre = v ? v->centre : std::nullopt,
                                .p_good = v ? v->vs_good.p : std::nullopt,
                                .p_bad = v ? v->vs_bad.p : std::nullopt,
                                .run_ids_json = runs_json(pos), .note = note,
                                .level_good = looks ? std::optional(looks->vs_good.nominal_alpha) : std::nullopt,
                                .level_bad = looks ? std::optional(looks->vs_bad.nominal_alpha) : std::nullopt,
                                .error_rates = looks && verdict != "UNKNOWN" ? looks->error_rates : ""});
  }

  // The candidate's verdict after its latest batch, with alpha spent
  // across its looks (analysis/bisect_looks.h): a look after each batch,
  // each against the references of the windows measured so far (good0 and
  // bad0 for batches made before windows existed). The earlier looks are
  // taken again from the stored runs, so a `continue` after a restart
  // spends alpha as an uninterrupted bisection would.
  SequentialVerdict judge_looks(std::size_t pos, const std::vector<std::int64_t>& runs,
                                const std::vector<double>& good0, const std::vector<double>& bad0) {
    const std::size_t last = spec_.candidates.size() - 1;
    const auto good_runs = window_runs(pos, 0), bad_runs = window_runs(pos, last);
    const auto first = [](const std::vector<std::int64_t>& ids, std::size_t k) {
      return std::vector<std::int64_t>(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(std::min(k, ids.size())));
    };
    const auto reference = [&](const std::vector<std::int64_t>& ids, const std::vector<double>& fixed, std::size_t k) {
      return ids.empty() ? fixed : bisect_samples(store_, spec_, first(ids, k));
    };
    const auto cap = static_cast<std::size_t>(spec_.max_iterations);
    // A reference measured beside each batch reaches about the cap with it.
    const auto at_cap = [&](const std::vector<std::int64_t>& ids, const std::vector<double>& fixed) {
      return ids.empty() ? fixed.size() : std::max(cap, bisect_samples(store_, spec_, ids).size());
    };
    SequentialJudge judge(verdict_, at_cap(good_runs, good0), at_cap(bad_runs, bad0), cap);
    std::optional<SequentialVerdict> latest;
    std::size_t seen = 0;
    for (std::size_t k = 1; k <= runs.size(); ++k) {
      const auto x = bisect_samples(store_, spec_, first(runs, k));
      const auto good = reference(good_runs, good0, k), bad = reference(bad_runs, bad0, k);
      if (x.size() <= seen || good.empty() || bad.empty()) continue;  // no look without new samples
      try {
        latest = judge.judge(good, bad, x);
      } catch (const std::invalid_argument&) {
        continue;  // a reference batch without samples: no more information, no look
      }
      seen = x.size();
      if (latest->vs_good.last) break;
    }
    if (!latest) throw BisectError(fmt::format("{}: no look could be taken at its samples", spec_.labels[pos]));
    return *latest;
  }

  // Batches until a verdict, the cap, or a skip. False when interrupted.
  // Each batch runs between a batch of each reference (good, candidate,
  // bad), and the verdict tests the candidate's pooled samples against the
  // references pooled over the same windows (good0/bad0, the references'
  // first measurement, only for batches made before windows existed).
  bool measure_candidate(std::size_t pos, const std::vector<double>& good0, const std::vector<double>& bad0) {
    verdict_.centre = metric_centre(0);
    const std::size_t last = spec_.candidates.size() - 1;
    while (true) {
      const auto runs = finished_runs(pos);
      const auto x = bisect_samples(store_, spec_, runs);
      if (!runs.empty() && !x.empty()) {
        const SequentialVerdict sv = judge_looks(pos, runs, good0, bad0);
        const VerdictResult& v = sv.result;
        const bool capped = sv.vs_good.last;
        std::string note = fmt::format("{}{}", v.vs_good.p ? "" : "vs good: " + v.vs_good.reason + " ",
                                       v.vs_bad.p ? "" : "vs bad: " + v.vs_bad.reason);
        // What each batch says on its own, against its own window: a
        // candidate whose batches disagree is said to flip, wherever its
        // verdict is shown.
        const auto leanings = batch_leanings(pos, runs.size());
        const bool flipped = std::find(leanings.begin(), leanings.end(), "GOOD") != leanings.end() &&
                             std::find(leanings.begin(), leanings.end(), "BAD") != leanings.end();
        if (flipped)
          note += fmt::format("{}its batches flipped: {}", note.empty() ? "" : "; ", fmt::join(leanings, ", "));
        if (v.verdict != Verdict::kUnknown) {
          record(pos, std::string(verdict_name(v.verdict)), v.decided_by, x, &v, note, &sv);
          fmt::print(stderr, "schedlab bisect: {} is {} (n={}, p vs good {}, p vs bad {} at look {}'s levels {:.3g} "
                             "and {:.3g}, against references measured beside it{}{}); {}\n",
                     spec_.labels[pos], verdict_name(v.verdict), x.size(), p_text(v.vs_good), p_text(v.vs_bad),
                     sv.vs_good.look, sv.vs_good.nominal_alpha, sv.vs_bad.nominal_alpha,
                     v.decided_by == "test" ? "" : "; by nearest median at the iteration cap",
                     flipped ? "; its batches flipped: " + fmt::format("{}", fmt::join(leanings, ", ")) : "",
                     sv.error_rates);
          return true;
        }
        if (!last_is_unknown_at(pos, x.size()))
          record(pos, "UNKNOWN", "", x, &v, note, &sv);
        if (capped) {
          record(pos, "SKIP", "cap", x, &v, "still UNKNOWN at the iteration cap (centres tie)", &sv);
          return true;
        }
        fmt::print(stderr, "schedlab bisect: {} UNKNOWN at n={} (p vs good {}, p vs bad {}; look {} tests at "
                           "{:.3g} and {:.3g}); another batch\n",
                   spec_.labels[pos], x.size(), p_text(v.vs_good), p_text(v.vs_bad), sv.vs_good.look,
                   sv.vs_good.nominal_alpha, sv.vs_bad.nominal_alpha);
      }
      const std::size_t batch = runs.size() + 1;
      try {
        // good, candidate, bad: each installed (hook or build) right before
        // its run, so the window is as short as the hooks allow.
        for (const std::size_t which : {std::size_t{0}, pos, last}) {
          const std::string name = which == pos ? run_name(pos, batch) : window_name(pos, batch, which);
          if (finished(name)) continue;
          if (const auto failure = prepare(which)) {
            if (which != pos)
              throw BisectError(fmt::format("the {} reference {}: {}", which == 0 ? "good" : "bad",
                                            spec_.labels[which], *failure));
            fmt::print(stderr, "schedlab bisect: skipping {}: {}\n", spec_.labels[pos], *failure);
            record(pos, "SKIP", builds_itself() ? "build" : "hook", x, nullptr, *failure);
            return true;
          }
          if (!run_batch(which, name)) return false;
        }
      } catch (const Interrupted&) {
        return false;
      } catch (const PreflightError& e) {
        record(pos, "SKIP", "preflight", x, nullptr, e.what());
        return true;
      } catch (const HostError& e) {
        record(pos, "SKIP", "host", x, nullptr, e.what());
        return true;
      }
      if (bisect_samples(store_, spec_, finished_runs(pos)).size() == x.size()) {
        record(pos, "SKIP", "no-samples", x, nullptr,
               fmt::format("batch {} gave no samples of '{}'", batch, spec_.metric));
        return true;
      }
    }
  }

  std::string window_name(std::size_t pos, std::size_t batch, std::size_t ref) const {
    return fmt::format("bisect{}-c{}-b{}-ref{}", id_, pos, batch, ref);
  }
  bool finished(const std::string& name) const {
    const auto r = store_.runs_table().find_run_by_name(name);
    return r && r->status == RunStatus::kFinished;
  }
  // The finished runs of reference `ref` measured beside candidate `pos`,
  // a batch each, in order.
  std::vector<std::int64_t> window_runs(std::size_t pos, std::size_t ref) const {
    std::vector<std::int64_t> ids;
    for (std::size_t k = 1;; ++k) {
      const auto r = store_.runs_table().find_run_by_name(window_name(pos, k, ref));
      if (!r || r->status != RunStatus::kFinished) break;
      ids.push_back(r->id);
    }
    return ids;
  }
  // Each of the first `batches` batches of a candidate judged alone against
  // its own window (the nearer median when the tests are unsure): GOOD,
  // BAD or UNKNOWN (a batch without a window).
  std::vector<std::string> batch_leanings(std::size_t pos, std::size_t batches) const {
    const std::size_t last = spec_.candidates.size() - 1;
    std::vector<std::string> out;
    for (std::size_t k = 1; k <= batches; ++k) {
      const auto one = [&](const std::string& name) {
        const auto r = store_.runs_table().find_run_by_name(name);
        return r ? bisect_samples(store_, spec_, {r->id}) : std::vector<double>{};
      };
      const auto g = one(window_name(pos, k, 0)), b = one(window_name(pos, k, last)), x = one(run_name(pos, k));
      out.emplace_back(g.empty() || b.empty() || x.empty()
                           ? "UNKNOWN"
                           : std::string(verdict_name(decide_at_cap(judge(g, b, x, verdict_)).verdict)));
    }
    return out;
  }

  bool last_is_unknown_at(std::size_t pos, std::size_t n) const {
    const auto ds = store_.bisect_log().bisect_decisions(id_);
    for (auto it = ds.rbegin(); it != ds.rend(); ++it)
      if (it->position == static_cast<int>(pos))
        return it->verdict == "UNKNOWN" && it->n == static_cast<int>(n);
    return false;
  }

  static std::string p_text(const PValue& p) { return p.p ? fmt::format("{:.3g}", *p.p) : "n/a"; }

  json decision_of(std::size_t pos) const {
    const auto ds = store_.bisect_log().bisect_decisions(id_);
    for (auto it = ds.rbegin(); it != ds.rend(); ++it)
      if (it->position == static_cast<int>(pos)) {
        const auto flip = it->note.find("its batches flipped: ");
        return {{"verdict", it->verdict},
                {"decided_by", it->decided_by},
                {"flipped", flip == std::string::npos ? json(nullptr) : json(it->note.substr(flip + 21))},
                {"error_rates", it->error_rates.empty() ? json(nullptr) : json(it->error_rates)}};
      }
    return nullptr;
  }

  void finish(const SearchStep& step, const std::vector<CandidateState>& states) {
    json skipped = json::array();
    for (std::size_t i = step.last_good + 1; i < step.first_bad; ++i)
      skipped.push_back(spec_.candidates[i]);
    // Measured: candidates (not the references) with at least one batch run.
    int measured = 0, skips = 0;
    for (std::size_t i = 1; i + 1 < states.size(); ++i) {
      if (!finished_runs(i).empty()) ++measured;
      if (states[i] == CandidateState::kSkipped) ++skips;
    }
    const json result = {{"first_bad", step.first_bad},
                         {"last_good", step.last_good},
                         {"first_bad_candidate", spec_.candidates[step.first_bad]},
                         {"last_good_candidate", spec_.candidates[step.last_good]},
                         {"skipped_between", skipped},
                         {"measured_candidates", measured},
                         {"skipped_candidates", skips},
                         // How the two ends were decided: a verdict forced at the cap by
                         // the nearer median, or a candidate whose batches disagreed, is
                         // said in the result line, never passed off as a test's.
                         {"first_bad_decision", decision_of(step.first_bad)},
                         {"last_good_decision", decision_of(step.last_good)},
                         // What every test verdict of the search held: alpha spent
                         // across each candidate's looks.
                         {"error_rates", error_rates_statement(spec_)}};
    store_.bisect_log().set_bisect_status(id_, BisectStatus::kDone, result.dump());
  }

  Store& store_;
  std::int64_t id_;
  DriveOptions options_;
  BisectSpec spec_;
  VerdictOptions verdict_;
};

}  // namespace

BisectOutcome drive_bisect(Store& store, std::int64_t session_id, const DriveOptions& options) {
  return Driver(store, session_id, options).run();
}

}  // namespace schedlab
