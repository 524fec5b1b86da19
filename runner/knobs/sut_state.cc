#include "runner/knobs/sut_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "base/text.h"
#include "base/time.h"
#include "runner/knobs/knobs.h"

namespace schedlab {
namespace {

using Json = nlohmann::json;

// A file's content (trailing blanks trimmed), or why there is none: an
// error, or neither for a file that does not exist.
struct Read {
  std::optional<std::string> value;
  std::string error;
};

// Reads many small files at once (a remote host in one round trip: they
// add up on a machine with hundreds of CPUs, and on an emulated guest).
std::map<std::string, Read> read_many(Host& host, const std::vector<std::string>& paths) {
  std::map<std::string, Read> out;
  std::vector<FileRead> read;
  try {
    read = host.read_files(paths);
  } catch (const HostError& e) {
    read.assign(paths.size(), FileRead{.error = e.what()});
  }
  for (std::size_t i = 0; i < paths.size(); ++i) {
    Read& r = out[paths[i]];
    if (read[i].text) r.value = std::string(trim_end(*read[i].text));
    r.error = read[i].error;
  }
  return out;
}

bool is_directory_error(const std::string& error) {
  return error.find("s a directory") != std::string::npos;
}

Json sysctls(Host& host, const SutStatePaths& paths, Json& reasons) {
  std::vector<std::string> names;  // file names under proc_sys_kernel
  try {
    for (const auto& n : host.list_dir(paths.proc_sys_kernel))
      if (n.starts_with("sched_") || n == "numa_balancing" || n == "timer_migration")
        names.push_back(n);
  } catch (const HostError& e) {
    reasons["sysctls"][paths.proc_sys_kernel] = e.what();
  }
  std::vector<std::string> files;
  for (const auto& n : names) files.push_back(paths.proc_sys_kernel + "/" + n);
  const auto reads = read_many(host, files);
  Json out = Json::object();
  for (const auto& n : names) {
    const Read& r = reads.at(paths.proc_sys_kernel + "/" + n);
    // kernel.sched_domain/ (before 5.13) is a directory tree, not a value.
    if (is_directory_error(r.error)) continue;
    const std::string key = "kernel." + n;
    if (r.value) {
      out[key] = normalize_sysctl_value(*r.value);
    } else {
      out[key] = nullptr;
      reasons["sysctls"][key] = r.error.empty() ? "disappeared while being read" : r.error;
    }
  }
  return out;
}

// The features file: /sys/kernel/debug/sched/features (5.13 and later) or
// /sys/kernel/debug/sched_features (before).
Json features(Host& host, const SutStatePaths& paths, Json& reasons) {
  for (const std::string& path : {paths.features(), paths.debugfs + "/sched_features"}) {
    try {
      if (auto text = host.read_file(path)) {
        Json list = Json::array();
        std::istringstream in(*text);
        for (std::string token; in >> token;) list.push_back(token);
        return list;
      }
    } catch (const HostError& e) {
      reasons["sched_features"] = fmt::format("cannot read {}", e.what());
      return nullptr;
    }
  }
  std::string why = debugfs_unmounted_reason(host, paths);
  if (why.empty())
    why = fmt::format("{} does not exist (kernel without CONFIG_SCHED_DEBUG?)", paths.features());
  reasons["sched_features"] = why;
  return nullptr;
}

// Files directly under debugfs sched/ holding one value (one line):
// base_slice_ns, migration_cost_ns, nr_migrate, latency_warn_ms, preempt...
// features (its own part) and the debug dump are not tunables.
Json tunables(Host& host, const SutStatePaths& paths, Json& reasons) {
  std::vector<std::string> names;
  try {
    for (const auto& n : host.list_dir(paths.sched_dir()))
      if (n != "features" && n != "debug") names.push_back(n);
  } catch (const HostError& e) {
    std::string why = debugfs_unmounted_reason(host, paths);
    reasons["debugfs_tunables"] = why.empty() ? fmt::format("cannot list {}", e.what()) : why;
    return nullptr;
  }
  std::vector<std::string> files;
  for (const auto& n : names) files.push_back(paths.sched_dir() + "/" + n);
  const auto reads = read_many(host, files);
  Json out = Json::object();
  std::string error;
  for (const auto& n : names) {
    const Read& r = reads.at(paths.sched_dir() + "/" + n);
    if (r.value && r.value->find('\n') == std::string::npos) out[n] = *r.value;
    if (!r.value && error.empty() && !is_directory_error(r.error)) error = r.error;
  }
  // Listed but none readable (lockdown, a sandbox): unavailable, not empty.
  if (out.empty() && !error.empty()) {
    reasons["debugfs_tunables"] = fmt::format("cannot read {}", error);
    return nullptr;
  }
  return out;
}

std::vector<int> parse_cpus(const std::string& text) {
  std::vector<int> cpus;
  std::istringstream in(text);
  for (std::string token; in >> token;) {
    try {
      cpus.push_back(std::stoi(token));
    } catch (const std::exception&) {
    }
  }
  return cpus;
}

Json governors(Host& host, const SutStatePaths& paths, Json& reasons) {
  std::vector<std::string> policies;
  try {
    for (const auto& n : host.list_dir(paths.cpufreq))
      if (n.starts_with("policy")) policies.push_back(n);
  } catch (const HostError&) {
  }
  if (policies.empty()) {
    reasons["cpufreq_governors"] = fmt::format("no cpufreq policies under {}", paths.cpufreq);
    return nullptr;
  }
  std::vector<std::string> files;
  for (const auto& p : policies) {
    files.push_back(paths.cpufreq + "/" + p + "/scaling_governor");
    files.push_back(paths.cpufreq + "/" + p + "/affected_cpus");
  }
  const auto reads = read_many(host, files);
  std::map<std::string, std::vector<int>> by_governor;
  for (const auto& p : policies) {
    const Read& g = reads.at(paths.cpufreq + "/" + p + "/scaling_governor");
    const Read& c = reads.at(paths.cpufreq + "/" + p + "/affected_cpus");
    if (!g.value || g.value->empty()) continue;
    auto& cpus = by_governor[*g.value];
    for (int cpu : parse_cpus(c.value.value_or(""))) cpus.push_back(cpu);
  }
  if (by_governor.empty()) {
    reasons["cpufreq_governors"] = fmt::format("no readable scaling_governor under {}", paths.cpufreq);
    return nullptr;
  }
  Json out = Json::object();
  for (auto& [governor, cpus] : by_governor) out[governor] = cpu_list_text(cpus);
  return out;
}

}  // namespace

std::string cpu_list_text(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return out;
}

std::string debugfs_unmounted_reason(Host& host, const SutStatePaths& paths) {
  std::optional<std::string> mounts;
  try {
    mounts = host.read_file(paths.mounts);
  } catch (const HostError&) {
  }
  if (!mounts) return "";  // unknown: say nothing rather than guess
  std::istringstream in(*mounts);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string device, where, type;
    fields >> device >> where >> type;
    if (where == paths.debugfs && type == "debugfs") return "";
  }
  return fmt::format("debugfs is not mounted on {}", paths.debugfs);
}

nlohmann::json capture_sut_state(Host& host, const SutStatePaths& paths) {
  Json reasons = Json::object();
  Json state = Json::object();
  state["captured_at"] = utc_now_iso8601();
  state["sched_features"] = features(host, paths, reasons);
  state["sysctls"] = sysctls(host, paths, reasons);
  state["debugfs_tunables"] = tunables(host, paths, reasons);
  state["cpufreq_governors"] = governors(host, paths, reasons);
  state["null_reasons"] = reasons;
  return state;
}

}  // namespace schedlab
