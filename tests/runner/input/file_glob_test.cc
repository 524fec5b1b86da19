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

TEST_CASE("a file argument's glob follows a link only within its directory (hostile10)") {
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "imp");
  test::write_text(dir.file("secret"), "root:*:0\n");
  test::write_text(dir.file("imp/a.txt"), "x\n");
  std::filesystem::create_symlink("a.txt", dir.path() / "imp/b.txt");
  const std::string glob = dir.file("imp") + "/*.txt";
  CHECK(expand_file_argument(glob) ==
        std::vector<std::string>{dir.file("imp/a.txt"), dir.file("imp/b.txt")});
  // A link planted towards a file outside it (/etc/shadow) is refused, named.
  std::filesystem::create_symlink(dir.file("secret"), dir.path() / "imp/c.txt");
  const auto root = std::filesystem::canonical(dir.path() / "imp").string();
  CHECK_THROWS_WITH(expand_file_argument(glob),
                    dir.file("imp/c.txt") + ": cannot read the file: a link to " +
                        std::filesystem::canonical(dir.file("secret")).string() + ", outside " +
                        root + "; links are followed only within it");
}
