// schedlab report's plots: Vega specs built from a Comparison, one set per
// metric block (render_html.h's block_plots), and the tasks monitor's CPUs.
// What holds them on real data:
// - legends name columns by their labels, short when long
//   (column_labels.h), never cut; the full names ride along as data for
//   the tooltips;
// - an integer sweep (groups 1 2 4 8) is drawn on a log2 axis when it
//   grows geometrically, else a linear one, ticks at the swept values
//   only: no tick at 1.5; counts and iteration numbers get whole ticks;
// - an interval reaching past the samples (n = 2: Student's t at 1 df)
//   is clipped to their range with a triangle at the cut end, so one wide
//   interval does not flatten every line; an end cut to the metric's
//   domain (a time's interval at 0) gets a bar across it;
// - the box plot is split into panels of at most kPanelSlots boxes, so it
//   never runs off the window;
// - samples in run order are drawn only for runs that ran here (an
//   import's order is the order of its files);
// - the % change chart: per row and column, the change against the
//   baseline with its interval (OpenBenchmarking's one-glance view).
#include "analysis/render/report_plots.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>

#include "analysis/render/render_html.h"
#include "base/json_data.h"

namespace schedlab {
namespace {

using Json = nlohmann::ordered_json;

// Boxes per samples panel; at kSlotWidth pixels each a panel stays under
// 900 pixels, its legend beside it inside a 1400-pixel window.
constexpr std::size_t kPanelSlots = 64;
constexpr int kSlotWidth = 14;

Json labels_of(const Comparison& c) {
  Json a = Json::array();
  for (const auto& col : c.columns) a.push_back(col.label);
  return a;
}

Json row_labels(const Block& b, std::size_t from = 0, std::size_t to = SIZE_MAX) {
  Json a = Json::array();
  for (std::size_t r = from; r < std::min(to, b.rows.size()); ++r) a.push_back(b.rows[r].label);
  return a;
}

std::optional<double> number_label(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool whole(double v) { return std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15; }

Json colour_scale(const Comparison& c) {
  return {{"name", "colour"}, {"type", "ordinal"}, {"domain", labels_of(c)}, {"range", "category"}};
}

Json axis(const char* orient, const char* scale, const std::string& title) {
  return {{"orient", orient}, {"scale", scale}, {"title", title}, {"labelOverlap", true}};
}

// An axis of whole numbers (counts, iteration numbers): no tick between two.
Json whole_axis(const char* orient, const char* scale, const std::string& title) {
  Json a = axis(orient, scale, title);
  a["tickMinStep"] = 1;
  a["format"] = "d";
  return a;
}

std::string y_title(const Block& b) {
  return b.metric.unit.empty() ? b.metric.name : fmt::format("{} ({})", b.metric.name, b.metric.unit);
}

// The legend of the columns: labels whole, however long (Vega cuts them at
// 160 pixels by default, which made two runs of one long prefix alike).
Json legend() {
  return Json::array({{{"stroke", "colour"}, {"fill", "colour"}, {"title", "column"}, {"labelLimit", 0}}});
}

// Each column's label and full name, for tooltips (lookup by label).
Json columns_data(const Comparison& c) {
  Json values = Json::array();
  for (const auto& col : c.columns) values.push_back({{"c", col.label}, {"name", col.name()}});
  return {{"name", "columns"}, {"values", values}};
}

Json full_name_lookup() {
  return {{"type", "lookup"}, {"from", "columns"}, {"key", "c"}, {"fields", Json::array({"c"})},
          {"values", Json::array({"name"})}, {"as", Json::array({"name"})}};
}

// The samples' range of a block: what an interval is clipped to.
std::optional<std::pair<double, double>> samples_range(const Block& b) {
  std::optional<std::pair<double, double>> out;
  for (const auto& r : b.rows)
    for (const auto& cell : r.cells)
      for (double v : cell.samples)
        if (std::isfinite(v)) out = out ? std::pair{std::min(out->first, v), std::max(out->second, v)} : std::pair{v, v};
  return out;
}

// An interval's ends within [low, high], and which were cut; and which
// ends the metric's domain cut (analysis/stats/domain.h): there the interval
// truly ends.
void clipped_interval(Json& v, double lo, double hi, double low, double high, DomainCut cut) {
  v["lo"] = lo;
  v["hi"] = hi;
  v["lo_c"] = std::max(lo, low);
  v["hi_c"] = std::min(hi, high);
  v["clip_lo"] = lo < low;
  v["clip_hi"] = hi > high;
  v["cut_lo"] = cut.low;
  v["cut_hi"] = cut.high;
}

// A bar across an interval's end that the metric's domain cut (data
// "domain_cut": cut_lo or cut_hi), drawn where the end is not clipped.
Json domain_cut_marks(const char* along, const char* across, const Json& across_enc,
                      const Json& tooltip) {
  Json marks = Json::array();
  for (const auto& [flag, clip, field] :
       {std::tuple{"cut_lo", "clip_lo", "lo_c"}, std::tuple{"cut_hi", "clip_hi", "hi_c"}}) {
    Json enc = {{along, {{"scale", along}, {"field", field}}},
                {across, across_enc},
                {"shape", {{"value", "stroke"}}},
                {"angle", {{"value", along[0] == 'y' ? 0 : 90}}},
                {"size", {{"value", 120}}},
                {"strokeWidth", {{"value", 2}}},
                {"stroke", {{"scale", "colour"}, {"field", "c"}}},
                {"tooltip", tooltip}};
    const std::string shown = fmt::format("datum.{} && !datum.{} ? 1 : 0", flag, clip);
    marks.push_back({{"type", "symbol"},
                     {"from", {{"data", "domain_cut"}}},
                     {"encode", {{"enter", enc}, {"update", {{"opacity", {{"signal", shown}}}}}}}});
  }
  return marks;
}

// The intervals with an end cut to the metric's domain, from source.
Json domain_cut_data(const char* source) {
  return {
      {"name", "domain_cut"},
      {"source", source},
      {"transform", Json::array({{{"type", "filter"}, {"expr", "datum.cut_lo || datum.cut_hi"}}})}};
}

// Triangles at an interval's cut ends (data "clipped": clip_lo or clip_hi).
Json clip_marks(const char* along, const char* across, const Json& across_enc, const Json& tooltip) {
  Json marks = Json::array();
  for (const auto& [flag, field, shape] :
       {std::tuple{"clip_lo", "lo_c", along[0] == 'y' ? "triangle-down" : "triangle-left"},
        std::tuple{"clip_hi", "hi_c", along[0] == 'y' ? "triangle-up" : "triangle-right"}}) {
    Json enc = {{along, {{"scale", along}, {"field", field}}},
                {across, across_enc},
                {"shape", {{"value", shape}}},
                {"size", {{"value", 60}}},
                {"fill", {{"scale", "colour"}, {"field", "c"}}},
                {"tooltip", tooltip}};
    marks.push_back({{"type", "symbol"},
                     {"from", {{"data", "clipped"}}},
                     {"encode", {{"enter", enc}, {"update", {{"opacity", {{"signal", std::string("datum.") + flag + " ? 1 : 0"}}}}}}}});
  }
  return marks;
}

// The x scale and axis of the swept parameter.
struct SweepAxis {
  Json scale, axis;
  bool numeric = false;
};
SweepAxis sweep_axis(const Block& b) {
  std::vector<double> values;
  for (const auto& r : b.rows)
    if (const auto v = number_label(r.label)) values.push_back(*v);
  SweepAxis out;
  out.numeric = b.rows.size() > 1 && values.size() == b.rows.size();
  if (!out.numeric) {
    out.scale = {{"name", "x"}, {"type", "point"}, {"padding", 0.5}, {"range", "width"}, {"domain", row_labels(b)}};
    out.axis = axis("bottom", "x", b.swept);
    return out;
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  const bool integers = std::all_of(values.begin(), values.end(), whole);
  // Groups 1 2 4 8 (each at least 1.5 times the last): even steps on a
  // log2 axis, as the sweep was meant.
  bool geometric = integers && values.size() >= 3 && values.front() > 0;
  for (std::size_t i = 1; geometric && i < values.size(); ++i) geometric = values[i] >= 1.5 * values[i - 1];
  out.scale = {{"name", "x"}, {"type", geometric ? "log" : "linear"}, {"range", "width"}, {"zero", false},
               {"nice", false}, {"padding", 16}, {"domain", {{"data", "points"}, {"field", "x"}}}};
  if (geometric) out.scale["base"] = 2;
  out.axis = axis("bottom", "x", b.swept);
  if (integers) {
    // Ticks at the swept values only: never a 1.5 or 2.5 groups.
    out.axis["values"] = values;
    out.axis["format"] = "d";
  }
  return out;
}

// Centre and interval against the swept parameter, one line per column.
Json scaling_spec(const Comparison& c, const Block& b) {
  const SweepAxis sweep = sweep_axis(b);
  const auto range = samples_range(b);
  Json values = Json::array();
  for (const auto& r : b.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const Cell& cell = r.cells[i];
      if (!cell.centre) continue;
      Json v = {{"r", r.label}, {"c", c.columns[i].label}, {"y", *cell.centre}, {"n", cell.n}};
      v["x"] = sweep.numeric ? Json(*number_label(r.label)) : Json(r.label);
      if (cell.ci.ci) {
        const double low = range ? std::min(range->first, *cell.centre) : cell.ci.ci->low;
        const double high = range ? std::max(range->second, *cell.centre) : cell.ci.ci->high;
        clipped_interval(v, cell.ci.ci->low, cell.ci.ci->high, low, high, cell.ci.cut);
      }
      values.push_back(v);
    }
  Json s = vega_base_spec(560, 260);
  s["data"] = Json::array(
      {columns_data(c),
       {{"name", "points"}, {"values", values}, {"transform", Json::array({full_name_lookup()})}},
       {{"name", "ci"},
        {"source", "points"},
        {"transform", Json::array({{{"type", "filter"}, {"expr", "isValid(datum.lo)"}}})}},
       {{"name", "clipped"},
        {"source", "ci"},
        {"transform",
         Json::array({{{"type", "filter"}, {"expr", "datum.clip_lo || datum.clip_hi"}}})}},
       domain_cut_data("ci")});
  // The centres and the drawn (clipped) interval ends: the samples' range.
  const Json y = {{"name", "y"}, {"type", "linear"}, {"zero", false}, {"nice", false}, {"padding", 8},
                  {"range", "height"},
                  {"domain", {{"fields", Json::array({{{"data", "points"}, {"field", "y"}},
                                                      {{"data", "ci"}, {"field", "lo_c"}},
                                                      {{"data", "ci"}, {"field", "hi_c"}}})}}}};
  // Each column a few pixels beside the next at a point (Vega-Lite's
  // xOffset), so no column's interval hides the baseline's.
  Json columns = Json::array();
  for (const auto& col : c.columns) columns.push_back(col.label);
  const double spread = 3.0 * static_cast<double>(c.columns.size() - 1);
  const Json xoff = {{"name", "xoff"},
                     {"type", "point"},
                     {"domain", columns},
                     {"range", Json::array({-spread, spread})}};
  s["scales"] = Json::array({sweep.scale, y, colour_scale(c), xoff});
  s["axes"] = Json::array({sweep.axis, axis("left", "y", y_title(b))});
  s["legends"] = legend();
  const Json tooltip = {
      {"signal",
       "{'column': datum.name, 'point': datum.r, 'centre': datum.y, 'low': datum.lo, 'high': datum.hi, "
       "'n': datum.n}"}};
  const Json x = {{"scale", "x"}, {"field", "x"}, {"offset", {{"scale", "xoff"}, {"field", "c"}}}};
  Json line = {{"type", "line"},
               {"from", {{"data", "series"}}},
               {"encode", {{"enter", {{"x", x},
                                      {"y", {{"scale", "y"}, {"field", "y"}}},
                                      {"stroke", {{"scale", "colour"}, {"field", "c"}}},
                                      {"strokeWidth", {{"value", 2}}}}}}}};
  if (sweep.numeric) line["sort"] = {{"field", "datum.x"}};
  Json marks = Json::array(
      {{{"type", "group"},
        {"from", {{"facet", {{"name", "series"}, {"data", "points"}, {"groupby", "c"}}}}},
        {"marks", Json::array({line})}},
       {{"type", "rule"},
        {"from", {{"data", "ci"}}},
        {"encode", {{"enter", {{"x", x},
                               {"y", {{"scale", "y"}, {"field", "lo_c"}}},
                               {"y2", {{"scale", "y"}, {"field", "hi_c"}}},
                               {"stroke", {{"scale", "colour"}, {"field", "c"}}},
                               {"strokeWidth", {{"value", 1.5}}},
                               {"tooltip", tooltip}}}}}},
       {{"type", "symbol"},
        {"from", {{"data", "points"}}},
        {"encode", {{"enter", {{"x", x},
                               {"y", {{"scale", "y"}, {"field", "y"}}},
                               {"fill", {{"scale", "colour"}, {"field", "c"}}},
                               {"size", {{"value", 30}}},
                               {"tooltip", tooltip}}}}}}});
  for (auto& m : clip_marks("y", "x", x, tooltip)) marks.push_back(m);
  for (auto& m : domain_cut_marks("y", "x", x, tooltip)) marks.push_back(m);
  s["marks"] = marks;
  return s;
}

// A deterministic spread in [-0.35, 0.35] so equal samples do not hide.
double jitter(std::size_t k) {
  return (static_cast<double>((k * 2654435761u) % 1000) / 1000.0 - 0.5) * 0.7;
}

// Every sample of rows [from, to) per row and column: points over a box
// (quartiles, median).
Json samples_spec(const Comparison& c, const Block& b, std::size_t from, std::size_t to) {
  Json values = Json::array();
  std::size_t k = 0;
  for (std::size_t ri = from; ri < to; ++ri) {
    const Row& r = b.rows[ri];
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      for (double v : r.cells[i].samples)
        values.push_back({{"r", r.label}, {"c", c.columns[i].label}, {"v", v}, {"j", jitter(k++)}});
  }
  const std::size_t slots = (to - from) * c.columns.size();
  Json s = vega_base_spec(static_cast<int>(std::clamp<std::size_t>(slots * kSlotWidth, 420, kPanelSlots * kSlotWidth)), 260);
  s["data"] = Json::array({columns_data(c),
                           {{"name", "samples"}, {"values", values}, {"transform", Json::array({full_name_lookup()})}}});
  s["scales"] = Json::array(
      {{{"name", "xrow"}, {"type", "band"}, {"domain", row_labels(b, from, to)}, {"range", "width"},
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
                                    {"tooltip", {{"signal", "{'column': datum.name, 'point': datum.r, 'value': datum.v}"}}}}}}}}})}}});
  return s;
}

