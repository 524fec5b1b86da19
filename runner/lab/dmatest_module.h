// dmatest.ko for a Debian kernel: no Debian kernel ships dmatest
// (CONFIG_DMATEST is not set on any architecture), so for a board that is
// there for it (board.h: dmatest_module) schedlab builds
// drivers/dma/dmatest.c from the matching linux-source-<series> out of tree
// against the kernel's own headers (linux-headers-<release>, its -common
// package and the linux-kbuild of this machine's architecture that its
// `scripts` link points at), with the board's cross compiler. The module is
// kept in the kernel's cache entry (lib/modules/<release>/extra/, depmod'ed)
// so the guest's `modprobe dmatest` finds it; it loads unsigned (taint only).
#pragma once

#include <string>

#include "runner/hosts/host.h"
#include "runner/lab/apt.h"
#include "runner/lab/board.h"
#include "runner/lab/kernel_entry.h"
#include "runner/lab/paths.h"

namespace schedlab::lab {

// Builds dmatest.ko into the kernel's entry unless it is there. Throws
// std::runtime_error naming what is missing (the cross compiler with its
// package) or the build's first error lines.
void add_dmatest_module(Kernel& kernel, const Board& board, const LabPaths& paths, PrivateApt& apt,
                        Host& local, const Log& log);

// Package names around an image package. Pure.
//   linux-image-6.1.0-57-armmp -> linux-headers-6.1.0-57-armmp, linux-headers-6.1.0-57-common
std::string headers_package(const std::string& image_package);
std::string common_headers_package(const std::string& image_package, const std::string& flavour);
// The linux-kbuild-* a headers package depends on ("" when none). Pure.
std::string kbuild_package(const std::string& depends);
// linux-source-6.1 for release 6.1.0-57-armmp, linux-source-6.12 for 6.12.118+deb12-armmp. Pure.
std::string source_package(const std::string& release);

}  // namespace schedlab::lab
