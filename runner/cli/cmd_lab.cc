// schedlab lab: boot a Debian kernel under qemu for interactive use, open a
// shell in it, list the kernel cache.
//
//   schedlab lab boot debian:6.12      boots, prints the ssh command, waits for Ctrl-C
//   schedlab lab shell debian:6.1      boots and opens an ssh session; powers off after it
//   schedlab lab build git:~/linux@HEAD  builds a kernel tree into the cache, boots nothing
//   schedlab lab list                  the cached kernels and initramfs images
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "base/shell_quote.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/config/config.h"
#include "runner/hosts/interrupt.h"
#include "runner/hosts/lab/board.h"
#include "runner/hosts/lab/kernel.h"
#include "runner/hosts/lab/kernel_build.h"
#include "runner/hosts/lab/lab_config_yaml.h"
#include "runner/hosts/lab/lab_host.h"
#include "runner/hosts/local_host.h"
#include "runner/input/units.h"

namespace schedlab::cli {
namespace {

struct LabOptions {
  LabConfig lab;
  std::string boot_timeout = "180s";
  std::string config;  // an experiment file whose lab SUT (workloads, config additions) to boot
};

std::string board_names() {
  std::vector<std::string> names;
  for (const auto& b : lab::boards()) names.push_back(b.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

void add_lab_options(CLI::App& cmd, LabOptions& o) {
  cmd.add_option("kernel", o.lab.kernel, "debian:6.1, debian:6.12, a package name, a vmlinuz path, or git:PATH[@REF]")->required();
  cmd.add_option("--modules", o.lab.modules, "modules directory of a vmlinuz path (default: beside it)");
  cmd.add_option("--board", o.lab.board, "the machine qemu emulates: " + board_names())->capture_default_str();
  cmd.add_option("--cpus", o.lab.cpus, "virtual CPUs")->check(CLI::Range(1, 64))->capture_default_str();
  cmd.add_option("--sockets", o.lab.sockets, "sockets the CPUs are split into")->check(CLI::Range(1, 8))->capture_default_str();
  cmd.add_option("--memory", o.lab.memory, "guest memory, e.g. 512M, 2G")->capture_default_str();
  cmd.add_option("--accel", o.lab.accel, "auto, kvm or tcg")->check(CLI::IsMember({"auto", "kvm", "tcg"}))->capture_default_str();
  cmd.add_option("--cmdline", o.lab.cmdline, "appended to the kernel command line");
  cmd.add_option("--boot-timeout", o.boot_timeout, "kernel start to SSH readiness, e.g. 3m")->capture_default_str();
  cmd.add_option("--program", o.lab.programs, "another program of this machine to copy into the guest (repeatable)");
  cmd.add_option("--config", o.config,
                 "an experiment file with a lab SUT: boot the kernel as its runs do (its workloads' programs "
                 "and kernel config additions, its config: and config_fragments:)");
}

lab::Log stderr_log() {
  return [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
}

// The options as a LabConfig; nothing when --boot-timeout is not a duration
// or --config has no lab SUT. A kernel built from a tree that a run built
// with additions (a workload's CONFIG_SYSVIPC) is booted as that run
// built it, not rebuilt without them.
std::optional<LabConfig> lab_config(const LabOptions& o) {
  const auto d = parse_duration(o.boot_timeout);
  if (!d || *d < std::chrono::seconds(1)) {
    fmt::print(stderr, "schedlab lab: --boot-timeout: expected a duration such as 3m, got '{}'\n", o.boot_timeout);
    return std::nullopt;
  }
  LabConfig c = o.lab;
  if (!o.config.empty()) {
    try {
      const Config file = load_config_file(o.config);
      if (!file.sut_lab) {
        fmt::print(stderr, "schedlab lab: {}: its SUT is no lab (hosts: sut: {{lab: ...}})\n", o.config);
        return std::nullopt;
      }
      c = *file.sut_lab;
      c.kernel = o.lab.kernel;
      c.cmdline = o.lab.cmdline.empty() ? c.cmdline : o.lab.cmdline;
      c.programs.insert(c.programs.end(), o.lab.programs.begin(), o.lab.programs.end());
    } catch (const ConfigError& e) {
      fmt::print(stderr, "schedlab: {}\n", e.what());
      return std::nullopt;
    }
  } else if (lab::is_git_kernel(c.kernel)) {
    try {
      LocalHost local;
      const auto built = lab::cached_builds_of(c.kernel, lab::LabPaths::from_env(), local, c.board);
      const bool plain = std::any_of(built.begin(), built.end(), [](const lab::Kernel& k) {
        return k.requested_symbols.empty() && k.requested_fragments.empty();
      });
      if (!built.empty() && !plain) {
        c.config = built.front().requested_symbols;
        c.config_fragments = built.front().requested_fragments;
        std::vector<std::string> what;
        for (const auto& [k, v] : c.config) what.push_back(k + "=" + v);
        for (const auto& f : c.config_fragments) what.push_back(f);
        fmt::print(stderr, "schedlab lab: {} as a run built it ({}; cached {}); --config FILE boots it as that "
                           "file's runs build it\n",
                   c.kernel, fmt::join(what, ", "), built.front().key);
      }
    } catch (const lab::UnknownKernel&) {
      // build_kernel says what is wrong with the spec, when it is booted
    }
  }
  c.boot_timeout = std::chrono::duration_cast<std::chrono::seconds>(*d);
  // A board's own CPUs and memory when the options left them as they were.
  if (const lab::Board* b = lab::find_board(c.board)) {
    if (b->cpus && c.cpus == LabConfig{}.cpus) c.cpus = b->cpus;
    if (!b->memory.empty() && c.memory == LabConfig{}.memory) c.memory = b->memory;
  }
  if (const auto problems = board_problems(c); !problems.empty()) {
    fmt::print(stderr, "schedlab lab: --{}: {}\n", problems.front().first, problems.front().second);
    return std::nullopt;
  }
  return c;
}

int boot_command(const LabOptions& o) {
  const auto config = lab_config(o);
  if (!config) return kBadInput;
  return guarded<lab::UnknownKernel>({}, [&]() -> int {
    install_interrupt_handlers();
    lab::LabHost host(*config, stderr_log());
    fmt::print("{}\n", shell_join(host.ssh_command()));
    std::fflush(stdout);
    fmt::print(stderr, "lab: {} is up; Ctrl-C powers it off\n", host.name());
    while (!interrupted()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    fmt::print(stderr, "lab: powering off\n");
    host.power_off();
    return kOk;
  });
}

int shell_command(const LabOptions& o) {
  const auto config = lab_config(o);
  if (!config) return kBadInput;
  return guarded<lab::UnknownKernel>({}, [&]() -> int {
    install_interrupt_handlers();
    lab::LabHost host(*config, stderr_log());
    const auto argv = host.ssh_command();
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // The terminal's Ctrl-C belongs to the remote shell while it runs.
    struct sigaction ignore {}, old_int {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, &old_int);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::signal(SIGINT, SIG_DFL);
      ::execvp(args[0], args.data());
      ::_exit(127);
    }
    int status = 0;
    if (pid > 0) ::waitpid(pid, &status, 0);
    sigaction(SIGINT, &old_int, nullptr);
    host.power_off();
    return pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : kError;
  });
}

int list_command() {
  return guarded<lab::UnknownKernel>({}, []() -> int {
    const auto paths = lab::LabPaths::from_env();
    fmt::print("kernel cache: {}\n", paths.kernels().string());
    const auto kernels = lab::cached_kernels(paths);
    if (kernels.empty()) fmt::print("  (empty)\n");
    for (const auto& k : kernels)
      if (k.tree.empty())
        fmt::print("  {:<28} {:<44} {}{}\n", k.release, k.package.empty() ? "-" : k.package, k.package_version,
                   k.board == lab::default_board().name ? "" : " (board " + k.board + ")");
      else
        fmt::print("  {:<28} built from {} {} ({}), config {}{}\n", k.release, k.tree, k.describe,
                   k.commit.empty() ? "no git" : k.commit.substr(0, 12), k.config_sha,
                   k.board == lab::default_board().name ? "" : ", board " + k.board);
    fmt::print("initramfs images: {}\n", paths.initramfs().string());
    int images = 0;
    if (std::filesystem::is_directory(paths.initramfs()))
      for (const auto& e : std::filesystem::directory_iterator(paths.initramfs()))
        if (e.path().extension() == ".gz") {
          fmt::print("  {} ({:.1f} MB)\n", e.path().filename().string(), static_cast<double>(e.file_size()) / 1e6);
          ++images;
        }
    if (!images) fmt::print("  (none)\n");
    fmt::print("kernel names:\n");
    for (const auto& s : lab::kernel_series()) fmt::print("  {:<12} {}\n", s.name, s.help);
    fmt::print("boards (board: in hosts.sut.lab, --board here):\n");
    for (const auto& b : lab::boards()) fmt::print("  {:<12} {}\n", b.name, b.help);
    return kOk;
  });
}

struct BuildOptions {
  std::string kernel;
  std::string board = "x86";
  std::vector<std::string> fragments;
  std::vector<std::string> symbols;  // CONFIG_X=v
};

int build_command(const BuildOptions& o) {
  if (!lab::is_git_kernel(o.kernel)) {
    fmt::print(stderr, "schedlab lab build: '{}': expected git:PATH (the work tree) or git:PATH@REF\n", o.kernel);
    return kBadInput;
  }
  if (!lab::find_board(o.board)) {
    fmt::print(stderr, "schedlab lab build: --board: {}\n", lab::unknown_board(o.board));
    return kBadInput;
  }
  lab::KernelBuildConfig config{.fragments = o.fragments, .board = o.board};
  for (const auto& s : o.symbols) {
    const auto eq = s.find('=');
    if (!s.starts_with("CONFIG_") || eq == std::string::npos) {
      fmt::print(stderr, "schedlab lab build: --config: expected CONFIG_X=VALUE, got '{}'\n", s);
      return kBadInput;
    }
    config.symbols.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return guarded<lab::UnknownKernel>({}, [&]() -> int {
    install_interrupt_handlers();
    LocalHost local;
    const auto k = lab::build_kernel(o.kernel, config, lab::LabPaths::from_env(), local, stderr_log());
    fmt::print("{}\n", k.vmlinuz);
    return kOk;
  });
}

}  // namespace

void register_lab(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("lab", "boot Debian kernels or kernels built from source under qemu as lab SUTs (boot, shell, build, list)");
  document(
      *cmd,
      {"Boots Debian kernels, or kernels built from a git tree, under qemu as lab SUTs reached "
       "over SSH; builds kernel trees into the cache; lists what the cache holds.",
       {{"schedlab lab boot debian:6.12", "boot Debian's 6.12 kernel and print the ssh command"},
        {"schedlab lab build git:~/linux@v6.12", "build a tree's tag into the cache"}}});
  cmd->require_subcommand(1);
  auto boot = std::make_shared<LabOptions>();
  auto* b = cmd->add_subcommand("boot", "boot a kernel, print the ssh command, power off on Ctrl-C");
  add_lab_options(*b, *boot);
  b->callback([boot, &exit_code] { exit_code = boot_command(*boot); });
  auto shell = std::make_shared<LabOptions>();
  auto* s = cmd->add_subcommand("shell", "boot a kernel and open a shell in it; power off when it ends");
  add_lab_options(*s, *shell);
  s->callback([shell, &exit_code] { exit_code = shell_command(*shell); });
  auto build = std::make_shared<BuildOptions>();
  auto* bu = cmd->add_subcommand("build", "build a kernel tree (git:PATH or git:PATH@REF) into the cache; print its vmlinuz");
  bu->add_option("kernel", build->kernel, "git:PATH@REF (a commit, tag or branch) or git:PATH (the work tree)")->required();
  bu->add_option("--config-fragment", build->fragments, "a file of CONFIG_X=y lines (repeatable)");
  bu->add_option("--config", build->symbols, "CONFIG_X=VALUE (repeatable)");
  bu->add_option("--board", build->board, "the board to build for: " + board_names())->capture_default_str();
  bu->callback([build, &exit_code] { exit_code = build_command(*build); });
  auto* l = cmd->add_subcommand("list", "the cached kernels and initramfs images");
  l->callback([&exit_code] { exit_code = list_command(); });
}

}  // namespace schedlab::cli
