#include "runner/run/executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "base/message.h"
#include "base/text.h"
#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/point_stops_table.h"
#include "results/runs_table.h"
#include "results/variants_table.h"
#include "runner/hosts/interrupt.h"
#include "runner/knobs/knobs.h"
#include "runner/knobs/task_policies.h"
#include "runner/monitors/monitor_runner.h"
#include "runner/run/adaptive.h"
#include "runner/run/iteration_output.h"
#include "runner/run/leftovers.h"
#include "runner/run/manifest.h"
#include "runner/run/policy_check.h"
#include "runner/run/preflight.h"
#include "runner/run/progress.h"
#include "runner/run/resume.h"
#include "runner/run/run_record.h"
#include "runner/run/sequential_stop.h"
#include "runner/run/step_context.h"

namespace schedlab {
namespace {

class Execution {
 public:
  explicit Execution(const RunContext& ctx)
      : ctx_(ctx),
        store_(ctx.store),
        pair_(ctx.pair),
        config_(ctx.config),
        plan_(ctx.plan),
        progress_(ctx.options.progress, progress_slots(ctx.plan), [] { return terminal_width(2); }),
        pair_name_(ctx.options.pair),
        check_policies_(
            std::any_of(ctx.plan.variants.begin(), ctx.plan.variants.end(),
                        [](const auto* v) { return process_knobs(v->knobs).claims_policy(); })) {
    // The pairs the variants run on: one, or one guest per kernel when
    // kernels are columns (kernel_columns.h), the baseline's first.
    pairs_.push_back(&ctx.pair);
    for (std::size_t v = 0; v < ctx.plan.variants.size(); ++v) {
      const Pair* p = &ctx.pair_of(v);
      auto at = std::find(pairs_.begin(), pairs_.end(), p);
      if (at == pairs_.end()) at = pairs_.insert(pairs_.end(), p);
      pair_index_.push_back(static_cast<std::size_t>(at - pairs_.begin()));
    }
    sut_facts_.resize(pairs_.size());
  }

  RunSummary run() {
    open_run(ctx_.options);
    if (ctx_.sut_lock)
      ctx_.sut_lock->describe_as(fmt::format("run {} '{}'", summary_.run_id, summary_.name));
    std::optional<RunAlive> alive;  // `list` tells a dead run by it
    const EmergencyAction emergency = emergency_restore();
    RunStatus status = RunStatus::kFinished;
    try {
      alive.emplace(store_.path(), summary_.run_id);  // refused: the run fails, saying why
      try_knobs(ctx_, summary_.run_id);  // every variant's knobs take, before the baseline
      KnobsRestored restored(*this);
      start_monitors();
      for (std::size_t w = 0; w < config_.workloads.size() && !interrupted(); ++w) run_workload(w);
      restored.now();
      if (interrupted()) status = RunStatus::kInterrupted;
    } catch (...) {
      record_state_after(store_.runs_table(), pair_.sut, summary_.run_id, pair_name_);
      if (pair_name_.empty()) store_.runs_table().set_run_status(summary_.run_id, RunStatus::kFailed, true);
      throw;
    }
    record_state_after(store_.runs_table(), pair_.sut, summary_.run_id, pair_name_);
    if (pair_name_.empty()) store_.runs_table().set_run_status(summary_.run_id, status, true);
    summary_.status = status;
    return summary_;
  }

 private:
  // The variant's knobs, then the monitors' sysctls, put back on every way
  // out of a run: now() at the normal end (a failed restore throws and the
  // run fails), the destructor on an error or interrupt, before the run's
  // final status is written.
  class KnobsRestored {
   public:
    explicit KnobsRestored(Execution& e) : e_(e) {}
    ~KnobsRestored() {
      if (done_) return;
      try {
        e_.switch_off_knobs();
      } catch (...) {
        // Still journaled; `schedlab restore` puts it back.
      }
      try {
        e_.stop_monitors();
      } catch (...) {
        // Same: journaled.
      }
    }
    KnobsRestored(const KnobsRestored&) = delete;
    KnobsRestored& operator=(const KnobsRestored&) = delete;
    void now() {
      e_.switch_off_knobs();
      e_.stop_monitors();
      done_ = true;
    }

