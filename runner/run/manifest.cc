#include "runner/run/manifest.h"

#include <fmt/format.h>

#include <sstream>

#include "base/text.h"
#include "runner/hosts/lab/lab_host.h"

namespace schedlab {
namespace {

std::string read_or_empty(Host& host, const std::string& path) {
  try {
    return std::string(trim_end(host.read_file(path).value_or("")));
  } catch (const HostError&) {
    return "";
  }
}

}  // namespace

nlohmann::json collect_manifest(Host& host, const std::vector<std::string>& packages) {
  nlohmann::json m;
  m["host"] = host.name();
  m["kernel_release"] = read_or_empty(host, "/proc/sys/kernel/osrelease");
  m["kernel_version"] = read_or_empty(host, "/proc/sys/kernel/version");
  m["cmdline"] = read_or_empty(host, "/proc/cmdline");
  m["hostname"] = read_or_empty(host, "/proc/sys/kernel/hostname");

  std::istringstream cpuinfo(read_or_empty(host, "/proc/cpuinfo"));
  int cpus = 0;
  std::string model;
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.starts_with("processor")) ++cpus;
    if (model.empty() && line.starts_with("model name")) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  m["cpu_model"] = model;
  m["cpu_count"] = cpus;
  const std::string governor =
      read_or_empty(host, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  m["governor"] = governor.empty() ? nlohmann::json(nullptr) : nlohmann::json(governor);

  nlohmann::json tools = nlohmann::json::object();
  for (const auto& pkg : packages) {
    auto r = host.run({.argv = {"dpkg-query", "-W", "-f", "${Version}", pkg},
                       .timeout = std::chrono::seconds(10)});
    tools[pkg] = r.ok() ? nlohmann::json(std::string(trim_end(r.out))) : nlohmann::json(nullptr);
  }
  m["tools"] = tools;
  m["schedlab_version"] = schedlab_version();
  // A lab SUT: which kernel package, and whether the numbers are emulated (TCG).
  if (auto* lab = dynamic_cast<lab::LabHost*>(&host)) m["lab"] = lab->manifest();
  return m;
}

}  // namespace schedlab
