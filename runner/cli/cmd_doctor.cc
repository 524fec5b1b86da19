// schedlab doctor: what a SUT offers before an experiment is written for it
// (runner/doctor/doctor.h probes it; this file has the flags and the text).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/json_data.h"
#include "base/text.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_format.h"
#include "runner/config/config.h"
#include "runner/doctor/doctor.h"
#include "runner/lab/host_set.h"
#include "runner/run/run_shape.h"

namespace schedlab::cli {
namespace {

using Json = nlohmann::ordered_json;

struct DoctorOptions {
  std::string sut;     // empty: the config's SUT, else local
  std::string config;  // for ssh options
  Format format = Format::kText;
};

std::string text_of(const Json& j) {
  if (j.is_null()) return "-";
  return j.is_string() ? j.get<std::string>() : j.dump();
}

std::string render(const Json& d) {
  std::string out;
  // Within 100 columns: a long value (the kernel's command line) goes on
  // under itself.
  auto line = [&](const std::string& key, const std::string& value) {
    out += wrap_words(fmt::format("{:<19}{}", key, value), 100, std::string(19, ' '));
  };
  line("sut", text_of(d["sut"]));
  line("kernel", text_of(d["kernel_release"]));
  line("cmdline", text_of(d["cmdline"]));
  if (!d["lockdown"].is_null()) line("lockdown", text_of(d["lockdown"]));
  line("schedstat", text_of(d["schedstat"]));
  line("sched_schedstats", text_of(d["sched_schedstats"]) + " (kernel.sched_schedstats)");
  line("perf paranoid",
       d["perf_event_paranoid"].is_null()
           ? "absent (a kernel without perf events: perf-stat and perf-profile cannot run)"
           : text_of(d["perf_event_paranoid"]) +
                 " (perf-stat and perf-profile need root, or -1 for other users; perf is in "
                 "Debian's linux-perf)");
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
    out += wrap_words(fmt::format("  {:<{}}  {}", text_of(t["tool"]), width, status), 100,
                      std::string(width + 2, ' '));
  }
  return out;
}

// The probe's report; `heading`: a line above the text table (the JSON
// carries the same fact as a member).
const Renderers<std::string (*)(const Json&, const std::string&)> kDoctorOutputs{
    {Format::kText, [](const Json& d, const std::string& heading) { return heading + render(d); }},
    {Format::kJson, [](const Json& d, const std::string&) { return json_output(d) + "\n"; }},
};

// doctor --config X with a lab SUT in X: the guest is booted (its first
// kernel) and probed, so what doctor says is of the SUT the run would use,
// never of the host standing in for it.
int doctor_lab(const Config& config, const DoctorOptions& o) {
  const RunShape shape = RunShape::one_run(config);
  std::optional<HostSet> connected;
  if (const int rc = guarded({.prefix = "schedlab doctor: cannot boot the lab SUT"}, [&] {
        print_message(
            fmt::format("schedlab doctor: booting the config's lab SUT ({}) to look at it\n",
                        config.sut_lab->kernel));
        connected.emplace(shape.hosts(shape.kernels.front(), 0));
        return kOk;
      }))
    return rc;
  Host& guest = connected->pair().sut;
  return guarded({.prefix = "schedlab doctor: " + guest.name()}, [&] {
    Json d = probe_sut(guest);
    d["lab_kernel"] = config.sut_lab->kernel;
    fmt::print("{}", kDoctorOutputs.of(o.format)(
                         d, fmt::format("lab SUT {} booted for doctor\n", config.sut_lab->kernel)));
    return kOk;
  });
}

int doctor_command(const DoctorOptions& o) {
  SshConfig ssh;
  std::string sut = o.sut;
  std::optional<Config> config;
  if (const int rc = guarded<ConfigError>({}, [&] {
        if (!o.config.empty()) {
          config = load_config_file(o.config);
          ssh = config->ssh;
          if (sut.empty() && !config->sut_lab) sut = config->sut;
        }
        return kOk;
      }))
    return rc;
  if (sut.empty() && config && config->sut_lab) return doctor_lab(*config, o);
  if (sut.empty()) sut = "local";
  std::unique_ptr<Host> host;
  if (const int rc =
          guarded({.prefix = "schedlab doctor: cannot reach " + terminal_safe(sut)}, [&] {
            host = HostSet::connect(sut, ssh);
            return kOk;
          }))
    return rc;
  return guarded({.prefix = "schedlab doctor: " + sut}, [&] {
    const Json d = probe_sut(*host);
    fmt::print("{}", kDoctorOutputs.of(o.format)(d, ""));
    return kOk;
  });
}

}  // namespace

void register_doctor(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<DoctorOptions>();
  auto* cmd = add_command(
      app, "doctor", "what a SUT offers: kernel, schedstat, sched features, writable knobs, tools",
      {"Tells what a SUT offers before an experiment is written for it, without "
       "changing it: kernel, schedstat, sched features and whether they can be written, "
       "sysctls and debugfs tunables, cpufreq governors, SMT, and each workload's "
       "programs with the Debian package to install.",
       {{"schedlab doctor", "this machine"},
        {"schedlab doctor --sut ssh://root@sut1 --format json",
         "a remote machine, for a script"}}});
  cmd->add_option("--sut", o->sut, "local or ssh://[user@]host[:port] (default: the config's SUT, else local)");
  cmd->add_option("--config", o->config, "experiment file whose ssh: options (and SUT) to use");
  kDoctorOutputs.add_option(*cmd, o->format);
  cmd->callback([o, &exit_code] { exit_code = doctor_command(*o); });
}

}  // namespace schedlab::cli
