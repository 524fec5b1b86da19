#include "base/file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <filesystem>
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
}

// [host]: "at once" is timed (tests/CMakeLists.txt: the sanitizer run's lanes).
TEST_CASE("read_file refuses a file whose size is past its cap at once (hostile12)", "[host]") {
  // `schedlab parse hackbench` of a 3 GB sparse file read 1 GiB (4.5 s,
  // 1 GB of memory) before it said "larger than 1073741824 bytes".
  test::TempDir dir;
  const std::string big = dir.file("sparse");
  test::write_text(big, "");
  std::filesystem::resize_file(big, kReadFileLimit + 1);
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(read_file(big), big + ": cannot read the file: larger than 1073741824 bytes");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500));
}

// [host]: "at once" is timed (tests/CMakeLists.txt: the sanitizer run's lanes).
TEST_CASE("read_file reads regular files only: a FIFO or a device is an error, at once", "[host]") {
  test::TempDir dir;
  const std::string fifo = dir.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // Opening a FIFO for reading waits for a writer: read_file must not.
  const auto started = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(read_file(fifo), fifo + ": cannot read the file: not a regular file (a FIFO)");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  CHECK_THROWS_WITH(read_file_pieces(fifo, [](std::string_view) {}), Catch::Contains("(a FIFO)"));
  // An endless device is refused before a byte is read.
  CHECK_THROWS_WITH(read_file("/dev/zero", 1 << 20),
                    "/dev/zero: cannot read the file: not a regular file (a character device)");
  CHECK_THROWS_WITH(read_file("/dev/null"), Catch::Contains("(a character device)"));
  // A link to a regular file is read (a file named on the command line).
  test::write_text(dir.file("real"), "data\n");
  std::filesystem::create_symlink(dir.file("real"), dir.file("link"));
  CHECK(read_file(dir.file("link")) == "data\n");
  std::filesystem::create_symlink(fifo, dir.file("link-to-fifo"));
  CHECK_THROWS_WITH(read_file(dir.file("link-to-fifo")), Catch::Contains("(a FIFO)"));
}

