#include "runner/doctor/doctor.h"

#include <fmt/format.h>

#include <optional>
#include <set>
#include <sstream>

#include "base/text.h"
#include "runner/config/config.h"
#include "runner/knobs/knob_names.h"
#include "runner/knobs/sut_state.h"
#include "runner/lab/board.h"
#include "runner/lab/kernel_build.h"
#include "workloads/registry.h"

namespace schedlab {
namespace {

using Json = nlohmann::ordered_json;

std::optional<std::string> read(Host& host, const std::string& path, std::string* error = nullptr) {
  try {
    if (auto v = host.read_file(path)) return std::string(trim_end(*v));
  } catch (const HostError& e) {
    if (error) *error = e.what();
  }
  return std::nullopt;
}

// The paths the host's user may write, by access(2) (`test -w`): no write.
std::set<std::string> writable(Host& host, const std::vector<std::string>& paths) {
  std::set<std::string> out;
  if (paths.empty()) return out;
  Command c{
      .argv = {"sh", "-c", "for f in \"$@\"; do [ -w \"$f\" ] && echo \"$f\"; done; true", "sh"},
      .timeout = std::chrono::seconds(30)};
  c.argv.insert(c.argv.end(), paths.begin(), paths.end());
  std::istringstream in(host.run(c).out);
  for (std::string line; std::getline(in, line);) out.insert(line);
  return out;
}

// Tools no workload declares: what the shipped command
// configs (configs/) run.
struct OtherTool {
  const char* tool;
  const char* package;
};
constexpr OtherTool kOtherTools[] = {
    {"sysbench", "sysbench"},
    {"stress-ng", "stress-ng"},
};

std::optional<std::string> find_tool(Host& host, const ProgramSpec& program) {
  if (auto p = host.find_program(program.name)) return p;
  if (!program.versioned_dir.empty()) {
    try {
      for (const auto& version : host.list_dir(program.versioned_dir))
        if (auto p =
                host.find_program(program.versioned_dir + "/" + version + "/bin/" + program.name))
          return p;
    } catch (const HostError&) {
    }
  }
  return std::nullopt;
}

Json tool_row(const std::string& tool, const Json& workload, const std::optional<std::string>& path,
              const std::string& package) {
  return {{"tool", tool},
          {"workload", workload},
          {"path", path ? Json(*path) : Json(nullptr)},
          {"package", package}};
}

// Writes the first feature's current token back and checks the list reads
// back the same.
Json features_probe(Host& host, const nlohmann::json& list, const std::string& unavailable) {
  const std::string path = SutStatePaths{}.features();
  if (!list.is_array() || list.empty())
    return {{"writable", nullptr}, {"how", "not tested: " + unavailable}};
  const std::string token = list.front().get<std::string>();
  try {
    host.write_file(path, token);
  } catch (const HostError& e) {
    return {
        {"writable", false},
        {"how", fmt::format("writing back '{}' (its current value) failed: {}", token, e.what())}};
  }
  nlohmann::json now = nlohmann::json::array();
  std::istringstream in(read(host, path).value_or(""));
  for (std::string t; in >> t;) now.push_back(t);
  if (now != list)
    return {
        {"writable", false},
        {"how", fmt::format("wrote back '{}' (its current value) but the list reads back different",
                            token)}};
  return {{"writable", true},
          {"how", fmt::format("wrote back '{}' (its current value); the list read back unchanged",
                              token)}};
}

}  // namespace

Json probe_tools(Host& host) {
  Json out = Json::array();
  std::set<std::string> seen;
  for (const Workload* w : all_workloads())
    for (const ProgramSpec& p : w->programs())
      if (seen.insert(p.name).second)
        out.push_back(tool_row(p.name, w->name(), find_tool(host, p),
                               p.package.empty() ? w->package() : p.package));
  for (const OtherTool& t : kOtherTools)
    if (seen.insert(t.tool).second)
      out.push_back(tool_row(t.tool, nullptr, host.find_program(t.tool), t.package));
  // The lab's boards (board.h): each one's qemu, the dtc that fixes a
  // board's DTB, the cross compiler its kernels and dmatest.ko are built with.
  for (const auto& b : lab::boards()) {
    const std::string what = "lab board " + b.name;
    if (seen.insert(b.qemu).second) out.push_back(tool_row(b.qemu, what, host.find_program(b.qemu), b.qemu_package));
    if (!b.dtb.empty() && seen.insert("dtc").second)
      out.push_back(tool_row("dtc", what, host.find_program("dtc"), "device-tree-compiler"));
    if (const std::string cc = b.cross_compile + "gcc"; !b.cross_compile.empty() && seen.insert(cc).second)
      out.push_back(tool_row(cc, what, host.find_program(cc), b.cross_package));
  }
  // What `kernel: git:PATH` needs to build a kernel on this machine.
  for (const auto& t : lab::kernel_build_tools())
    if (seen.insert(t.name).second) {
      std::optional<std::string> at;
      if (t.header) {
        if (host.read_file(t.name)) at = t.name;
      } else {
        at = host.find_program(t.name);
      }
      out.push_back(tool_row(t.name, "lab kernel builds", at, t.package));
    }
  return out;
}

Json probe_sut(Host& host) {
  Json d;
  d["sut"] = host.name();
  d["kernel_release"] = read(host, "/proc/sys/kernel/osrelease").value_or("");
  d["cmdline"] = read(host, "/proc/cmdline").value_or("");
  const auto lockdown = read(host, "/sys/kernel/security/lockdown");
  d["lockdown"] = lockdown ? Json(*lockdown) : Json(nullptr);

  std::string first;
  if (auto s = read(host, "/proc/schedstat")) first = s->substr(0, s->find('\n'));
  d["schedstat"] = first.empty() ? "absent" : first;
  const auto schedstats = read(host, "/proc/sys/kernel/sched_schedstats");
  d["sched_schedstats"] = !schedstats ? "absent" : *schedstats == "1" ? "on" : "off";
  // The perf monitors (perf-stat, perf-profile) count system-wide: root,
  // or this at -1 for other users.
  const auto paranoid = read(host, "/proc/sys/kernel/perf_event_paranoid");
  d["perf_event_paranoid"] = paranoid ? Json(std::string(trim(*paranoid))) : Json(nullptr);

  const nlohmann::json state = capture_sut_state(host);
  const auto& reasons = state["null_reasons"];
  auto reason = [&](const char* part) {
    return reasons.contains(part) ? reasons[part].get<std::string>() : std::string();
  };
  std::string filesystems = read(host, "/proc/filesystems").value_or("");
  d["debugfs"] = {{"supported", filesystems.find("\tdebugfs\n") != std::string::npos},
                  {"mounted", debugfs_unmounted_reason(host).empty()}};
  d["sched_features"] = state["sched_features"];
  if (state["sched_features"].is_null()) d["sched_features_reason"] = reason("sched_features");
  d["features_writable"] = features_probe(host, state["sched_features"], reason("sched_features"));

  std::vector<std::string> paths;
  for (const auto& [name, _] : state["sysctls"].items()) paths.push_back(sysctl_path(name));
  const std::string sched_dir = SutStatePaths{}.sched_dir();
  if (state["debugfs_tunables"].is_object())
    for (const auto& [name, _] : state["debugfs_tunables"].items())
      paths.push_back(sched_dir + "/" + name);
  const auto w = writable(host, paths);
  Json sysctls = Json::array();
  for (const auto& [name, value] : state["sysctls"].items())
    sysctls.push_back(
        {{"name", name}, {"value", value}, {"writable", w.count(sysctl_path(name)) > 0}});
  d["sysctls"] = sysctls;
  if (state["debugfs_tunables"].is_object()) {
    Json t = Json::array();
    for (const auto& [name, value] : state["debugfs_tunables"].items())
      t.push_back({{"name", "sched/" + name},
                   {"value", value},
                   {"writable", w.count(sched_dir + "/" + name) > 0}});
    d["debugfs_tunables"] = t;
  } else {
    d["debugfs_tunables"] = nullptr;
    d["debugfs_tunables_reason"] = reason("debugfs_tunables");
  }
  d["cpufreq_governors"] = state["cpufreq_governors"];
  if (state["cpufreq_governors"].is_null())
    d["cpufreq_governors_reason"] = reason("cpufreq_governors");
  const auto smt = read(host, "/sys/devices/system/cpu/smt/control");
  const auto active = read(host, "/sys/devices/system/cpu/smt/active");
  d["smt"] = {{"control", smt ? Json(*smt) : Json(nullptr)},
              {"active", active ? Json(*active == "1") : Json(nullptr)}};
  d["tools"] = probe_tools(host);
  return d;
}

}  // namespace schedlab
