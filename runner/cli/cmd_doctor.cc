// schedlab doctor: what a SUT offers before an experiment is written for it:
// kernel, schedstat, the sched features and whether they can be flipped,
// which knobs are writable, cpufreq, SMT, and which workload tools are
// installed (with the Debian package for each missing one).
//
// It changes nothing. The only write is the features probe: the current
// token of one feature written back as it is (setting a feature that is
// already set), which is what tells a locked-down kernel from a writable one.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/text.h"
#include "runner/cli/common.h"
#include "runner/config/config.h"
#include "runner/hosts/hosts.h"
#include "runner/knobs/sut_state.h"
#include "workloads/registry.h"

namespace schedlab::cli {
namespace {

using Json = nlohmann::ordered_json;

struct DoctorOptions {
  std::string sut;     // empty: the config's SUT, else local
  std::string config;  // for ssh options
  std::string format = "text";
};

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
  Command c{.argv = {"sh", "-c", "for f in \"$@\"; do [ -w \"$f\" ] && echo \"$f\"; done; true",
                     "sh"},
            .timeout = std::chrono::seconds(30)};
  c.argv.insert(c.argv.end(), paths.begin(), paths.end());
  std::istringstream in(host.run(c).out);
  for (std::string line; std::getline(in, line);) out.insert(line);
  return out;
}

// The tools workloads and schedlab itself use. The package comes from the
// workload registry when a workload uses the tool.
struct ToolSpec {
  const char* tool;
  const char* workload;  // registry name, or empty
  const char* package;   // when no workload says, or to override it
};
constexpr ToolSpec kTools[] = {
    {"hackbench", "hackbench", ""},
    {"tbench", "tbench", ""},
    {"tbench_srv", "tbench", ""},
    {"pgbench", "pgbench", ""},
    {"initdb", "pgbench", ""},
    {"hammerdbcli", "hammerdb", "not packaged: see workloads/README.md"},
    {"modprobe", "dmatest", ""},
    {"sysbench", "", "sysbench"},
    {"stress-ng", "", "stress-ng"},
    {"perf", "", "linux-perf"},
    {"qemu-system-x86_64", "", "qemu-system-x86"},
};

std::optional<std::string> find_tool(Host& host, const std::string& tool) {
  if (auto p = host.find_program(tool)) return p;
  // Debian keeps PostgreSQL's server programs off PATH.
  if (tool == "initdb") {
    try {
      for (const auto& version : host.list_dir("/usr/lib/postgresql"))
        if (auto p = host.find_program("/usr/lib/postgresql/" + version + "/bin/initdb")) return p;
    } catch (const HostError&) {
    }
  }
  return std::nullopt;
}

Json tools(Host& host) {
  Json out = Json::array();
  for (const ToolSpec& t : kTools) {
    std::string package = t.package;
    if (package.empty())
      if (const Workload* w = find_workload(t.workload)) package = w->package();
    const auto path = find_tool(host, t.tool);
    Json j = {{"tool", t.tool},
              {"workload", *t.workload ? Json(t.workload) : Json(nullptr)},
              {"path", path ? Json(*path) : Json(nullptr)},
              {"package", package}};
    out.push_back(j);
  }
  return out;
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
    return {{"writable", false}, {"how", fmt::format("writing back '{}' (its current value) failed: {}", token, e.what())}};
  }
  nlohmann::json now = nlohmann::json::array();
  std::istringstream in(read(host, path).value_or(""));
  for (std::string t; in >> t;) now.push_back(t);
  if (now != list)
    return {{"writable", false},
            {"how", fmt::format("wrote back '{}' (its current value) but the list reads back different", token)}};
  return {{"writable", true},
          {"how", fmt::format("wrote back '{}' (its current value); the list read back unchanged", token)}};
}

Json doctor(Host& host) {
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
    for (const auto& [name, _] : state["debugfs_tunables"].items()) paths.push_back(sched_dir + "/" + name);
  const auto w = writable(host, paths);
  Json sysctls = Json::array();
  for (const auto& [name, value] : state["sysctls"].items())
    sysctls.push_back({{"name", name}, {"value", value}, {"writable", w.count(sysctl_path(name)) > 0}});
  d["sysctls"] = sysctls;
  if (state["debugfs_tunables"].is_object()) {
    Json t = Json::array();
    for (const auto& [name, value] : state["debugfs_tunables"].items())
      t.push_back({{"name", "sched/" + name}, {"value", value}, {"writable", w.count(sched_dir + "/" + name) > 0}});
    d["debugfs_tunables"] = t;
  } else {
    d["debugfs_tunables"] = nullptr;
    d["debugfs_tunables_reason"] = reason("debugfs_tunables");
  }
  d["cpufreq_governors"] = state["cpufreq_governors"];
  if (state["cpufreq_governors"].is_null()) d["cpufreq_governors_reason"] = reason("cpufreq_governors");
  const auto smt = read(host, "/sys/devices/system/cpu/smt/control");
  const auto active = read(host, "/sys/devices/system/cpu/smt/active");
  d["smt"] = {{"control", smt ? Json(*smt) : Json(nullptr)},
              {"active", active ? Json(*active == "1") : Json(nullptr)}};
  d["tools"] = tools(host);
  return d;
}

std::string text_of(const Json& j) {
  if (j.is_null()) return "-";
  return j.is_string() ? j.get<std::string>() : j.dump();
}