   private:
    Execution& e_;
    bool done_ = false;
  };

  // A second signal: put back every journaled knob of the SUT and mark the
  // run interrupted, on the emergency thread with its own connection. The
  // knob lock is taken and never released (the process exits next), so no
  // write of this thread lands after the restore.
  EmergencyAction emergency_restore() {
    std::vector<Host*> suts;
    for (const Pair* p : pairs_) suts.push_back(&p->sut);
    return EmergencyAction([path = store_.path(), run = summary_.run_id, suts] {
      if (!knob_write_lock().try_lock_for(std::chrono::seconds(5)))
        print_message("schedlab: a knob write is stuck; restoring anyway\n");
      Store store(path);
      for (Host* sut : suts)
        for (const auto& line : restore_journal(store.journal(), *sut))
          print_message(fmt::format("schedlab: {}: {}\n", sut->name(), line));
      store.runs_table().set_run_status(run, RunStatus::kInterrupted, true);
    });
  }

  void open_run(const ExecOptions& options) {
    if (options.resume_run) {
      auto run = store_.runs_table().find_run(*options.resume_run);
      if (!run) throw PreflightError(fmt::format("no run {} in {}", *options.resume_run, store_.path()));
      summary_.run_id = run->id;
      summary_.name = run->name;
      variant_ids_ = stored_variant_ids(store_.variants_table(), run->id, plan_);
      history_ = stored_point_states(store_.iterations_table(), run->id, plan_, pair_name_);
      stored_stops_ = stored_point_stops(store_.point_stops_table(), run->id);
      for (std::size_t i = 0; i < plan_.points.size(); ++i)
        for (std::size_t v = 0; v < plan_.variants.size(); ++v)
          progress_.already_done(i, state(plan_.points[i], v).attempted);
      if (pair_name_.empty())
        store_.runs_table().set_run_status(run->id, RunStatus::kRunning, false);
      else
        record_pair_manifest(ctx_, *run);
      return;
    }
    summary_.name = options.name;
    // Kernels as columns: the other guests' facts asked (a thread each,
    // reads only) while the first one's manifest and state are read. One
    // that fails is asked again by ask_suts, which says why.
    std::vector<std::future<void>> others;
    for (std::size_t i = 1; i < pairs_.size(); ++i)
      others.push_back(std::async(std::launch::async, [this, i] {
        try {
          sut_facts_[i] = sut_step_context(*pairs_[i]);
        } catch (const std::exception&) {
        }
      }));
    nlohmann::json manifest = sut_manifest(ctx_);
    for (auto& f : others) f.get();
    manifest.update(options.manifest);
    summary_.run_id = create_run_record(store_, config_, plan_, options.name, manifest.dump());
    for (const auto& v : store_.variants_table().variants(summary_.run_id))
      variant_ids_.push_back(v.id);
  }

  // Knobs: one journal for the active variant; switching variants restores
  // the previous one's knobs first.
  void switch_to(std::size_t v) {
    if (active_ == v) return;
    switch_off_knobs();
    journal_.emplace(store_.journal(), ctx_.pair_of(v).sut, summary_.run_id);
    active_ = v;
    journal_->apply_variant(plan_.variants[v]->knobs);
  }

  void switch_off_knobs() {
    if (journal_) {
      journal_->restore_all();
      journal_.reset();
    }
    active_.reset();
  }