// Whether a run's iterations ran in the order stored (not an import, whose
// order is that of its files).
bool ran_here(const RunInfo& r) {
  if (r.config_path == "(import)") return false;
  const auto m = parse_json_data(r.manifest_json);
  return !(m.is_object() && m.value("imported", false));
}

// Samples in the order they ran: x is the iteration's position among its
// run's iterations of this block (the store's ids are insertion order), so
// interleaved A B A B and a cold first iteration show. One point at a time
// (a select under the plot), since points differ in scale. Empty when no
// column's run ran here.
std::optional<Json> order_spec(const Comparison& c, const Block& b) {
  std::vector<bool> real(c.columns.size());
  for (std::size_t i = 0; i < c.columns.size(); ++i)
    for (const auto& r : c.runs)
      if (r.id == c.columns[i].run_id) real[i] = ran_here(r);
  if (std::none_of(real.begin(), real.end(), [](bool x) { return x; })) return std::nullopt;
  std::map<std::int64_t, std::set<std::int64_t>> ids;  // run -> iteration ids
  for (const auto& r : b.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      if (real[i])
        for (const auto& o : r.cells[i].origins) ids[c.columns[i].run_id].insert(o.iteration_id);
  std::map<std::int64_t, std::map<std::int64_t, int>> rank;
  for (const auto& [run, set] : ids) {
    int n = 1;  // iterations are counted from 1, as the status line does
    for (auto id : set) rank[run][id] = n++;
  }
  Json values = Json::array();
  for (const auto& r : b.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      if (!real[i]) continue;
      const Cell& cell = r.cells[i];
      for (std::size_t k = 0; k < cell.samples.size() && k < cell.origins.size(); ++k)
        values.push_back({{"r", r.label},
                          {"c", c.columns[i].label},
                          {"s", rank[c.columns[i].run_id][cell.origins[k].iteration_id]},
                          {"v", cell.samples[k]}});
    }
  if (values.empty()) return std::nullopt;
  Json options = row_labels(b);
  Json s = vega_base_spec(560, 240);
  s["signals"] = Json::array(
      {{{"name", "point"},
        {"value", b.rows.empty() ? "" : b.rows.front().label},
        {"bind", {{"input", "select"}, {"options", options}, {"name", b.swept + " "}}}}});
  s["data"] = Json::array({columns_data(c),
                           {{"name", "samples"}, {"values", values}, {"transform", Json::array({full_name_lookup()})}},
                           {{"name", "shown"},
                            {"source", "samples"},
                            {"transform", Json::array({{{"type", "filter"}, {"expr", "datum.r === point"}}})}}});
  s["scales"] = Json::array(
      {{{"name", "x"}, {"type", "linear"}, {"zero", false}, {"nice", true}, {"range", "width"},
        {"domain", {{"data", "shown"}, {"field", "s"}}}},
       {{"name", "y"}, {"type", "linear"}, {"zero", false}, {"nice", true}, {"range", "height"},
        {"domain", {{"data", "shown"}, {"field", "v"}}}},
       colour_scale(c)});
  s["axes"] = Json::array({whole_axis("bottom", "x", "iteration in run order"), axis("left", "y", y_title(b))});
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
                                {"tooltip", {{"signal", "{'column': datum.name, 'iteration': datum.s, 'value': datum.v}"}}}}}}}}});
  return s;
}

