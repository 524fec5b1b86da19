// schedlab lab: boot a Debian kernel under qemu for interactive use, open a
// shell in it, list the kernel cache.
//
//   schedlab lab boot debian:6.12      boots, prints the ssh command, waits for Ctrl-C
//   schedlab lab shell debian:6.1      boots and opens an ssh session; powers off after it
//   schedlab lab build git:~/linux@HEAD  builds a kernel tree into the cache, boots nothing
//   schedlab lab list                  the cached kernels and initramfs images
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <optional>
#include <thread>

#include "base/shell_quote.h"
#include "base/text.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/config/config.h"
#include "runner/config/lab_boot.h"
#include "runner/hosts/foreground.h"
#include "runner/hosts/interrupt.h"
#include "runner/hosts/local_host.h"
#include "runner/input/units.h"
#include "runner/lab/board.h"
#include "runner/lab/cache_listing.h"
#include "runner/lab/kernel_build.h"
#include "runner/lab/lab_host.h"

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

// The lab's boot and build lines, wrapped at 100 columns as every message.
lab::Log stderr_log() {
  return print_line;
}

// The options as a LabConfig (runner/config/lab_boot.h); nothing, with the
// reason on stderr, when --boot-timeout is not a duration or the rest is bad.
std::optional<LabConfig> lab_config(const LabOptions& o) {
  const auto d = parse_duration(o.boot_timeout);
  if (!d || *d < std::chrono::seconds(1)) {
    print_message(
        fmt::format("schedlab lab: --boot-timeout: expected a duration such as 3m, got '{}'\n",
                    o.boot_timeout));
    return std::nullopt;
  }
  try {
    return lab_boot_config(o.lab, std::chrono::duration_cast<std::chrono::seconds>(*d), o.config,
                           stderr_log());
  } catch (const ConfigError& e) {
    print_message(fmt::format("schedlab: {}\n", terminal_safe(e.what(), true)));
  } catch (const LabBootError& e) {
    print_message(fmt::format("schedlab lab: {}\n", terminal_safe(e.what(), true)));
  }
  return std::nullopt;
}

int boot_command(const LabOptions& o) {
  const auto config = lab_config(o);
  if (!config) return kBadInput;
  return guarded<lab::UnknownKernel>({}, [&]() -> int {
    install_interrupt_handlers();
    lab::LabHost host(*config, stderr_log());
    // A command to paste (or a script's to read): whole, however wide.
    fmt::print("{}\n", shell_join(host.ssh_command()));
    std::fflush(stdout);
    print_line(fmt::format("lab: {} is up; Ctrl-C powers it off", host.name()));
    while (!interrupted()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    print_message("lab: powering off\n");
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
    const int status = run_in_foreground(host.ssh_command());
    host.power_off();
    return status >= 0 ? status : kError;
  });
}

int list_command() {
  return guarded<lab::UnknownKernel>({}, []() -> int {
    fmt::print("{}", lab::describe_cache(lab::LabPaths::from_env()));
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
    print_message(fmt::format(
        "schedlab lab build: '{}': expected git:PATH (the work tree) or git:PATH@REF\n", o.kernel));
    return kBadInput;
  }
  if (!lab::find_board(o.board)) {
    print_message(fmt::format("schedlab lab build: --board: {}\n", lab::unknown_board(o.board)));
    return kBadInput;
  }
  lab::KernelBuildConfig config{.fragments = o.fragments, .board = o.board};
  for (const auto& s : o.symbols) {
    const auto eq = s.find('=');
    if (!s.starts_with("CONFIG_") || eq == std::string::npos) {
      print_message(
          fmt::format("schedlab lab build: --config: expected CONFIG_X=VALUE, got '{}'\n", s));
      return kBadInput;
    }
    config.symbols.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return guarded<lab::UnknownKernel>({}, [&]() -> int {
    install_interrupt_handlers();
    LocalHost local;
    const auto k = lab::build_kernel(o.kernel, config, lab::LabPaths::from_env(), local, stderr_log());
    fmt::print("{}\n", k.vmlinuz);  // a path for scripts: whole
    return kOk;
  });
}

}  // namespace

void register_lab(CLI::App& app, int& exit_code) {
  auto* cmd = add_command(
      app, "lab",
      "boot Debian kernels or kernels built from source under qemu as lab SUTs (boot, shell, "
      "build, list)",
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
