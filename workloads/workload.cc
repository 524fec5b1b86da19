#include "workloads/workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <cmath>

#include "base/text.h"

namespace schedlab {

std::string format_param(const ParamValue& v) {
  if (auto i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (auto s = std::get_if<std::string>(&v)) return *s;
  if (auto b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (auto d = std::get_if<double>(&v)) return fmt::format("{:g}", *d);
  auto ms = std::get<std::chrono::milliseconds>(v).count();
  if (ms % 1000 == 0) return fmt::format("{}s", ms / 1000);
  return fmt::format("{}ms", ms);
}

std::string Point::text(const std::string& name) const {
  return known(name) ? format_param(at(name)) : "?";
}

const ParamValue& Point::at(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end()) throw std::logic_error("point has no parameter '" + name + "'");
  return it->second;
}

std::vector<std::string> Workload::task_names(const Point& p, const StepContext& ctx) const {
  std::vector<std::string> names;
  for (const Step& s : iteration_steps(p, ctx)) {
    if (!s.measured || s.role != Role::kSut || s.argv.empty()) continue;
    const std::string& prog = s.argv[0];
    const auto slash = prog.rfind('/');
    std::string base = slash == std::string::npos ? prog : prog.substr(slash + 1);
    if (std::find(names.begin(), names.end(), base) == names.end()) names.push_back(base);
  }
  return names;
}

std::string Workload::block_label(const Point& p) const {
  std::string label = name();
  for (const auto& spec : params())
    if (spec.axis == Axis::kBlock) label += "-" + p.text(spec.name);
  return label;
}

std::string Workload::row_label(const Point& p) const {
  std::string label;
  for (const auto& spec : params()) {
    if (spec.axis != Axis::kRow) continue;
    if (!label.empty()) label += "/";
    label += p.text(spec.name);
  }
  return label;
}

Point default_point(const Workload& w) {
  Point p;
  for (const auto& spec : w.params()) p.values[spec.name] = spec.default_value;
  return p;
}

const ParamSpec* Workload::find_param(const std::string& name) const {
  for (const auto& p : params())
    if (p.name == name) return &p;
  return nullptr;
}

const MetricSpec* Workload::find_metric(const std::string& name) const {
  for (const auto& m : metrics())
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<std::string> stated_by_lines(std::string_view text,
                                         const std::vector<StatedLine>& rules) {
  std::vector<boost::regex> patterns;
  for (const auto& r : rules) patterns.emplace_back(r.pattern);
  std::vector<std::string> out;
  for (const std::string_view view : split_lines(text)) {
    const std::string line(view);
    boost::smatch m;
    for (std::size_t i = 0; i < rules.size(); ++i)
      if (boost::regex_match(line, m, patterns[i]))
        out.push_back(fmt::format("{}={}", rules[i].param,
                                  fmt::format(fmt::runtime(rules[i].format), m[1].str())));
  }
  return out;
}

double captured_number(const std::string& workload, int line, std::string_view text) {
  if (const auto v = to_number(text)) return *v;
  throw ParseError(workload, line, fmt::format("line {}: '{}' is not a number", line, excerpt(text)));
}

double measured_value(const std::string& workload, int line, std::string_view what, double v) {
  const std::string where = line > 0 ? fmt::format("line {}: ", line) : "";
  if (!std::isfinite(v))
    throw ParseError(workload, line, fmt::format("{}{} {} is not a finite number", where, what, v));
  if (v < 0)
    throw ParseError(workload, line,
                     fmt::format("{}{} {} is negative: no measurement", where, what, v));
  if (v > kMaxSampleValue)
    throw ParseError(
        workload, line,
        fmt::format("{}{} {:g} is past {:g}, beyond any measurement (statistics would overflow)",
                    where, what, v, kMaxSampleValue));
  return v;
}

void check_nondecreasing(const std::string& workload, int line, std::string_view where,
                         const std::vector<std::pair<std::string, double>>& seen,
                         std::string_view why) {
  for (std::size_t i = 1; i < seen.size(); ++i)
    if (seen[i].second < seen[i - 1].second)
      throw ParseError(workload, line,
                       fmt::format("{}: {} {:g} is below {} {:g}: {}", where, seen[i].first,
                                   seen[i].second, seen[i - 1].first, seen[i - 1].second, why));
}

std::vector<Sample> parse_output(const Workload& w, const Point& p, const std::string& out,
                                 const std::string& err) {
  try {
    return w.parse(p, out, err);
  } catch (const ParseError&) {
    throw;
  } catch (const std::exception& e) {
    throw ParseError(w.name(), 0, fmt::format("the output could not be read: {}", e.what()));
  }
}

std::vector<std::string> output_notes(const Workload& w, const Point& p, const std::string& out,
                                      const std::string& err) {
  try {
    return w.notes(p, out, err);
  } catch (const std::exception& e) {
    return {fmt::format("{}: the output's notes could not be read: {}", w.name(), e.what())};
  }
}

Step sut_step(std::vector<std::string> argv, std::chrono::milliseconds timeout, bool measured) {
  return Step{.role = Role::kSut, .argv = std::move(argv), .timeout = timeout, .measured = measured};
}

}  // namespace schedlab
