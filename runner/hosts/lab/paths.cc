#include "runner/hosts/lab/paths.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace schedlab::lab {

LabPaths LabPaths::from_env() {
  if (const char* c = std::getenv("SCHEDLAB_LAB_CACHE"); c && *c) return {c};
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return {std::filesystem::path(x) / "schedlab" / "lab"};
  const char* home = std::getenv("HOME");
  if (!home || !*home) throw std::runtime_error("lab: neither SCHEDLAB_LAB_CACHE nor HOME is set");
  return {std::filesystem::path(home) / ".cache" / "schedlab" / "lab"};
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

}  // namespace schedlab::lab
