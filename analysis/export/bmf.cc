#include "analysis/export/bmf.h"

#include <fmt/format.h>

#include <stdexcept>

#include "base/text.h"

namespace schedlab {
namespace {

// Why the cell has no value to state.
std::string why_no_centre(const ExportCell& c) {
  switch (outcome(c)) {
    case CellOutcome::kFailed:
      return fmt::format("{}, no sample", count_of(c.failed, "failed iteration"));
    case CellOutcome::kUnsupported:
      return "unsupported: " + c.unsupported;
    case CellOutcome::kMeasured:
      break;
  }
  return "no centre: " + c.centre_reason;
}

void check_length(std::string_view what, const std::string& name, std::size_t max) {
  if (display_width(name) > max)
    throw std::invalid_argument(
        fmt::format("--format bmf: the {} name '{}' is over Bencher's {} characters", what,
                    excerpt(name, 60), max));
}

}  // namespace

BmfReport bmf_report(const ExportRun& run) {
  BmfReport out{.json = nlohmann::json::object()};
  for (const ExportCell& c : run.cells) {
    const std::string benchmark = cell_point_name(c);
    const std::string measure = metric_with_unit(c.metric);
    if (!c.centre) {
      out.left_out.push_back(fmt::format("{} {}: {}", benchmark, c.metric.name, why_no_centre(c)));
      continue;
    }
    check_length("benchmark", benchmark, kBmfBenchmarkMax);
    check_length("measure", measure, kBmfMeasureMax);
    nlohmann::json metric = {{"value", *c.centre}};
    if (c.ci.ci) {
      metric["lower_value"] = c.ci.ci->low;
      metric["upper_value"] = c.ci.ci->high;
    }
    out.json[benchmark][measure] = metric;
  }
  return out;
}

}  // namespace schedlab
