// An initramfs archive: entries in the kernel's "newc" cpio format, written
// in memory with fixed owner (root) and time (0) so equal inputs give equal
// bytes, then gzip-compressed. Several archives may be concatenated: the
// kernel unpacks them in turn (a cached base image plus a small per-boot
// overlay with keys).
#pragma once

#include <string>
#include <vector>

namespace schedlab::lab {

struct CpioEntry {
  enum class Kind { kFile, kDir, kSymlink };
  Kind kind = Kind::kFile;
  std::string path;      // inside the archive, no leading '/': e.g. "usr/bin/hackbench"
  unsigned mode = 0644;  // permission bits only
  std::string data;     // file content, or the symlink target
};

// The uncompressed newc archive, entries in the given order, with trailer.
std::string cpio_newc(const std::vector<CpioEntry>& entries);
// gzip (RFC 1952) of data, no name or time in the header.
std::string gzip_compress(const std::string& data, int level = 6);

}  // namespace schedlab::lab
