// schedlab report: the page. Tables are HTML written here (the same numbers
// as render_text, and why a cell has no interval); plots are Vega specs
// built from the same Comparison, drawn by the inlined Vega script. The
// page's own script only parses the specs, runs the views and records what
// they drew (window.schedlabReport), which the browser test reads.
#include "analysis/render/render_html.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "analysis/compare/emulation.h"
#include "analysis/compare/sequential_cells.h"
#include "analysis/render/flame_assets.h"
#include "analysis/render/render_changed.h"
#include "analysis/render/render_parts.h"
#include "analysis/render/render_profiles.h"
#include "analysis/render/report_plots.h"
#include "base/text.h"

namespace schedlab {
namespace {

using Json = nlohmann::ordered_json;
using namespace render_parts;

std::string esc(std::string_view s) { return html_escape(s); }

// ---- tables ---------------------------------------------------------------

std::string number(std::optional<double> v, int precision) {
  return v ? fixed_text(*v, precision) : "n/a";
}

std::string pct_text(double pct) {
  return fixed_text(pct, 2, kPctLimit);
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
  const SequentialCell* seq = cell.sequential ? &*cell.sequential : nullptr;
  if (seq) attrs += fmt::format(" data-sequential=\"{}\"", esc(seq->decision));
  // mmtests' compare-kernels colours: a significant change green when
  // better, red when worse (pct is positive when better, whatever the
  // metric's direction).
  const char* colour = unlike                                 ? "unlike"
                       : !cell.significant || !cell.pct       ? ""
                       : *cell.pct > 0                        ? "better"
                       : *cell.pct < 0                        ? "worse"
                                                              : "";
  std::string out = fmt::format("<td class=\"{}\"{}><span class=\"centre\">{}</span> ", colour, attrs,
                                number(cell.centre, p));
  if (unlike && cell.pct)
    out += fmt::format("<span class=\"pct\">!{}%!</span>", pct_text(*cell.pct));
  else if (seq && cell.pct)
    out += fmt::format("<span class=\"pct\">{1}{0}%{1}</span>", pct_text(*cell.pct),
                       sequential_marker(*seq));
  else if (!cell.pct) out += "<span class=\"pct\">(n/a)</span>";
  else if (cell.significant)
    out += fmt::format("<span class=\"pct\">*{}%*</span>", pct_text(*cell.pct));
  else
    out += fmt::format("<span class=\"pct\">({}%)</span>", pct_text(*cell.pct));
  if (cell.ci.ci)
    out += fmt::format("<br><span class=\"ci\">[{}, {}]{}</span>", number(cell.ci.ci->low, p),
                       number(cell.ci.ci->high, p),
                       cell.ci.cut ? " <span title=\"cut to the metric's domain\">cut</span>" : "");
  else
    out += fmt::format("<br><span class=\"noci\">no interval: {}</span>",
                       esc(cell.ci.reason.empty() ? "not computed" : cell.ci.reason));
  out += fmt::format(" <span class=\"n\">n={}</span>", cell.n);
  if (cell.failed) out += fmt::format(" <span class=\"why\">{} failed</span>", cell.failed);
  if (unlike)
    out += fmt::format("<br><span class=\"why\">other parameters: {}</span>", esc(fmt::format("{}", fmt::join(cell.unlike_baseline, ", "))));
  if (seq) {
    // The test's own numbers: its decision, and the adjusted p and interval.
    std::string what = seq->finished ? fmt::format("{} after {} look{}", seq->decision, seq->looks, seq->looks == 1 ? "" : "s")
                                     : fmt::format("undecided, still looking ({} looks)", seq->looks);
    if (seq->p_value) what += ", " + p_value_text(*seq->p_value, 3, " ");
    if (seq->ci_low && seq->ci_high)
      what += fmt::format(", {:g}% [{:+.2f}%, {:+.2f}%]", seq->level * 100, *seq->ci_low, *seq->ci_high);
    out += fmt::format("<br><span class=\"sequential\">sequential: {}{}</span>", esc(what),
                       seq->looks ? " (" + esc(seq->method()) + ")" : "");
  }
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
          if (cell.stat_pcts[s]) out += fmt::format(" ({}%)", pct_text(*cell.stat_pcts[s]));
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
  std::string note = esc(table_note(c, b) +
                         "colour: green significantly better, red significantly worse than the baseline\n");
  // escaped first: the <br>s are ours
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
  // What the short column labels of the tables and plot legends stand for.
  if (!c.column_key.empty()) {
    out += "<p class=\"key\">Columns: ";
    for (std::size_t i = 0; i < c.column_key.size(); ++i)
      out += fmt::format("{}<b>{}</b> = {}", i ? "; " : "", esc(c.column_key[i].first), esc(c.column_key[i].second));
    out += "</p>";
  }
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
td{text-align:right;font-family:monospace;white-space:nowrap}td.fail{color:#b00}
td.unlike{background:#fde9c8}.n{font-size:11px;color:#666}.key{font-size:13px;overflow-wrap:anywhere}
td.better{background:#d8f0d8;font-weight:bold}td.worse{background:#f6d5d5;font-weight:bold}
.ci,.noci,.why,.sequential{font-size:11px;color:#666}.noci{color:#a60}.note{font-size:12px;color:#555}
.plots{display:flex;flex-wrap:wrap;gap:1em}.plot{overflow-x:auto;max-width:100%}
.plot h4{margin:.2em 0;font-size:13px}.emulated{color:#b00})";

// The profiles section's, added only to a page that has one.
constexpr std::string_view kFlameStyle =
    ".flame{overflow-x:auto;max-width:100%}.flame h4{margin:.2em 0;font-size:13px;font-weight:"
    "normal}table.moved td.symbol{text-align:left}";

// Runs every view, then records per plot how many marks it drew. The
// renderer is canvas, or SVG for ?renderer=svg (the browser test reads the
// SVG's text: legend labels, axis ticks).
constexpr const char* kBoot = R"((function(){
function marks(m){var n=0;if(m.marktype!=='group'&&m.role==='mark')n+=m.items.length;
(m.items||[]).forEach(function(it){(it.items||[]).forEach(function(c){n+=marks(c);});});return n;}
var t0=performance.now();
var plots=JSON.parse(document.getElementById('schedlab-plots').textContent);
var renderer=new URLSearchParams(location.search).get('renderer')==='svg'?'svg':'canvas';
window.schedlabReport={done:false,plots:[]};
Promise.all(plots.map(function(p){
  var view=new vega.View(vega.parse(p.spec),{renderer:renderer,container:'#'+p.id,hover:true});
  return view.runAsync().then(function(){return {id:p.id,kind:p.kind,marks:marks(view.scenegraph().root)};});
})).then(function(r){window.schedlabReport={done:true,plots:r,ms:performance.now()-t0};},
function(e){console.error('schedlab report: '+e);window.schedlabReport={done:true,error:String(e),plots:[]};});
})();)";

}  // namespace

std::string render_html(const Comparison& c, const std::string& vega_script,
                        const std::string& page_title, const std::string& lead) {
  Json plots = Json::array();
  Json flames = Json::array();
  const std::string body = comparison_html(c, "", plots, &flames);
  return html_page(page_title, vega_script, header(c) + lead + body, plots, flames);
}

std::string comparison_html(const Comparison& c, const std::string& id_prefix,
                            nlohmann::ordered_json& plots, nlohmann::ordered_json* flames) {
  std::string body;
  auto add = [&](const PlotSpec& p) {
    body += fmt::format("<div class=\"plot\"><h4>{}</h4><div id=\"{}\"></div></div>\n", esc(p.caption), p.id);
    plots.push_back({{"id", p.id}, {"kind", p.kind}, {"spec", p.spec}});
  };
  for (std::size_t k = 0; k < c.blocks.size(); ++k) {
    const Block& b = c.blocks[k];
    const bool first = k == 0 || c.blocks[k - 1].name != b.name || c.blocks[k - 1].workload != b.workload;
    if (first) body += fmt::format("<section class=\"block\"><h2>{}</h2>\n", esc(b.name));
    body += fmt::format("<h3>{}</h3>\n", esc(title(b)));
    // The % change at a glance first, then the table, then the samples.
    const auto specs = block_plots(c, k, id_prefix);
    std::size_t i = 0;
    if (!specs.empty() && specs.front().kind == "change") {
      body += "<div class=\"plots\">\n";
      add(specs[i++]);
      body += "</div>\n";
    }
    body += compare_table(c, b, k) + "<div class=\"plots\">\n";
    for (; i < specs.size(); ++i) add(specs[i]);
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
      if (hits)
        add({fmt::format("{}m{}-cpus", id_prefix, mi), "cpus", "CPUs hit by the workload's tasks (tasks monitor)",
             cpus_spec(c, m)});
    }
    body += "</section>\n";
  }
  if (c.changed) body += render_changed_html(*c.changed);  // two columns: what else changed
  if (flames) body += profiles_html(c, id_prefix, *flames);
  std::string f = footer(c);
  if (!f.empty()) body += "<p class=\"footer\">" + esc(f) + "</p>\n";
  return body;
}

std::string html_page(const std::string& page_title, const std::string& vega_script,
                      const std::string& body, const nlohmann::ordered_json& plots,
                      const nlohmann::ordered_json& flames) {
  // The title names runs from a database: a right-to-left override or a
  // control character in it is shown escaped, as on a terminal.
  const std::string title = esc(terminal_safe(page_title));
  std::string out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title +
                    "</title>\n<style>" + kStyle + "</style>\n<script>" + script_safe(vega_script) +
                    "</script>\n</head><body>\n<h1>" + title + "</h1>\n" + body;
  out += "<script type=\"application/json\" id=\"schedlab-plots\">" + script_safe(plots.dump()) +
         "</script>\n";
  // Flame graphs are drawn before the plots: window.schedlabFlames is done
  // by the time window.schedlabReport is.
  if (flames.is_array() && !flames.empty()) {
    out += "<style>" + std::string(kFlameStyle) + "</style>\n";
    out += "<script>/* d3 v7.9.2, ISC licence: third_party/d3 */\n" +
           script_safe(flame_assets::kD3) + "</script>\n";
    out +=
        "<script>/* d3-flame-graph 5.0.0 by Martin Spier, Apache License 2.0: "
        "third_party/d3-flame-graph */\n" +
        script_safe(flame_assets::kFlameGraph) + "</script>\n";
    out += "<script type=\"application/json\" id=\"schedlab-flames\">" +
           script_safe(flames.dump()) + "</script>\n";
    out += "<script>" + script_safe(flame_boot_script()) + "</script>\n";
  }
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

}  // namespace schedlab
