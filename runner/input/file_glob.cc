#include "runner/input/file_glob.h"

#include <fmt/format.h>
#include <glob.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "base/file.h"
#include "base/text.h"

namespace schedlab {

namespace {

// What glob(3) could not read: its errfunc takes no state of ours.
thread_local std::string unreadable;

int on_unreadable(const char* path, int error) {
  unreadable = fmt::format("{}: {}", path, std::strerror(error));
  return 1;  // stop: a directory left out would leave its files out silently
}

// The directory a glob's matches lie under: its path before the part with
// the first glob character ("imp" of "imp/base-*.txt"), resolved.
std::filesystem::path glob_root(const std::string& word) {
  const auto slash = word.rfind('/', word.find_first_of("*?["));
  const std::string dir =
      slash == std::string::npos ? "." : word.substr(0, std::max<std::size_t>(slash, 1));
  std::error_code ec;
  auto root = std::filesystem::canonical(dir, ec);
  return ec ? std::filesystem::path(dir) : root;
}

}  // namespace

bool has_glob_characters(const std::string& word) {
  return word.find_first_of("*?[") != std::string::npos;
}

std::vector<std::string> expand_file_argument(const std::string& word) {
  std::error_code ec;
  if (!has_glob_characters(word) || std::filesystem::exists(word, ec)) return {word};
  glob_t matches{};
  const std::unique_ptr<glob_t, void (*)(glob_t*)> freed(&matches, globfree);
  unreadable.clear();
  const int rc = ::glob(word.c_str(), GLOB_ERR, on_unreadable, &matches);
  const std::string shown = terminal_safe(excerpt(word, 80));
  if (rc == GLOB_NOMATCH)
    throw std::invalid_argument(fmt::format("'{}': the glob matches no file", shown));
  if (rc == GLOB_ABORTED)
    throw std::invalid_argument(
        fmt::format("'{}': the glob cannot read {}", shown, terminal_safe(unreadable)));
  if (rc != 0) throw std::invalid_argument(fmt::format("'{}': the glob cannot be expanded", shown));
  // What a glob matches is a tree of outputs from elsewhere: a link in it is
  // followed only within it, as in an mmtests tree (hostile10: a planted
  // link to /etc/shadow was imported, the file stored as an output).
  std::vector<std::string> files(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
  const auto root = glob_root(word);
  for (const auto& f : files) {
    try {
      resolved_within(root, f);
    } catch (const FileError& e) {
      throw std::invalid_argument(terminal_safe(e.what()));
    }
  }
  return files;
}

std::string read_input_file(const std::string& path) {
  try {
    return read_file(path);
  } catch (const FileError& e) {
    throw std::invalid_argument(e.what());
  }
}

}  // namespace schedlab
