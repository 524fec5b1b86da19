// Files named on the command line are regular files: a FIFO given to
// parse, stats, schedstat show or list --db would block the command
// forever, and a device would be read as if it were input. Each is a
// one-line error, at once; a link to a regular file is still read.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>

#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using test::schedlab_cmd;

namespace {

// Long enough for any command that does not hang; short against one that does.
constexpr auto kNoHang = std::chrono::seconds(20);

std::string make_fifo(const test::TempDir& dir) {
  const std::string fifo = dir.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  return fifo;
}

}  // namespace

TEST_CASE("parse, stats and schedstat show refuse a FIFO and a device, at once") {
  test::TempDir dir;
  const std::string fifo = make_fifo(dir);
  struct Case {
    std::vector<std::string> args;
    std::string prefix;
  };
  for (const auto& path : {fifo, std::string("/dev/null")}) {
    const std::string kind = path == fifo ? "a FIFO" : "a character device";
    for (const Case& c : {Case{{"parse", "hackbench", path}, "schedlab parse: "},
                          Case{{"stats", path}, "schedlab: "},
                          Case{{"schedstat", "show", path}, "schedlab schedstat show: "}}) {
      INFO(c.args[0] << " " << path);
      const auto r = schedlab_cmd(c.args, {}, kNoHang);
      CHECK(r.exit_code == 2);
      CHECK(test::one_line(r.err) ==
            test::one_line(c.prefix + path + ": cannot read the file: not a regular file (" + kind +
                           ")\n"));
    }
  }
}

TEST_CASE("list --db refuses a FIFO or a device instead of waiting on it") {
  test::TempDir dir;
  const std::string fifo = make_fifo(dir);
  const auto r = schedlab_cmd({"list", "--db", fifo}, {}, kNoHang);
  CHECK(r.exit_code == 1);
  CHECK(r.err == "schedlab: " + fifo + ": not a regular file (a FIFO); a database is one\n");
  const auto dev = schedlab_cmd({"list", "--db", "/dev/null"}, {}, kNoHang);
  CHECK(dev.exit_code == 1);
  CHECK_THAT(dev.err, Catch::Contains("/dev/null: not a regular file (a character device)"));
}

TEST_CASE("a file named on the command line may be a link to a regular file") {
  test::TempDir dir;
  test::write_text(dir.file("samples.txt"), "1\n2\n3\n");
  std::filesystem::create_symlink(dir.file("samples.txt"), dir.file("link.txt"));
  const auto r = schedlab_cmd({"stats", dir.file("link.txt")}, {}, kNoHang);
  INFO(r.err);
  CHECK(r.ok());
}