// The % change against the baseline per row and column (positive is
// better), a bar each with its interval, at the top of a block. Empty with
// one column.
std::optional<Json> change_spec(const Comparison& c, const Block& b) {
  if (c.columns.size() < 2) return std::nullopt;
  double low = 0, high = 0;
  for (const auto& r : b.rows)
    for (std::size_t i = 1; i < r.cells.size(); ++i)
      if (r.cells[i].pct) {
        low = std::min(low, *r.cells[i].pct);
        high = std::max(high, *r.cells[i].pct);
      }
  // Intervals are drawn within one span of the changes either side.
  const double span = std::max(high - low, 1.0);
  Json values = Json::array(), columns = Json::array();
  for (std::size_t i = 1; i < c.columns.size(); ++i) columns.push_back(c.columns[i].label);
  for (const auto& r : b.rows)
    for (std::size_t i = 1; i < r.cells.size(); ++i) {
      const Cell& cell = r.cells[i];
      if (!cell.pct) continue;
      Json v = {{"r", r.label}, {"c", c.columns[i].label}, {"pct", *cell.pct}, {"n", cell.n},
                {"sig", cell.significant}, {"p", cell.p_value ? Json(*cell.p_value) : Json(nullptr)}};
      if (cell.pct_ci)
        clipped_interval(v, cell.pct_ci->low, cell.pct_ci->high, low - span, high + span,
                         cell.pct_ci_cut);
      values.push_back(v);
    }
  if (values.empty()) return std::nullopt;
  const std::size_t bars = b.rows.size() * (c.columns.size() - 1);
  Json s = vega_base_spec(560, static_cast<int>(std::clamp<std::size_t>(bars * 14, 60, 900)));
  s["data"] = Json::array(
      {columns_data(c),
       {{"name", "changes"}, {"values", values}, {"transform", Json::array({full_name_lookup()})}},
       {{"name", "ci"},
        {"source", "changes"},
        {"transform", Json::array({{{"type", "filter"}, {"expr", "isValid(datum.lo)"}}})}},
       {{"name", "clipped"},
        {"source", "ci"},
        {"transform", Json::array({{{"type", "filter"}, {"expr", "datum.clip_lo || datum.clip_hi"}}})}}});
  s["scales"] = Json::array(
      {{{"name", "yrow"}, {"type", "band"}, {"domain", row_labels(b)}, {"range", "height"}, {"paddingInner", 0.2}},
       {{"name", "x"}, {"type", "linear"}, {"nice", true}, {"zero", true}, {"range", "width"},
        {"domain", {{"fields", Json::array({{{"data", "changes"}, {"field", "pct"}},
                                            {{"data", "ci"}, {"field", "lo_c"}},
                                            {{"data", "ci"}, {"field", "hi_c"}}})}}}},
       colour_scale(c)});
  s["axes"] = Json::array({axis("bottom", "x", "% change against " + c.columns.front().label + " (positive is better)"),
                           axis("left", "yrow", b.swept)});
  // The baseline has no bar: the legend names the columns that do.
  s["legends"] = legend();
  s["legends"][0]["values"] = columns;
  const Json tooltip = {{"signal",
                         "{'column': datum.name, 'point': datum.r, 'change %': datum.pct, 'low': datum.lo, "
                         "'high': datum.hi, 'p': datum.p, 'n': datum.n}"}};
  const Json y = {{"signal", "scale('ycol', datum.c) + bandwidth('ycol') / 2"}};
  Json inner = Json::array(
      {{{"type", "rect"},
        {"from", {{"data", "bars"}}},
        {"encode", {{"enter", {{"y", {{"scale", "ycol"}, {"field", "c"}}},
                               {"height", {{"scale", "ycol"}, {"band", 1}}},
                               {"x", {{"scale", "x"}, {"value", 0}}},
                               {"x2", {{"scale", "x"}, {"field", "pct"}}},
                               {"fill", {{"scale", "colour"}, {"field", "c"}}},
                               // Significant changes solid, the rest faint.
                               {"fillOpacity", {{"signal", "datum.sig ? 0.85 : 0.3"}}},
                               {"tooltip", tooltip}}}}}},
       {{"type", "rule"},
        {"from", {{"data", "ci_row"}}},
        {"encode", {{"enter", {{"x", {{"scale", "x"}, {"field", "lo_c"}}},
                               {"x2", {{"scale", "x"}, {"field", "hi_c"}}},
                               {"y", y},
                               {"stroke", {{"value", "#333"}}},
                               {"strokeWidth", {{"value", 1.5}}},
                               {"tooltip", tooltip}}}}}}});
  // A row's intervals, and their cut ends, inside its band.
  const Json ci_row = {{"name", "ci_row"}, {"source", "bars"},
                       {"transform", Json::array({{{"type", "filter"}, {"expr", "isValid(datum.lo)"}}})}};
  const Json clipped_row = {{"name", "clipped_row"}, {"source", "ci_row"},
                            {"transform", Json::array({{{"type", "filter"}, {"expr", "datum.clip_lo || datum.clip_hi"}}})}};
  for (auto m : clip_marks("x", "y", y, tooltip)) {
    m["from"] = {{"data", "clipped_row"}};
    inner.push_back(m);
  }
  for (auto m : domain_cut_marks("x", "y", y, tooltip)) {
    m["from"] = {{"data", "domain_cut_row"}};
    inner.push_back(m);
  }
  Json domain_cut_row = domain_cut_data("ci_row");
  domain_cut_row["name"] = "domain_cut_row";
  s["marks"] = Json::array(
      {{{"type", "group"},
        {"from", {{"facet", {{"name", "bars"}, {"data", "changes"}, {"groupby", "r"}}}}},
        {"encode",
         {{"enter",
           {{"y", {{"scale", "yrow"}, {"field", "r"}}},
            {"height", {{"scale", "yrow"}, {"band", 1}}},
            {"width", {{"signal", "width"}}}}}}},
        {"signals", Json::array({{{"name", "height"}, {"update", "bandwidth('yrow')"}}})},
        {"scales", Json::array({{{"name", "ycol"},
                                 {"type", "band"},
                                 {"domain", columns},
                                 {"range", "height"},
                                 {"paddingInner", 0.1}}})},
        {"data", Json::array({ci_row, clipped_row, domain_cut_row})},
        {"marks", inner}},
       {{"type", "rule"},
        {"encode",
         {{"enter",
           {{"x", {{"scale", "x"}, {"value", 0}}},
            {"y", {{"value", 0}}},
            {"y2", {{"signal", "height"}}},
            {"stroke", {{"value", "#888"}}}}}}}}});
  return s;
}

}  // namespace

