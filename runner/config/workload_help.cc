#include "runner/config/workload_help.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "runner/config/command_keys.h"
#include "runner/input/units.h"
#include "workloads/registry.h"

namespace schedlab {
namespace {

using Json = nlohmann::ordered_json;

std::string_view type_name(ParamType t) {
  switch (t) {
    case ParamType::kInt:
      return "int";
    case ParamType::kString:
      return "string";
    case ParamType::kDuration:
      return "duration";
    case ParamType::kBool:
      return "bool";
    case ParamType::kDouble:
      return "number";
  }
  return "string";
}

// The default as a config would write it: durations as 5m, not 300000 ms.
std::string default_text(const ParamSpec& p) {
  if (const auto* d = std::get_if<std::chrono::milliseconds>(&p.default_value))
    return format_duration(*d);
  const std::string s = format_param(p.default_value);
  return s.empty() ? "(empty)" : s;
}

// The unit, unless it only repeats the type ("duration").
std::string unit_text(const ParamSpec& p) {
  return p.unit == type_name(p.type) ? "" : p.unit;
}

std::string range_text(const ParamSpec& p) {
  if (!p.choices.empty()) return fmt::format("one of {}", fmt::join(p.choices, ", "));
  if (p.min && p.type == ParamType::kDuration)
    return fmt::format("at least {}", format_duration(std::chrono::milliseconds(*p.min)));
  if (p.min) return fmt::format("at least {}", *p.min);
  return "";
}

// What a list of values does; empty for a parameter that takes one value.
std::string list_effect(const ParamSpec& p) {
  switch (p.axis) {
    case Axis::kBlock:
      return "one table per value";
    case Axis::kRow:
      return "one row per value";
    case Axis::kFixed:
      break;
  }
  return "";
}

std::string better_text(const MetricSpec& m) {
  return fmt::format("{} is better", to_string(m.direction));
}

std::string kind_text(const MetricSpec& m) {
  return m.kind == SampleKind::kRun ? "one sample per iteration"
                                    : "interval samples (time slices of one run)";
}

// "hackbench, perf (linux-perf)": a program's package when it has its own.
std::string programs_text(const Workload& w, const char* quote) {
  std::vector<std::string> out;
  for (const auto& p : w.programs())
    out.push_back(fmt::format("{0}{1}{0}{2}", quote, p.name,
                              p.package.empty() ? "" : " (" + p.package + ")"));
  return fmt::format("{}", fmt::join(out, ", "));
}

// Joins the non-empty parts.
std::string joined(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : std::string(sep)) + p;
  return out;
}

std::string cell(std::string s) {
  for (std::size_t at = 0; (at = s.find('|', at)) != std::string::npos; at += 2) s.insert(at, "\\");
  return s;
}

// Numbers and booleans as JSON values, durations as a config writes them.
Json default_json(const ParamSpec& p) {
  if (const auto* i = std::get_if<std::int64_t>(&p.default_value)) return *i;
  if (const auto* b = std::get_if<bool>(&p.default_value)) return *b;
  if (const auto* d = std::get_if<double>(&p.default_value)) return *d;
  if (const auto* d = std::get_if<std::chrono::milliseconds>(&p.default_value))
    return format_duration(*d);
  return std::get<std::string>(p.default_value);
}

}  // namespace

std::string workloads_text(const std::vector<const Workload*>& workloads) {
  std::string out;
  for (const Workload* w : workloads) {
    if (!out.empty()) out += "\n";
    out += fmt::format("{}: {}\n", w->name(), w->description());
    out += fmt::format("  package: {}; runs {}\n", w->package(), programs_text(*w, ""));
    out += "  parameters:\n";
    for (const auto& p : w->params()) {
      const std::string unit = unit_text(p);
      out += fmt::format(
          "    {}: {}\n", p.name,
          joined({fmt::format("{}{}", type_name(p.type), unit.empty() ? "" : " (" + unit + ")"),
                  "default " + default_text(p), range_text(p),
                  p.sweep() ? "a list: " + list_effect(p) : ""},
                 "; "));
      out += fmt::format("        {}\n", p.help);
    }
    out += "  metrics:\n";
    for (const auto& m : w->metrics()) {
      out += fmt::format(
          "    {}: {}\n", m.name,
          joined({m.unit, better_text(m), std::string(to_string(m.centre)), kind_text(m)}, "; "));
      out += fmt::format("        {}\n", m.help);
    }
  }
  return out;
}

