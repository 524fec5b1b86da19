#include "base/file.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <string>

#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("read_file reads every byte, NULs included") {
  test::TempDir dir;
  const std::string data = std::string("a\0b\n", 4) + std::string(200000, 'x');
  test::write_text(dir.file("f"), data);
  CHECK(read_file(dir.file("f")) == data);
  test::write_text(dir.file("empty"), "");
  CHECK(read_file(dir.file("empty")).empty());
  // A /proc file reports size 0 but has content.
  CHECK_FALSE(read_file("/proc/self/status").empty());
}

TEST_CASE("read_file errors name the file and the reason") {
  test::TempDir dir;
  try {
    read_file(dir.file("missing"));
    FAIL("no error");
  } catch (const FileError& e) {
    CHECK(std::string(e.what()) ==
          dir.file("missing") + ": cannot read the file: No such file or directory");
    CHECK(e.reason() == "No such file or directory");
    CHECK(e.errnum() == ENOENT);
  }
  CHECK_THROWS_WITH(read_file(dir.path()),
                    dir.path().string() + ": cannot read the file: Is a directory");
}

TEST_CASE("read_file refuses a file larger than its cap") {
  test::TempDir dir;
  test::write_text(dir.file("f"), std::string(100, 'x'));
  CHECK(read_file(dir.file("f"), 100).size() == 100);
  CHECK_THROWS_WITH(read_file(dir.file("f"), 99),
                    dir.file("f") + ": cannot read the file: larger than 99 bytes");
  // An endless file stops at the cap instead of filling memory.
  CHECK_THROWS_WITH(read_file("/dev/zero", 1 << 20),
                    "/dev/zero: cannot read the file: larger than 1048576 bytes");
}

TEST_CASE("read_file_pieces hands over the bytes in order") {
  test::TempDir dir;
  std::string data;
  for (int i = 0; i < 50000; ++i) data += std::to_string(i) + "\n";
  test::write_text(dir.file("f"), data);
  std::string joined;
  int pieces = 0;
  read_file_pieces(dir.file("f"), [&](std::string_view p) {
    joined += p;
    ++pieces;
  });
  CHECK(joined == data);
  CHECK(pieces > 1);
}
