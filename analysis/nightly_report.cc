#include "analysis/nightly_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "analysis/proc_text.h"
#include "analysis/schedstat_runs.h"

namespace schedlab {
namespace {

const NightlyCell* find_cell(const NightlyReportInput& in, const std::string& target,
                             const std::string& config) {
  for (const auto& c : in.cells)
    if (c.target == target && c.config == config) return &c;
  return nullptr;
}

bool measured(const NightlyCell* c) {
  return c && c->status == CellStatus::kMeasured && c->run_id;
}

std::string label(const NightlyCell& c) {
  return c.kernel_release.empty() || c.kernel_release == c.target
             ? c.target
             : fmt::format("{} ({})", c.target, c.kernel_release);
}

// The regressed row's schedstat sums in both runs, compared.
void attach_schedstat(const Store& store, NightlyRegression& reg, std::int64_t ref_variant,
                      std::int64_t target_variant) {
  const std::string row = reg.r.block + "/" + reg.r.row;
  try {
    const auto a =
        run_schedstat(store, {.run_id = reg.reference_run, .variant_id = ref_variant, .row = row});
    const auto b =
        run_schedstat(store, {.run_id = reg.target_run, .variant_id = target_variant, .row = row});
    if (!a.sum || !b.sum) {
      reg.schedstat_reason = fmt::format(
          "no schedstat monitor data in {} (add 'monitors: [schedstat]' to the "
          "config; the SUT needs CONFIG_SCHEDSTATS)",
          !a.sum && !b.sum ? "either run"
          : !a.sum         ? reg.reference
                           : reg.target);
      return;
    }
    reg.schedstat =
        schedstat::compare(schedstat::summarize(*a.sum), schedstat::summarize(*b.sum),
                           fmt::format("{} ({} iterations)", reg.reference, a.iterations),
                           fmt::format("{} ({} iterations)", reg.target, b.iterations));
  } catch (const CounterParseError& e) {
    reg.schedstat_reason = e.what();
  } catch (const CounterMismatchError& e) {
    reg.schedstat_reason = e.what();
  }
}

void compare_pair(const Store& store, NightlyReport& report, const std::string& config,
                  const NightlyCell& ref, const NightlyCell& target, const std::string& against) {
  const auto ref_variants = store.variants(*ref.run_id);
  const auto target_variants = store.variants(*target.run_id);
  CompareOptions options;
  options.alpha = report.input.rule.alpha;
  const auto test = test_from_name(report.input.rule.test);
  if (!test) throw std::invalid_argument(fmt::format("unknown test '{}'", report.input.rule.test));
  options.test = *test;
  for (const auto& tv : target_variants) {
    const auto rv = std::find_if(ref_variants.begin(), ref_variants.end(),
                                 [&](auto& v) { return v.name == tv.name; });
    if (rv == ref_variants.end()) continue;  // a variant the reference run does not have
    NightlyComparison nc{.config = config,
                         .variant = tv.name,
                         .reference = ref.target,
                         .target = target.target,
                         .against = against};
    nc.comparison =
        compare(store,
                {ColumnRef{.run_id = *ref.run_id, .variant_id = rv->id, .label = label(ref)},
                 ColumnRef{.run_id = *target.run_id, .variant_id = tv.id, .label = label(target)}},
                options);
    for (const auto& r : find_regressions(nc.comparison, report.input.rule)) {
      NightlyRegression reg{.r = r,
                            .config = config,
                            .variant = tv.name,
                            .reference = ref.target,
                            .target = target.target,
                            .against = against,
                            .reference_run = *ref.run_id,
                            .target_run = *target.run_id};
      attach_schedstat(store, reg, rv->id, tv.id);
      report.regressions.push_back(std::move(reg));
      ++nc.regressions;
    }
    report.comparisons.push_back(std::move(nc));
  }
}

}  // namespace

NightlyReport build_nightly_report(const Store& store, const NightlyReportInput& input) {
  NightlyReport report;
  report.input = input;
  for (const auto& c : input.cells)
    if (c.status == CellStatus::kFailed)
      report.failures.push_back(fmt::format("{} / {}: {}", c.target, c.config, c.error));
  const std::string& base_name = input.targets.at(input.baseline);
  for (const auto& config : input.configs) {
    const NightlyCell* base = find_cell(input, base_name, config);
    for (std::size_t i = 0; i < input.targets.size(); ++i) {
      if (i == input.baseline) continue;
      const NightlyCell* cell = find_cell(input, input.targets[i], config);
      if (!measured(cell)) continue;
      if (measured(base)) compare_pair(store, report, config, *base, *cell, "baseline");
      // The previous target of the list that was measured, unless that is
      // the baseline (already compared).
      for (std::size_t j = i; j-- > 0;) {
        const NightlyCell* prev = find_cell(input, input.targets[j], config);
        if (!measured(prev)) continue;
        if (j != input.baseline) compare_pair(store, report, config, *prev, *cell, "previous");
        break;
      }
    }
  }
  // Regressions against the baseline first, then against the previous target.
  std::stable_sort(report.regressions.begin(), report.regressions.end(),
                   [](const NightlyRegression& a, const NightlyRegression& b) {
                     return a.against == "baseline" && b.against != "baseline";
                   });
  return report;
}

}  // namespace schedlab
