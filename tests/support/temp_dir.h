// Test helpers: a temporary directory removed at scope end, and reading
// fixture files.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace schedlab::test {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

std::string read_text(const std::filesystem::path& p);
void write_text(const std::filesystem::path& p, const std::string& text);
std::filesystem::path fixture(const std::string& relative);
// The text of a real output this repository keeps (tests/fixtures/RELATIVE).
std::string own_fixture(const std::string& relative);
// The same without the '#' lines that open it: the header of a fixture
// copied from elsewhere, naming its source.
std::string own_fixture_body(const std::string& relative);
// Every regular file in a fixture folder, sorted.
std::vector<std::filesystem::path> fixture_files(const std::string& folder);

}  // namespace schedlab::test
