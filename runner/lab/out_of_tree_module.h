// A workload's kernel module (workloads/guest_needs.h: KernelModule) for a
// Debian kernel, which does not ship it (e.g. dmatest: CONFIG_DMATEST is
// not set on any architecture): for each of a board's modules
// (board.h: board_modules) schedlab builds the module's source file from
// the matching linux-source-<series> out of tree against the kernel's own
// headers (linux-headers-<release>, its -common package and the
// linux-kbuild of this machine's architecture that its `scripts` link
// points at), with the board's cross compiler. The module is kept in the
// kernel's cache entry (lib/modules/<release>/extra/NAME.ko, depmod'ed) so
// the guest's `modprobe NAME` finds it; it loads unsigned (taint only).
#pragma once

#include <filesystem>
#include <string>

#include "runner/hosts/host.h"
#include "runner/lab/apt.h"
#include "runner/lab/board.h"
#include "runner/lab/kernel_entry.h"
#include "runner/lab/paths.h"

namespace schedlab::lab {

// Builds NAME.ko into the kernel's entry unless it is there; nothing for a
// kernel built from a tree (its config builds the module). Throws
// std::runtime_error naming what is missing (the cross compiler with its
// package) or the build's first error lines.
void add_out_of_tree_module(Kernel& kernel, const KernelModule& module, const Board& board,
                            const LabPaths& paths, PrivateApt& apt, Host& local, const Log& log);
// Where it is kept: lib/modules/<release>/extra/NAME.ko of the kernel's entry.
std::filesystem::path out_of_tree_module_path(const Kernel& kernel, const KernelModule& module);

// Package names around an image package. Pure.
//   linux-image-6.1.0-57-armmp -> linux-headers-6.1.0-57-armmp, linux-headers-6.1.0-57-common
std::string headers_package(const std::string& image_package);
std::string common_headers_package(const std::string& image_package, const std::string& flavour);
// The linux-kbuild-* a headers package depends on ("" when none). Pure.
std::string kbuild_package(const std::string& depends);
// linux-source-6.1 for release 6.1.0-57-armmp, linux-source-6.12 for 6.12.118+deb12-armmp. Pure.
std::string source_package(const std::string& release);

}  // namespace schedlab::lab