  void run_workload(std::size_t w) {
    const WorkloadConfig& wc = config_.workloads[w];
    std::vector<const PlanPoint*> points;
    for (const auto& p : plan_.points)
      if (p.workload_index == w) points.push_back(&p);
    if (points.empty()) return;
    if (std::all_of(points.begin(), points.end(), [&](auto* p) { return complete(*p); })) {
      summary_.skipped += static_cast<int>(points.size());
      for (const PlanPoint* p : points) progress_.point_done(index_of(*p));
      return;
    }
    const Workload& workload = *wc.workload;
    const Point& first = points.front()->point;
    // The workload's setup on each pair (one guest per kernel when kernels
    // are columns), and its teardown on every way out, after Ctrl-C too;
    // then the work directories go.
    std::vector<std::unique_ptr<Side>> sides;
    struct Teardown {
      Execution& e;
      const Workload& w;
      const Point& p;
      std::vector<std::unique_ptr<Side>>& sides;
      ~Teardown() {
        for (auto& side : sides) e.tear_down(*side, w, p);
      }
    } teardown{*this, workload, first, sides};
    const auto ports = ask_suts(wc.workload->ports());
    for (std::size_t i = 0; i < pairs_.size(); ++i) {
      const Pair& pair = *pairs_[i];
      auto side = std::make_unique<Side>(pair, store_.journal(), summary_.run_id);
      side->ctx = *sut_facts_[i];
      side->ctx.ports = ports[i];
      side->ctx.port = side->ctx.ports.front();
      const std::string prefix = fmt::format("/tmp/schedlab-run{}-w{}", summary_.run_id, w);
      side->workdirs =
          make_pair_workdirs(store_.journal(), pair, summary_.run_id,
                             pairs_.size() == 1 ? prefix : fmt::format("{}-k{}", prefix, i));
      side->ctx.workdir = side->workdirs.front().path;
      side->ctx.secret = random_secret();
      sides.push_back(std::move(side));
      const PhaseResult setup =
          sides.back()->lifetime.run(workload.setup_steps(first, sides.back()->ctx), std::nullopt);
      if (!setup.ok()) {
        if (setup.status == PhaseStatus::kInterrupted) return;
        for (const PlanPoint* p : points)
          for (std::size_t v = 0; v < plan_.variants.size(); ++v)
            record_failure(*p, v, IterationStatus::kSetupError, "setup: " + setup.error, setup);
        return;
      }
    }
    std::vector<StepContext> ctxs;
    for (const auto& side : sides) ctxs.push_back(side->ctx);
    for (const PlanPoint* p : points) {
      if (interrupted()) return;
      run_point(*p, ctxs);
      if (!interrupted()) progress_.point_done(index_of(*p));  // stopped early: no more of it
    }
  }

  // Each pair's SUT facts (read once) and `n` free ports on it: every SUT
  // asked at once when there are several (kernels as columns: a round trip
  // to an emulated guest costs a tenth of a second), a thread each for
  // reads only; the journal's writes stay on this thread.
  std::vector<std::vector<int>> ask_suts(int n) {
    std::vector<std::vector<int>> ports(pairs_.size());
    const auto ask = [&](std::size_t i) {
      if (!sut_facts_[i]) sut_facts_[i] = sut_step_context(*pairs_[i]);
      ports[i] = pairs_[i]->sut.free_ports(n);
    };
    if (pairs_.size() == 1) {
      ask(0);
      return ports;
    }
    std::vector<std::future<void>> asked;
    for (std::size_t i = 0; i < pairs_.size(); ++i)
      asked.push_back(std::async(std::launch::async, ask, i));
    for (auto& a : asked) a.get();  // the first error, once every SUT answered
    return ports;
  }

  // One pair's part of a workload: its step context, work directories and
  // the steps that live as long as the workload.
  struct Side {
    Side(const Pair& p, KnobJournalTable& journal, std::int64_t run) : pair(p), lifetime(p, journal, run) {}
    const Pair& pair;
    StepContext ctx;
    std::vector<Workdir> workdirs;
    StepRunner lifetime;
  };

  void tear_down(Side& side, const Workload& w, const Point& p) noexcept {
    try {
      side.lifetime.run(w.teardown_steps(p, side.ctx), std::nullopt, false);
      side.lifetime.stop_background();
    } catch (...) {
    }
    for (std::size_t i = 0; i < side.workdirs.size(); ++i) {
      // keep: true leaves the work directory (and the database in it):
      // no longer a leftover for restore to remove.
      if (w.keeps_workdir(p)) {
        try {
          store_.journal().journal_restored(side.workdirs[i].entry);
        } catch (...) {
        }
        continue;
      }
      try {
        remove_workdir(store_.journal(), i == 0 ? side.pair.sut : side.pair.loadgen, side.workdirs[i]);
      } catch (...) {
      }
    }
  }