std::string workloads_markdown(const std::vector<const Workload*>& workloads) {
  std::string out;
  for (const Workload* w : workloads) {
    if (!out.empty()) out += "\n";
    out += fmt::format("### {}\n\n", w->name());
    out += fmt::format("{}. Package: {}; runs {}.\n\n", w->description(), w->package(),
                       programs_text(*w, "`"));
    out += "| parameter | type | default | unit | values | a list | meaning |\n";
    out += "|---|---|---|---|---|---|---|\n";
    for (const auto& p : w->params())
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", p.name, type_name(p.type),
                         cell(default_text(p)), cell(unit_text(p)), cell(range_text(p)),
                         list_effect(p), cell(p.help));
    out += "\n| metric | unit | better | centre | samples | meaning |\n";
    out += "|---|---|---|---|---|---|\n";
    for (const auto& m : w->metrics())
      out +=
          fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", m.name, cell(m.unit),
                      to_string(m.direction), to_string(m.centre), to_string(m.kind), cell(m.help));
  }
  return out;
}

Json workloads_json(const std::vector<const Workload*>& workloads) {
  Json out = Json::array();
  for (const Workload* w : workloads) {
    Json programs = Json::array();
    for (const auto& p : w->programs())
      programs.push_back({{"name", p.name},
                          {"package", p.package.empty() ? w->package() : p.package},
                          {"guest", p.guest}});
    Json params = Json::array();
    for (const auto& p : w->params())
      params.push_back({{"name", p.name},
                        {"type", type_name(p.type)},
                        {"default", default_json(p)},
                        {"unit", p.unit},
                        {"choices", p.choices},
                        {"min", p.min ? Json(*p.min) : Json(nullptr)},
                        {"axis", p.axis == Axis::kBlock ? "block"
                                 : p.axis == Axis::kRow ? "row"
                                                        : "fixed"},
                        {"help", p.help}});
    Json metrics = Json::array();
    for (const auto& m : w->metrics())
      metrics.push_back({{"name", m.name},
                         {"unit", m.unit},
                         {"direction", to_string(m.direction)},
                         {"centre", to_string(m.centre)},
                         {"kind", to_string(m.kind)},
                         {"precision", m.precision},
                         {"help", m.help}});
    out.push_back({{"name", w->name()},
                   {"description", w->description()},
                   {"package", w->package()},
                   {"programs", programs},
                   {"params", params},
                   {"metrics", metrics}});
  }
  return out;
}

std::string command_workload_text() {
  std::string out = fmt::format("command: {}\n", kCommandWorkloadDescription);
  out += "  package: the one its config names; runs what its argv names\n";
  out += "  keys of a `- command:` entry (parameters and metrics are the config's own):\n";
  for (const auto& k : kCommandKeys) out += fmt::format("    {}: {}\n", k.key, k.meaning);
  out += "  keys of each metric:\n";
  for (const auto& k : kCommandMetricKeys) out += fmt::format("    {}: {}\n", k.key, k.meaning);
  out += "  example: configs/sysbench-cpu.yaml\n";
  return out;
}

std::string command_workload_markdown() {
  std::string out = "### command\n\n";
  out += fmt::format("{}. Package: the one its config names; runs what its `argv` names. Its parameters and "
                     "metrics are declared by the config entry (example: `configs/sysbench-cpu.yaml`).\n\n",
                     cell(kCommandWorkloadDescription));
  out += "| key | meaning |\n|---|---|\n";
  for (const auto& k : kCommandKeys) out += fmt::format("| `{}` | {} |\n", k.key, cell(k.meaning));
  out += "\n| metric key | meaning |\n|---|---|\n";
  for (const auto& k : kCommandMetricKeys) out += fmt::format("| `{}` | {} |\n", k.key, cell(k.meaning));
  return out;
}

Json command_workload_json() {
  const auto rows = [](const auto& table) {
    Json a = Json::array();
    for (const auto& k : table) a.push_back({{"key", k.key}, {"meaning", k.meaning}});
    return a;
  };
  // The shape of a registered workload's entry (its params and metrics
  // empty: the config declares them), and the keys that declare them.
  return {{"name", "command"},     {"description", kCommandWorkloadDescription},
          {"package", ""},         {"programs", Json::array()},
          {"params", Json::array()}, {"metrics", Json::array()},
          {"config_keys", rows(kCommandKeys)}, {"metric_keys", rows(kCommandMetricKeys)}};
}

std::string all_workloads_markdown() {
  return workloads_markdown(all_workloads()) + "\n" + command_workload_markdown();
}

}  // namespace schedlab
