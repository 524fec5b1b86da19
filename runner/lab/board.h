// The machines a lab guest can be: one row per board with everything that
// differs between them (qemu binary and machine, CPUs, console, NIC, the
// DTB and its fixes, Debian architecture and kernel flavour, the guest's
// userland, how a kernel tree is cross-built for it). The lab reads the
// row; nothing else asks which board it is.
//
//   x86         qemu's PC (qemu-system-x86_64), KVM or TCG, virtio-net: the default
//   exynos4210  qemu's smdkc210 (qemu-system-arm): 2 Cortex-A9 and three
//               PL330 DMA controllers, DMA engines a workload's module
//               (e.g. dmatest) drives (emulated: emulator numbers)
// A board names no workload: it says what hardware it has, and a workload
// declares the kernel modules that drive it (workloads/guest_needs.h); the
// lab builds those (board_modules).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "workloads/guest_needs.h"

namespace schedlab::lab {

// A node of a decompiled DTB that a fix needs: found by one of its
// compatible strings, or by its name (the part before '@').
struct DtbNode {
  std::string key;         // the placeholder in the fix's text: {gpx0}
  std::string compatible;  // match on a compatible string, or
  std::string name;        // on the node's name (name or name@unit)
  std::string what;        // for the error when it is missing
};

// Source appended to the decompiled DTB and compiled again with dtc: a
// later definition of a node adds to it and overrides its properties.
struct DtbFix {
  std::string why;
  std::vector<DtbNode> nodes;
  std::string dts;  // {key} is replaced by the node's path
};

struct Board {
  std::string name;
  std::string help;
  // qemu
  std::string qemu;          // program
  std::string qemu_package;  // its Debian package
  std::string machine;       // -M; empty: qemu's default
  std::vector<std::string> tcg_args;
  std::vector<std::string> kvm_args;  // empty: no KVM for this board
  int cpus = 0;                       // the board's CPUs; 0: as configured (-smp)
  std::string memory;                 // the board's memory; empty: as configured (-m)
  bool sockets = true;                // -smp sockets= may split the CPUs
  std::string console;                // console= on the kernel command line
  int console_serial = 0;             // which -serial is that console (the ones before it: null)
  std::vector<std::string> nic_args;  // {user}: user,restrict=on,hostfwd=...
  std::string cpu_source;             // where the kernel learns of its CPUs (a boot error's hint)
  // Debian kernels and userland
  std::string debian_arch;                 // amd64, armhf
  std::string flavour;                     // linux-image-*-FLAVOUR
  std::vector<std::string> modules;        // loaded by init for the network
  // What workloads' kernel modules drive (KernelModule::hardware): dma-engines.
  std::vector<std::string> hardware;
  std::vector<std::string>
      userland_packages;  // Debian packages of debian_arch; none: this machine's programs
  std::string dtb;        // the board's DTB; empty: none
  std::vector<DtbFix> dtb_fixes;
  // Kernels built from a tree
  std::string arch;           // ARCH=
  std::string cross_compile;  // CROSS_COMPILE=; empty: this machine's gcc
  std::string cross_package;
  std::string base_config;      // make target: tinyconfig, exynos_defconfig
  std::string image;            // make target, found under arch/ARCH/boot
  bool kernel_modules = false;  // modules built and installed (else everything built in)
  // The board's part of schedlab's guest fragment (kernel_build.h has the
  // common part and puts the modules' part between these two): what it has,
  std::vector<std::pair<std::string, std::string>> kernel_config;
  // then what the guest never uses, off to keep the cold build short.
  std::vector<std::pair<std::string, std::string>> kernel_config_off;
};

const std::vector<Board>& boards();
// The board a config names none of.
const Board& default_board();
// nullptr when unknown.
const Board* find_board(const std::string& name);
// The board, or std::invalid_argument naming the known ones.
const Board& board_named(const std::string& name);
// "unknown board 'x' (did you mean ...?); known: x86 (...), exynos4210 (...)"
std::string unknown_board(const std::string& name);
// The help with what the hardware is for, board_modules' names: e.g.
// "..., three PL330 DMA engines for dmatest".
std::string board_help(const Board& board);

// The kernel modules the workloads declare (GuestNeeds::kernel_modules) that
// drive hardware the board has, in registry order, each once: every
// workload's, not only a run's (a cached kernel serves every run). A Debian
// kernel gets each built out of tree (out_of_tree_module.h), a tree build
// each as CONFIG=m (kernel_build.h: guest_config); the guest can modprobe
// them (modules.dep kept in the initramfs).
std::vector<KernelModule> board_modules(const Board& board);

}  // namespace schedlab::lab