  bool complete(const PlanPoint& p) {
    if (p.iterations.sequential) {
      // Done once the baseline's row says the point stopped.
      const auto row = stored_stops_.find({variant_ids_[0], p.workload->workload->name(), p.params_json});
      return row != stored_stops_.end() && row->second.reason != "looking";
    }
    for (std::size_t v = 0; v < plan_.variants.size(); ++v) {
      PointState& s = state(p, v);
      if (!should_stop(p.iterations, s.ok, s.attempted, primary_metric(p).centre).stop) return false;
    }
    return true;
  }

  std::size_t index_of(const PlanPoint& p) const { return static_cast<std::size_t>(&p - plan_.points.data()); }
  static const MetricSpec& primary_metric(const PlanPoint& p) {
    return p.workload->workload->primary_metric(p.point);
  }

  PointState& state(const PlanPoint& p, std::size_t v) {
    return history_[{variant_ids_[v], p.workload->workload->name(), p.params_json}];
  }

  // `ctxs`: each pair's step context (ctx_of picks a variant's).
  void run_point(const PlanPoint& p, const std::vector<StepContext>& ctxs) {
    if (p.iterations.sequential) return run_sequential_point(p, ctxs);
    const MetricSpec& metric = primary_metric(p);
    auto decide = [&](std::size_t v) {
      PointState& s = state(p, v);
      if (s.stopped) return true;
      const StopDecision d = should_stop(p.iterations, s.ok, s.attempted, metric.centre);
      if (d.stop) {
        s.stopped = true;
        store_.point_stops_table().record_point_stop({summary_.run_id, variant_ids_[v],
                                                      p.workload->workload->name(), p.params_json,
                                                      s.attempted, d.reason, d.halfwidth_pct});
      }
      return d.stop;
    };
    bool all_done = false;
    while (!all_done && !interrupted()) {
      all_done = true;
      for (std::size_t v = 0; v < plan_.variants.size() && !interrupted(); ++v) {
        if (decide(v)) continue;
        all_done = false;
        // One iteration per variant per round when interleaved; the whole
        // variant at once when sequential.
        run_segment(p, v, ctx_of(ctxs, v),
                    plan_.order == Order::kInterleaved ? 1 : p.iterations.max);
        decide(v);
      }
    }
  }

