#include "analysis/render/render_changed.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "analysis/render/html_escape.h"
#include "base/text.h"

namespace schedlab {
namespace {

constexpr std::size_t kLineWidth = 100;
constexpr std::size_t kNameColumn = 46;  // where the counter's name starts

// A mean in 10 characters: large counts whole, small values with decimals.
std::string value(double v) {
  const double a = std::abs(v);
  if (a >= 1e9) return fmt::format("{:>10.3e}", v);
  if (a >= 100) return fmt::format("{:>10.0f}", v);
  if (a >= 1 || a == 0) return fmt::format("{:>10.2f}", v);
  return fmt::format("{:>10.4f}", v);
}

// Past a million per cent (a mean of 1e140 against 1: in range, and
// 142 digits in fixed notation) a spread or change turns scientific.
std::string spread(const std::optional<double>& pct) {
  if (!pct) return std::string(6, ' ');
  if (*pct >= kPctLimit) return fmt::format(" \u00b1{:.0e}%", *pct);
  return fmt::format(" \u00b1{:>3.0f}%", *pct);
}

std::string change(const ChangedRow& r) {
  if (r.change_pp) return signed_fixed_text(*r.change_pp, 2);
  if (r.change_pct) return signed_fixed_text(*r.change_pct, 1) + "%";
  return "n/a";  // from a base of 0
}

// Cut in the middle, so both the monitor and the end of a symbol show;
// never inside a UTF-8 character.
std::string fit(const std::string& name, std::size_t width, bool& cut) {
  if (display_width(name) <= width) return name;
  cut = true;
  const std::size_t keep = width - 3;
  return std::string(head_columns(name, keep / 2)) + "..." +
         std::string(tail_columns(name, keep - keep / 2));
}

std::string point_title(const ChangedRow& r) {
  return r.row.empty() ? r.block : r.block + " " + r.row;
}

std::string fit_label(const std::string& label, std::size_t width) {
  bool unused = false;
  return fit(label, width, unused);
}

nlohmann::ordered_json floor_json(const PFloor& f) {
  return {{"p", f.p},
          {"p_untied", f.p_untied},
          {"n_base", f.n_base},
          {"n", f.n},
          {"threshold", f.threshold},
          {"rows_needed", f.rows_needed},
          {"iterations_needed", f.iterations_needed},
          {"of", f.of_counters ? "counters" : "benchmark"},
          {"benchmark_alone", f.benchmark_alone},
          {"note", floor_sentence(f)}};
}

// The counters recorded in one column only, the first few named.
std::string one_sided_note(const ChangedTable& t) {
  constexpr std::size_t kNamed = 5;
  std::vector<std::string> names;
  bool unused = false;
  for (const auto& name : t.one_sided) {
    if (names.size() == kNamed) break;
    names.push_back(terminal_safe(fit(name, 60, unused)));
  }
  return fmt::format(
      "{} recorded in one column only (not compared, never with 0): {}{}\n",
      count_of(t.one_sided.size(), "counter"), fmt::join(names, ", "),
      t.one_sided.size() > kNamed
          ? fmt::format(" and {} more (--format json lists them)", t.one_sided.size() - kNamed)
          : "");
}

}  // namespace

std::string render_changed_text(const ChangedTable& t) {
  std::string out = fmt::format(
      "what changed, {} -> {}\n({} per counter across iterations, Benjamini-Hochberg q <= {:g} "
      "over {} counter{})\n",
      fit_label(t.base_label, 40), fit_label(t.label, 40), test_title(t.test), t.fdr, t.tested,
      t.tested == 1 ? "" : "s");
  if (t.p_floor) out += wrap_words(floor_sentence(*t.p_floor));
  // Without monitors only the benchmark's own metrics are there to change.
  if (t.monitor_counters == 0)
    out += "no monitor counters stored in either column (monitors: in the config records them)\n";
  if (t.rows.empty()) {
    out += "no counter changed\n";
  } else {
    bool cut = false;
    std::string point;
    for (const ChangedRow& r : t.rows) {
      if (point_title(r) != point || point.empty()) {
        point = point_title(r);
        out += fmt::format("\n{}\n", point);
        out += fmt::format("{:>16} {:>27}\n", fit_label(t.base_label, 16), fit_label(t.label, 27));
        out += "---------------- ---------------------------\n";
        out += "         %stddev     %change         %stddev\n";
        out += "             \\          |                \\\n";
      }
      out += value(r.base_mean) + spread(r.base_stddev_pct) + fmt::format(" {:>10}", change(r)) +
             " " + value(r.mean) + spread(r.stddev_pct) + "  " +
             fit(r.counter, kLineWidth - kNameColumn, cut) + "\n";
    }
    if (cut) out += "(names cut to fit 100 columns with ...: --format json has them whole)\n";
  }
  out += fmt::format(
      "left out: {} under the floors (counts below {:g} per iteration, shares below {:g}%),\n"
      "{} untestable (too few iterations a side, or no test defined)\n",
      t.below_floor, kCountFloor, kShareFloorPct, t.untestable);
  if (!t.one_sided.empty()) out += wrap_words(one_sided_note(t));
  return out;
}

nlohmann::ordered_json changed_json_summary(const ChangedTable& t) {
  nlohmann::ordered_json j = {
      {"base", t.base_label},
      {"new", t.label},
      {"test", test_name(t.test)},
      {"fdr", t.fdr},
      {"tested", t.tested},
      {"below_floor", t.below_floor},
      {"untestable", t.untestable},
      {"monitor_counters", t.monitor_counters},
      {"p_floor", t.p_floor ? floor_json(*t.p_floor) : nlohmann::ordered_json(nullptr)}};
  if (!t.one_sided.empty()) j["one_sided"] = t.one_sided;
  return j;
}

nlohmann::ordered_json changed_json_rows(const ChangedTable& t) {
  using Json = nlohmann::ordered_json;
  auto number = [](const std::optional<double>& v) {
    return v && std::isfinite(*v) ? Json(*v) : Json(nullptr);
  };
  Json rows = Json::array();
  for (const ChangedRow& r : t.rows) {
    Json j = {{"counter", r.counter},
              {"benchmark", r.benchmark},
              {"workload", r.workload},
              {"block", r.block},
              {"row", r.row},
              {"n_base", r.n_base},
              {"n", r.n},
              {"base_mean", r.base_mean},
              {"base_stddev_pct", number(r.base_stddev_pct)},
              {"mean", r.mean},
              {"stddev_pct", number(r.stddev_pct)}};
    if (r.share)
      j["change_pp"] = number(r.change_pp);
    else
      j["change_pct"] = number(r.change_pct);
    j["p"] = r.p;
    j["q"] = r.q;
    rows.push_back(std::move(j));
  }
  return rows;
}

std::string render_changed_html(const ChangedTable& t) {
  std::string out = fmt::format(
      "<section class=\"changed\"><h2>What changed, {} &rarr; {}</h2>\n<p class=\"note\">{} per "
      "counter across iterations; Benjamini-Hochberg q &le; {:g} over {} counters; {} under the "
      "floors, {} untestable.</p>\n",
      html_escape(t.base_label), html_escape(t.label), html_escape(test_title(t.test)), t.fdr,
      t.tested, t.below_floor, t.untestable);
  if (t.p_floor) out += "<p class=\"note\">" + html_escape(floor_sentence(*t.p_floor)) + "</p>\n";
  if (t.monitor_counters == 0)
    out +=
        "<p>No monitor counters stored in either column (monitors: in the config records "
        "them).</p>\n";
  if (!t.one_sided.empty())
    out += fmt::format("<p class=\"note\">{}</p>\n", html_escape(one_sided_note(t)));
  if (t.rows.empty()) return out + "<p>No counter changed.</p></section>\n";
  std::string point;
  for (const ChangedRow& r : t.rows) {
    if (point_title(r) != point || point.empty()) {
      if (!point.empty()) out += "</tbody></table>\n";
      point = point_title(r);
      out += fmt::format(
          "<h3>{}</h3><table class=\"changed\"><thead><tr><th>{}</th><th>%stddev</th>"
          "<th>%change</th><th>{}</th><th>%stddev</th><th>counter</th><th>q</th></tr></thead>"
          "<tbody>\n",
          html_escape(point), html_escape(t.base_label), html_escape(t.label));
    }
    const auto sd = [](const std::optional<double>& v) {
      return v ? fmt::format("&plusmn;{}%", fixed_text(*v, 0, kPctLimit)) : std::string();
    };
    const auto trimmed = [](std::string s) { return s.substr(s.find_first_not_of(' ')); };
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2g}</td>"
        "</tr>\n",
        trimmed(value(r.base_mean)), sd(r.base_stddev_pct), change(r), trimmed(value(r.mean)),
        sd(r.stddev_pct), html_escape(terminal_safe(r.counter)), r.q);
  }
  return out + "</tbody></table></section>\n";
}

}  // namespace schedlab
