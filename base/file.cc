#include "base/file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "base/text.h"

namespace schedlab {

FileError::FileError(const std::filesystem::path& path, const std::string& reason)
    : std::runtime_error(path.string() + ": cannot read the file: " + reason), reason_(reason) {}

FileError::FileError(const std::filesystem::path& path, int errnum)
    : FileError(path, std::string(std::strerror(errnum))) {
  errnum_ = errnum;
}

std::string_view file_type_name(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG:
      return "";
    case S_IFDIR:
      return "a directory";
    case S_IFIFO:
      return "a FIFO";
    case S_IFCHR:
      return "a character device";
    case S_IFBLK:
      return "a block device";
    case S_IFSOCK:
      return "a socket";
    case S_IFLNK:
      return "a symbolic link";
    default:
      return "no regular file";
  }
}

std::string regular_file_problem(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return errno == ENOENT ? "no such file" : std::string(std::strerror(errno));
  if (S_ISREG(st.st_mode)) return "";
  return fmt::format("not a regular file ({})", file_type_name(st.st_mode));
}

void read_file_pieces(const std::filesystem::path& path,
                      const std::function<void(std::string_view)>& piece) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
  // writer, forever; the type is checked before anything is read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) throw FileError(path, errno);
  // Closed on every way out, a throwing `piece` included.
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st{};
  if (::fstat(fd, &st) != 0) throw FileError(path, errno);
  if (S_ISDIR(st.st_mode)) throw FileError(path, EISDIR);
  if (!S_ISREG(st.st_mode))
    throw FileError(path, fmt::format("not a regular file ({})", file_type_name(st.st_mode)));
  if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) throw FileError(path, errno);
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileError(path, errno);
    if (n == 0) return;
    piece(std::string_view(buf, static_cast<std::size_t>(n)));
  }
}

std::filesystem::path resolved_within(const std::filesystem::path& root,
                                      const std::filesystem::path& path) {
  std::error_code ec;
  auto resolved = std::filesystem::canonical(path, ec);
  if (ec) throw FileError(path, ec.value());
  const auto [r, p] = std::mismatch(root.begin(), root.end(), resolved.begin(), resolved.end());
  if (r != root.end())
    throw FileError(path, fmt::format("a link to {}, outside {}; links are followed only within it",
                                      resolved.string(), root.string()));
  return resolved;
}

std::string read_file(const std::filesystem::path& path, std::size_t max_bytes) {
  std::string data;
  // Sized once when the file says how long it is (/proc files say 0); one
  // that says it is past the cap is refused before a byte is read (a 3 GB
  // sparse file was read to 1 GiB first: hostile12).
  std::error_code ec;
  if (const auto size = std::filesystem::file_size(path, ec); !ec) {
    if (size > max_bytes)
      throw FileError(path, "larger than " + std::to_string(max_bytes) + " bytes");
    data.reserve(size);
  }
  read_file_pieces(path, [&](std::string_view piece) {
    if (data.size() + piece.size() > max_bytes)
      throw FileError(path, "larger than " + std::to_string(max_bytes) + " bytes");
    data += piece;
  });
  return data;
}

AtomicFile::AtomicFile(std::filesystem::path target, bool private_file)
    : target_(std::move(target)) {
  struct stat named {};
  if (::lstat(target_.c_str(), &named) == 0) {
    struct stat to {};
    if (S_ISLNK(named.st_mode) && ::stat(target_.c_str(), &to) == 0 && !S_ISREG(to.st_mode))
      // /dev/stdout, or a link planted towards a disk: replacing the link
      // would break the first, writing through it the second.
      throw std::runtime_error(fmt::format(
          "cannot write {}: a link to {}: neither replaced nor written through (-o - writes on "
          "stdout)",
          target_.string(), file_type_name(to.st_mode)));
    if (!S_ISLNK(named.st_mode) && !S_ISREG(named.st_mode) && !S_ISDIR(named.st_mode)) {
      // A device or FIFO named as it is (-o /dev/null): written, never
      // replaced by a file.
      fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (fd_ < 0) fail("cannot open it", errno);
      return;
    }
  }
  // Beside the target (rename is atomic within a file system), hidden, and
  // unique: mkstemp creates it with O_EXCL, never through a link.
  const std::filesystem::path dir = target_.has_parent_path() ? target_.parent_path() : ".";
  tmp_ = (dir / ("." + target_.filename().string() + ".tmp-XXXXXX")).string();
  fd_ = ::mkostemp(tmp_.data(), O_CLOEXEC);
  if (fd_ < 0) {
    const int e = errno;
    tmp_.clear();
    fail("cannot create a file beside it", e);
  }
  if (::fchmod(fd_, private_file ? 0600 : 0644) != 0) {
    const int e = errno;
    ::close(fd_);
    ::unlink(tmp_.c_str());
    fail("cannot set its mode", e);
  }
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
}