  // stop: sequential: rounds of one iteration per variant still measured
  // (interleaved), then each test's look; a variant whose test stopped is
  // measured no more, and the point ends when every test has stopped. Each
  // look's state is stored as it is taken (a resumed run continues it).
  void run_sequential_point(const PlanPoint& p, const std::vector<StepContext>& ctxs) {
    const std::string& workload = p.workload->workload->name();
    const std::size_t n = plan_.variants.size();
    std::vector<std::optional<PointStop>> stored(n);
    for (std::size_t v = 0; v < n; ++v)
      if (const auto row = stored_stops_.find({variant_ids_[v], workload, p.params_json}); row != stored_stops_.end())
        stored[v] = row->second;
    // A stored test that cannot go on (crafted or damaged looks) is named by
    // its run and point, not only by what was wrong with it.
    SequentialPoint point = [&] {
      try {
        return SequentialPoint(p.iterations, primary_metric(p), n, stored);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("run {} '{}', {}: its stored sequential test: {}",
                                                summary_.run_id, terminal_safe(summary_.name),
                                                terminal_safe(p.describe()), e.what()));
      }
    }();
    const bool baseline_stored = stored[0] && stored[0]->reason != "looking";
    auto save = [&](std::size_t v) {
      const PointState& s = state(p, v);
      PointStop row{.run_id = summary_.run_id,
                    .variant_id = variant_ids_[v],
                    .workload = workload,
                    .params_json = p.params_json,
                    .iterations = s.attempted,
                    .reason = point.reason(v),
                    .sequential = point.record(v)};
      store_.point_stops_table().record_point_stop(row);
      stored_stops_[{variant_ids_[v], workload, p.params_json}] = std::move(row);
    };
    // Every test stopped before an interruption kept the baseline's row.
    if (point.done() && !baseline_stored) save(0);
    while (!point.done() && !interrupted()) {
      // A round brings every variant still measured one iteration further;
      // one an interruption cut short (a resumed run) is completed first,
      // so the looks come where they would have come.
      int top = 0;
      for (std::size_t v = 0; v < n; ++v)
        if (point.measuring(v)) top = std::max(top, state(p, v).attempted);
      bool uneven = false;
      for (std::size_t v = 0; v < n; ++v) uneven = uneven || (point.measuring(v) && state(p, v).attempted < top);
      for (std::size_t v = 0; v < n && !interrupted(); ++v)
        if (point.measuring(v) && (!uneven || state(p, v).attempted < top))
          run_segment(p, v, ctx_of(ctxs, v), 1);
      if (interrupted()) return;  // a partial round is looked at when the run resumes
      std::vector<std::vector<double>> units;
      std::vector<int> attempted;
      for (std::size_t v = 0; v < n; ++v) {
        units.push_back(state(p, v).ok);
        attempted.push_back(state(p, v).attempted);
      }
      for (const std::size_t v : point.after_round(units, attempted)) save(v);
    }
  }

  const StepContext& ctx_of(const std::vector<StepContext>& ctxs, std::size_t v) const {
    return ctxs.at(pair_index_.at(v));
  }

  // Point setup (servers under the variant's knobs), up to `count`
  // iterations, point teardown. Kernels as columns: a guest that dies (or
  // that SSH no longer reaches) fails its variant's iteration with the
  // reason (the guest's last console lines), and the other guests go on.
  void run_segment(const PlanPoint& p, std::size_t v, const StepContext& ctx, int count) {
    if (pairs_.size() == 1) return measure_segment(p, v, ctx, count);
    const int before = state(p, v).attempted;
    try {
      measure_segment(p, v, ctx, count);
    } catch (const HostError& e) {
      // Once per segment: an error after its iteration was stored (point
      // teardown) fails the next one, when the guest answers no more.
      if (state(p, v).attempted == before)
        record_failure(p, v, IterationStatus::kFailed, e.what(), PhaseResult{});
    }
  }

  void measure_segment(const PlanPoint& p, std::size_t v, const StepContext& ctx, int count) {
    const Workload& w = *p.workload->workload;
    const VariantConfig& variant = *plan_.variants[v];
    switch_to(v);
    StepRunner servers(ctx_.pair_of(v), store_.journal(), summary_.run_id);
    const PhaseResult setup =
        servers.run(w.point_setup_steps(p.point, ctx), process_knobs(variant.knobs));
    if (!setup.ok()) {
      if (setup.status != PhaseStatus::kInterrupted)
        record_failure(p, v,
                       setup.status == PhaseStatus::kNotReady ? IterationStatus::kNotReady
                                                              : IterationStatus::kSetupError,
                       "point setup: " + setup.error, setup);
      servers.run(w.point_teardown_steps(p.point, ctx), process_knobs(variant.knobs), false);
      return;
    }
    for (int i = 0; i < count && !interrupted(); ++i) {
      PointState& s = state(p, v);
      if (i > 0 && should_stop(p.iterations, s.ok, s.attempted, primary_metric(p).centre).stop) break;
      run_iteration(p, v, ctx, servers.groups());
    }
    servers.run(w.point_teardown_steps(p.point, ctx), process_knobs(variant.knobs), false);
  }

