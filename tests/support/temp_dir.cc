#include "tests/support/temp_dir.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/file.h"

namespace schedlab::test {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "schedlab-test-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string read_text(const std::filesystem::path& p) {
  return read_file(p);
}

void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

std::filesystem::path fixture(const std::string& relative) {
  return std::filesystem::path(SCHEDLAB_FIXTURES) / relative;
}

std::string own_fixture(const std::string& relative) {
  return read_text(std::filesystem::path(SCHEDLAB_SOURCE_DIR) / "tests/fixtures" / relative);
}

std::string own_fixture_body(const std::string& relative) {
  const std::string text = own_fixture(relative);
  std::size_t at = 0;
  while (at < text.size() && text[at] == '#') {
    const auto end = text.find('\n', at);
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return text.substr(at);
}

std::vector<std::filesystem::path> fixture_files(const std::string& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(fixture(folder)))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace schedlab::test
