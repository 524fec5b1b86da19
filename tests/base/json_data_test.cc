#include "base/json_data.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

using namespace schedlab;

namespace {

std::string nested(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') + "1" +
         std::string(static_cast<std::size_t>(depth), ']');
}

}  // namespace

TEST_CASE("parse_json_data reads JSON as nlohmann does, within 64 levels of nesting") {
  CHECK(parse_json_data(R"({"groups":4,"modes":["a"]})") ==
        nlohmann::json::parse(R"({"groups":4,"modes":["a"]})"));
  CHECK(parse_json_data("not json").is_discarded());
  CHECK(parse_json_data("").is_discarded());
  CHECK(parse_json_data(nested(kMaxJsonDepth)) == nlohmann::json::parse(nested(kMaxJsonDepth)));
  // Deeper (a crafted manifest or params_json): discarded, so dump() and our
  // walks never recurse 300,000 frames deep (issue 44's second pass: compare,
  // merge and list --format json crashed on it).
  CHECK(parse_json_data(nested(kMaxJsonDepth + 1)).is_discarded());
  CHECK(parse_json_data(R"({"kernel":)" + nested(300'000) + "}").is_discarded());
  CHECK(parse_json_data(std::string(300'000, '{')).is_discarded());
}

TEST_CASE("require_json_data throws, naming what it read") {
  CHECK(require_json_data("[1,2]", "x") == nlohmann::json::array({1, 2}));
  CHECK_THROWS_WITH(require_json_data(nested(300'000), "run 3's manifest"),
                    "run 3's manifest is not JSON (or nests deeper than 64 levels)");
  CHECK_THROWS_AS(require_json_data("{", "x"), std::invalid_argument);
}