void AtomicFile::fail(const std::string& what, int errnum) {
  throw std::runtime_error(
      fmt::format("cannot write {}: {}: {}", target_.string(), what, std::strerror(errnum)));
}

void AtomicFile::write(std::string_view data) {
  if (fd_ < 0) throw std::logic_error("AtomicFile::write after commit");
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd_, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write failed", errno);
    done += static_cast<std::size_t>(n);
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) throw std::logic_error("AtomicFile::commit twice");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("write failed", errno);
  if (tmp_.empty()) return;  // a device or FIFO, written directly
  // rename(2) replaces the name: a link there is replaced, not followed.
  if (::rename(tmp_.c_str(), target_.c_str()) != 0) fail("cannot rename it into place", errno);
  tmp_.clear();
}

void write_whole_file(const std::filesystem::path& p, const std::string& data, bool private_file) {
  AtomicFile f(p, private_file);
  f.write(data);
  f.commit();
}

std::filesystem::path user_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::filesystem::path(x) / "schedlab";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::filesystem::path(h) / ".cache" / "schedlab";
  return {};
}

std::optional<std::string> shared_dir_problem(const std::string& variable,
                                              const std::filesystem::path& dir) {
  std::error_code ec;
  const auto given = std::filesystem::absolute(dir, ec);
  const auto full = std::filesystem::weakly_canonical(given, ec);
  if (ec) return fmt::format("{} {}: {}", variable, terminal_safe(dir.string()), ec.message());
  const uid_t me = ::geteuid();
  // A link on the way belongs to whoever made it, who may point it
  // elsewhere later (one in /tmp passed: hostile13).
  std::filesystem::path step;
  for (const auto& part : given) {
    step /= part;
    struct stat st {};
    if (::lstat(step.c_str(), &st) == 0 && S_ISLNK(st.st_mode) && st.st_uid != me && st.st_uid != 0)
      return fmt::format(
          "{}: {} is a link of user {}, neither this user ({}) nor root: that user could point it "
          "elsewhere; use a folder of your own",
          variable, terminal_safe(step.string()), st.st_uid, me);
  }
  for (auto p = full;; p = p.parent_path()) {
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0) {
      // /dev/null is writable by all, but what is wrong is that it is no folder.
      if (!S_ISDIR(st.st_mode))
        return fmt::format("{}: {} is no folder; use a folder of your own", variable,
                           terminal_safe(p.string()));
      const std::string what =
          p == full ? "" : fmt::format(" (a folder above {})", terminal_safe(full.string()));
      if (st.st_uid != me && st.st_uid != 0)
        return fmt::format(
            "{}: {}{} is owned by user {}, neither this user ({}) nor root: that user could put "
            "files of their own in schedlab's place; use a folder of your own",
            variable, terminal_safe(p.string()), what, st.st_uid, me);
      if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
        return fmt::format(
            "{}: {}{} is writable by every user and has no sticky bit: another user could "
            "replace what schedlab keeps there; use a folder of your own",
            variable, terminal_safe(p.string()), what);
      // The sticky bit keeps others from removing a file of this user's,
      // not from making one at a name schedlab uses before it does, which
      // stays theirs to swap later: a run's lock or alive file in /tmp
      // itself was taken over, and restore killed the live run (hostile15).
      // A folder above with the bit is fine: they cannot swap this one.
      if ((st.st_mode & S_IWOTH) && p == full)
        return fmt::format(
            "{}: {} is writable by every user: even with the sticky bit another user can make "
            "files there first, under the names schedlab uses, and swap them later; use a "
            "folder of your own (one made in it is fine)",
            variable, terminal_safe(p.string()));
    }
    if (p == p.parent_path()) break;
  }
  return std::nullopt;
}

}  // namespace schedlab