  // `servers`: the groups of the point's servers (policy check).
  void run_iteration(const PlanPoint& p, std::size_t v, const StepContext& ctx,
                     const std::vector<StepRunner::Group>& servers) {
    const Workload& w = *p.workload->workload;
    const VariantConfig& variant = *plan_.variants[v];
    const ProcessKnobs knobs = process_knobs(variant.knobs);
    PointState& s = state(p, v);
    progress_.show(fmt::format("{} variant={} iter {}", p.describe(), variant.name, s.next_index + 1));
    // Threads of a server schedlab did not start get the variant's policy
    // now and their own back at the end (journaled meanwhile).
    std::optional<TaskPolicies> named;
    if (knobs.tasks) {
      named.emplace(store_.journal(), ctx_.pair_of(v).sut, summary_.run_id);
      std::string why;
      try {
        why = named->apply(knobs.tasks->comm, knobs.tasks->policy.policy).value_or("");
      } catch (const std::exception& e) {
        why = e.what();
      }
      if (!why.empty()) {
        named.reset();  // puts back what was set before the failure
        return record_failure(p, v, IterationStatus::kSetupError, why, PhaseResult{});
      }
    }
    std::optional<PolicyWatch> watch;
    if (check_policies_) {
      watch.emplace(ctx_.pair_of(v), knobs, policy_comms(w, p.point, ctx), servers, ctx.workdir);
      try {
        watch->start();
      } catch (const std::exception& e) {
        return record_failure(p, v, IterationStatus::kSetupError,
                              fmt::format("policy check: {}", e.what()), PhaseResult{});
      }
    }
    IterationRow row = base_row(p, v);
    // Counter snapshots right around the measured steps (servers are up).
    MonitorRunner* monitors = monitors_.empty() ? nullptr : monitors_.at(pair_index_.at(v)).get();
    const auto monitored = monitors ? monitors->before(*p.workload, p.point, ctx)
                                    : std::vector<MonitorRunner::Snapshot>{};
    const auto start = ctx_.clock.now();
    StepRunner steps(ctx_.pair_of(v), store_.journal(), summary_.run_id);
    if (watch) steps.on_group([&](const StepRunner::Group& g) { watch->add_group(g); });
    const PhaseResult r = steps.run(w.iteration_steps(p.point, ctx), knobs);
    // The policy every task had, read while the servers still run.
    std::optional<PolicyCheckResult> checked;
    std::string check_error;
    const auto check_start = ctx_.clock.now();  // the check's time is not the iteration's
    if (watch && r.status != PhaseStatus::kInterrupted) {
      try {
        checked = watch->finish(steps.groups());
        check_error = checked->error();
      } catch (const std::exception& e) {
        check_error = fmt::format("policy check: cannot read the tasks' policies: {}", e.what());
      }
    }
    const auto check_took = ctx_.clock.now() - check_start;
    steps.stop_background();
    if (named) named->restore();  // a failure ends the run: the journal keeps the rest
    if (r.status == PhaseStatus::kInterrupted) return;  // not stored: resume runs it again
    row.duration_s = std::chrono::duration<double>(ctx_.clock.now() - start - check_took).count();
    if (monitors) monitors->after(monitored, row);
    row.stdout_text = r.out;
    row.stderr_text = r.err;
    row.exit_code = r.exit_code;
    row.status = stored_status(r.status);
    row.error = r.error;
    if (r.ok() && !check_error.empty()) {
      row.status = IterationStatus::kFailed;
      row.error = check_error;
    } else if (r.ok()) {
      judge_into(row, w, p.point, r.out, r.err);
    }
    if (checked) record_policy_check(variant.name, knobs, *checked);
    store(p, v, std::move(row));
  }

  // The names the workload's tasks go by: its task names and the programs
  // of its servers and measured steps.
  static std::vector<std::string> policy_comms(const Workload& w, const Point& p,
                                               const StepContext& ctx) {
    std::vector<std::string> names = w.task_names(p, ctx);
    for (const auto& st : w.point_setup_steps(p, ctx))
      if (st.background) names.push_back(st.argv.front());
    for (const auto& st : w.iteration_steps(p, ctx))
      if (st.measured || st.background) names.push_back(st.argv.front());
    return names;
  }

