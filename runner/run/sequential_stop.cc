#include "runner/run/sequential_stop.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "base/json_data.h"

namespace schedlab {
namespace {

// A stored look's n (iterations a side; a harmonic mean when the sides
// differ) is within the cap (hostile9: a crafted n of 1e300 let no later
// look be taken, so the test said "undecided, n 3 vs 3" over 20 a side).
std::vector<SequentialTest::PastLook> past_looks(const std::string& looks_json, int max) {
  const auto j = parse_json_data(looks_json);
  if (!j.is_array()) throw std::invalid_argument("the stored looks are not a JSON array");
  std::vector<SequentialTest::PastLook> out;
  for (const auto& l : j) {
    if (!l.is_object() || !l.contains("n") || !l.contains("fraction") || !l.contains("needed_n") ||
        !l["n"].is_number() || !l["fraction"].is_number() || !l["needed_n"].is_number())
      throw std::invalid_argument("a stored look lacks n, fraction or needed_n");
    const SequentialTest::PastLook at{l["n"].get<double>(), l["fraction"].get<double>(),
                                      l["needed_n"].get<double>()};
    if (!(at.n > 0 && at.n <= static_cast<double>(max)))
      throw std::invalid_argument(fmt::format(
          "a past look's n {:g} is not within the cap of {} iterations a side", at.n, max));
    out.push_back(at);
  }
  return out;
}

std::string looks_json(const std::vector<SequentialTest::PastLook>& looks) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& l : looks) j.push_back({{"n", l.n}, {"fraction", l.fraction}, {"needed_n", l.needed_n}});
  return j.dump();
}

}  // namespace

std::string SequentialPoint::design_json(const IterationPolicy& policy) {
  const SequentialDesign& d = policy.sequential->design;
  nlohmann::json j{
      {"alpha", d.alpha},  {"power", d.power},  {"min_effect_pct", d.min_effect_pct},
      {"min", policy.min}, {"max", policy.max}, {"spending", gs::spending_name(d.spending)}};
  if (d.plan_cv_pct > 0) j["plan_cv_pct"] = d.plan_cv_pct;  // the looks' stated CV
  return j.dump();
}

SequentialPoint::SequentialPoint(const IterationPolicy& policy, const MetricSpec& metric,
                                 std::size_t variants, const std::vector<std::optional<PointStop>>& stored)
    : policy_(policy), metric_(metric), states_(variants) {
  if (!policy.sequential) throw std::invalid_argument("the point has no stop: sequential");
  const SequentialPlan plan = plan_sequential(policy.sequential->design);
  const bool higher = metric.direction == Direction::kHigherIsBetter;
  for (std::size_t v = 1; v < variants; ++v) {
    State& s = states_[v];
    const PointStop* row = v < stored.size() && stored[v] ? &*stored[v] : nullptr;
    if (row && row->reason != "looking") {
      // Stopped before the interruption: measured no more.
      s.stopped = true;
      s.reason = row->reason;
      s.record = row->sequential;
      continue;
    }
    std::vector<SequentialTest::PastLook> past;
    if (row && row->sequential) {
      past = past_looks(row->sequential->looks_json, policy.max);
      s.record = row->sequential;
    }
    s.test.emplace(plan, metric.centre, higher, past);
  }
  // The baseline measures while any test runs (one variant: never).
  states_[0].stopped = std::all_of(states_.begin() + 1, states_.end(), [](const State& s) { return s.stopped; });
  if (states_[0].stopped)
    states_[0].reason = !stored.empty() && stored[0] && stored[0]->reason != "looking" ? stored[0]->reason
                                                                                       : "tests_stopped";
}

bool SequentialPoint::measuring(std::size_t v) const { return !states_.at(v).stopped; }

bool SequentialPoint::done() const {
  return std::all_of(states_.begin(), states_.end(), [](const State& s) { return s.stopped; });
}

void SequentialPoint::stop(std::size_t v, std::string reason) {
  State& s = states_[v];
  s.stopped = true;
  s.reason = std::move(reason);
}

void SequentialPoint::record_look(std::size_t v, const SequentialLook& look) {
  State& s = states_[v];
  SequentialRecord r = s.record.value_or(SequentialRecord{});
  r.metric = metric_.name;
  r.design_json = design_json(policy_);
  r.decision = std::string(decision_name(look.decision));
  r.looks = static_cast<int>(s.test->looks().size());
  r.n_baseline = static_cast<int>(look.n_base);
  r.n = static_cast<int>(look.n_variant);
  r.p_value = look.p_value;
  r.looks_json = looks_json(s.test->looks());
  try {
    const AdjustedInterval a = s.test->adjusted_interval();
    r.estimate_pct = a.pct_estimate;
    r.ci_low = a.pct.low;
    r.ci_high = a.pct.high;
    r.level = a.level;
  } catch (const std::exception& e) {
    // No interval (the stage-wise search found no root): said, not guessed.
    r.estimate_pct = r.ci_low = r.ci_high = std::nullopt;
    r.note = fmt::format("no adjusted interval: {}", e.what());
  }
  s.record = std::move(r);
}

std::vector<std::size_t> SequentialPoint::after_round(const std::vector<std::vector<double>>& units,
                                                      const std::vector<int>& attempted) {
  std::vector<std::size_t> changed;
  if (done()) return changed;
  const int min = policy_.min, max = policy_.max;
  const bool base_failed = attempted.at(0) >= min && units.at(0).empty();
  for (std::size_t v = 1; v < states_.size(); ++v) {
    State& s = states_[v];
    if (s.stopped) continue;
    // Every iteration failed, on either side: more of them decide nothing.
    if (base_failed || (attempted.at(v) >= min && units.at(v).empty())) {
      if (!s.record) s.record = SequentialRecord{.metric = metric_.name, .decision = "undecided",
                                                 .design_json = design_json(policy_)};
      s.record->note = base_failed ? "every baseline iteration failed" : "every iteration failed";
      stop(v, "failed");
      changed.push_back(v);
      continue;
    }
    const bool last = attempted.at(v) >= max || attempted.at(0) >= max;
    SequentialLook look;
    try {
      look = s.test->look(units.at(0), units.at(v), last);
    } catch (const std::invalid_argument& e) {
      // Samples the test cannot take (a zero under hmean): stopped, said why.
      if (!s.record) s.record = SequentialRecord{.metric = metric_.name, .decision = "undecided",
                                                 .design_json = design_json(policy_)};
      s.record->note = e.what();
      stop(v, "refused");
      changed.push_back(v);
      continue;
    }
    if (look.analysed) record_look(v, look);
    if (s.test->finished()) {
      if (!s.record) s.record = SequentialRecord{.metric = metric_.name, .decision = "undecided",
                                                 .design_json = design_json(policy_)};
      if (!look.analysed && !look.reason.empty() && s.record->looks == 0)
        s.record->note = fmt::format("no look at the cap: {}", look.reason);
      const bool decided = s.record->decision != "undecided";
      // Undecided before the cap: the design's last look (the needed
      // information reached) came without a decision; no alpha is left.
      stop(v, decided ? "decided" : last ? "max_reached" : "final_look");
    }
    if (look.analysed || s.stopped) changed.push_back(v);
  }
  if (std::all_of(states_.begin() + 1, states_.end(), [](const State& s) { return s.stopped; })) {
    stop(0, base_failed ? "failed" : attempted.at(0) >= max ? "max_reached" : "tests_stopped");
    changed.push_back(0);
  }
  return changed;
}

}  // namespace schedlab
