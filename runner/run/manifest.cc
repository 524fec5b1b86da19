#include "runner/run/manifest.h"

#include <fmt/format.h>

#include <sstream>

#include "analysis/compare/manifest_diff.h"
#include "base/json_data.h"
#include "base/message.h"
#include "base/text.h"
#include "runner/hosts/package_versions.h"
#include "runner/knobs/sut_state.h"
#include "runner/lab/lab_host.h"

namespace schedlab {
namespace {

// A host's text as the manifest's JSON takes it: itself, or, where it is
// not UTF-8 (a hostname, a package version with a stray byte), as
// terminal_safe shows it (\xff); dump() refused the whole manifest, and no
// run could start on such a host (hostile10).
std::string host_text(std::string_view s) {
  try {
    (void)nlohmann::json(s).dump();
    return std::string(s);
  } catch (const nlohmann::json::type_error&) {
    return terminal_safe(s, true);
  }
}

// The files' texts (trailing blanks trimmed, host_text), empty where one is
// missing or unreadable; read at once (one round trip to a remote SUT).
std::vector<std::string> read_or_empty(Host& host, const std::vector<std::string>& paths) {
  std::vector<FileRead> read;
  try {
    read = host.read_files(paths);
  } catch (const HostError&) {
    read.resize(paths.size());
  }
  std::vector<std::string> out;
  for (const auto& f : read) out.push_back(host_text(trim_end(f.text.value_or(""))));
  return out;
}

}  // namespace

nlohmann::json collect_manifest(Host& host, const std::vector<std::string>& packages) {
  nlohmann::json m;
  m["host"] = host.name();
  const auto read =
      read_or_empty(host, {"/proc/sys/kernel/osrelease", "/proc/sys/kernel/version",
                           "/proc/cmdline", "/proc/sys/kernel/hostname", "/proc/cpuinfo",
                           "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"});
  m["kernel_release"] = read[0];
  m["kernel_version"] = read[1];
  m["cmdline"] = read[2];
  m["hostname"] = read[3];

  std::istringstream cpuinfo(read[4]);
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
  const std::string& governor = read[5];
  m["governor"] = governor.empty() ? nlohmann::json(nullptr) : nlohmann::json(governor);

  // One question for every package: a lab guest's of this machine (the
  // guest has no dpkg), any other SUT's of its own dpkg.
  auto* lab = dynamic_cast<lab::LabHost*>(&host);
  const auto versions = lab ? lab->package_versions(packages) : installed_versions(host, packages);
  nlohmann::json tools = nlohmann::json::object();
  for (const auto& pkg : packages) {
    const auto v = versions.find(pkg);
    tools[pkg] =
        v != versions.end() ? nlohmann::json(host_text(v->second)) : nlohmann::json(nullptr);
  }
  m["tools"] = tools;
  m["schedlab_version"] = schedlab_version();
  // A lab SUT: which kernel package, and whether the numbers are emulated (TCG).
  if (lab) m["lab"] = lab->manifest();
  return m;
}

nlohmann::json sut_manifest(const RunContext& ctx) {
  std::vector<std::string> packages;
  for (const auto& wc : ctx.config.workloads) packages.push_back(wc.workload->package());
  nlohmann::json manifest = collect_manifest(ctx.pair.sut, packages);
  manifest["sut"] = ctx.hosts.sut;
  manifest["loadgen"] = ctx.hosts.loadgen;
  manifest["order"] = ctx.config.order == Order::kInterleaved ? "interleaved" : "sequential";
  manifest["state_before"] = capture_sut_state(ctx.pair.sut);
  return manifest;
}

void record_pair_manifest(const RunContext& ctx, const RunInfo& run) {
  const std::string& pair = ctx.options.pair;
  const auto whole = parse_json_data(run.manifest_json);
  const auto part = whole.is_object() && whole.contains("pairs")
                        ? whole["pairs"].value(pair, nlohmann::json{})
                        : nlohmann::json{};
  if (!part.is_object() || !part.contains("state_before"))
    ctx.store.runs_table().set_manifest_member(run.id, {"pairs", pair}, sut_manifest(ctx).dump());
}

void record_state_after(RunsTable& runs, Host& sut, std::int64_t run_id,
                        const std::string& pair_name) noexcept {
  try {
    const auto run = runs.find_run(run_id);
    auto whole = parse_json_data(run ? run->manifest_json : "");
    if (!whole.is_object()) return;
    // A pair's manifest is its member of "pairs".
    auto manifest = pair_name.empty() ? whole : whole["pairs"][pair_name];
    if (!manifest.is_object()) return;
    manifest["state_after"] = capture_sut_state(sut);
    if (pair_name.empty())
      runs.set_run_manifest(run_id, manifest.dump());
    else
      runs.set_manifest_member(run_id, {"pairs", pair_name}, manifest.dump());
    for (const auto& d : state_differences(manifest["state_before"], manifest["state_after"]))
      print_message(fmt::format(
          "schedlab: {}: {}\n",
          d.kind == "availability" ? "note: SUT state" : "warning: the SUT was not left as found",
          describe_change(d)));
  } catch (const std::exception& e) {
    print_message(
        fmt::format("schedlab: warning: cannot read the SUT's state at run end: {}\n", e.what()));
  }
}

}  // namespace schedlab
