#include "runner/lab/cpio.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <zlib.h>

#include <stdexcept>

namespace schedlab::lab {
namespace {

void pad4(std::string& out) {
  while (out.size() % 4) out.push_back('\0');
}

void header(std::string& out, unsigned ino, unsigned mode, unsigned nlink, std::size_t filesize,
            const std::string& name) {
  // magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor, devminor,
  // rdevmajor, rdevminor, namesize, check: 8 hex digits each.
  out += fmt::format("070701{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}",
                     ino, mode, 0, 0, nlink, 0, filesize, 0, 0, 0, 0, name.size() + 1, 0);
  out += name;
  out.push_back('\0');
  pad4(out);
}

}  // namespace

std::string cpio_newc(const std::vector<CpioEntry>& entries) {
  std::string out;
  unsigned ino = 1;
  for (const auto& e : entries) {
    if (e.path.empty() || e.path.front() == '/') throw std::invalid_argument("cpio: bad path '" + e.path + "'");
    unsigned type = S_IFREG;
    if (e.kind == CpioEntry::Kind::kDir) type = S_IFDIR;
    if (e.kind == CpioEntry::Kind::kSymlink) type = S_IFLNK;
    const std::size_t size = e.kind == CpioEntry::Kind::kDir ? 0 : e.data.size();
    header(out, ino++, type | (e.mode & 07777), e.kind == CpioEntry::Kind::kDir ? 2 : 1, size, e.path);
    if (size) {
      out += e.data;
      pad4(out);
    }
  }
  header(out, 0, 0, 1, 0, "TRAILER!!!");
  return out;
}

std::string gzip_compress(const std::string& data, int level) {
  z_stream z{};
  // 15 window bits + 16: a gzip header and trailer instead of zlib's.
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  const auto used = z.total_out;
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("gzip: deflate failed");
  out.resize(used);
  return out;
}

}  // namespace schedlab::lab
