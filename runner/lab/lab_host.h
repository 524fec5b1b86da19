// A lab SUT: a Debian kernel booted under qemu from a generated initramfs
// and reached over SSH (the SSH host, with a key generated for this boot and
// the guest's generated host key in a private known_hosts, strict checking
// kept). Every Host call goes to the SSH host, so every workload and knob
// works unchanged. The guest is powered off when the object goes: at the end
// of a run, on errors, and on SIGINT/SIGTERM through normal unwinding; the
// qemu process also dies with schedlab (parent-death signal).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "runner/hosts/forwarding_host.h"
#include "runner/hosts/host.h"
#include "runner/hosts/ssh_host.h"
#include "runner/lab/board.h"
#include "runner/lab/guest_userland.h"
#include "runner/lab/initramfs.h"
#include "runner/lab/kernel.h"
#include "runner/lab/kernel_build.h"
#include "runner/lab/lab_config.h"
#include "runner/lab/paths.h"
#include "runner/lab/qemu.h"

namespace schedlab::lab {

// What a kernel built from source for `config` is asked for beyond the
// guest fragment: the workloads' needs (e.g. pgbench's CONFIG_SYSVIPC), then the
// config's symbols and fragments, as the boot asks it (a kernel built first
// with it is the boot's, from the cache). `additions`: each as the manifest
// names it.
KernelBuildConfig kernel_build_config(const LabConfig& config,
                                      std::vector<std::string>* additions = nullptr);

class LabHost final : public ForwardingHost {
 public:
  // Resolves and fetches the kernel, builds the initramfs, boots, connects.
  // Throws HostError (a guest that never becomes ready: with the last serial
  // console lines) and std::runtime_error for kernel/cache problems.
  LabHost(const LabConfig& config, Log log);
  ~LabHost() override;
  LabHost(const LabHost&) = delete;
  LabHost& operator=(const LabHost&) = delete;

  std::string name() const override { return name_; }
  // Every call goes over SSH (ForwardingHost); when it fails because the
  // guest is gone (a panic: panic=-1 and -no-reboot make qemu exit),
  // HostError says so with the last serial console lines, not only ssh's
  // "Connection refused". A command ssh could not run at all (exit 255, a
  // spawn failure to SshHost) while the guest is gone is that error too.
  ExecResult run(const Command& cmd) override;
  // A port forwarded from this machine's 127.0.0.1 to the same port in the
  // guest, so a loadgen here reaches a server started there.
  int free_port() override;
  // n of them (a workload's server and its data connection).
  std::vector<int> free_ports(int n) override;

  const Kernel& kernel() const { return kernel_; }
  const Board& board() const { return *board_; }
  const std::string& accel() const { return accel_; }
  int ssh_port() const { return port_; }
  double boot_seconds() const { return boot_seconds_; }  // qemu start to SSH connected
  // CPU seconds (user + system) qemu has used since it started; nullopt
  // when /proc does not say (kernels as columns report an idle guest's).
  std::optional<double> qemu_cpu_seconds() const;
  const BaseImage& image() const { return image_; }
  // The OpenSSH command line that opens a shell in the guest.
  std::vector<std::string> ssh_command() const;
  // What the run manifest records: kernel, package, board and machine,
  // accelerator, emulated (TCG: every number, a DMA engine's included).
  nlohmann::json manifest() const;
  // Powers the guest off now (idempotent).
  void power_off();
  // The versions of the packages the guest's programs come from, asked
  // where they come from (GuestUserland::package_versions: the guest has no
  // dpkg): package -> version, none for a package not there.
  std::map<std::string, std::string> package_versions(const std::vector<std::string>& packages);

 private:
  void boot(const LabConfig& config);
  // After SSH answers: the guest's online CPUs are the ones asked for and
  // its uname -r is the kernel booted; a HostError naming both otherwise.
  void verify_guest(const LabConfig& config);
  std::string choose_accel(const std::string& wanted);
  void remember_kvm_failure(const std::string& why);
  Host& inner() override { return *ssh_; }
  // A HostError while qemu has exited becomes gone_error.
  void failed(const HostError& e) override;
  bool gone();
  HostError gone_error(const std::string& what);

  Log log_;
  LabPaths paths_;
  LocalHost local_;  // this machine, for the guest's userland
  std::unique_ptr<GuestUserland> userland_;
  const Board* board_ = &default_board();
  Kernel kernel_;
  BaseImage image_;
  std::filesystem::path dir_;  // per-boot: keys, initrd, serial log
  std::string accel_;
  int port_ = 0;
  std::vector<int> forwards_;
  std::vector<int> fixed_ports_;  // workloads' fixed server ports (GuestNeeds::fixed_ports)
  double boot_seconds_ = 0;
  std::vector<int> cpus_online_;  // read in the guest by verify_guest
  // What a built kernel got beyond the guest fragment: the workloads'
  // needs (e.g. "CONFIG_SYSVIPC=y (pgbench)"), the config's symbols and fragments.
  std::vector<std::string> config_additions_;
  std::string name_;
  std::unique_ptr<QemuProcess> qemu_;
  std::unique_ptr<SshHost> ssh_;
};

}  // namespace schedlab::lab
