// Where the lab keeps what it downloads and builds: $SCHEDLAB_LAB_CACHE, else
// $XDG_CACHE_HOME/schedlab/lab, else ~/.cache/schedlab/lab.
//   apt/         private apt configuration and package lists (apt-ARCH/ for
//                another Debian architecture: armhf for the exynos4210 board)
//   kernels/     one unpacked kernel per directory, <release>-<sha12 of .deb>
//   userland/    a board's Debian userland, <arch>-<sha12 of the package versions>
//   sources/     a module's source file of linux-source-SERIES_VERSION (e.g.
//                drivers/dma/dmatest.c; out_of_tree_module.h)
//   initramfs/   base images, <sha16 of their content>.cpio.gz
//   kvm-probe    the last KVM verdict on this host boot
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace schedlab::lab {

// Progress lines for the user (stderr in the CLI).
using Log = std::function<void(const std::string&)>;

struct LabPaths {
  std::filesystem::path root;
  static LabPaths from_env();
  std::filesystem::path apt() const { return root / "apt"; }
  std::filesystem::path kernels() const { return root / "kernels"; }
  std::filesystem::path initramfs() const { return root / "initramfs"; }
  std::filesystem::path kvm_probe() const { return root / "kvm-probe"; }
};

}  // namespace schedlab::lab
