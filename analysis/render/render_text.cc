#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>
#include <tuple>

#include "analysis/compare/emulation.h"
#include "analysis/compare/sequential_cells.h"
#include "analysis/render/column_labels.h"
#include "analysis/render/render.h"
#include "analysis/render/render_changed.h"
#include "analysis/render/render_parts.h"
#include "base/json_data.h"
#include "base/text.h"

namespace schedlab {
namespace render_parts {

// Operation names as mmtests prints them, by the metric's centre.
constexpr std::pair<std::string_view, std::string_view> kOperations[] = {
    {"amean", "Amean"}, {"hmean", "Hmean"}, {"gmean", "Gmean"}, {"median", "Median"}};

std::string_view operation(const MetricInfo& m) {
  for (const auto& [centre, op] : kOperations)
    if (centre == m.centre) return op;
  return m.centre;
}

// kernel_release and hostname from the manifest, when it has them; what the
// manifest holds is escaped (a newline in a crafted kernel_release must not
// forge a line of the text, nor an ESC reach the terminal).
std::string describe_run(const RunInfo& r) {
  std::string line = fmt::format("run {} {}:", r.id, r.name);
  const auto manifest = parse_json_data(r.manifest_json);
  if (manifest.is_discarded() || !manifest.is_object()) {
    line += " manifest unreadable,";
  } else {
    for (const auto& [key, what] : {std::pair{"kernel_release", "kernel"}, {"hostname", "host"}}) {
      auto v = manifest.find(key);
      if (v != manifest.end() && v->is_string())
        line += fmt::format(" {} {},", what, terminal_safe(v->get<std::string>()));
    }
    // A kernel built from a tree is named by what was built, not only its
    // release: base and patched builds of one tree share the release.
    const auto lab = manifest.find("lab");
    if (lab != manifest.end() && lab->is_object() && lab->contains("build") && (*lab)["build"].is_object()) {
      const auto& b = (*lab)["build"];
      const auto str = [&](const char* k) {
        return b.contains(k) && b[k].is_string() ? terminal_safe(b[k].get<std::string>()) : "";
      };
      line += fmt::format(" built from {} at {}{},", str("spec").empty() ? str("tree") : str("spec"),
                          str("commit").substr(0, 12), str("describe").empty() ? "" : " (" + str("describe") + ")");
    }
    // The monitors that ran cost something (bench/monitor_overhead_bench.sh): say which.
    const auto on = manifest.find("monitors_on");
    if (on != manifest.end() && on->is_array() && !on->empty()) {
      std::vector<std::string> names;
      for (const auto& m : *on)
        if (m.is_string()) names.push_back(terminal_safe(m.get<std::string>()));
      line += fmt::format(" monitors {},", fmt::join(names, " "));
    }
  }
  return line + fmt::format(" {}", to_string(r.status));
}

std::vector<std::string> sequential_lines(const Comparison& c) {
  std::vector<std::string> out;
  for (const auto& b : c.blocks)
    for (const auto& r : b.rows)
      for (std::size_t i = 1; i < r.cells.size(); ++i) {
        if (!r.cells[i].sequential) continue;
        const SequentialCell& s = *r.cells[i].sequential;
        std::string line = fmt::format("{} {} {} {}: ", b.name, r.label, c.columns[i].label, b.metric.name);
        line += s.finished ? fmt::format("{} ({}) after {} look{}", s.decision, s.reason, s.looks, s.looks == 1 ? "" : "s")
                           : fmt::format("undecided, still looking when the run stopped ({} look{})", s.looks,
                                         s.looks == 1 ? "" : "s");
        line += fmt::format(", n {} vs {}", s.n, s.n_baseline);
        if (s.p_value) line += ", " + p_value_text(*s.p_value, 3, " ");
        if (s.ci_low && s.ci_high)
          line += fmt::format(", {:g}% interval [{:+.2f}%, {:+.2f}%]", s.level * 100, *s.ci_low, *s.ci_high);
        if (s.looks > 0) line += fmt::format(" ({})", s.method());
        if (!s.note.empty()) line += ": " + s.note;
        out.push_back(std::move(line));
      }
  return out;
}

std::string kernel_release(const RunInfo& r) {
  const auto manifest = parse_json_data(r.manifest_json);
  if (!manifest.is_object()) return "";
  auto v = manifest.find("kernel_release");
  return v != manifest.end() && v->is_string() ? v->get<std::string>() : "";
}

const RunInfo& column_run(const Comparison& c, std::size_t column) {
  const std::int64_t id = c.columns.at(column).run_id;
  auto r = std::find_if(c.runs.begin(), c.runs.end(), [&](const RunInfo& x) { return x.id == id; });
  if (r == c.runs.end()) throw std::logic_error("a column's run is not in the comparison");
  return *r;
}

std::string title(const Block& b) {
  const MetricInfo& m = b.metric;
  const std::string what = m.unit.empty() ? m.name : fmt::format("{} in {}", m.name, m.unit);
  return fmt::format("{} ({}, {} is better)", b.name, what, to_string(m.direction));
}

// The smallest and largest n of a block's measured cells: how many samples
// (or iterations, for interval metrics) stand behind its numbers.
std::optional<std::pair<std::size_t, std::size_t>> n_range(const Block& b) {
  std::optional<std::pair<std::size_t, std::size_t>> out;
  for (const auto& r : b.rows)
    for (const auto& cell : r.cells) {
      if (!cell.measured) continue;
      const std::size_t n = b.metric.kind == SampleKind::kInterval ? cell.units.size() : cell.n;
      out = out ? std::pair{std::min(out->first, n), std::max(out->second, n)} : std::pair{n, n};
    }
  return out;
}

// The intervals of the block cut to the metric's domain, counted: a line
// starting with a newline, or "" when none was cut.
std::string domain_cut_note(const Comparison& c, const Block& b) {
  std::size_t centres = 0, changes = 0;
  for (const auto& r : b.rows)
    for (const auto& cell : r.cells) {
      centres += static_cast<bool>(cell.ci.cut);
      changes += static_cast<bool>(cell.pct_ci_cut);
    }
  if (!centres && !changes) return "";
  const auto cells = [](std::size_t k, const char* what) {
    return fmt::format("{} {} interval{}", k, what, k == 1 ? "" : "s");
  };
  std::string which;
  if (centres) which = cells(centres, "centre");
  if (changes) which += (which.empty() ? "" : " and ") + cells(changes, "change");
  return fmt::format("\n{} cut to the metric's {} ({} coverage kept, the true value lies inside)",
                     which, domain_text(b.metric.domain.value_or(ValueDomain::kUnbounded)),
                     fmt::format("{:g}%", c.level * 100));
}

// What the marker means and how many comparisons made it, under each table.
std::string table_note(const Comparison& c, const Block& b) {
  const std::size_t k = b.comparisons;
  std::string out;
  if (c.test == "mmtests") {
    out = fmt::format("mmtests' marker: * = means differ by more than {:.2f} x (sum of {}); {} "
                      "comparison{}",
                      stats::normal_quantile(1 - c.alpha / 2),
                      b.metric.centre == "hmean" ? "HStddevs" : "Stddevs", k, k == 1 ? "" : "s");
  } else {
    const auto test = test_from_name(c.test);
    out = fmt::format("{}, alpha {:g}, * = p < alpha; {} comparison{}",
                      test ? test_title(*test) : c.test, c.alpha, k, k == 1 ? "" : "s");
    if (k > 1) out += fmt::format(" (~{:.2g} false * expected by chance)", c.alpha * k);
  }
  if (const auto n = n_range(b))
    out += n->first == n->second ? fmt::format("; n = {} per cell", n->first)
                                 : fmt::format("; n = {} to {} per cell", n->first, n->second);
  if (b.metric.kind == SampleKind::kInterval)
    out += "\ninterval metric: samples are time slices of one iteration (autocorrelated), so "
           "tests and intervals use one centre per iteration";
  // stop: sequential: what its markers mean, and whose p and interval these are.
  for (const auto& design : sequential_designs(b))
    out += fmt::format("\n{}: D = different, S = same within +-min effect, ? = undecided (in place of * "
                       "and ( )); those cells' p-values and intervals are adjusted for the looks taken "
                       "(stage-wise ordering, at 1 - alpha), not fixed-n",
                       design);
  // Looks planned from a stated CV the samples clearly missed: the power claim fails.
  for (const auto& r : b.rows)
    for (std::size_t i = 0; i < r.cells.size() && i < c.columns.size(); ++i)
      if (r.cells[i].sequential && !r.cells[i].sequential->plan_cv_note.empty())
        out += fmt::format("\nnote: {} at {}: {}", c.columns[i].label, r.label,
                           r.cells[i].sequential->plan_cv_note);
  out += domain_cut_note(c, b);
  if (b.rows.size() > 1) {
    out += "\nRatio: geometric mean over the rows of centre / baseline centre";
    if (std::any_of(b.ratio.begin(), b.ratio.end(), [](const auto& r) { return r.skipped; }))
      out += " (rows without both centres left out)";
  }
  return wrap_words(out);  // a mail's 100 columns
}

// Failures, empty cells and the iterations' notes, each point once (metric
// blocks of one workload block share their iterations).
std::string footer(const Comparison& c) {
  using Point = std::tuple<std::string, std::string, std::string>;  // block, column, row
  std::vector<std::pair<Point, std::size_t>> failed;
  std::vector<Point> empty;
  std::vector<std::pair<Point, std::string>> unsupported;
  std::vector<std::pair<Point, const std::vector<Cell::Note>*>> notes;
  for (const auto& b : c.blocks)
    for (const auto& r : b.rows)
      for (std::size_t i = 0; i < r.cells.size(); ++i) {
        const Cell& cell = r.cells[i];
        Point p{b.name, c.columns[i].label, r.label};
        auto same = [&](const auto& x) { return x.first == p; };
        if (cell.failed && std::none_of(failed.begin(), failed.end(), same))
          failed.push_back({p, cell.failed});
        if (!cell.notes.empty() && std::none_of(notes.begin(), notes.end(), same))
          notes.push_back({p, &cell.notes});
        if (!cell.measured) continue;  // blank, not a failure
        if (cell.n == 0 && !cell.unsupported.empty()) {
          if (std::none_of(unsupported.begin(), unsupported.end(), same))
            unsupported.push_back({p, cell.unsupported});
        } else if (cell.n == 0 && !cell.failed &&
                   std::find(empty.begin(), empty.end(), p) == empty.end()) {
          empty.push_back(p);
        }
      }
  std::string out;
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
  for (const auto& [p, why] : unsupported) out += fmt::format("n/a {}: {}\n", name(p), why);
  for (const auto& [p, list] : notes)
    for (const Cell::Note& n : *list)
      out += fmt::format("note {} iteration {}: {}\n", name(p), n.iteration + 1, n.text);
  if (!empty.empty()) {
    std::vector<std::string> parts;
    for (const auto& p : empty) parts.push_back(name(p));
    out += fmt::format("FAIL without failed iterations (no samples): {}\n", fmt::join(parts, ", "));
  }
  for (const auto& line : sequential_lines(c)) out += line + "\n";
  const auto unlike = unlike_cells(c);
  if (!unlike.empty())
    out += fmt::format("! measured with other parameters than its baseline (not like with like; compare --strict "
                       "refuses): {}\n",
                       fmt::join(unlike, "; "));
  if (has_unknown_params(c))
    out +=
        "?: a parameter an imported output did not state and no --param gave: unknown, so never "
        "like a "
        "known value (two ? are not told apart)\n";
  if (std::any_of(c.blocks.begin(), c.blocks.end(), [](const Block& b) {
        return std::any_of(b.rows.begin(), b.rows.end(), [](const Row& r) {
          return std::any_of(r.cells.begin(), r.cells.end(), [](const Cell& x) { return !x.measured; });
        });
      }))
    out += "blank: the column's run never measured that row\n";
  return wrap_words(out);  // a mail's 100 columns
}


}  // namespace render_parts

namespace {

using namespace render_parts;

// Layout of one cell: value, then " (%7.2f%)" or " *%7.2f%*" (11 chars).
constexpr std::size_t kOpWidth = 10;
constexpr std::size_t kCellWidth = 23;
constexpr std::size_t kPctWidth = 11;

// A value and its change: "value (pct%)", or "value *pct%*" when marked.
std::string value_text(std::size_t n, std::optional<double> value, std::optional<double> pct,
                       bool marked, std::size_t width, int precision) {
  const std::size_t value_width = width - kPctWidth;
  // FAIL, never a number, when nothing was measured.
  if (n == 0) return fmt::format("{:>{}}{:{}}", "FAIL", value_width, "", kPctWidth);
  std::string s = fmt::format("{:>{}}", value ? fixed_text(*value, precision) : "n/a", value_width);
  if (!pct) return s + fmt::format(" ({:>8})", "n/a");
  const std::string p = fixed_text(*pct, 2, kPctLimit);
  return s + (marked ? fmt::format(" *{:>7}%*", p) : fmt::format(" ({:>7}%)", p));
}

std::string cell_text(const Cell& c, std::size_t width, int precision) {
  // Never planned for this column: blank, not FAIL.
  if (!c.measured) return std::string(width, ' ');
  // Measured with other parameters than the baseline: "!" where the
  // parentheses or the significance marker would be (the footer names them).
  if (!c.unlike_baseline.empty() && c.n > 0) {
    std::string v = value_text(c.n, c.centre, c.pct, false, width, precision);
    const auto open = v.rfind(" (");
    if (open != std::string::npos && v.back() == ')') {
      v[open + 1] = '!';
      v.back() = '!';
    }
    return v;
  }
  // The SUT cannot measure it: n/a (the footer says why), never FAIL or 0.
  if (c.n == 0 && !c.unsupported.empty())
    return fmt::format("{:>{}}{:{}}", "n/a", width - kPctWidth, "", kPctWidth);
  // stop: sequential: its decision's letter where ( ) or * * would be.
  if (c.sequential && c.n > 0) {
    std::string v = value_text(c.n, c.centre, c.pct, false, width, precision);
    const auto open = v.rfind(" (");
    if (open != std::string::npos && v.back() == ')') {
      v[open + 1] = v.back() = sequential_marker(*c.sequential);
    }
    return v;
  }
  return value_text(c.n, c.centre, c.pct, c.significant, width, precision);
}

// One line per row for one statistic: the centre (k == centre_row, or no
// --all-stats) or one of the --all-stats rows.
std::string stat_lines(const Block& b, std::size_t k, std::size_t label_width,
                       const std::vector<std::size_t>& widths,
                       const std::vector<std::size_t>& piece) {
  const bool centre = b.stat_rows.empty() || k == b.centre_row;
  const std::string op = centre ? std::string(operation(b.metric)) : b.stat_rows[k];
  std::string out;
  for (const auto& r : b.rows) {
    out += fmt::format("{:<{}}{:<{}}", op, kOpWidth, r.label, label_width);
    for (const std::size_t i : piece) {
      if (i >= r.cells.size()) continue;
      const Cell& c = r.cells[i];
      out += centre ? cell_text(c, widths[i], b.metric.precision)
             : !c.measured ? std::string(widths[i], ' ')
                           : value_text(c.n, c.stat_values[k], c.stat_pcts[k], false, widths[i],
                                        b.metric.precision);
    }
    out += '\n';
  }
  return out;
}

// mmtests' --print-ratio line: the geometric mean of centre / baseline.
std::string ratio_line(const Block& b, std::size_t label_width,
                       const std::vector<std::size_t>& widths,
                       const std::vector<std::size_t>& piece) {
  std::string out = fmt::format("{:<{}}", "Ratio", kOpWidth + label_width);
  for (const std::size_t i : piece) {
    if (i >= b.ratio.size()) continue;
    const std::size_t value_width = widths[i] - kPctWidth;
    const auto& g = b.ratio[i].gmean;
    out += g ? fmt::format("{:>{}}{:{}}", fixed_text(*g, 4), value_width, "", kPctWidth)
             : fmt::format("{:>{}}{:{}}", "n/a", value_width, "", kPctWidth);
  }
  return out + '\n';
}

std::string table(const Comparison& c, const Block& b, const std::vector<std::size_t>& widths) {
  const std::vector<ColumnRef>& cols = c.columns;
  std::size_t label_width = 0;
  for (const auto& r : b.rows) label_width = std::max(label_width, r.label.size());
  std::string out = title(b) + "\n";
  // More columns than a mail's 100 take: the table in pieces, each with the
  // baseline first (the changes are against it).
  const auto pieces = table_pieces(kOpWidth + label_width, widths);
  for (const auto& piece : pieces) {
    if (&piece != &pieces.front()) out += '\n';
    out += std::string(kOpWidth + label_width, ' ');
    for (const std::size_t i : piece) out += fmt::format("{:>{}}", cols[i].label, widths[i]);
    out += '\n';
    const std::size_t stats = std::max<std::size_t>(b.stat_rows.size(), 1);
    for (std::size_t k = 0; k < stats; ++k) out += stat_lines(b, k, label_width, widths, piece);
    if (b.rows.size() > 1) out += ratio_line(b, label_width, widths, piece);
  }
  // Under every table: a table pasted alone still says what its short
  // column labels stand for.
  return out + column_key_text(c) + table_note(c, b);
}

}  // namespace

std::string render_text(const Comparison& c) {
  std::vector<std::string> labels;
  for (const auto& col : c.columns) labels.push_back(col.label);
  std::string out = render_differences_text(c.differences, labels);
  if (!out.empty()) out += '\n';
  for (const auto& r : c.runs) out += wrap_words(describe_run(r));  // 100 columns
  out += emulation_note(c.runs);
  // A label longer than the cell widens its column rather than shifting it.
  std::vector<std::size_t> widths;
  for (const auto& col : c.columns) widths.push_back(std::max(kCellWidth, col.label.size() + 1));
  // So does a value wider than its share, with a space before it (hostile16:
  // at --precision 12, "(   0.00%)5.000000000000" touched).
  for (const Block& b : c.blocks)
    for (const Row& r : b.rows)
      for (std::size_t i = 0; i < r.cells.size() && i < widths.size(); ++i) {
        std::vector<std::optional<double>> values = r.cells[i].stat_values;
        values.push_back(r.cells[i].centre);
        for (const auto& v : values)
          if (v)
            widths[i] =
                std::max(widths[i], fixed_text(*v, b.metric.precision).size() + 1 + kPctWidth);
      }
  // No blank line before the first table when there is no run header
  // (schedlab stats).
  for (std::size_t k = 0; k < c.blocks.size(); ++k) {
    const Block& b = c.blocks[k];
    out += (out.empty() ? "" : "\n") + table(c, b, widths);
    // compare --monitors: under the last metric table of a workload block.
    const bool last = k + 1 == c.blocks.size() || c.blocks[k + 1].name != b.name ||
                      c.blocks[k + 1].workload != b.workload;
    for (const auto& m : c.monitors)
      if (last && m.workload == b.workload && m.block == b.name)
        out += "\n" + render_monitors_text(m, c.columns, widths);
  }
  if (c.changed) out += "\n" + render_changed_text(*c.changed);
  const std::string f = footer(c);
  return f.empty() ? out : out + "\n" + f;
}

void make_names_terminal_safe(Comparison& c) {
  const auto safe = [](std::string& s) { s = terminal_safe(s); };
  for (auto& r : c.runs) safe(r.name);
  for (auto& col : c.columns) {
    safe(col.run_name);
    safe(col.variant);
    safe(col.label);
    safe(col.full_label);
    if (col.pair) safe(*col.pair);
  }
  for (auto& b : c.blocks) {
    safe(b.workload);
    safe(b.name);
    safe(b.metric.name);
    safe(b.metric.unit);
    for (auto& r : b.rows) {
      safe(r.label);  // the samples' origins are not printed
      for (auto& cell : r.cells)
        if (cell.sequential) safe(cell.sequential->note);  // names the metric and its samples
    }
  }
  for (auto& d : c.differences) {
    safe(d.name);
    for (auto& v : d.values)
      if (v) safe(*v);
  }
  for (auto& m : c.monitors) {
    safe(m.workload);
    safe(m.block);
  }
  if (c.changed) {
    safe(c.changed->base_label);
    safe(c.changed->label);
    for (auto& r : c.changed->rows) {
      safe(r.counter);  // profile symbols come from the SUT
      safe(r.block);
      safe(r.row);
    }
  }
  for (auto& entry : c.column_key) safe(entry.second);
}

namespace {

std::string interval_text(const std::optional<stats::Interval>& ci, int precision,
                          const char* suffix, DomainCut cut = {}) {
  if (!ci) return "n/a";
  // A percentage's interval turns scientific where a percentage does.
  // One style for both bounds: scientific when either is past the limit
  // (hostile16: "[982324490900835.1250, 1.011e+15]").
  double limit = std::string_view(suffix) == "%" ? kPctLimit : kFixedLimit;
  for (const double v : {ci->low, ci->high})
    if (std::isfinite(v) && std::abs(v) >= limit) limit = 0;
  return fmt::format("[{}{}, {}{}]{}", fixed_text(ci->low, precision, limit), suffix,
                     fixed_text(ci->high, precision, limit), suffix, cut ? " cut" : "");
}

}  // namespace

std::string render_stats_text(const Comparison& c) {
  std::string out = render_text(c);
  if (c.blocks.empty() || c.blocks.front().rows.empty()) return out;
  const Block& b = c.blocks.front();
  const Row& row = b.rows.front();
  std::size_t label_width = 0;
  for (const auto& col : c.columns) label_width = std::max(label_width, col.label.size());
  out += fmt::format("\n{:g}% intervals of the {}; change is against {}:\n", c.level * 100,
                     b.metric.centre, c.columns.front().label);
  for (std::size_t i = 0; i < row.cells.size(); ++i) {
    const Cell& cell = row.cells[i];
    out += fmt::format("  {:<{}}  n={:<3} {} {}", c.columns[i].label, label_width, cell.n,
                       interval_text(cell.ci.ci, b.metric.precision, "", cell.ci.cut),
                       cell.ci.ci ? "(" + cell.ci.method + ")" : "(" + cell.ci.reason + ")");
    if (i > 0) {
      out += fmt::format("  change {}", interval_text(cell.pct_ci, 2, "%", cell.pct_ci_cut));
      // A nonnegative metric's change without an interval may still keep
      // one bound (significance.h): its reason says which.
      if (!cell.pct_ci && b.metric.domain == ValueDomain::kNonNegative)
        out += fmt::format(" ({})", cell.pct_ci_reason);
      out += cell.p_value ? "  " + p_value_text(*cell.p_value, 4)
                          : fmt::format("  p n/a ({})", cell.p_reason);
    }
    out += '\n';
  }
  return out;
}

}  // namespace schedlab
