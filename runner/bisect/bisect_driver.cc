#include "runner/bisect/bisect_driver.h"

#include <fmt/format.h>

#include "base/message.h"
#include "base/text.h"
#include "results/bisect_log.h"
#include "results/runs_table.h"
#include "runner/bisect/bisect_samples.h"
#include "runner/bisect/bisect_stored.h"

namespace schedlab {

using nlohmann::json;

BisectDriver::BisectDriver(Store& store, std::int64_t id, const DriveOptions& options)
    : store_(store), id_(id), options_(options) {
  const auto session = store.bisect_log().find_bisect(id);
  if (!session) throw BisectError(fmt::format("no bisection {} in {}", id, store.path()));
  if (session->status != BisectStatus::kRunning)
    throw BisectError(
        fmt::format("bisection {} is {}, not running", id, to_string(session->status)));
  spec_ = load_bisection(store.bisect_log(), *session).spec;
  // The labels only name candidates in the lines below (the stored spec keeps
  // them as they were): a commit's subject with an escape sequence must not
  // retitle or clear the terminal of whoever runs the bisection.
  for (auto& label : spec_.labels) label = terminal_safe(label);
  verdict_.test = spec_.test;
  verdict_.alpha = spec_.alpha;
  verdict_.min_effect_pct = spec_.min_effect_pct;
}

BisectOutcome BisectDriver::run() {
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
    print_message(
        fmt::format("schedlab bisect: references not yet different ({}); another batch each\n",
                    check.describe()));
    for (const std::size_t ref : {std::size_t{0}, last})
      if (samples(ref).size() < cap)
        if (const auto r = reference_batch(ref)) return *r;
  }
  for (const std::size_t ref : {std::size_t{0}, last})
    if (!has_decision(ref)) record_reference(ref);
  const auto good = samples(0), bad = samples(last);
  if (!check.differ) {
    print_message(
        fmt::format("schedlab bisect: the good and bad references are not significantly different "
                    "({} at alpha {}): {}; nothing to bisect\n",
                    verdict_test_title(spec_.test), spec_.alpha, check.describe()));
    return refuse("references not different", check);
  }
  // The references must differ the way a regression does: a "bad"
  // kernel measured better than the good one has nothing to find.
  const Direction direction =
      bisect_metric_direction(store_.metrics_table(), spec_, finished_runs(0));
  if (spec_.direction != "either" && check.good_centre && check.bad_centre) {
    const bool worse = direction == Direction::kHigherIsBetter
                           ? *check.bad_centre < *check.good_centre
                           : *check.bad_centre > *check.good_centre;
    if (!worse) {
      fmt::print(
          stderr, "{}",
          wrap_words(fmt::format(
              "schedlab bisect: the bad reference is better than the good one ({} is better: {}): "
              "nothing regressed between them; --direction either bisects a change either way\n",
              to_string(direction), check.describe())));
      return refuse("bad reference better than good", check, {{"direction", to_string(direction)}});
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
    print_message(
        fmt::format("schedlab bisect: candidate {}/{} {} ({} untested left in the range)\n",
                    *step.next, last, spec_.labels[*step.next], remaining(states)));
    if (!measure_candidate(*step.next, good, bad)) return BisectOutcome::kInterrupted;
    ++decided;
  }
}

// The session refused, with the references' numbers as its result (null,
// not 0, where a centre is undefined).
BisectOutcome BisectDriver::refuse(const std::string& reason, const ReferenceCheck& check,
                                   json extra) {
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

void BisectDriver::finish(const SearchStep& step, const std::vector<CandidateState>& states) {
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

json BisectDriver::decision_of(std::size_t pos) const {
  const auto ds = store_.bisect_log().bisect_decisions(id_);
  for (auto it = ds.rbegin(); it != ds.rend(); ++it)
    if (it->position == static_cast<int>(pos)) {
      const auto flip = it->note.find("its batches flipped: ");
      return {
          {"verdict", it->verdict},
          {"decided_by", it->decided_by},
          {"flipped", flip == std::string::npos ? json(nullptr) : json(it->note.substr(flip + 21))},
          {"error_rates", it->error_rates.empty() ? json(nullptr) : json(it->error_rates)}};
    }
  return nullptr;
}

std::string BisectDriver::run_name(std::size_t pos, std::size_t batch) const {
  return fmt::format("bisect{}-c{}-b{}", id_, pos, batch);
}

std::string BisectDriver::window_name(std::size_t pos, std::size_t batch, std::size_t ref) const {
  return fmt::format("bisect{}-c{}-b{}-ref{}", id_, pos, batch, ref);
}

// The finished batch runs of a candidate, in order.
std::vector<std::int64_t> BisectDriver::finished_runs(std::size_t pos) const {
  std::vector<std::int64_t> ids;
  for (std::size_t k = 1;; ++k) {
    const auto r = store_.runs_table().find_run_by_name(run_name(pos, k));
    if (!r || r->status != RunStatus::kFinished) break;
    ids.push_back(r->id);
  }
  return ids;
}

// The finished runs of reference `ref` measured beside candidate `pos`,
// a batch each, in order.
std::vector<std::int64_t> BisectDriver::window_runs(std::size_t pos, std::size_t ref) const {
  std::vector<std::int64_t> ids;
  for (std::size_t k = 1;; ++k) {
    const auto r = store_.runs_table().find_run_by_name(window_name(pos, k, ref));
    if (!r || r->status != RunStatus::kFinished) break;
    ids.push_back(r->id);
  }
  return ids;
}

bool BisectDriver::finished(const std::string& name) const {
  const auto r = store_.runs_table().find_run_by_name(name);
  return r && r->status == RunStatus::kFinished;
}

std::string BisectDriver::runs_json(std::size_t pos) const {
  return json(finished_runs(pos)).dump();
}

std::vector<double> BisectDriver::samples(std::size_t pos) const {
  return bisect_samples(store_, spec_, finished_runs(pos));
}

bool BisectDriver::has_decision(std::size_t pos) const {
  for (const auto& d : store_.bisect_log().bisect_decisions(id_))
    if (d.position == static_cast<int>(pos)) return true;
  return false;
}

// The centre the metric declared, as stored with the runs.
Centre BisectDriver::metric_centre(std::size_t pos) const {
  return bisect_metric_centre(store_.metrics_table(), spec_, finished_runs(pos));
}

BisectOutcome drive_bisect(Store& store, std::int64_t session_id, const DriveOptions& options) {
  return BisectDriver(store, session_id, options).run();
}

}  // namespace schedlab
