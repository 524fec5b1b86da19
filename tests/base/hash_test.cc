#include "base/hash.h"

#include <catch2/catch.hpp>
#include <string>

#include "base/file.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("sha256 of texts and files: FIPS 180-2 test vectors") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  test::TempDir dir;
  // One million 'a' (FIPS 180-2 appendix B.3), read in several pieces.
  test::write_text(dir.file("a"), std::string(1000000, 'a'));
  CHECK(sha256_file(dir.file("a")) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  CHECK(sha256_hex(read_file(dir.file("a"))) == sha256_file(dir.file("a")));
  CHECK_THROWS_AS(sha256_file(dir.file("missing")), FileError);
}
