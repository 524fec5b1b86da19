// Kernel modules for the initramfs: which files to load, in which order
// (from depmod's modules.dep), and their content uncompressed (Debian 6.12
// ships .ko.xz; busybox insmod wants plain .ko).
#pragma once

#include <string>
#include <vector>

namespace schedlab::lab {

// Relative paths from modules.dep ("kernel/drivers/net/virtio_net.ko.xz"),
// dependencies before dependants, each once. A wanted module that is built
// in (listed in modules.builtin) is skipped; one that is neither is an
// error naming it. Pure: takes the files' text.
std::vector<std::string> module_load_order(const std::vector<std::string>& wanted,
                                           const std::string& modules_dep,
                                           const std::string& modules_builtin);

// The module's ELF bytes: .ko as is, .ko.xz decompressed. Throws on .ko.zst
// and other formats, naming the file.
std::string read_module(const std::string& path);

// "virtio_net" from "kernel/drivers/net/virtio_net.ko.xz".
std::string module_name(const std::string& path);

}  // namespace schedlab::lab
