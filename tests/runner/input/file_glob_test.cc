#include "runner/input/file_glob.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE(
    "a file argument's glob: its files in sorted order; a word without one, or a file of that "
    "name, as it is") {
  test::TempDir dir;
  for (const char* name : {"base-2.txt", "base-10.txt", "base-1.txt", "other.txt", "run[1].txt"})
    test::write_text(dir.file(name), "x\n");
  CHECK(expand_file_argument(dir.file("base-*.txt")) ==
        std::vector<std::string>{dir.file("base-1.txt"), dir.file("base-10.txt"),
                                 dir.file("base-2.txt")});
  CHECK(expand_file_argument(dir.file("base-?.txt")) ==
        std::vector<std::string>{dir.file("base-1.txt"), dir.file("base-2.txt")});
  // No glob character: the word, whether or not the file exists (the import says which is missing).
  CHECK(expand_file_argument(dir.file("missing.txt")) ==
        std::vector<std::string>{dir.file("missing.txt")});
  // A file named with glob characters is that file, not what [1] matches.
  CHECK(expand_file_argument(dir.file("run[1].txt")) ==
        std::vector<std::string>{dir.file("run[1].txt")});
  for (const char* word : {"a*", "a?", "a[1]"}) CHECK(has_glob_characters(word));
  CHECK_FALSE(has_glob_characters("imp/base-1.txt"));
}

TEST_CASE("a file argument's glob that matches nothing is an error naming it") {
  test::TempDir dir;
  const std::string glob = dir.file("patchd-*.txt");
  CHECK_THROWS_WITH(expand_file_argument(glob), "'" + glob + "': the glob matches no file");
  // A hostile pattern is named in a line, escaped.
  CHECK_THROWS_WITH(expand_file_argument("\x1b[2J*"), "'\\x1b[2J*': the glob matches no file");
}
