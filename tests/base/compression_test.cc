// gzip and xz in memory, against what the real gzip and xz tools write.
#include "base/compression.h"

#include <catch2/catch.hpp>

#include "base/file.h"
#include "runner/hosts/local_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

// `tool ARGS... FILE` run by the real tool; the compressed bytes it wrote.
std::string compressed_by(const std::vector<std::string>& tool, const std::string& text,
                          const std::string& ext) {
  test::TempDir dir;
  const std::string file = dir.file("data");
  test::write_text(file, text);
  std::vector<std::string> argv = tool;
  argv.push_back(file);
  LocalHost local;
  REQUIRE(local.run({.argv = argv, .timeout = std::chrono::seconds(30)}).ok());
  return read_file(file + ext);
}

}  // namespace

TEST_CASE("gzip and xz data from the real tools decompress; plain data is left as is") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "     Total time: 0." + std::to_string(i) + " [sec]\n";
  const std::string gz = compressed_by({"gzip"}, text, ".gz");
  const std::string xz = compressed_by({"xz"}, text, ".xz");
  CHECK(compression_of(gz) == Compression::kGzip);
  CHECK(compression_of(xz) == Compression::kXz);
  CHECK(compression_of(text) == Compression::kNone);
  CHECK(decompressed(gz, "a.gz") == text);
  CHECK(decompressed(xz, "a.xz") == text);
  CHECK(decompressed(text, "a") == text);
  // cat a.gz b.gz is one gzip file of both.
  CHECK(gunzip(gz + compressed_by({"gzip"}, "more\n", ".gz"), "ab.gz") == text + "more\n");
}

TEST_CASE("corrupt, truncated and oversized compressed data are errors naming the file") {
  const std::string text(100000, 'x');
  const std::string gz = compressed_by({"gzip"}, text, ".gz");
  const std::string xz = compressed_by({"xz"}, text, ".xz");
  CHECK_THROWS_WITH(gunzip(gz.substr(0, gz.size() / 2), "half.gz"),
                    Catch::Contains("half.gz: gzip data is corrupt or truncated"));
  CHECK_THROWS_WITH(unxz(xz.substr(0, xz.size() / 2), "half.xz"),
                    Catch::Contains("half.xz: xz data is corrupt or truncated"));
  std::string bad = gz;
  bad[bad.size() - 6] ^= 0x55;  // the trailer's CRC-32: some body bytes change nothing
  CHECK_THROWS_WITH(gunzip(bad, "bad.gz"), Catch::Contains("bad.gz: gzip data is corrupt"));
  // 100 kB of 'x' is a few hundred bytes compressed: a limit holds whatever
  // the input's size.
  CHECK_THROWS_WITH(gunzip(gz, "big.gz", 4096), Catch::Contains("big.gz: decompresses to more than"));
  CHECK_THROWS_WITH(unxz(xz, "big.xz", 4096), Catch::Contains("big.xz: decompresses to more than"));
  // Its own type: a reader states its own limit (import --mmtests' option).
  CHECK_THROWS_AS(decompressed(gz, "big.gz", 4096), DecompressedTooLarge);
  CHECK_THROWS_AS(decompressed(xz, "big.xz", 4096), DecompressedTooLarge);
}

TEST_CASE("gzip output is what gzip -d reads, and gunzip reads it back") {
  const std::string text = "hot;main;hot_loop 21\nhot;main;cold_loop 3\n";
  const std::string gz = gzip(text);
  CHECK(compression_of(gz) == Compression::kGzip);
  CHECK(gunzip(gz, "x") == text);
  test::TempDir dir;
  test::write_text(dir.file("t.gz"), gz);
  LocalHost host;
  const auto r = host.run({.argv = {"gzip", "-dc", dir.file("t.gz")}});
  REQUIRE(r.ok());
  CHECK(r.out == text);
  CHECK(gunzip(gzip(""), "empty") == "");
}
