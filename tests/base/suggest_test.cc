#include "base/suggest.h"

#include <catch2/catch.hpp>

using namespace schedlab;

TEST_CASE("edit distance counts inserts, deletes, substitutions and swaps") {
  CHECK(edit_distance("groups", "groups") == 0);
  CHECK(edit_distance("grups", "groups") == 1);
  CHECK(edit_distance("gorups", "groups") == 1);  // adjacent swap
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("suggestions only for near misses") {
  const std::vector<std::string> keys = {"groups", "loops", "modes", "iterations"};
  CHECK(suggest("grups", keys) == "groups");
  CHECK(suggest("iteratons", keys) == "iterations");
  CHECK(suggest("banana", keys) == std::nullopt);
  CHECK(did_you_mean("lops", keys) == " (did you mean 'loops'?)");
  CHECK(did_you_mean("zzzzzz", keys).empty());
}

TEST_CASE("choices are listed as a sentence lists them") {
  CHECK(or_list({}).empty());
  CHECK(or_list({"text"}) == "text");
  CHECK(or_list({"text", "json"}) == "text or json");
  CHECK(or_list({"text", "markdown", "csv", "json"}) == "text, markdown, csv or json");
}