std::string render(const Json& d) {
  std::string out;
  auto line = [&](const std::string& key, const std::string& value) {
    out += fmt::format("{:<19}{}\n", key, value);
  };
  line("sut", text_of(d["sut"]));
  line("kernel", text_of(d["kernel_release"]));
  line("cmdline", text_of(d["cmdline"]));
  if (!d["lockdown"].is_null()) line("lockdown", text_of(d["lockdown"]));
  line("schedstat", text_of(d["schedstat"]));
  line("sched_schedstats", text_of(d["sched_schedstats"]) + " (kernel.sched_schedstats)");
  const auto& dbg = d["debugfs"];
  line("debugfs", std::string(dbg["mounted"].get<bool>() ? "mounted" : "not mounted") +
                      (dbg["supported"].get<bool>() ? "" : " (not in /proc/filesystems)") +
                      (!dbg["mounted"].get<bool>() && dbg["supported"].get<bool>()
                           ? " (schedlab run mounts it for sched_features/debugfs knobs; to look "
                             "first: mount -t debugfs debugfs /sys/kernel/debug)"
                           : ""));
  if (d["sched_features"].is_array()) {
    std::vector<std::string> f;
    for (const auto& t : d["sched_features"]) f.push_back(t.get<std::string>());
    line("sched features", fmt::format("{}", fmt::join(f, " ")));
  } else {
    const std::string why = text_of(d["sched_features_reason"]);
    line("sched features",
         "unavailable: " + why +
             (why.find("Operation not permitted") != std::string::npos
                  ? " (kernel lockdown, or a sandbox denying debugfs: sched_features and debugfs "
                    "knobs cannot be used here)"
                  : ""));
  }
  const auto& fw = d["features_writable"];
  line("features writable",
       (fw["writable"].is_null() ? "unknown" : fw["writable"].get<bool>() ? "yes" : "no") +
           std::string(" (") + text_of(fw["how"]) + ")");
  out += "sysctls (writable by access check, nothing written):\n";
  std::size_t width = 0;
  for (const auto& s : d["sysctls"]) width = std::max(width, s["name"].get<std::string>().size());
  for (const auto& s : d["sysctls"])
    out += fmt::format("  {:<{}}  {:<12}  {}\n", text_of(s["name"]), width, text_of(s["value"]),
                       s["writable"].get<bool>() ? "writable" : "read-only");
  if (d["debugfs_tunables"].is_array()) {
    out += "debugfs tunables (writable by access check, nothing written):\n";
    width = 0;
    for (const auto& s : d["debugfs_tunables"]) width = std::max(width, s["name"].get<std::string>().size());
    for (const auto& s : d["debugfs_tunables"])
      out += fmt::format("  {:<{}}  {:<12}  {}\n", text_of(s["name"]), width, text_of(s["value"]),
                         s["writable"].get<bool>() ? "writable" : "read-only");
  } else {
    line("debugfs tunables", "unavailable: " + text_of(d["debugfs_tunables_reason"]));
  }
  if (d["cpufreq_governors"].is_object()) {
    std::vector<std::string> g;
    for (const auto& [name, cpus] : d["cpufreq_governors"].items())
      g.push_back(fmt::format("{} (CPUs {})", name, text_of(cpus)));
    line("cpufreq governor", fmt::format("{}", fmt::join(g, ", ")));
  } else {
    line("cpufreq governor", "none: " + text_of(d["cpufreq_governors_reason"]));
  }
  const auto& smt = d["smt"];
  line("SMT", smt["control"].is_null() ? "unknown (no /sys/devices/system/cpu/smt)"
                                       : fmt::format("{} (control), {}", text_of(smt["control"]),
                                                     smt["active"].is_null()             ? "active unknown"
                                                     : smt["active"].get<bool>() ? "active"
                                                                                 : "not active"));
  out += "tools:\n";
  width = 0;
  for (const auto& t : d["tools"]) width = std::max(width, t["tool"].get<std::string>().size());
  for (const auto& t : d["tools"]) {
    const std::string package = t["package"].get<std::string>();
    const std::string status =
        t["path"].is_null()
            ? (package.starts_with("not packaged") ? "missing (" + package + ")"
                                                   : "missing (Debian package " + package + ")")
            : t["path"].get<std::string>();
    out += fmt::format("  {:<{}}  {}\n", text_of(t["tool"]), width, status);
  }
  return out;
}

int doctor_command(const DoctorOptions& o) {
  SshConfig ssh;
  std::string sut = o.sut;
  try {
    if (!o.config.empty()) {
      const Config config = load_config_file(o.config);
      ssh = config.ssh;
      if (sut.empty() && !config.sut_lab) sut = config.sut;
    }
  } catch (const ConfigError& e) {
    fmt::print(stderr, "schedlab: {}\n", e.what());
    return kBadInput;
  }
  if (sut.empty()) sut = "local";
  std::unique_ptr<Host> host;
  try {
    host = HostSet::connect(sut, ssh);
  } catch (const std::exception& e) {
    fmt::print(stderr, "schedlab doctor: cannot reach {}: {}\n", sut, e.what());
    return kError;
  }
  try {
    const Json d = doctor(*host);
    fmt::print("{}", o.format == "json" ? d.dump(2) + "\n" : render(d));
    return kOk;
  } catch (const std::exception& e) {
    fmt::print(stderr, "schedlab doctor: {}: {}\n", sut, e.what());
    return kError;
  }
}

}  // namespace

void register_doctor(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<DoctorOptions>();
  auto* cmd = app.add_subcommand(
      "doctor", "what a SUT offers: kernel, schedstat, sched features, writable knobs, tools");
  cmd->add_option("--sut", o->sut, "local or ssh://[user@]host[:port] (default: the config's SUT, else local)");
  cmd->add_option("--config", o->config, "experiment file whose ssh: options (and SUT) to use");
  cmd->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([o, &exit_code] { exit_code = doctor_command(*o); });
}

}  // namespace schedlab::cli
