// schedlab report: the page. Tables are HTML written here (the same numbers
// as render_text, and why a cell has no interval); plots are Vega specs
// built from the same Comparison, drawn by the inlined Vega script. The
// page's own script only parses the specs, runs the views and records what
// they drew (window.schedlabReport), which the browser test reads.
#include "analysis/render_html.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "analysis/emulation.h"
#include "analysis/render_parts.h"

namespace schedlab {
namespace {

using Json = nlohmann::ordered_json;
using namespace render_parts;

std::string esc(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  return out;
}

// ---- Vega specs ---------------------------------------------------------

Json labels_of(const Comparison& c) {
  Json a = Json::array();
  for (const auto& col : c.columns) a.push_back(col.label);
  return a;
}

Json row_labels(const Block& b) {
  Json a = Json::array();
  for (const auto& r : b.rows) a.push_back(r.label);
  return a;
}

std::optional<double> number_label(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

Json colour_scale(const Comparison& c) {
  return {{"name", "colour"}, {"type", "ordinal"}, {"domain", labels_of(c)}, {"range", "category"}};
}

Json axis(const char* orient, const char* scale, const std::string& title) {
  return {{"orient", orient}, {"scale", scale}, {"title", title}, {"labelOverlap", true}};
}


std::string y_title(const Block& b) {
  return b.metric.unit.empty() ? b.metric.name : fmt::format("{} ({})", b.metric.name, b.metric.unit);
}

Json legend() {
  return Json::array({{{"stroke", "colour"}, {"fill", "colour"}, {"title", "column"}}});
}

// Centre and interval against the swept parameter, one line per column.
Json scaling_spec(const Comparison& c, const Block& b) {
  bool numeric = b.rows.size() > 1;
  for (const auto& r : b.rows) numeric = numeric && number_label(r.label).has_value();
  Json values = Json::array();
  for (const auto& r : b.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const Cell& cell = r.cells[i];
      if (!cell.centre) continue;
      Json v = {{"r", r.label}, {"c", c.columns[i].label}, {"y", *cell.centre}};
      v["x"] = numeric ? Json(*number_label(r.label)) : Json(r.label);
      if (cell.ci.ci) {
        v["lo"] = cell.ci.ci->low;
        v["hi"] = cell.ci.ci->high;
      }
      values.push_back(v);
    }
  Json s = vega_base_spec(560, 260);
  s["data"] = points_with_ci_data(values);
  Json x = numeric ? Json{{"name", "x"}, {"type", "linear"}, {"zero", false}, {"nice", true},
                          {"range", "width"}, {"domain", {{"data", "points"}, {"field", "x"}}}}
                   : Json{{"name", "x"}, {"type", "point"}, {"padding", 0.5}, {"range", "width"},
                          {"domain", row_labels(b)}};
  s["scales"] = Json::array(
      {x,
       y_scale_with_ci(), colour_scale(c)});
  s["axes"] = Json::array({axis("bottom", "x", b.swept), axis("left", "y", y_title(b))});
  s["legends"] = legend();
  const Json tooltip = {
      {"signal", "{'column': datum.c, 'point': datum.r, 'centre': datum.y, 'low': datum.lo, 'high': datum.hi}"}};
  Json line = {{"type", "line"},
               {"from", {{"data", "series"}}},
               {"encode", {{"enter", {{"x", {{"scale", "x"}, {"field", "x"}}},
                                      {"y", {{"scale", "y"}, {"field", "y"}}},
                                      {"stroke", {{"scale", "colour"}, {"field", "c"}}},
                                      {"strokeWidth", {{"value", 2}}}}}}}};
  if (numeric) line["sort"] = {{"field", "datum.x"}};
  s["marks"] = Json::array(
      {{{"type", "group"},
        {"from", {{"facet", {{"name", "series"}, {"data", "points"}, {"groupby", "c"}}}}},
        {"marks", Json::array({line})}},
       {{"type", "rule"},
        {"from", {{"data", "ci"}}},
        {"encode", {{"enter", {{"x", {{"scale", "x"}, {"field", "x"}}},
                               {"y", {{"scale", "y"}, {"field", "lo"}}},
                               {"y2", {{"scale", "y"}, {"field", "hi"}}},
                               {"stroke", {{"scale", "colour"}, {"field", "c"}}},
                               {"strokeWidth", {{"value", 1.5}}},
                               {"tooltip", tooltip}}}}}},
       {{"type", "symbol"},
        {"from", {{"data", "points"}}},
        {"encode", {{"enter", {{"x", {{"scale", "x"}, {"field", "x"}}},
                               {"y", {{"scale", "y"}, {"field", "y"}}},
                               {"fill", {{"scale", "colour"}, {"field", "c"}}},
                               {"size", {{"value", 30}}},
                               {"tooltip", tooltip}}}}}}});
  return s;
}

// A deterministic spread in [-0.35, 0.35] so equal samples do not hide.
double jitter(std::size_t k) {
  return (static_cast<double>((k * 2654435761u) % 1000) / 1000.0 - 0.5) * 0.7;
}

// Plot width for `slots` positions along x, scrolled by the page when wide.
int plot_width(std::size_t slots) {
  return static_cast<int>(std::clamp<std::size_t>(slots * 14, 420, 8000));
}

// Every sample per row and column: points over a box (quartiles, median).
Json samples_spec(const Comparison& c, const Block& b) {
  Json values = Json::array();
  std::size_t k = 0;
  for (const auto& r : b.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      for (double v : r.cells[i].samples)
        values.push_back({{"r", r.label}, {"c", c.columns[i].label}, {"v", v}, {"j", jitter(k++)}});
  Json s = vega_base_spec(plot_width(b.rows.size() * c.columns.size()), 260);
  s["data"] = Json::array({{{"name", "samples"}, {"values", values}}});
  s["scales"] = Json::array(
      {{{"name", "xrow"}, {"type", "band"}, {"domain", row_labels(b)}, {"range", "width"},
        {"paddingInner", 0.15}},
       {{"name", "y"}, {"type", "linear"}, {"zero", false}, {"nice", true}, {"range", "height"},
        {"domain", {{"data", "samples"}, {"field", "v"}}}},
       colour_scale(c)});
  s["axes"] = Json::array({axis("bottom", "xrow", b.swept), axis("left", "y", y_title(b))});
  s["legends"] = legend();
  const Json inner_x = {{"signal", "scale('xcol', datum.c) + bandwidth('xcol') * (0.5 + datum.j)"}};
  s["marks"] = Json::array({{
      {"type", "group"},
      {"from", {{"facet", {{"name", "cell"}, {"data", "samples"}, {"groupby", "r"}}}}},
      {"encode", {{"enter", {{"x", {{"scale", "xrow"}, {"field", "r"}}},
                             {"width", {{"scale", "xrow"}, {"band", 1}}},
                             {"height", {{"signal", "height"}}}}}}},
      {"signals", Json::array({{{"name", "width"}, {"update", "bandwidth('xrow')"}}})},
      {"data", Json::array({{{"name", "box"},
                             {"source", "cell"},
                             {"transform",
                              Json::array({{{"type", "aggregate"},
                                            {"groupby", Json::array({"c"})},
                                            {"fields", Json::array({"v", "v", "v"})},
                                            {"ops", Json::array({"q1", "median", "q3"})},
                                            {"as", Json::array({"q1", "median", "q3"})}}})}}})},
      {"scales", Json::array({{{"name", "xcol"}, {"type", "band"}, {"domain", labels_of(c)},
                               {"range", "width"}, {"paddingInner", 0.1}}})},
      {"marks",
       Json::array(
           {{{"type", "rect"},
             {"from", {{"data", "box"}}},
             {"encode", {{"enter", {{"x", {{"scale", "xcol"}, {"field", "c"}}},
                                    {"width", {{"scale", "xcol"}, {"band", 1}}},
                                    {"y", {{"scale", "y"}, {"field", "q1"}}},
                                    {"y2", {{"scale", "y"}, {"field", "q3"}}},
                                    {"fill", {{"scale", "colour"}, {"field", "c"}}},
                                    {"fillOpacity", {{"value", 0.15}}},
                                    {"stroke", {{"scale", "colour"}, {"field", "c"}}}}}}}},
            {{"type", "rect"},
             {"from", {{"data", "box"}}},
             {"encode", {{"enter", {{"x", {{"scale", "xcol"}, {"field", "c"}}},
                                    {"width", {{"scale", "xcol"}, {"band", 1}}},
                                    {"y", {{"scale", "y"}, {"field", "median"}}},
                                    {"height", {{"value", 1.5}}},
                                    {"fill", {{"scale", "colour"}, {"field", "c"}}}}}}}},
            {{"type", "symbol"},
             {"from", {{"data", "cell"}}},
             {"encode", {{"enter", {{"x", inner_x},
                                    {"y", {{"scale", "y"}, {"field", "v"}}},
                                    {"fill", {{"scale", "colour"}, {"field", "c"}}},
                                    {"fillOpacity", {{"value", 0.6}}},
                                    {"size", {{"value", 12}}},
                                    {"tooltip", {{"signal", "{'column': datum.c, 'point': datum.r, 'value': datum.v}"}}}}}}}}})}}});
  return s;
}

// Samples in the order they ran: x is the iteration's position among its
// run's iterations of this block (the store's ids are insertion order), so
// interleaved A B A B and a cold first iteration show. One point at a time
// (a select under the plot), since points differ in scale.
Json order_spec(const Comparison& c, const Block& b) {
  std::map<std::int64_t, std::set<std::int64_t>> ids;  // run -> iteration ids
  for (const auto& r : b.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      for (const auto& o : r.cells[i].origins) ids[c.columns[i].run_id].insert(o.iteration_id);
  std::map<std::int64_t, std::map<std::int64_t, int>> rank;
  for (const auto& [run, set] : ids) {
    int n = 0;
    for (auto id : set) rank[run][id] = n++;
  }
  Json values = Json::array();
  for (const auto& r : b.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const Cell& cell = r.cells[i];
      for (std::size_t k = 0; k < cell.samples.size() && k < cell.origins.size(); ++k)
        values.push_back({{"r", r.label},
                          {"c", c.columns[i].label},
                          {"s", rank[c.columns[i].run_id][cell.origins[k].iteration_id]},
                          {"v", cell.samples[k]}});
    }
  Json options = row_labels(b);
  Json s = vega_base_spec(560, 240);
  s["signals"] = Json::array(
      {{{"name", "point"},
        {"value", b.rows.empty() ? "" : b.rows.front().label},
        {"bind", {{"input", "select"}, {"options", options}, {"name", b.swept + " "}}}}});
  s["data"] = Json::array({{{"name", "samples"}, {"values", values}},
                           {{"name", "shown"},
                            {"source", "samples"},
                            {"transform", Json::array({{{"type", "filter"}, {"expr", "datum.r === point"}}})}}});
  s["scales"] = Json::array(
      {{{"name", "x"}, {"type", "linear"}, {"zero", false}, {"nice", true}, {"range", "width"},
        {"domain", {{"data", "shown"}, {"field", "s"}}}},
       {{"name", "y"}, {"type", "linear"}, {"zero", false}, {"nice", true}, {"range", "height"},
        {"domain", {{"data", "shown"}, {"field", "v"}}}},
       colour_scale(c)});
  s["axes"] = Json::array({axis("bottom", "x", "iteration in run order"), axis("left", "y", y_title(b))});
  s["legends"] = legend();
  s["marks"] = Json::array(
      {{{"type", "group"},
        {"from", {{"facet", {{"name", "series"}, {"data", "shown"}, {"groupby", "c"}}}}},
        {"marks", Json::array({{{"type", "line"},
                                {"from", {{"data", "series"}}},
                                {"sort", {{"field", "datum.s"}}},
                                {"encode", {{"update", {{"x", {{"scale", "x"}, {"field", "s"}}},
                                                        {"y", {{"scale", "y"}, {"field", "v"}}},
                                                        {"stroke", {{"scale", "colour"}, {"field", "c"}}},
                                                        {"strokeOpacity", {{"value", 0.4}}}}}}}}})}},
       {{"type", "symbol"},
        {"from", {{"data", "shown"}}},
        {"encode", {{"update", {{"x", {{"scale", "x"}, {"field", "s"}}},
                                {"y", {{"scale", "y"}, {"field", "v"}}},
                                {"fill", {{"scale", "colour"}, {"field", "c"}}},
                                {"size", {{"value", 25}}},
                                {"tooltip", {{"signal", "{'column': datum.c, 'iteration': datum.s, 'value': datum.v}"}}}}}}}}});
  return s;
}

// The tasks monitor's CPUs hit, summed over a block's rows, per column.
Json cpus_spec(const Comparison& c, const MonitorBlock& m) {
  std::map<std::pair<int, std::size_t>, std::uint64_t> hits;
  for (const auto& r : m.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      for (const auto& [cpu, n] : r.cells[i].cpu_hits) hits[{cpu, i}] += n;
  Json values = Json::array();
  std::set<int> cpus;
  for (const auto& [key, n] : hits) {
    cpus.insert(key.first);
    values.push_back({{"cpu", std::to_string(key.first)}, {"c", c.columns[key.second].label}, {"n", n}});
  }
  Json domain = Json::array();
  for (int cpu : cpus) domain.push_back(std::to_string(cpu));
  Json s = vega_base_spec(plot_width(cpus.size() * c.columns.size()), 200);
  s["data"] = Json::array({{{"name", "hits"}, {"values", values}}});
  s["scales"] = Json::array(
      {{{"name", "xcpu"}, {"type", "band"}, {"domain", domain}, {"range", "width"}, {"paddingInner", 0.2}},
       {{"name", "y"}, {"type", "linear"}, {"nice", true}, {"range", "height"},
        {"domain", {{"data", "hits"}, {"field", "n"}}}},
       colour_scale(c)});
  s["axes"] = Json::array({axis("bottom", "xcpu", "CPU"), axis("left", "y", "samples on the CPU")});
  s["legends"] = legend();
  s["marks"] = Json::array({{
      {"type", "group"},
      {"from", {{"facet", {{"name", "cpu"}, {"data", "hits"}, {"groupby", "cpu"}}}}},
      {"encode", {{"enter", {{"x", {{"scale", "xcpu"}, {"field", "cpu"}}},
                             {"width", {{"scale", "xcpu"}, {"band", 1}}}}}}},
      {"signals", Json::array({{{"name", "width"}, {"update", "bandwidth('xcpu')"}}})},
      {"scales", Json::array({{{"name", "xcol"}, {"type", "band"}, {"domain", labels_of(c)}, {"range", "width"}}})},
      {"marks", Json::array({{{"type", "rect"},
                              {"from", {{"data", "cpu"}}},
                              {"encode", {{"enter", {{"x", {{"scale", "xcol"}, {"field", "c"}}},
                                                     {"width", {{"scale", "xcol"}, {"band", 1}}},
                                                     {"y", {{"scale", "y"}, {"field", "n"}}},
                                                     {"y2", {{"scale", "y"}, {"value", 0}}},
                                                     {"fill", {{"scale", "colour"}, {"field", "c"}}},
                                                     {"tooltip", {{"signal", "{'column': datum.c, 'cpu': datum.cpu, 'samples': datum.n}"}}}}}}}}})}}});
  return s;
}

// ---- tables ---------------------------------------------------------------

std::string number(std::optional<double> v, int precision) {
  return v ? fmt::format("{:.{}f}", *v, precision) : "n/a";
}

// One cell of the compare table: the centre and change as render_text
// prints them, then the interval or why there is none.
std::string cell_html(const Cell& cell, const Block& b, std::size_t block, std::size_t row,
                      std::size_t col) {
  const int p = b.metric.precision;
  std::string attrs = fmt::format(" data-block=\"{}\" data-row=\"{}\" data-col=\"{}\" data-n=\"{}\"", block,
                                  row, col, cell.n);
  // Never planned for this column: blank, not FAIL.
  if (!cell.measured) return fmt::format("<td class=\"blank\"{}></td>", attrs);
  if (cell.n == 0 && !cell.unsupported.empty())
    return fmt::format("<td class=\"na\"{}><span class=\"centre\">n/a</span> <span "
                       "class=\"why\">{}</span></td>",
                       attrs, esc(cell.unsupported));
  if (cell.n == 0)
    return fmt::format("<td class=\"fail\"{}><span class=\"centre\">FAIL</span>{}</td>", attrs,
                       cell.failed ? fmt::format(" <span class=\"why\">{} failed</span>", cell.failed)
                                   : std::string(" <span class=\"why\">no samples</span>"));
  const bool unlike = !cell.unlike_baseline.empty();
  std::string out = fmt::format("<td class=\"{}\"{}><span class=\"centre\">{}</span> ",
                                unlike ? "unlike" : cell.significant ? "sig" : "", attrs, number(cell.centre, p));
  if (unlike && cell.pct)
    out += fmt::format("<span class=\"pct\">!{:.2f}%!</span>", *cell.pct);
  else if (!cell.pct) out += "<span class=\"pct\">(n/a)</span>";
  else if (cell.significant) out += fmt::format("<span class=\"pct\">*{:.2f}%*</span>", *cell.pct);
  else out += fmt::format("<span class=\"pct\">({:.2f}%)</span>", *cell.pct);
  if (cell.ci.ci)
    out += fmt::format("<br><span class=\"ci\">[{}, {}]</span>", number(cell.ci.ci->low, p),
                       number(cell.ci.ci->high, p));
  else
    out += fmt::format("<br><span class=\"noci\">no interval: {}</span>",
                       esc(cell.ci.reason.empty() ? "not computed" : cell.ci.reason));
  out += fmt::format(" <span class=\"n\">n={}</span>", cell.n);
  if (cell.failed) out += fmt::format(" <span class=\"why\">{} failed</span>", cell.failed);
  if (unlike)
    out += fmt::format("<br><span class=\"why\">other parameters: {}</span>", esc(fmt::format("{}", fmt::join(cell.unlike_baseline, ", "))));
  return out + "</td>";
}

std::string compare_table(const Comparison& c, const Block& b, std::size_t k) {
  std::string out = fmt::format("<table class=\"compare\" id=\"t{}\"><thead><tr><th></th><th>{}</th>", k,
                                esc(b.swept));
  for (const auto& col : c.columns) out += "<th>" + esc(col.label) + "</th>";
  out += "</tr></thead><tbody>\n";
  const std::size_t stats = std::max<std::size_t>(b.stat_rows.size(), 1);
  for (std::size_t s = 0; s < stats; ++s) {
    const bool centre = b.stat_rows.empty() || s == b.centre_row;
    const std::string op = centre ? std::string(operation(b.metric)) : b.stat_rows[s];
    for (std::size_t r = 0; r < b.rows.size(); ++r) {
      const Row& row = b.rows[r];
      out += fmt::format("<tr><th>{}</th><th>{}</th>", esc(op), esc(row.label));
      for (std::size_t i = 0; i < row.cells.size(); ++i) {
        const Cell& cell = row.cells[i];
        if (centre) {
          out += cell_html(cell, b, k, r, i);
        } else if (!cell.measured) {
          out += "<td class=\"blank\"></td>";
        } else {
          out += fmt::format("<td class=\"stat\">{}", cell.n ? number(cell.stat_values[s], b.metric.precision)
                                                             : std::string(cell.unsupported.empty() ? "FAIL" : "n/a"));
          if (cell.stat_pcts[s]) out += fmt::format(" ({:.2f}%)", *cell.stat_pcts[s]);
          out += "</td>";
        }
      }
      out += "</tr>\n";
    }
  }
  if (b.rows.size() > 1) {
    out += "<tr><th>Ratio</th><th></th>";
    for (const auto& r : b.ratio) out += "<td>" + number(r.gmean, 4) + "</td>";
    out += "</tr>\n";
  }
  std::string note = esc(table_note(c, b));  // escaped first: the <br>s are ours
  for (std::size_t at; (at = note.find('\n')) != std::string::npos && at + 1 < note.size();)
    note.replace(at, 1, "<br>");
  return out + "</tbody></table>\n<p class=\"note\">" + note + "</p>\n";
}

// A change as a background: blue down, orange up, stronger with size (50%
// is full); whether up is better depends on the counter.
std::string change_style(std::optional<double> v, std::optional<double> base) {
  if (!v || !base || *base == 0) return "";
  const double pct = (*v - *base) / std::abs(*base) * 100;
  const double a = std::min(std::abs(pct) / 50.0, 1.0) * 0.6;
  return fmt::format(" style=\"background: rgba({}, {:.2f})\" title=\"{:+.1f}% vs baseline\"",
                     pct < 0 ? "66, 133, 244" : "255, 152, 0", a, pct);
}

std::string monitors_table(const Comparison& c, const MonitorBlock& m) {
  using Field = std::optional<double> MonitorCell::*;
  const std::tuple<const char*, Field, int> fields[] = {
      {"Ctxsw/s", &MonitorCell::ctxt_per_s, 1},        {"Migr/s", &MonitorCell::migrations_per_s, 1},
      {"Intr/s", &MonitorCell::interrupts_per_s, 1},    {"WakeLoc%", &MonitorCell::ttwu_local_pct, 2},
      {"TaskMigr", &MonitorCell::task_migrations, 1}, {"Tasks", &MonitorCell::tasks, 1}};
  std::string out = "<table class=\"monitors\"><thead><tr><th></th><th></th>";
  for (const auto& col : c.columns) out += "<th>" + esc(col.label) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (const auto& [name, field, precision] : fields) {
    const bool any = std::any_of(m.rows.begin(), m.rows.end(), [&, f = field](const MonitorRow& r) {
      return std::any_of(r.cells.begin(), r.cells.end(), [&](const MonitorCell& x) { return (x.*f).has_value(); });
    });
    if (!any) continue;
    for (const auto& r : m.rows) {
      out += fmt::format("<tr><th>{}</th><th>{}</th>", name, esc(r.label));
      for (const auto& cell : r.cells)
        out += fmt::format("<td{}>{}</td>", change_style(cell.*field, r.cells.front().*field),
                           number(cell.*field, precision));
      out += "</tr>\n";
    }
  }
  return out + "</tbody></table>\n<p class=\"note\">Ctxsw/s: context switches; Migr/s: tasks moved by load "
               "balancing (schedstat lb_gained + alb_pushed); Intr/s: interrupts; WakeLoc%: wakeups of the "
               "local CPU; colour: change against the baseline column (blue lower, orange higher).</p>\n";
}

std::string header(const Comparison& c) {
  std::string out = "<section class=\"header\"><ul>";
  for (const auto& r : c.runs) out += "<li>" + esc(describe_run(r)) + "</li>";
  out += "</ul>";
  if (const std::string e = emulation_note(c.runs); !e.empty()) out += "<p class=\"emulated\">" + esc(e) + "</p>";
  if (c.differences.empty()) {
    out += "<p>The columns' runs do not differ in kernel, cmdline, host, CPU, knobs, recorded SUT state, workload parameters or config.</p>";
  } else {
    out += "<table class=\"differences\"><thead><tr><th>differs</th>";
    for (const auto& col : c.columns) out += "<th>" + esc(col.label) + "</th>";
    out += "</tr></thead><tbody>";
    for (const auto& d : c.differences) {
      out += "<tr><th>" + esc(d.what()) + "</th>";
      for (const auto& v : d.values) out += "<td>" + esc(v ? *v : "-") + "</td>";
      out += "</tr>";
    }
    out += "</tbody></table>";
  }
  return out + "</section>\n";
}

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:1em 2em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}
td{text-align:right;font-family:monospace;white-space:nowrap}td.sig{font-weight:bold}td.fail{color:#b00}
td.unlike{background:#fde9c8}.n{font-size:11px;color:#666}
td.better{background:#d8f0d8}td.worse{background:#f6d5d5}
.ci,.noci,.why{font-size:11px;color:#666}.noci{color:#a60}.note{font-size:12px;color:#555}
.plots{display:flex;flex-wrap:wrap;gap:1em}.plot{overflow-x:auto;max-width:100%}
.plot h4{margin:.2em 0;font-size:13px}.emulated{color:#b00})";

// Runs every view, then records per plot how many marks it drew.
constexpr const char* kBoot = R"((function(){
function marks(m){var n=0;if(m.marktype!=='group'&&m.role==='mark')n+=m.items.length;
(m.items||[]).forEach(function(it){(it.items||[]).forEach(function(c){n+=marks(c);});});return n;}
var t0=performance.now();
var plots=JSON.parse(document.getElementById('schedlab-plots').textContent);
window.schedlabReport={done:false,plots:[]};
Promise.all(plots.map(function(p){
  var view=new vega.View(vega.parse(p.spec),{renderer:'canvas',container:'#'+p.id,hover:true});
  return view.runAsync().then(function(){return {id:p.id,kind:p.kind,marks:marks(view.scenegraph().root)};});
})).then(function(r){window.schedlabReport={done:true,plots:r,ms:performance.now()-t0};},
function(e){console.error('schedlab report: '+e);window.schedlabReport={done:true,error:String(e),plots:[]};});
})();)";

}  // namespace

std::vector<PlotSpec> block_plots(const Comparison& c, std::size_t k, const std::string& id_prefix) {
  const Block& b = c.blocks.at(k);
  const std::string id = fmt::format("{}p{}", id_prefix, k);
  return {{id + "-scaling", "scaling", scaling_spec(c, b)},
          {id + "-samples", "samples", samples_spec(c, b)},
          {id + "-order", "order", order_spec(c, b)}};
}

std::string render_html(const Comparison& c, const std::string& vega_script,
                        const std::string& page_title, const std::string& lead) {
  Json plots = Json::array();
  const std::string body = comparison_html(c, "", plots);
  return html_page(page_title, vega_script, header(c) + lead + body, plots);
}

std::string comparison_html(const Comparison& c, const std::string& id_prefix,
                            nlohmann::ordered_json& plots) {
  std::string body;
  auto add = [&](const PlotSpec& p, const char* caption) {
    body += fmt::format("<div class=\"plot\"><h4>{}</h4><div id=\"{}\"></div></div>\n", caption, p.id);
    plots.push_back({{"id", p.id}, {"kind", p.kind}, {"spec", p.spec}});
  };
  for (std::size_t k = 0; k < c.blocks.size(); ++k) {
    const Block& b = c.blocks[k];
    const bool first = k == 0 || c.blocks[k - 1].name != b.name || c.blocks[k - 1].workload != b.workload;
    if (first) body += fmt::format("<section class=\"block\"><h2>{}</h2>\n", esc(b.name));
    body += fmt::format("<h3>{}</h3>\n", esc(title(b))) + compare_table(c, b, k);
    body += "<div class=\"plots\">\n";
    const char* captions[] = {"centre and interval by point", "every sample (box: quartiles)",
                              "samples in run order"};
    const auto specs = block_plots(c, k, id_prefix);
    for (std::size_t i = 0; i < specs.size(); ++i) add(specs[i], captions[i]);
    body += "</div>\n";
    const bool last = k + 1 == c.blocks.size() || c.blocks[k + 1].name != b.name ||
                      c.blocks[k + 1].workload != b.workload;
    if (!last) continue;
    for (std::size_t mi = 0; mi < c.monitors.size(); ++mi) {
      const MonitorBlock& m = c.monitors[mi];
      const bool measured = std::any_of(m.rows.begin(), m.rows.end(), [](const MonitorRow& r) {
        return std::any_of(r.cells.begin(), r.cells.end(), [](const MonitorCell& x) { return x.n > 0; });
      });
      if (m.workload != b.workload || m.block != b.name || !measured) continue;
      body += "<h3>monitors (per iteration, mean over the cell's ok iterations)</h3>\n" + monitors_table(c, m);
      const bool hits = std::any_of(m.rows.begin(), m.rows.end(), [](const MonitorRow& r) {
        return std::any_of(r.cells.begin(), r.cells.end(), [](const MonitorCell& x) { return !x.cpu_hits.empty(); });
      });
      if (hits) add({fmt::format("{}m{}-cpus", id_prefix, mi), "cpus", cpus_spec(c, m)}, "CPUs hit by the workload's tasks (tasks monitor)");
    }
    body += "</section>\n";
  }
  std::string f = footer(c);
  if (!f.empty()) body += "<p class=\"footer\">" + esc(f) + "</p>\n";
  return body;
}

std::string html_page(const std::string& page_title, const std::string& vega_script,
                      const std::string& body, const nlohmann::ordered_json& plots) {
  std::string out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" +
                    esc(page_title) + "</title>\n<style>" + kStyle + "</style>\n<script>" +
                    script_safe(vega_script) + "</script>\n</head><body>\n<h1>" + esc(page_title) +
                    "</h1>\n" + body;
  out += "<script type=\"application/json\" id=\"schedlab-plots\">" + script_safe(plots.dump()) +
         "</script>\n";
  return out + "<script>" + script_safe(kBoot) + "</script>\n</body></html>\n";
}

std::string script_safe(std::string_view text) {
  // The HTML standard ("Restrictions for contents of script elements"):
  // inside a <script>, "<!--" then "<script" switches the tokenizer to
  // script data double escaped, where "</script>" no longer ends the
  // element and the rest of the page becomes script; "</script" ends it
  // early. The '<' of each, in any case, is written \u003c: JSON reads it
  // back as '<', and so does JavaScript in a string, a regular expression
  // or a comment (the standard's advice for literals; code must not use
  // these sequences as operators).
  static constexpr std::string_view kOpeners[] = {"<!--", "<script", "</script"};
  const auto opens_at = [&](std::size_t i) {
    for (auto o : kOpeners) {
      if (text.size() - i < o.size()) continue;
      bool same = true;
      for (std::size_t k = 1; k < o.size() && same; ++k)
        same = std::tolower(static_cast<unsigned char>(text[i + k])) == o[k];
      if (same) return true;
    }
    return false;
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<' && opens_at(i))
      out += "\\u003c";
    else
      out += text[i];
  }
  return out;
}

std::string html_escape(std::string_view s) { return esc(s); }

nlohmann::ordered_json vega_base_spec(int width, int height) {
  return {{"$schema", "https://vega.github.io/schema/vega/v5.json"},
          {"width", width},
          {"height", height},
          {"padding", 5},
          {"autosize", "pad"}};
}

nlohmann::ordered_json points_with_ci_data(nlohmann::ordered_json values) {
  return Json::array({{{"name", "points"}, {"values", std::move(values)}},
                      {{"name", "ci"},
                       {"source", "points"},
                       {"transform", Json::array({{{"type", "filter"}, {"expr", "isValid(datum.lo)"}}})}}});
}

nlohmann::ordered_json y_scale_with_ci() {
  return {{"name", "y"}, {"type", "linear"}, {"zero", false}, {"nice", true}, {"range", "height"},
          {"domain", {{"fields", Json::array({{{"data", "points"}, {"field", "y"}},
                                              {{"data", "ci"}, {"field", "lo"}},
                                              {{"data", "ci"}, {"field", "hi"}}})}}}};
}

}  // namespace schedlab