std::vector<PlotSpec> block_plots(const Comparison& c, std::size_t k, const std::string& id_prefix) {
  const Block& b = c.blocks.at(k);
  const std::string id = fmt::format("{}p{}", id_prefix, k);
  std::vector<PlotSpec> plots;
  if (auto change = change_spec(c, b))
    plots.push_back({id + "-change", "change", "% change against the baseline, with its interval", std::move(*change)});
  plots.push_back({id + "-scaling", "scaling",
                   "centre and interval by point (an interval past the samples is cut: a triangle marks the end)",
                   scaling_spec(c, b)});
  // Panels of at most kPanelSlots boxes each, rows spread evenly.
  const std::size_t columns = std::max<std::size_t>(c.columns.size(), 1);
  const std::size_t rows = b.rows.size();
  const std::size_t panels = std::max<std::size_t>(1, (rows * columns + kPanelSlots - 1) / kPanelSlots);
  const std::size_t per_panel = std::max<std::size_t>(1, (rows + panels - 1) / panels);
  for (std::size_t from = 0, n = 0; from < rows || (rows == 0 && n == 0); from += per_panel, ++n) {
    const std::size_t to = std::min(rows, from + per_panel);
    const bool all_rows = from == 0 && to == rows;
    plots.push_back({id + "-samples" + (n ? std::to_string(n + 1) : ""), "samples",
                     all_rows ? std::string("every sample (box: quartiles)")
                           : fmt::format("every sample (box: quartiles), {} {} to {}", b.swept, b.rows[from].label,
                                         b.rows[to - 1].label),
                     samples_spec(c, b, from, to)});
    if (rows == 0) break;
  }
  if (auto order = order_spec(c, b)) plots.push_back({id + "-order", "order", "samples in run order", std::move(*order)});
  return plots;
}

nlohmann::ordered_json cpus_spec(const Comparison& c, const MonitorBlock& m) {
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
  const std::size_t slots = cpus.size() * c.columns.size();
  Json s = vega_base_spec(static_cast<int>(std::clamp<std::size_t>(slots * kSlotWidth, 420, 900)), 200);
  s["data"] = Json::array({columns_data(c),
                           {{"name", "hits"}, {"values", values}, {"transform", Json::array({full_name_lookup()})}}});
  s["scales"] = Json::array(
      {{{"name", "xcpu"}, {"type", "band"}, {"domain", domain}, {"range", "width"}, {"paddingInner", 0.2}},
       {{"name", "y"}, {"type", "linear"}, {"nice", true}, {"range", "height"},
        {"domain", {{"data", "hits"}, {"field", "n"}}}},
       colour_scale(c)});
  s["axes"] = Json::array({axis("bottom", "xcpu", "CPU"), whole_axis("left", "y", "samples on the CPU")});
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
                                                     {"tooltip", {{"signal", "{'column': datum.name, 'cpu': datum.cpu, 'samples': datum.n}"}}}}}}}}})}}});
  return s;
}

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
