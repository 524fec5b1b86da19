// libFuzzer target: the mmtests tree reader (import --mmtests) on a tree
// written from the input. The input is entries separated by NUL bytes, each
// "PATH\nCONTENT": a file at PATH under the tree, or, when CONTENT starts
// with "->", a symbolic link to what follows (anywhere: the reader must not
// follow it out of the tree). Content that starts with gzip's or xz's magic
// is decompressed as mmtests' logs are. std::invalid_argument (a bad tree,
// a refused file) is fine; anything else, or a crash, is a bug.
// Seeds: fuzz/seeds/mmtests-tree.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "runner/import/mmtests_tree.h"

namespace fs = std::filesystem;

namespace {

// A relative path of plain names: the fuzzer writes only inside its own
// directory, whatever the links it makes point to.
bool plain_path(std::string_view p) {
  if (p.empty() || p.size() > 200 || p.front() == '/') return false;
  int depth = 0;
  for (std::size_t at = 0; at <= p.size();) {
    const auto slash = std::min(p.find('/', at), p.size());
    const auto part = p.substr(at, slash - at);
    if (part.empty() || part == "." || part == ".." || ++depth > 7) return false;
    at = slash + 1;
  }
  return p.find('\0') == std::string_view::npos;
}

void write_entry(const fs::path& tree, std::string_view entry) {
  const auto nl = entry.find('\n');
  const std::string_view path = entry.substr(0, nl);
  const std::string_view content = nl == std::string_view::npos ? "" : entry.substr(nl + 1);
  if (!plain_path(path)) return;
  const fs::path file = tree / std::string(path);
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec || fs::exists(fs::symlink_status(file, ec))) return;
  if (content.starts_with("->")) {
    fs::create_symlink(std::string(content.substr(2, content.find('\n') - 2)), file, ec);
    return;
  }
  std::ofstream(file, std::ios::binary)
      .write(content.data(), static_cast<std::streamsize>(content.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fs::path base = [] {
    std::string dir = (fs::exists("/dev/shm") ? "/dev/shm" : fs::temp_directory_path().string()) +
                      "/schedlab-fuzz-mmtests-XXXXXX";
    if (!::mkdtemp(dir.data())) std::abort();
    std::atexit([] { fs::remove_all(base); });
    return fs::path(dir);
  }();
  const fs::path tree = base / "tree";
  fs::remove_all(tree);
  fs::create_directories(tree);
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  int entries = 0;
  for (std::size_t at = 0; at < input.size() && entries < 64; ++entries) {
    const auto nul = std::min(input.find('\0', at), input.size());
    write_entry(tree, input.substr(at, nul - at));
    at = nul + 1;
  }
  try {
    // Small limits, so that every limit is reached by inputs of fuzzing size.
    schedlab::read_mmtests_tree(
        tree.string(), {.log_bytes = 1 << 20, .output_bytes = 4096, .tree_bytes = 4 << 20});
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
