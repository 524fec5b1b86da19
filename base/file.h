// Reading a whole file into memory, with a size cap: a config, a saved tool
// output, a cached kernel file. /proc files report a size of 0, so the cap is
// checked while reading, not from stat.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace schedlab {

// "PATH: cannot read the file: REASON"; reason() alone for callers that put
// the path elsewhere (file:line: errors); errnum() is the errno, 0 for a file
// over the size cap.
class FileError : public std::runtime_error {
 public:
  FileError(const std::filesystem::path& path, int errnum);
  FileError(const std::filesystem::path& path, const std::string& reason);
  const std::string& reason() const { return reason_; }
  int errnum() const { return errnum_; }

 private:
  std::string reason_;
  int errnum_ = 0;
};

// Larger than anything schedlab reads whole (kernel packages are ~100 MiB);
// a guard against /dev/zero or a runaway log, not a quota.
inline constexpr std::size_t kReadFileLimit = std::size_t{1} << 30;

// The bytes of the file. Throws FileError when it cannot be opened or read
// (the reason is strerror's), is larger than max_bytes, or is no regular
// file: a FIFO would block the reader forever, a device never ends. /proc
// and sysfs files are regular files.
std::string read_file(const std::filesystem::path& path, std::size_t max_bytes = kReadFileLimit);

// The file's bytes in pieces of up to 64 KiB, in order, for a reader that
// does not keep them (a hash). Throws FileError as read_file does.
void read_file_pieces(const std::filesystem::path& path,
                      const std::function<void(std::string_view)>& piece);

// What a file of this st_mode is, for an error: "a FIFO", "a character
// device", "a directory", ...; empty for a regular file.
std::string_view file_type_name(unsigned mode);

// Why PATH (links followed) is not a regular file to read: "no such file",
// "not a regular file (a FIFO)", or stat's reason; empty when it is one.
// For a check before reading, where "no such file" would be wrong for a
// FIFO, a device or a directory.
std::string regular_file_problem(const std::filesystem::path& path);

// `path` with every link in it resolved, when that stays under `root` (a
// path already resolved, e.g. by std::filesystem::canonical): how a tree
// from elsewhere is read without following its links out of it. Throws
// FileError when it cannot be resolved or leads outside `root`.
std::filesystem::path resolved_within(const std::filesystem::path& root,
                                      const std::filesystem::path& path);

// A file written whole or not at all, the one way schedlab writes an
// output file (-o, --report-*, caches, records): the bytes go to a new
// temporary file beside the target (created exclusively, so no link or file
// planted under its name is followed), which commit() renames over the
// target. A reader never sees half a file, an interrupted writer leaves the
// old one, and a symbolic link at the target's name (dangling or not) is
// replaced by the file, its own target left alone. A link to something
// else than a regular file (/dev/stdout, a disk) is refused: replacing it
// or writing through it would do harm. A device or FIFO named as it is
// (-o /dev/null) is written directly, never replaced. Destroyed without
// commit(), the temporary file is removed. Mode 0600 when private_file,
// else 0644. Throws std::runtime_error "cannot write TARGET: REASON".
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path target, bool private_file = false);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::string_view data);
  // Flushes to the disk and renames into place; the last call.
  void commit();
  const std::filesystem::path& target() const { return target_; }

 private:
  [[noreturn]] void fail(const std::string& what, int errnum);
  std::filesystem::path target_;
  std::string tmp_;
  int fd_ = -1;
};

// schedlab's folder in the user's cache: $XDG_CACHE_HOME/schedlab, else
// ~/.cache/schedlab; empty when neither variable is set.
std::filesystem::path user_cache_dir();

// Why the folder a variable names (SCHEDLAB_LOCK_DIR, SCHEDLAB_LAB_CACHE)
// is no place for this user's files, as ssh holds the folders of its own
// (StrictModes): the folder, or one above it, is owned by a user neither
// this one nor root, or is writable by every user without the sticky bit
// (another user could rename what schedlab keeps there and put their own
// in its place). Links are followed; folders not made yet are not checked
// (this user makes them). Empty when it is fine; the message names
// `variable`.
std::optional<std::string> shared_dir_problem(const std::string& variable,
                                              const std::filesystem::path& dir);

// The whole file through an AtomicFile.
void write_whole_file(const std::filesystem::path& p, const std::string& data,
                      bool private_file = false);

}  // namespace schedlab
