#include "base/file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace schedlab {

FileError::FileError(const std::filesystem::path& path, const std::string& reason)
    : std::runtime_error(path.string() + ": cannot read the file: " + reason), reason_(reason) {}

FileError::FileError(const std::filesystem::path& path, int errnum)
    : FileError(path, std::string(std::strerror(errnum))) {
  errnum_ = errnum;
}

void read_file_pieces(const std::filesystem::path& path,
                      const std::function<void(std::string_view)>& piece) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw FileError(path, errno);
  // Closed on every way out, a throwing `piece` included.
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileError(path, errno);
    if (n == 0) return;
    piece(std::string_view(buf, static_cast<std::size_t>(n)));
  }
}

std::string read_file(const std::filesystem::path& path, std::size_t max_bytes) {
  std::string data;
  // Sized once when the file says how long it is (/proc files say 0).
  std::error_code ec;
  if (const auto size = std::filesystem::file_size(path, ec); !ec && size <= max_bytes) data.reserve(size);
  read_file_pieces(path, [&](std::string_view piece) {
    if (data.size() + piece.size() > max_bytes)
      throw FileError(path, "larger than " + std::to_string(max_bytes) + " bytes");
    data += piece;
  });
  return data;
}

void write_whole_file(const std::filesystem::path& p, const std::string& data, bool private_file) {
  // Written beside the target and renamed: readers never see half a file.
  const std::string tmp = p.string() + fmt::format(".tmp{}", ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, private_file ? 0600 : 0644);
  if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot write: {}", tmp, std::strerror(errno)));
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw std::runtime_error(fmt::format("{}: write failed: {}", tmp, std::strerror(e)));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  std::filesystem::rename(tmp, p);
}

}  // namespace schedlab
