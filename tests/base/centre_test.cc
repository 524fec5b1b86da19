#include "base/centre.h"

#include <catch2/catch.hpp>

using namespace schedlab;

TEST_CASE("centres by their stored names, both ways") {
  for (const Centre c : {Centre::kAmean, Centre::kHmean, Centre::kGmean, Centre::kMedian})
    CHECK(centre_from_string(to_string(c)) == c);
  CHECK(centre_from_string("hmean") == Centre::kHmean);
  CHECK(to_string(Centre::kMedian) == "median");
  CHECK_FALSE(centre_from_string("mode"));
  CHECK_FALSE(centre_from_string("Amean"));
}
