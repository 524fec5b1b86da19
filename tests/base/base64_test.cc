// Base64 against RFC 4648's test vectors (section 10), and the strictness
// that lets a stored profile's corruption be told from data.
#include "base/base64.h"

#include <catch2/catch.hpp>

using namespace schedlab;

TEST_CASE("base64: RFC 4648 test vectors both ways") {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    CHECK(base64_encode(plain) == encoded);
    CHECK(base64_decode(encoded) == std::string(plain));
  }
  const std::string binary("\0\xff\x10z", 4);
  CHECK(base64_decode(base64_encode(binary)) == binary);
}

TEST_CASE("base64: text that is not strict base64 is refused") {
  CHECK_FALSE(base64_decode("Zm9"));       // not a multiple of 4
  CHECK_FALSE(base64_decode("Zm9v!A=="));  // outside the alphabet
  CHECK_FALSE(base64_decode("Zg==Zm9v"));  // padding in the middle
  CHECK_FALSE(base64_decode("Z=9v"));
  CHECK_FALSE(base64_decode("Zm9v\n"));
}
