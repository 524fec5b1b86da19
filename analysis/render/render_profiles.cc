#include "analysis/render/render_profiles.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/render/flame_graph.h"
#include "analysis/render/html_escape.h"

namespace schedlab {
namespace {

std::string count_of(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// What the trim and the depth cut left out, as the caption says it.
std::string flame_trim_note(const FlameGraph& g) {
  std::string out;
  if (g.left_out)
    out += fmt::format(
        "; {} under {:g}% of samples left out (their samples stay in their "
        "callers' width)",
        count_of(g.left_out, "frame", "frames"), g.min_pct);
  if (g.cut_stacks)
    out += fmt::format("; {} deeper than {} frames cut there",
                       count_of(g.cut_stacks, "stack", "stacks"), kMaxFlameDepth);
  return out;
}

// A share's change as a background: red grew, blue shrank, as the
// differential graph colours frames.
std::string share_change_cell(double pp) {
  const double a = std::min(std::abs(pp) / 10.0, 1.0) * 0.6;
  if (pp == 0) return fmt::format("<td>{:+.2f}</td>", pp);
  return fmt::format("<td class=\"{}\" style=\"background: rgba({}, {:.2f})\">{:+.2f}</td>",
                     pp > 0 ? "grew" : "shrank", pp > 0 ? "230, 60, 60" : "60, 90, 230", a, pp);
}

// The profile rows of "what changed": symbol, self or children, both
// means, the change in percentage points, q.
std::string moved_symbols_html(const ChangedTable& t) {
  std::string out = fmt::format("<h3>Symbols whose share of samples moved, {} &rarr; {}</h3>\n",
                                html_escape(t.base_label), html_escape(t.label));
  std::string rows;
  for (const ChangedRow& r : t.rows) {
    if (!r.counter.starts_with("profile.")) continue;
    const std::string rest = r.counter.substr(std::string_view("profile.").size());
    const auto dot = rest.find('.');
    const std::string kind = rest.substr(0, dot);
    const std::string symbol = dot == std::string::npos ? "" : rest.substr(dot + 1);
    rows += fmt::format(
        "<tr><td class=\"point\">{}</td><td class=\"symbol\">{}</td><td>{}</td><td>{:.2f}</td>"
        "<td>{:.2f}</td>{}<td>{:.2g}</td></tr>\n",
        html_escape(r.row.empty() ? r.block : r.block + " " + r.row), html_escape(symbol),
        html_escape(kind), r.base_mean, r.mean,
        share_change_cell(r.change_pp.value_or(r.mean - r.base_mean)), r.q);
  }
  if (rows.empty())
    return out + fmt::format(
                     "<p>No symbol's share moved (Benjamini-Hochberg q &le; {:g}, as in "
                     "What changed).</p>\n",
                     t.fdr);
  return out +
         fmt::format(
             "<table class=\"moved\"><thead><tr><th>point</th><th>symbol</th><th>share</th>"
             "<th>{} %</th><th>{} %</th><th>change (pp)</th><th>q</th></tr></thead><tbody>\n",
             html_escape(t.base_label), html_escape(t.label)) +
         rows +
         "</tbody></table>\n<p class=\"note\">self: samples whose leaf is the symbol; children: "
         "samples with the symbol anywhere on the stack (perf report's Children); means over "
         "iterations, in percent of all samples; the profile rows of What changed.</p>\n";
}

}  // namespace

std::string profiles_html(const Comparison& c, const std::string& id_prefix,
                          nlohmann::ordered_json& flames) {
  if (c.profiles.empty()) return "";
  std::string out =
      "<section class=\"profiles\"><h2>Profiles (perf-profile)</h2>\n<p class=\"note\">perf "
      "record -a -g: call stacks sampled on every CPU over each iteration's measured steps; a "
      "column's graph merges all its iterations. A frame's width is its share of the samples; "
      "click a frame to zoom.</p>\n";
  if (c.changed) out += moved_symbols_html(*c.changed);
  auto graph = [&](const std::string& id, const char* kind, const std::string& caption,
                   const FlameGraph& g) {
    out += fmt::format("<div class=\"flame\"><h4>{}</h4><div id=\"{}\"></div></div>\n",
                       html_escape(caption), id);
    flames.push_back({{"id", id}, {"kind", kind}, {"max_pp", g.max_change_pp}, {"tree", g.tree}});
  };
  const ColumnProfile& base = c.profiles.front();
  for (std::size_t i = 0; i < c.profiles.size() && i < c.columns.size(); ++i) {
    const ColumnProfile& p = c.profiles[i];
    const std::string& label = c.columns[i].label;
    if (!p.iterations) {
      out += fmt::format("<p class=\"note\">{}: no stored profile.</p>\n", html_escape(label));
      continue;
    }
    const FlameGraph g = flame_graph(p.folded);
    graph(fmt::format("{}flame{}", id_prefix, i), "column",
          fmt::format("{}: {} from {} merged{}", label, count_of(p.samples, "sample", "samples"),
                      count_of(p.iterations, "iteration", "iterations"), flame_trim_note(g)),
          g);
    if (i == 0 || !base.iterations) continue;
    const FlameGraph d = differential_flame_graph(base.folded, p.folded);
    graph(fmt::format("{}flamediff{}", id_prefix, i), "diff",
          fmt::format("{} against {}: widths from {}; red where a frame's share of samples grew, "
                      "blue where it shrank, the deepest colour {:.2f} percentage points; frames "
                      "only {} has do not show{}",
                      label, c.columns[0].label, label, d.max_change_pp, c.columns[0].label,
                      flame_trim_note(d)),
          d);
  }
  return out + "</section>\n";
}

std::string no_profiles_html(const std::string& error) {
  if (!error.empty())
    return "<p class=\"note\">No flame graphs: a stored perf-profile did not load: " +
           html_escape(error) + "</p>\n";
  return "<p class=\"note\">No flame graphs: neither column has a stored perf-profile "
         "(the perf-profile monitor records one per iteration).</p>\n";
}

std::string_view flame_boot_script() {
  // flamegraph.pl's differential colours: red for growth, blue for a
  // shrink, paler the smaller the change against the largest.
  return R"((function(){
var t0=performance.now(),out=[];
try{
var graphs=JSON.parse(document.getElementById('schedlab-flames').textContent);
graphs.forEach(function(g){
  var total=g.tree.v||1;
  var chart=flamegraph.default().width(1200).cellHeight(18).transitionDuration(0).minFrameSize(1).title('');
  if(g.kind==='diff'){
    var m=g.max_pp||1;
    chart.setColorMapper(function(d){
      if(d.highlight)return '#E600E6';
      var x=d.data.d||0,k=Math.round(210*(1-Math.min(Math.abs(x)/m,1)));
      return x>0?'rgb(255,'+k+','+k+')':x<0?'rgb('+k+','+k+',255)':'rgb(250,250,250)';});
    chart.setLabelHandler(function(d){var x=d.data.d||0;
      return d.data.n+' ('+(100*d.data.v/total).toFixed(2)+'% of samples, '+(x>0?'+':'')+x.toFixed(2)+' pp)';});
  }
  d3.select(document.getElementById(g.id)).datum(g.tree).call(chart);
  out.push({id:g.id,kind:g.kind,frames:document.getElementById(g.id).querySelectorAll('g.frame').length});
});
window.schedlabFlames={done:true,graphs:out,ms:performance.now()-t0};
}catch(e){console.error('schedlab flame graphs: '+e);window.schedlabFlames={done:true,error:String(e),graphs:out};}
})();
)";
}

}  // namespace schedlab
