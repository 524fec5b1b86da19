#include "runner/lab/board.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

#include "base/suggest.h"
#include "workloads/registry.h"

namespace schedlab::lab {

const std::vector<Board>& boards() {
  static const std::vector<Board> rows = {
      {
          .name = "x86",
          .help = "qemu's PC (qemu-system-x86_64): KVM where it works, else TCG; virtio-net",
          .qemu = "qemu-system-x86_64",
          .qemu_package = "qemu-system-x86",
          // One host thread for every vCPU: with multi-threaded TCG a 6.12
          // guest hit a stale int3 in sched_balance_rq ("Oops: int3", then a
          // panic) right after schedlab set kernel.sched_schedstats, about 1
          // run in 2 to 12 here: flipping a static key patches kernel text
          // with int3 while the other vCPU runs, and a vCPU kept executing
          // the patched code's old translation. Guests under TCG are
          // emulated anyway; crash-free knob flips matter more.
          .tcg_args = {"-accel", "tcg,thread=single", "-cpu", "max"},
          .kvm_args = {"-accel", "kvm", "-cpu", "host"},
          .console = "ttyS0",
          .nic_args = {"-netdev", "{user},id=n0", "-device", "virtio-net-pci,netdev=n0"},
          .cpu_source = "a kernel built from source finds qemu's CPUs through ACPI (CONFIG_ACPI) "
                        "and runs them "
                        "with CONFIG_SMP: check its .config",
          .debian_arch = "amd64",
          .flavour = "amd64-unsigned",
          .modules = {"virtio_pci", "virtio_net"},
          .arch = "x86",
          .base_config = "tinyconfig",
          .image = "bzImage",
          .kernel_config =
              {
                  // tinyconfig on ARCH=x86 would be 32-bit.
                  {"CONFIG_64BIT", "y"},
                  {"CONFIG_SCHED_SMT", "y"},
                  {"CONFIG_SCHED_MC", "y"},
                  // qemu lists its CPUs to the kernel in ACPI's MADT: without ACPI a
                  // tinyconfig kernel logs "Allowing 1 CPUs" whatever -smp says.
                  {"CONFIG_ACPI", "y"},
                  // kvm-clock and paravirt spinlocks under KVM.
                  {"CONFIG_HYPERVISOR_GUEST", "y"},
                  {"CONFIG_PARAVIRT", "y"},
                  {"CONFIG_KVM_GUEST", "y"},
                  {"CONFIG_SERIAL_8250", "y"},
                  {"CONFIG_SERIAL_8250_CONSOLE", "y"},
                  // virtio-net-pci, built in: VIRTIO_MENU is the menu VIRTIO_PCI hides behind.
                  {"CONFIG_PCI", "y"},
                  {"CONFIG_PCI_MSI", "y"},
                  {"CONFIG_VIRTIO_MENU", "y"},
                  {"CONFIG_VIRTIO_PCI", "y"},
                  {"CONFIG_VIRTIO_NET", "y"},
                  // Then CONFIG_MODULES=n: everything built in, no modules directory.
              },
      },
      {
          .name = "exynos4210",
          .help = "qemu's smdkc210 (qemu-system-arm, TCG): 2 Cortex-A9, 1G, three PL330 DMA "
                  "engines",
          .qemu = "qemu-system-arm",
          .qemu_package = "qemu-system-arm",
          .machine = "smdkc210",
          // Multi-threaded TCG (a host thread per vCPU): under
          // tcg,thread=single Debian's 6.1 and a built 6.1 stopped right
          // after "clk: Disabling unused clocks" with schedlab's initramfs.
          // ARM patches kernel text under stop_machine, so x86's stale-int3
          // reason for one thread does not apply.
          .tcg_args = {"-accel", "tcg,thread=multi"},
          // qemu's Exynos4210 has two Cortex-A9 (-smp 1 and 4 are refused)
          // and 1 GiB whatever -m says.
          .cpus = 2,
          .memory = "1G",
          .sockets = false,
          .console = "ttySAC1,115200",
          .console_serial = 1,
          // The LAN9118 qemu wires at 0x05000000 (the DTB fix below describes it).
          .nic_args = {"-nic", "{user},model=lan9118"},
          .cpu_source = "the kernel finds the board's CPUs in the DTB's cpus node: check its "
                        ".config (CONFIG_SMP)",
          .debian_arch = "armhf",
          .flavour = "armmp",
          .modules = {"libphy", "smsc911x"},
          .hardware = {"dma-engines"},
          // ldd cannot read these: libraries come from the ELF NEEDED entries.
          .userland_packages = {"busybox-static", "dropbear-bin", "bash", "util-linux", "libc6",
                                "libcrypt1", "libtomcrypt1", "libtommath1", "libgmp10", "zlib1g",
                                "libtinfo6"},
          .dtb = "exynos4210-smdkv310.dtb",
          .dtb_fixes =
              {
                  {.why = "qemu's timer counts the xxti clock at 24 MHz; the DTB says 12 MHz, so "
                          "guest time ran at twice wall time (e.g. dmatest reported half the rate)",
                   .nodes = {{.key = "xxti",
                              .compatible = "samsung,clock-xxti",
                              .what = "xxti clock (compatible samsung,clock-xxti)"}},
                   .dts = "&{{xxti}} { clock-frequency = <24000000>; };\n"},
                  {.why = "qemu wires a LAN9118 at 0x05000000 that the DTB does not describe; its "
                          "interrupt goes through GPIO gpx0 pin 5 (straight to the GIC it fails "
                          "with SIOCSIFFLAGS EINVAL)",
                   .nodes = {{.key = "gpx0",
                              .name = "gpx0-gpio-bank",
                              .what = "gpx0 GPIO bank (gpx0-gpio-bank)"}},
                   .dts = "/ {\n"
                          "\tethernet@5000000 {\n"
                          "\t\tcompatible = \"smsc,lan9115\";\n"
                          "\t\treg = <0x05000000 0x10000>;\n"
                          "\t\tinterrupt-parent = <&{{gpx0}}>;\n"
                          "\t\tinterrupts = <5 4>;\n"
                          "\t\treg-io-width = <2>;\n"
                          "\t\tphy-mode = \"mii\";\n"
                          "\t\tsmsc,force-internal-phy;\n"
                          "\t};\n"
                          "};\n"},
              },
          .arch = "arm",
          .cross_compile = "arm-linux-gnueabihf-",
          .cross_package = "gcc-arm-linux-gnueabihf",
          .base_config = "exynos_defconfig",
          .image = "zImage",
          .kernel_modules = true,
          .kernel_config =
              {
                  {"CONFIG_ARCH_EXYNOS", "y"},
                  {"CONFIG_ARCH_EXYNOS4", "y"},
                  {"CONFIG_SERIAL_SAMSUNG", "y"},
                  {"CONFIG_SERIAL_SAMSUNG_CONSOLE", "y"},
                  {"CONFIG_ETHERNET", "y"},
                  {"CONFIG_NET_VENDOR_SMSC", "y"},
                  {"CONFIG_SMSC911X", "y"},
                  {"CONFIG_DMADEVICES", "y"},
                  {"CONFIG_PL330_DMA", "y"},
              },
          // Then the modules' part: CONFIG_MODULES, CONFIG_MODULE_UNLOAD and
          // the board's modules as =m, as their workloads load them.
          .kernel_config_off =
              {
                  // What the guest never uses, off to keep the cold build short
                  // (bench/kernel_build_bench.sh measures it).
                  {"CONFIG_DRM", "n"},
                  {"CONFIG_FB", "n"},
                  {"CONFIG_SOUND", "n"},
                  {"CONFIG_USB_SUPPORT", "n"},
                  {"CONFIG_MEDIA_SUPPORT", "n"},
                  {"CONFIG_WIRELESS", "n"},
                  {"CONFIG_WLAN", "n"},
                  {"CONFIG_BT", "n"},
                  {"CONFIG_MMC", "n"},
                  {"CONFIG_MTD", "n"},
                  {"CONFIG_SCSI", "n"},
                  {"CONFIG_ATA", "n"},
                  {"CONFIG_IIO", "n"},
                  {"CONFIG_HID", "n"},
                  {"CONFIG_INPUT_TOUCHSCREEN", "n"},
                  {"CONFIG_NETWORK_FILESYSTEMS", "n"},
                  {"CONFIG_EXT4_FS", "n"},
                  {"CONFIG_CPU_FREQ", "n"},
                  {"CONFIG_CPU_IDLE", "n"},
                  {"CONFIG_PM_DEVFREQ", "n"},
                  {"CONFIG_CRYPTO_HW", "n"},
                  {"CONFIG_RTC_CLASS", "n"},
                  // exynos_defconfig builds with DWARF debug info and ftrace:
                  // a third more compile time for nothing the lab reads.
                  {"CONFIG_DEBUG_INFO_NONE", "y"},
                  {"CONFIG_FTRACE", "n"},
                  {"CONFIG_IPV6", "n"},
                  {"CONFIG_NFC", "n"},
                  {"CONFIG_NET_KEY", "n"},
                  {"CONFIG_IP_PNP", "n"},
                  {"CONFIG_MD", "n"},
                  {"CONFIG_SPI", "n"},
                  {"CONFIG_PPS", "n"},
                  {"CONFIG_PTP_1588_CLOCK", "n"},
                  {"CONFIG_POWER_SUPPLY", "n"},
                  {"CONFIG_HWMON", "n"},
                  {"CONFIG_WATCHDOG", "n"},
                  {"CONFIG_MEDIA_CEC_SUPPORT", "n"},
                  {"CONFIG_NEW_LEDS", "n"},
                  {"CONFIG_IOMMU_SUPPORT", "n"},
                  {"CONFIG_EXTCON", "n"},
                  {"CONFIG_PWM", "n"},
                  {"CONFIG_EXT2_FS", "n"},
                  {"CONFIG_MSDOS_FS", "n"},
                  {"CONFIG_VFAT_FS", "n"},
                  {"CONFIG_SQUASHFS", "n"},
              },
      },
  };
  return rows;
}

const Board& default_board() {
  return boards().front();
}

const Board* find_board(const std::string& name) {
  const auto& b = boards();
  const auto it = std::find_if(b.begin(), b.end(), [&](const Board& r) { return r.name == name; });
  return it == b.end() ? nullptr : &*it;
}

std::string unknown_board(const std::string& name) {
  std::vector<std::string> names;
  std::string known;
  for (const auto& b : boards()) {
    names.push_back(b.name);
    known += fmt::format("{}{} ({})", known.empty() ? "" : ", ", b.name, board_help(b));
  }
  return fmt::format("unknown board '{}'{}; known: {}", name, did_you_mean(name, names), known);
}

std::string board_help(const Board& board) {
  std::vector<std::string> names;
  for (const auto& m : board_modules(board)) names.push_back(m.name);
  return names.empty() ? board.help : fmt::format("{} for {}", board.help, fmt::join(names, ", "));
}

std::vector<KernelModule> board_modules(const Board& board) {
  std::vector<KernelModule> out;
  for (const Workload* w : all_workloads())
    for (const KernelModule& m : w->guest_needs().kernel_modules)
      if (std::ranges::count(board.hardware, m.hardware) &&
          std::ranges::none_of(out, [&](const KernelModule& o) { return o.name == m.name; }))
        out.push_back(m);
  return out;
}

const Board& board_named(const std::string& name) {
  if (const Board* b = find_board(name)) return *b;
  throw std::invalid_argument("lab: " + unknown_board(name));
}

}  // namespace schedlab::lab
