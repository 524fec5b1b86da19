#include "base/local_secret.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "base/file.h"

using namespace schedlab;

TEST_CASE("local_tag: stable, by purpose, under a secret kept 0600 in the user's cache") {
  const std::int64_t a = local_tag("cell summaries, version 2");
  CHECK(a >= 0);
  CHECK(local_tag("cell summaries, version 2") == a);
  CHECK(local_tag("cell summaries, version 3") != a);
  CHECK(a != 2);
  namespace fs = std::filesystem;
  if (user_cache_dir().empty()) return;  // a secret of this process alone
  const fs::path path = user_cache_dir() / "local-secret";
  REQUIRE(fs::exists(path));
  CHECK(fs::file_size(path) == 32);
  CHECK((fs::status(path).permissions() & (fs::perms::group_all | fs::perms::others_all)) ==
        fs::perms::none);
}
