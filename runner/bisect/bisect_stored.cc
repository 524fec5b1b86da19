#include "runner/bisect/bisect_stored.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "analysis/stats/significance.h"
#include "base/json_data.h"
#include "base/text.h"

namespace schedlab {
namespace {

using nlohmann::json;

void check_spec(const BisectSpec& spec) {
  if (spec.candidates.size() < 2)
    throw BisectError(
        fmt::format("its stored spec has {}; a bisection has 2 at least (the good and the bad)",
                    count_of(spec.candidates.size(), "candidate")));
  if (spec.labels.size() != spec.candidates.size())
    throw BisectError(fmt::format("its stored spec has {} for {}",
                                  count_of(spec.labels.size(), "label"),
                                  count_of(spec.candidates.size(), "candidate")));
  if (!test_from_name(spec.test))
    throw BisectError(
        fmt::format("its stored spec's test '{}' is not welch or mwu", excerpt(spec.test)));
  if (!(spec.alpha > 0 && spec.alpha < 1))
    throw BisectError(fmt::format("its stored spec's alpha {} is not in (0, 1)", spec.alpha));
  if (!std::isfinite(spec.min_effect_pct) || spec.min_effect_pct < 0)
    throw BisectError(fmt::format("its stored spec's min_effect_pct {} is not a finite share",
                                  spec.min_effect_pct));
  if (spec.direction != "worse" && spec.direction != "either")
    throw BisectError(fmt::format("its stored spec's direction '{}' is not worse or either",
                                  excerpt(spec.direction)));
  if (spec.hook_timeout.count() < 0 || spec.reboot_timeout.count() < 0)
    throw BisectError("its stored spec has a negative timeout");
}

// A decision's field V: finite, and within [lo, hi] (open ends when `open`).
void check_number(const BisectDecision& d, const char* field, const std::optional<double>& v,
                  double lo, double hi, bool open) {
  if (!v) return;
  const bool inside = open ? *v > lo && *v < hi : *v >= lo && *v <= hi;
  if (!std::isfinite(*v) || !inside)
    throw BisectError(fmt::format("decision {} (position {}): {} {} is not {}", d.id, d.position,
                                  field, *v,
                                  std::isinf(hi) ? "a finite number"
                                  : open         ? fmt::format("in ({:g}, {:g})", lo, hi)
                                                 : fmt::format("in [{:g}, {:g}]", lo, hi)));
}

void check_decision(const BisectSpec& spec, const BisectDecision& d) {
  if (d.position < 0 || static_cast<std::size_t>(d.position) >= spec.candidates.size())
    throw BisectError(fmt::format("decision {}: position {} is not one of the {} candidates", d.id,
                                  d.position, spec.candidates.size()));
  if (d.n < 0) throw BisectError(fmt::format("decision {}: n {} is negative", d.id, d.n));
  const double inf = HUGE_VAL;
  check_number(d, "centre", d.centre, -inf, inf, false);
  check_number(d, "p_good", d.p_good, 0, 1, false);
  check_number(d, "p_bad", d.p_bad, 0, 1, false);
  check_number(d, "level_good", d.level_good, 0, 1, true);
  check_number(d, "level_bad", d.level_bad, 0, 1, true);
  const json ids = parse_json_data(d.run_ids_json);
  bool ok = ids.is_array();
  for (const auto& id : ids)
    if (ok) ok = id.is_number_integer();
  if (!ok)
    throw BisectError(fmt::format("decision {} (position {}): run ids '{}' are not a list of ids",
                                  d.id, d.position, excerpt(d.run_ids_json)));
}

// A done session's result: its ends and counts.
void check_result(const BisectSpec& spec, const json& r) {
  const auto position = [&](const char* key) {
    if (!r.contains(key) || !r[key].is_number_unsigned() ||
        r[key].get<std::uint64_t>() >= spec.candidates.size())
      throw BisectError(fmt::format("its result's {} is not one of the {} candidates' positions",
                                    key, spec.candidates.size()));
    return r[key].get<std::size_t>();
  };
  if (position("last_good") >= position("first_bad"))
    throw BisectError("its result's last_good is not before its first_bad");
  if (!r.contains("skipped_between") || !r["skipped_between"].is_array())
    throw BisectError("its result's skipped_between is not a list");
  for (const char* key : {"measured_candidates", "skipped_candidates"})
    if (!r.contains(key) || !r[key].is_number_integer())
      throw BisectError(fmt::format("its result's {} is not a count", key));
  for (const char* key : {"first_bad_decision", "last_good_decision"})
    if (r.contains(key) && r[key].is_object() && r[key].contains("decided_by") &&
        !r[key]["decided_by"].is_string())
      throw BisectError(fmt::format("its result's {}.decided_by is not text", key));
}

// A refused session's numbers, as status prints them.
void check_refusal(const json& r) {
  for (const char* key : {"good_centre", "bad_centre", "p"})
    if (r.contains(key) && !r[key].is_null() &&
        !(r[key].is_number() && std::isfinite(r[key].get<double>())))
      throw BisectError(fmt::format("its result's {} is not a finite number", key));
  for (const char* key : {"n_good", "n_bad"})
    if (r.contains(key) && !r[key].is_number_integer())
      throw BisectError(fmt::format("its result's {} is not a count", key));
  for (const char* key : {"reason", "direction"})
    if (r.contains(key) && !r[key].is_string())
      throw BisectError(fmt::format("its result's {} is not text", key));
}

}  // namespace

StoredBisection load_bisection(const BisectLog& log, const BisectSession& s) {
  try {
    StoredBisection out{.spec = spec_from_json(s.spec_json),
                        .decisions = log.bisect_decisions(s.id)};
    check_spec(out.spec);
    for (const auto& d : out.decisions) check_decision(out.spec, d);
    out.result = parse_json_data(s.result_json);
    if (!out.result.is_object()) throw BisectError("its result is not a JSON object");
    if (s.status == BisectStatus::kDone) check_result(out.spec, out.result);
    if (s.status == BisectStatus::kRefused) check_refusal(out.result);
    return out;
  } catch (const BisectError& e) {
    throw BisectError(fmt::format("bisection {}: {}", s.id, e.what()));
  }
}

std::map<int, const BisectDecision*> latest_decisions(
    const std::vector<BisectDecision>& decisions) {
  std::map<int, const BisectDecision*> out;
  for (const auto& d : decisions) out[d.position] = &d;
  return out;
}

}  // namespace schedlab
