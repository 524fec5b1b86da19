#include "analysis/counters/cpu_residency.h"

#include <fmt/format.h>

namespace schedlab::residency {
namespace {

constexpr std::string_view kCpuDir = "/sys/devices/system/cpu/cpu";

struct Line {
  int cpu = -1;
  std::string_view rest;   // the path after "cpuN/"
  std::string_view value;  // after the first ':' that ends the path
};

// "/sys/devices/system/cpu/cpu3/cpuidle/state1/time:42" -> 3, "cpuidle/state1/time", "42".
Line split_line(std::string_view line, std::size_t number) {
  const auto bad = [&](std::string_view why) {
    return CounterParseError(number, fmt::format("{}: '{}'", why, line));
  };
  if (!line.starts_with(kCpuDir)) throw bad("not a CPU's sysfs file");
  const auto slash = line.find('/', kCpuDir.size());
  std::uint64_t cpu = 0;
  if (slash == std::string_view::npos ||
      !parse_u64(line.substr(kCpuDir.size(), slash - kCpuDir.size()), cpu) || cpu > 1u << 20)
    throw bad("no CPU number");
  const auto colon = line.find(':', slash);
  if (colon == std::string_view::npos) throw bad("expected PATH:VALUE");
  return {static_cast<int>(cpu), line.substr(slash + 1, colon - slash - 1), line.substr(colon + 1)};
}

double number(std::string_view token, std::size_t line, std::string_view what) {
  return static_cast<double>(parse_u64_or_throw(token, line, what));
}

}  // namespace

Snapshot parse_cpuidle(std::string_view text) {
  // Values by state number first: a state's name may come after its numbers.
  std::map<int, std::map<int, std::string>> names;
  std::map<int, std::map<int, std::map<std::string, double>>> values;
  std::size_t n = 0;
  for (const auto line : split_lines(text)) {
    ++n;
    if (line.empty()) continue;
    const Line l = split_line(line, n);
    constexpr std::string_view kState = "cpuidle/state";
    const auto slash = l.rest.find('/', kState.size());
    std::uint64_t state = 0;
    if (!l.rest.starts_with(kState) || slash == std::string_view::npos ||
        !parse_u64(l.rest.substr(kState.size(), slash - kState.size()), state) || state > 1000)
      throw CounterParseError(n, fmt::format("not a cpuidle state file: '{}'", line));
    const std::string_view field = l.rest.substr(slash + 1);
    const int s = static_cast<int>(state);
    if (field == "name") {
      std::string name(trim(l.value));
      for (char& c : name)
        if (c == ' ' || c == '.') c = '_';
      names[l.cpu][s] = name;
    } else if (field == "time") {
      values[l.cpu][s]["time_us"] = number(trim(l.value), n, "cpuidle time");
    } else if (field == "usage") {
      values[l.cpu][s]["usage"] = number(trim(l.value), n, "cpuidle usage");
    }
  }
  Snapshot out;
  for (const auto& [cpu, states] : values)
    for (const auto& [state, fields] : states) {
      const auto named = names[cpu].find(state);
      const std::string name = named != names[cpu].end() && !named->second.empty()
                                   ? named->second
                                   : fmt::format("state{}", state);
      for (const auto& [field, v] : fields) out[cpu][name + "." + field] += v;
    }
  return out;
}

Snapshot parse_cpufreq(std::string_view text) {
  Snapshot out;
  std::size_t n = 0;
  for (const auto line : split_lines(text)) {
    ++n;
    if (line.empty()) continue;
    const Line l = split_line(line, n);
    if (l.rest != "cpufreq/stats/time_in_state")
      throw CounterParseError(n, fmt::format("not a time_in_state file: '{}'", line));
    const auto t = split_ws(l.value);
    if (t.size() != 2)
      throw CounterParseError(n, fmt::format("expected 'FREQ TIME', found '{}'", l.value));
    const std::uint64_t khz = parse_u64_or_throw(t[0], n, "frequency");
    out[l.cpu][fmt::format("{}kHz.ms", khz)] = number(t[1], n, "time in state") * 10;
  }
  return out;
}

MonitorDelta delta(const Snapshot& before, const Snapshot& after, std::string_view unit) {
  MonitorDelta out;
  std::map<std::string, double> all;
  std::vector<CounterRow> per_cpu;
  if (before.size() != after.size())
    throw CounterMismatchError(
        fmt::format("{} CPUs before and {} after", before.size(), after.size()));
  nlohmann::json cpus = nlohmann::json::object();
  for (const auto& [cpu, keys] : after) {
    const auto b = before.find(cpu);
    if (b == before.end()) throw CounterMismatchError(fmt::format("cpu{} appeared", cpu));
    // A state or frequency of the snapshot before missing after: a cut file
    // (a read that stopped early), not a zero.
    for (const auto& [key, value] : b->second)
      if (!keys.count(key))
        throw CounterMismatchError(
            fmt::format("cpu{} {} is in the snapshot before, not after", cpu, key));
    for (const auto& [key, value] : keys) {
      const auto old = b->second.find(key);
      if (old == b->second.end())
        throw CounterMismatchError(fmt::format("cpu{} {} appeared", cpu, key));
      if (value < old->second)
        throw CounterMismatchError(
            fmt::format("cpu{} {} went backwards ({} -> {})", cpu, key, old->second, value));
      const double d = value - old->second;
      all[key] += d;
      cpus[fmt::format("cpu{}", cpu)][key] = d;
      if (d != 0) per_cpu.push_back({fmt::format("cpu{}.{}", cpu, key), d});
    }
  }
  for (const auto& [key, v] : all) out.rows.push_back({"all." + key, v});
  out.rows.insert(out.rows.end(), per_cpu.begin(), per_cpu.end());
  out.json["all"] = all;
  out.json["cpus"] = std::move(cpus);
  out.json["unit"] = unit;
  return out;
}

}  // namespace schedlab::residency
