#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>
#include <tuple>

#include "analysis/render.h"

namespace schedlab {
namespace {

// Layout of one cell: value, then " (%7.2f%)" or " *%7.2f%*" (11 chars).
constexpr std::size_t kOpWidth = 10;
constexpr std::size_t kCellWidth = 23;
constexpr std::size_t kPctWidth = 11;

// Operation names as mmtests prints them, by the metric's centre.
constexpr std::pair<std::string_view, std::string_view> kOperations[] = {
    {"amean", "Amean"}, {"hmean", "Hmean"}, {"gmean", "Gmean"}, {"median", "Median"}};

std::string_view operation(const MetricInfo& m) {
  for (const auto& [centre, op] : kOperations)
    if (centre == m.centre) return op;
  return m.centre;
}

// kernel_release and hostname from the manifest, when it has them.
std::string describe_run(const RunInfo& r) {
  std::string line = fmt::format("run {} {}:", r.id, r.name);
  const auto manifest = nlohmann::json::parse(r.manifest_json, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) {
    line += " manifest unreadable,";
  } else {
    for (const auto& [key, what] : {std::pair{"kernel_release", "kernel"}, {"hostname", "host"}}) {
      auto v = manifest.find(key);
      if (v != manifest.end() && v->is_string())
        line += fmt::format(" {} {},", what, v->get<std::string>());
    }
  }
  return line + fmt::format(" {}\n", r.status);
}

std::string title(const Block& b) {
  const MetricInfo& m = b.metric;
  const std::string what = m.unit.empty() ? m.name : fmt::format("{} in {}", m.name, m.unit);
  return fmt::format("{} ({}, {} is better)\n", b.name, what, m.direction);
}

std::string cell_text(const Cell& c, std::size_t width, int precision) {
  const std::size_t value_width = width - kPctWidth;
  // FAIL, never a number, when nothing was measured.
  if (c.n == 0) return fmt::format("{:>{}}{:{}}", "FAIL", value_width, "", kPctWidth);
  std::string s = c.centre ? fmt::format("{:>{}.{}f}", *c.centre, value_width, precision)
                           : fmt::format("{:>{}}", "n/a", value_width);
  if (!c.pct) return s + fmt::format(" ({:>8})", "n/a");
  return s +
         (c.significant ? fmt::format(" *{:7.2f}%*", *c.pct) : fmt::format(" ({:7.2f}%)", *c.pct));
}

std::string table(const Block& b, const std::vector<std::size_t>& widths,
                  const std::vector<ColumnRef>& cols) {
  std::size_t label_width = 0;
  for (const auto& r : b.rows) label_width = std::max(label_width, r.label.size());
  std::string out = title(b);
  out += std::string(kOpWidth + label_width, ' ');
  for (std::size_t i = 0; i < cols.size(); ++i)
    out += fmt::format("{:>{}}", cols[i].label, widths[i]);
  out += '\n';
  for (const auto& r : b.rows) {
    out += fmt::format("{:<{}}{:<{}}", operation(b.metric), kOpWidth, r.label, label_width);
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      out += cell_text(r.cells[i], widths[i], b.metric.precision);
    out += '\n';
  }
  return out;
}

// Failures and empty cells, each point once (metric blocks of one workload
// block share their iterations).
std::string footer(const Comparison& c) {
  std::size_t tests = 0;
  using Point = std::tuple<std::string, std::string, std::string>;  // block, column, row
  std::vector<std::pair<Point, std::size_t>> failed;
  std::vector<Point> empty;
  for (const auto& b : c.blocks)
    for (const auto& r : b.rows)
      for (std::size_t i = 0; i < r.cells.size(); ++i) {
        const Cell& cell = r.cells[i];
        if (cell.p_value) ++tests;
        Point p{b.name, c.columns[i].label, r.label};
        auto same = [&](const auto& x) { return x.first == p; };
        if (cell.failed && std::none_of(failed.begin(), failed.end(), same))
          failed.push_back({p, cell.failed});
        if (cell.n == 0 && !cell.failed && std::find(empty.begin(), empty.end(), p) == empty.end())
          empty.push_back(p);
      }
  std::string out = fmt::format("Welch's t-test, alpha {:g}, * = p < alpha; {} comparison{}\n",
                                c.alpha, tests, tests == 1 ? "" : "s");
  auto name = [](const Point& p) {
    return fmt::format("{} {} {}", std::get<0>(p), std::get<1>(p), std::get<2>(p));
  };
  if (!failed.empty()) {
    std::size_t total = 0;
    std::vector<std::string> parts;
    for (const auto& [p, n] : failed) {
      total += n;
      parts.push_back(fmt::format("{} ({})", name(p), n));
    }
    out += fmt::format("{} failed iteration{}: {}\n", total, total == 1 ? "" : "s",
                       fmt::join(parts, ", "));
  }
  if (!empty.empty()) {
    std::vector<std::string> parts;
    for (const auto& p : empty) parts.push_back(name(p));
    out += fmt::format("FAIL without failed iterations (no samples): {}\n", fmt::join(parts, ", "));
  }
  return out;
}

}  // namespace

std::string render_text(const Comparison& c) {
  std::string out;
  for (const auto& r : c.runs) out += describe_run(r);
  // A label longer than the cell widens its column rather than shifting it.
  std::vector<std::size_t> widths;
  for (const auto& col : c.columns) widths.push_back(std::max(kCellWidth, col.label.size() + 1));
  for (const auto& b : c.blocks) out += "\n" + table(b, widths, c.columns);
  return out + "\n" + footer(c);
}

}  // namespace schedlab
