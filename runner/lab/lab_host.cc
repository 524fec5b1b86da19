#include "runner/lab/lab_host.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>

#include "base/file.h"
#include "base/text.h"
#include "runner/hosts/interrupt.h"
#include "runner/hosts/local_host.h"
#include "runner/input/units.h"
#include "runner/lab/boot_lines.h"
#include "runner/lab/dtb.h"
#include "runner/lab/kernel_build.h"
#include "runner/lab/lab_config_yaml.h"
#include "runner/lab/monitor_needs.h"
#include "workloads/registry.h"

namespace schedlab::lab {
namespace fs = std::filesystem;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

// The most of a @WORKTREE kernel's edits a run manifest keeps (the cache
// entry keeps all of them, in edits.diff).
constexpr std::size_t kManifestEditsLimit = 256 * 1024;

// A KVM guest prints its first console line well within this; a broken
// nested KVM prints nothing at all.
constexpr seconds kKvmFirstOutput{8};

std::string boot_id() {
  try {
    std::string id = schedlab::read_file("/proc/sys/kernel/random/boot_id");
    while (!id.empty() && id.back() == '\n') id.pop_back();
    return id;
  } catch (const std::exception&) {
    return "unknown";
  }
}

bool kvm_usable() {
  const int fd = ::open("/dev/kvm", O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

std::string first_line_with(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(prefix)) return line;
  return "";
}

std::string read_or_empty(const std::string& path) {
  try {
    return path.empty() ? "" : schedlab::read_file(path);
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

KernelBuildConfig kernel_build_config(const LabConfig& config,
                                      std::vector<std::string>* additions) {
  std::vector<std::string> said;
  // What the workloads and monitors need of a kernel built from source, then
  // the config's own symbols.
  std::vector<std::pair<std::string, std::string>> symbols;
  for (const auto& name : config.workloads)
    if (const Workload* w = find_workload(name))
      for (const auto& [k, v] : w->guest_needs().kernel_config) {
        symbols.emplace_back(k, v);
        said.push_back(fmt::format("{}={} ({})", k, v, name));
      }
  for (const auto& monitor : config.monitors)
    for (const auto& [k, v] : monitor_needs({monitor}).kernel_config) {
      symbols.emplace_back(k, v);
      said.push_back(fmt::format("{}={} ({})", k, v, monitor));
    }
  symbols.insert(symbols.end(), config.config.begin(), config.config.end());
  for (const auto& [k, v] : config.config) said.push_back(fmt::format("{}={} (config)", k, v));
  for (const auto& f : config.config_fragments) said.push_back(f + " (fragment)");
  if (additions) *additions = std::move(said);
  return {.fragments = config.config_fragments,
          .symbols = symbols,
          .board = board_named(config.board).name};
}

LabHost::LabHost(const LabConfig& config, Log log) : log_(std::move(log)), paths_(LabPaths::from_env()) {
  try {
    boot(config);
  } catch (...) {
    power_off();
    throw;
  }
}

LabHost::~LabHost() { power_off(); }

void LabHost::power_off() {
  ssh_.reset();  // closes the shared connection while the guest still answers
  qemu_.reset();
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }
}

std::string LabHost::choose_accel(const std::string& wanted) {
  if (board_->kvm_args.empty()) return "tcg";  // an emulated board
  if (wanted != "auto") return wanted;
  if (!kvm_usable()) return "tcg";
  try {
    const std::string probe = schedlab::read_file(paths_.kvm_probe());
    if (probe.starts_with(boot_id() + " broken")) {
      log_(fmt::format("lab: KVM failed earlier on this host boot ({}); using TCG (emulated)", paths_.kvm_probe().string()));
      return "tcg";
    }
  } catch (const std::exception&) {
  }
  return "kvm";
}

void LabHost::remember_kvm_failure(const std::string& why) {
  try {
    write_whole_file(paths_.kvm_probe(), fmt::format("{} broken: {}\n", boot_id(), why));
  } catch (const std::exception&) {
  }
}

void LabHost::boot(const LabConfig& config) {
  LocalHost& local = local_;
  board_ = &board_named(config.board);
  if (const auto problems = board_problems(config); !problems.empty())
    throw std::invalid_argument(fmt::format("lab: {}: {}", problems.front().first, problems.front().second));
  const Board& board = *board_;
  InitramfsSpec spec;
  spec.modules = board.modules;
  for (const KernelModule& m : board_modules(board)) spec.probe_modules.push_back(m.name);
  spec.extra_programs = config.programs;
  for (const auto& name : config.workloads)
    if (const Workload* w = find_workload(name)) spec.needs.push_back(w->guest_needs());
  for (const auto& p : monitor_needs(config.monitors).programs) spec.optional_programs.push_back(p);
  const KernelBuildConfig build = kernel_build_config(config, &config_additions_);
  kernel_ = is_git_kernel(config.kernel)
                ? build_kernel(config.kernel, build, paths_, local, log_)
                : resolve_kernel(config.kernel, config.modules, board, paths_, local, log_);
  userland_ = guest_userland(board, paths_, local, log_);
  image_ = build_base_image(kernel_, spec, *userland_, paths_, log_);
  if (!image_.missing.empty())
    log_(fmt::format("lab: not in {}, so not in the guest: {}", userland_->name(),
                     fmt::join(image_.missing, ", ")));

  char tmpl[] = "/tmp/schedlab-lab-XXXXXX";
  if (!::mkdtemp(tmpl)) throw HostError("lab: mkdtemp failed");
  dir_ = tmpl;
  const auto key = [&](std::vector<std::string> argv, const std::string& what) {
    const ExecResult r = local.run({.argv = argv, .timeout = seconds(30)});
    if (!r.ok()) throw HostError(fmt::format("lab: {} failed: {} {}", what, r.describe(), r.err));
    return r;
  };
  key({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "schedlab-lab", "-f", (dir_ / "id").string()},
      "ssh-keygen");
  const ExecResult hk = key({"dropbearkey", "-t", "ed25519", "-f", (dir_ / "host_key").string()}, "dropbearkey");
  const std::string host_pub = first_line_with(hk.out, "ssh-ed25519 ");
  if (host_pub.empty()) throw HostError("lab: dropbearkey printed no public key");
  write_whole_file(
      dir_ / "initrd",
      schedlab::read_file(image_.path) + overlay_image(schedlab::read_file(dir_ / "host_key"),
                                                       schedlab::read_file(dir_ / "id.pub")),
      true);

  std::string dtb;
  if (!board.dtb.empty()) {
    if (kernel_.dtb.empty())
      throw std::runtime_error(fmt::format("lab: the {} kernel has no {} (the {} board boots with it)",
                                           kernel_.release, board.dtb, board.name));
    dtb = (dir_ / board.dtb).string();
    fix_dtb(board, kernel_.dtb, dtb, local);
  }
  // As many forwarded ports as the run's hungriest workload reserves
  // (Workload::ports: e.g. netperf's control and data ports), two at least.
  int forwarded = 2;
  // Every workload's fixed ports, not only the run's: `lab shell` users start
  // tools by hand.
  for (const Workload* w : all_workloads())
    for (const int p : w->guest_needs().fixed_ports)
      if (!std::ranges::count(fixed_ports_, p)) fixed_ports_.push_back(p);
  for (const auto& name : config.workloads)
    if (const Workload* w = find_workload(name)) forwarded = std::max(forwarded, w->ports());
  QemuOptions q{.board = board.name,
                .vmlinuz = kernel_.vmlinuz,
                .initrd = (dir_ / "initrd").string(),
                .dtb = dtb,
                .cpus = config.cpus,
                .sockets = config.sockets,
                .memory = config.memory,
                .cmdline_extra = config.cmdline,
                .serial_log = dir_ / "serial.log",
                .stderr_log = dir_ / "qemu.err"};
  accel_ = choose_accel(config.accel);
  const auto start = std::chrono::steady_clock::now();
  bool crashed_once = false;
  std::string kvm_suspect;  // why qemu exited under KVM, until TCG shows whose fault it was
  for (int attempt = 0;; ++attempt) {
    q.accel = accel_;
    q.ssh_port = free_local_port();
    q.forwards.clear();
    for (int i = 0; i < forwarded; ++i) q.forwards.push_back(free_local_port());
    // Servers with a fixed port (e.g. tbench_srv): each forwarded when free here.
    for (const int p : fixed_ports_)
      if (!local.port_accepts(p)) q.forwards.push_back(p);
    qemu_ = std::make_unique<QemuProcess>(q);
    const bool probing = config.accel == "auto" && accel_ == "kvm";
    const auto deadline = probing ? milliseconds(seconds(30)) : milliseconds(config.boot_timeout);
    const auto w = qemu_->wait_for(kReadyLine, deadline, probing ? milliseconds(kKvmFirstOutput) : deadline);
    if (w == QemuProcess::Wait::kReady) break;
    const std::string err = qemu_->stderr_text();
    const std::string serial = qemu_->serial_tail();
    // A kernel that crashed while booting: the crash report from its first
    // line, not only its last call-trace frames.
    const std::optional<std::string> crash = qemu_->crash_report(40);
    qemu_.reset();
    if (w == QemuProcess::Wait::kInterrupted) throw HostError("lab: interrupted while the guest was booting");
    // A port taken meanwhile: the same boot on other ports.
    if (w == QemuProcess::Wait::kExited && err.find("host forwarding") != std::string::npos &&
        attempt < 3)
      continue;
    if (probing) {
      const std::string why = w == QemuProcess::Wait::kNoOutput
                                  ? fmt::format("no console output in {}s", kKvmFirstOutput.count())
                              : w == QemuProcess::Wait::kAccelFailed || accel_failure_in(err)
                                  ? "qemu: " + first_qemu_line(err)
                              : w == QemuProcess::Wait::kExited
                                  ? "qemu exited: " + first_qemu_line(err)
                                  : "guest not ready in 30s";
      accel_ = "tcg";
      // qemu that exits with no word of KVM refused something else (a
      // kernel image it cannot load, memory it cannot have), which TCG
      // then shows: KVM is blamed, and remembered, only if TCG boots.
      if (w == QemuProcess::Wait::kExited && !accel_failure_in(err)) {
        log_(fmt::format("lab: qemu exited under KVM ({}); trying TCG", first_qemu_line(err)));
        kvm_suspect = why;
        continue;
      }
      log_(kvm_fallback_line(why));
      remember_kvm_failure(why);
      continue;
    }
    if (w == QemuProcess::Wait::kTimedOut || w == QemuProcess::Wait::kNoOutput)
      throw HostError(fmt::format(
          "lab: the {} guest was not ready after {}s ({}); last serial console lines:\n{}",
          kernel_.release, config.boot_timeout.count(), accel_, relayed_console(serial)));
    // One more boot after a crash: seen once under TCG (multi-threaded) on a
    // stock Debian kernel that boots every other time. The first crash is
    // shown in full, so a kernel that crashes now and then is not hidden;
    // a second one is the error.
    if (w == QemuProcess::Wait::kExited && crash && !crashed_once) {
      log_(
          fmt::format("lab: the {} kernel crashed while booting ({}); booting it once more. Serial "
                      "console:\n{}",
                      kernel_.release, accel_, relayed_console(*crash)));
      crashed_once = true;
      continue;
    }
    if (w == QemuProcess::Wait::kExited && crash)
      throw HostError(
          fmt::format("lab: the {} kernel crashed while booting ({}), twice; serial console:\n{}",
                      kernel_.release, accel_, relayed_console(*crash)));
    throw HostError(qemu_failed(kernel_.vmlinuz, accel_, err, serial));
  }
  if (!kvm_suspect.empty()) {
    log_(kvm_fallback_line(kvm_suspect + ", not under TCG"));
    remember_kvm_failure(kvm_suspect);
  }
  port_ = q.ssh_port;
  forwards_ = q.forwards;
  write_whole_file(dir_ / "known_hosts", fmt::format("[127.0.0.1]:{} {}\n", port_, host_pub));
  name_ = fmt::format("lab:{}/{}@127.0.0.1:{}", kernel_.release, accel_, port_);
  // dropbear listens before the readiness line; retries cover a slow accept.
  for (int attempt = 0;; ++attempt) {
    try {
      ssh_ = std::make_unique<SshHost>(SshTarget{"root", "127.0.0.1", port_},
                                       SshOptions{.identity_file = (dir_ / "id").string(),
                                                  .known_hosts = (dir_ / "known_hosts").string(),
                                                  .host_key_policy = "strict",
                                                  .connect_timeout = seconds(20)});
      break;
    } catch (const HostError& e) {
      if (attempt >= 4 || interrupted() || !qemu_->running())
        throw HostError(fmt::format("lab: {}\nlast serial console lines:\n{}", e.what(),
                                    relayed_console(qemu_->serial_tail())));
      std::this_thread::sleep_for(milliseconds(300));
    }
  }
  verify_guest(config);
  boot_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  log_(up_line({.release = kernel_.release,
                .board = &board == &default_board() ? "" : board.name,
                .machine = board.machine,
                .emulated = accel_ == "tcg",
                .cpus_online = cpus_online_,
                .memory = config.memory,
                .seconds = boot_seconds_,
                .ssh_port = port_}));
}

// What the lab says of a guest it has read in the guest: a kernel that
// cannot enumerate qemu's CPUs boots on one (a built tinyconfig kernel
// without ACPI did, while the lab said 2), and every wake-placement number
// it gave would measure nothing.
void LabHost::verify_guest(const LabConfig& config) {
  const auto text = ssh_->read_file("/sys/devices/system/cpu/online");
  const std::string shown = text ? std::string(trim(*text)) : "";
  const auto online = text ? parse_cpu_list(shown) : std::nullopt;
  if (!online)
    throw HostError(fmt::format("lab: the {} guest's /sys/devices/system/cpu/online is {}", kernel_.release,
                                text ? fmt::format("'{}', not a CPU list", shown) : "missing"));
  if (static_cast<int>(online->size()) != config.cpus)
    throw HostError(fmt::format(
        "lab: asked for {} CPUs, the {} guest has {} online ({}){}", config.cpus, kernel_.release, online->size(),
        format_cpu_list(*online),
        kernel_.tree.empty() ? "" : "; " + board_->cpu_source));
  const ExecResult uname = ssh_->run({.argv = {"uname", "-r"}, .timeout = seconds(30)});
  const std::string release(trim(uname.out));
  if (!uname.ok() || release != kernel_.release)
    throw HostError(fmt::format("lab: booted {} but the guest's uname -r says '{}'{}", kernel_.release, release,
                                uname.ok() ? "" : " (" + uname.describe() + ")"));
  cpus_online_ = *online;
}

bool LabHost::gone() { return qemu_ && !qemu_->running(); }

HostError LabHost::gone_error(const std::string& what) {
  return HostError(fmt::format("lab: the {} guest is gone (qemu {}) while: {}\nserial console:\n{}",
                               kernel_.release, qemu_->exit_description(), what,
                               relayed_console(qemu_->crash_console())));
}

void LabHost::failed(const HostError& e) {
  if (gone()) throw gone_error(e.what());
}

ExecResult LabHost::run(const Command& cmd) {
  ExecResult r = ForwardingHost::run(cmd);
  // SshHost reports ssh's own failure (exit 255) as a spawn failure.
  if (r.outcome == ExecResult::Outcome::kSpawnFailed && gone()) throw gone_error(r.spawn_error);
  return r;
}

int LabHost::free_port() { return free_ports(1).front(); }

std::vector<int> LabHost::free_ports(int n) {
  std::vector<int> out;
  for (int p : forwards_) {
    if (static_cast<int>(out.size()) == n) break;
    if (!std::ranges::count(fixed_ports_, p) && !ssh_->port_accepts(p)) out.push_back(p);
  }
  if (static_cast<int>(out.size()) < n)
    throw HostError(fmt::format("{}: {} free forwarded ports wanted, {} of {} free", name_, n,
                                out.size(), forwards_.size()));
  return out;
}

std::vector<std::string> LabHost::ssh_command() const {
  return {"ssh", "-i", (dir_ / "id").string(), "-o", "IdentitiesOnly=yes",
          "-o", "UserKnownHostsFile=" + (dir_ / "known_hosts").string(), "-o", "StrictHostKeyChecking=yes",
          "-p", std::to_string(port_), "root@127.0.0.1"};
}

std::optional<double> LabHost::qemu_cpu_seconds() const {
  if (!qemu_) return std::nullopt;
  // /proc/PID/stat: utime and stime are the 14th and 15th fields, counted
  // after the command name (which may hold spaces) closes with ')'.
  std::string stat;
  try {
    stat = schedlab::read_file(fmt::format("/proc/{}/stat", qemu_->pid()));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(close + 1));
  std::string f;
  double utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> f; ++i) {
    if (i == 14) utime = std::strtod(f.c_str(), nullptr);
    if (i == 15) stime = std::strtod(f.c_str(), nullptr);
  }
  const long ticks = ::sysconf(_SC_CLK_TCK);
  if (ticks <= 0) return std::nullopt;
  return (utime + stime) / static_cast<double>(ticks);
}

std::map<std::string, std::string> LabHost::package_versions(
    const std::vector<std::string>& packages) {
  return userland_ ? userland_->package_versions(packages) : std::map<std::string, std::string>{};
}

nlohmann::json LabHost::manifest() const {
  nlohmann::json m = {{"kernel_spec", kernel_.spec},
          {"package", kernel_.package},
          {"package_version", kernel_.package_version},
          {"release", kernel_.release},
          {"kernel_key", kernel_.key},
          {"initramfs_sha256", image_.sha256},
          {"board", board_->name},
          {"machine", board_->machine.empty() ? "pc" : board_->machine},
          {"accel", accel_},
          {"emulated", accel_ == "tcg"},
          {"boot_seconds", boot_seconds_},
          // Read in the guest after boot (verify_guest), not taken from the config.
          {"cpus_online", format_cpu_list(cpus_online_)}};
  if (!kernel_.tree.empty())
    m["build"] = {{"spec", kernel_.spec},  // as the config wrote it: git:~/linux@patched
                  {"config_additions", fmt::format("{}", fmt::join(config_additions_, ", "))},
                  {"tree", kernel_.tree},
                  {"commit", kernel_.commit},
                  {"describe", kernel_.describe},
                  {"config_sha", kernel_.config_sha},
                  {"log", kernel_.build_log},
                  {"log_tail", last_lines(read_or_empty(kernel_.build_log), 20)},
                  {"seconds", kernel_.build_seconds},
                  {"warnings", kernel_.warnings}};
  // @WORKTREE: the edits measured, as a patch on the commit (no edits: the
  // commit's own build). A patch past kManifestEditsLimit keeps its head.
  if (!kernel_.tree.empty() && parse_git_kernel(kernel_.spec).worktree) {
    auto& b = m["build"];
    b["edits_sha256"] = kernel_.edits_sha256;
    b["edits_bytes"] = kernel_.edits.size();
    b["edits_truncated"] = kernel_.edits.size() > kManifestEditsLimit;
    b["edits"] = kernel_.edits.substr(0, kManifestEditsLimit);
  }
  return m;
}

}  // namespace schedlab::lab
