#include "base/file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

}  // namespace schedlab