  // The manifest's "policy_checks": per variant, what it claimed and what
  // the checks found so far (written after each iteration: an interrupted
  // run keeps its record).
  void record_policy_check(const std::string& variant, const ProcessKnobs& knobs,
                           const PolicyCheckResult& checked) {
    add_to_record(policy_checks_[variant], knobs, checked);
    std::vector<std::string> keys = {"policy_checks"};
    if (!pair_name_.empty()) keys = {"pairs", pair_name_, "policy_checks"};
    store_.runs_table().set_manifest_member(summary_.run_id, keys, policy_checks_.dump());
  }

  // Monitors: probed and their sysctls applied (run-level journal) before
  // any variant's knobs; restored after the variants' (see monitor_runner.h).
  void start_monitors() {
    for (const Pair* pair : pairs_) {
      monitors_.push_back(std::make_unique<MonitorRunner>(store_.runs_table(), store_.journal(), pair->sut, summary_.run_id));
      monitors_.back()->start(config_);
    }
  }
  void stop_monitors() {
    for (auto& m : monitors_) m->stop();
  }

  IterationRow base_row(const PlanPoint& p, std::size_t v) {
    IterationRow row;
    row.run_id = summary_.run_id;
    row.variant_id = variant_ids_[v];
    row.pair = pair_name_;
    row.workload = p.workload->workload->name();
    row.block = p.block;
    row.row = p.row;
    row.row_order = p.row_order;
    row.params_json = p.params_json;
    row.iteration = state(p, v).next_index;
    row.started_at = ctx_.clock.utc_now();
    return row;
  }

  void record_failure(const PlanPoint& p, std::size_t v, IterationStatus status,
                      const std::string& error, const PhaseResult& r) {
    IterationRow row = base_row(p, v);
    row.status = status;
    row.error = error;
    row.stdout_text = r.out;
    row.stderr_text = r.err;
    store(p, v, std::move(row));
  }

  void store(const PlanPoint& p, std::size_t v, IterationRow row) {
    store_.iterations_table().add_iteration(row);
    PointState& s = state(p, v);
    ++s.attempted;
    s.next_index = row.iteration + 1;
    ++summary_.measured;
    progress_.measured(index_of(p), row.duration_s);
    if (row.status == IterationStatus::kOk) {
      if (const auto unit = iteration_unit(primary_metric(p), row.samples))
        s.ok.push_back(*unit);
      return;
    }
    if (row.status == IterationStatus::kUnsupported) return;  // n/a, not a failure
    ++summary_.failed;
    summary_.errors.push_back(fmt::format("{} variant={} iteration {}: {}", p.describe(),
                                          plan_.variants[v]->name, row.iteration + 1, row.error));
  }

  const RunContext& ctx_;
  Store& store_;
  const Pair& pair_;
  const Config& config_;
  const Plan& plan_;
  Progress progress_;
  std::string pair_name_;  // empty unless one pair of a pairs: run
  RunSummary summary_;
  std::vector<std::int64_t> variant_ids_;
  std::map<PointKey, PointState> history_;
  // This run's stop rows (sequential tests resume from them).
  std::map<PointKey, PointStop> stored_stops_;
  // Before journal_: destroyed after it, so knobs unwind newest first.
  std::vector<std::unique_ptr<MonitorRunner>> monitors_;  // one per pair
  std::optional<KnobJournal> journal_;
  std::optional<std::size_t> active_;
  // What steps may need to know about each pair's SUT, read once.
  std::vector<std::optional<StepContext>> sut_facts_;
  std::vector<const Pair*> pairs_;       // distinct, the baseline's first
  std::vector<std::size_t> pair_index_;  // per variant: into pairs_
  // When any variant claims a policy, every variant's measured phases are
  // watched (the same load on each) and the claims checked.
  bool check_policies_ = false;
  nlohmann::json policy_checks_ = nlohmann::json::object();
};

}  // namespace

RunSummary execute(const RunContext& ctx) {
  Execution e(ctx);
  return e.run();
}

}  // namespace schedlab