TEST_CASE("resolved_within follows links only as long as they stay under the root") {
  test::TempDir dir;
  namespace fs = std::filesystem;
  const fs::path root = fs::canonical(dir.path()) / "tree";
  fs::create_directories(root / "a" / "b");
  test::write_text(root / "a" / "b" / "log", "x\n");
  test::write_text(dir.file("secret"), "outside\n");
  fs::create_symlink("b/log", root / "a" / "inside");
  fs::create_symlink("../../secret", root / "a" / "outside");
  fs::create_symlink(dir.path(), root / "up");
  fs::create_symlink("loop", root / "loop");
  CHECK(resolved_within(root, root / "a" / "inside") == root / "a" / "b" / "log");
  CHECK(resolved_within(root, root / "a" / "b" / ".." / "b" / "log") == root / "a" / "b" / "log");
  CHECK_THROWS_WITH(resolved_within(root, root / "a" / "outside"),
                    (root / "a" / "outside").string() + ": cannot read the file: a link to " +
                        fs::canonical(dir.file("secret")).string() + ", outside " + root.string() +
                        "; links are followed only within it");
  CHECK_THROWS_WITH(resolved_within(root, root / "up" / "secret"), Catch::Contains(", outside "));
  // A root that is a prefix of the name is not a parent: tree-2 is not in tree.
  fs::create_directories(root.string() + "-2");
  test::write_text(root.string() + "-2/log", "x\n");
  fs::create_symlink(root.string() + "-2/log", root / "sibling");
  CHECK_THROWS_WITH(resolved_within(root, root / "sibling"), Catch::Contains(", outside "));
  CHECK_THROWS_WITH(resolved_within(root, root / "loop"),
                    Catch::Contains("Too many levels of symbolic links"));
  CHECK_THROWS_WITH(resolved_within(root, root / "missing"),
                    Catch::Contains("No such file or directory"));
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

// Issue 44: an output file named by a link (report -o r.html, r.html ->
// elsewhere) replaces the link; the link's target, dangling or not, is left
// alone; a writer that stops half way leaves neither half a file nor its
// temporary file.
TEST_CASE("AtomicFile replaces a link at its name instead of writing through it") {
  namespace fs = std::filesystem;
  test::TempDir dir;
  test::write_text(dir.file("victim"), "precious\n");
  fs::create_symlink(dir.file("victim"), dir.file("r.html"));
  fs::create_symlink(dir.file("nowhere"), dir.file("dangling.html"));
  write_whole_file(dir.file("r.html"), "<html>\n");
  write_whole_file(dir.file("dangling.html"), "<p>\n");
  CHECK(read_file(dir.file("victim")) == "precious\n");
  CHECK_FALSE(fs::is_symlink(dir.file("r.html")));
  CHECK(read_file(dir.file("r.html")) == "<html>\n");
  CHECK_FALSE(fs::exists(dir.file("nowhere")));
  CHECK(read_file(dir.file("dangling.html")) == "<p>\n");
  struct stat st {};
  REQUIRE(::stat(dir.file("r.html").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
  {
    AtomicFile half(dir.file("r.html"));
    half.write("<html><body>half");
  }  // never committed: an error on the way
  CHECK(read_file(dir.file("r.html")) == "<html>\n");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++files;
  CHECK(files == 3);  // victim, r.html, dangling.html: nothing left of the temporary files
  CHECK_THROWS_WITH(write_whole_file(dir.file("no-such-dir/x"), "x"),
                    Catch::StartsWith("cannot write " + dir.file("no-such-dir/x") +
                                      ": cannot create a file beside it: No such file"));
}

// Issue 44's follow-on: as root, replacing /dev/null or /dev/stdout by a
// file would break the machine; a planted link to a device must not be
// written through either.
TEST_CASE("AtomicFile writes a device named as it is, and refuses a link to one") {
  namespace fs = std::filesystem;
  test::TempDir dir;
  write_whole_file("/dev/null", "discarded\n");
  struct stat st {};
  REQUIRE(::lstat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  fs::create_symlink("/dev/null", dir.file("out.html"));
  CHECK_THROWS_WITH(write_whole_file(dir.file("out.html"), "x"),
                    "cannot write " + dir.file("out.html") +
                        ": a link to a character device: neither replaced nor written through "
                        "(-o - writes on stdout)");
  CHECK(fs::is_symlink(dir.file("out.html")));
}

TEST_CASE("regular_file_problem tells a missing file from one that is not a regular file") {
  test::TempDir dir;
  test::write_text(dir.file("f"), "x\n");
  const std::string fifo = dir.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::filesystem::create_symlink(dir.file("f"), dir.file("link"));
  CHECK(regular_file_problem(dir.file("f")) == "");
  CHECK(regular_file_problem(dir.file("link")) == "");  // links are followed
  CHECK(regular_file_problem(dir.file("gone")) == "no such file");
  CHECK(regular_file_problem(fifo) == "not a regular file (a FIFO)");
  CHECK(regular_file_problem("/dev/null") == "not a regular file (a character device)");
  CHECK(regular_file_problem(dir.path()) == "not a regular file (a directory)");
}

TEST_CASE(
    "shared_dir_problem: a folder others can change is named, as ssh names them (hostile12)") {
  test::TempDir dir;
  const std::string ww = dir.file("ww");
  std::filesystem::create_directory(ww);
  CHECK_FALSE(shared_dir_problem("V", ww));
  CHECK_FALSE(shared_dir_problem("V", ww + "/not/made/yet"));
  // Root's, with the sticky bit: a folder above is fine, but not /tmp
  // itself as the folder schedlab keeps its files in (hostile15).
  CHECK_FALSE(shared_dir_problem("V", "/tmp/schedlab-not-made-yet"));
  // A device or a file is no folder (hostile14: /dev/null was "writable by
  // every user and has no sticky bit").
  CHECK(shared_dir_problem("V", "/dev/null") == "V: /dev/null is no folder; use a folder of your own");
  test::write_text(dir.file("f"), "");
  CHECK(shared_dir_problem("V", dir.file("f"))->ends_with(" is no folder; use a folder of your own"));
  ::chmod(ww.c_str(), 0777);
  CHECK(shared_dir_problem("V", ww) ==
        "V: " + ww +
            " is writable by every user and has no sticky bit: another user could "
            "replace what schedlab keeps there; use a folder of your own");
  CHECK(shared_dir_problem("V", ww + "/x")
            ->starts_with("V: " + ww + " (a folder above " + ww + "/x) is writable by every user"));
  ::chmod(ww.c_str(), 01777);
  CHECK_FALSE(shared_dir_problem("V", ww + "/x"));
  // The folder itself with the bit: another user's files made there first
  // under schedlab's names stay theirs to swap (a live run's alive file:
  // restore killed the run, hostile15).
  CHECK(shared_dir_problem("V", ww) ==
        "V: " + ww +
            " is writable by every user: even with the sticky bit another user can make files "
            "there first, under the names schedlab uses, and swap them later; use a folder of "
            "your own (one made in it is fine)");
  // Through a link: the folder it leads to is the one checked.
  ::chmod(ww.c_str(), 0777);
  std::filesystem::create_directory_symlink(ww, dir.file("link"));
  CHECK(shared_dir_problem("V", dir.file("link"))->starts_with("V: " + ww + " is writable"));
  ::chmod(ww.c_str(), 0755);
  // A link of another user to a good folder: they could point it elsewhere (hostile13).
  const std::string theirs = dir.file("theirs");
  std::filesystem::create_directory_symlink(ww, theirs);
  if (::geteuid() == 0 && ::lchown(theirs.c_str(), 65534, 65534) == 0) {
    CHECK(shared_dir_problem("V", theirs + "/x") ==
          "V: " + theirs +
              " is a link of user 65534, neither this user (0) nor root: that user could point "
              "it elsewhere; use a folder of your own");
    CHECK_FALSE(shared_dir_problem("V", dir.file("link")));  // this user's own link
  }
}
