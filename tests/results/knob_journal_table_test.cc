#include "results/knob_journal_table.h"

#include <catch2/catch.hpp>

#include "results/runs_table.h"
#include "results/store.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("the journal lists unrestored knobs newest first") {
  test::TempDir dir;
  Store s(dir.file("r.db"));
  const auto run = s.runs_table().create_run(
      {.name = "j", .config_path = "", .config_text = "", .config_sha256 = ""});
  auto a = s.journal().journal_applied({.run_id = run,
                                        .host = "local",
                                        .kind = "sysctl",
                                        .name = "k1",
                                        .path = "/p1",
                                        .original = "1",
                                        .target = "0"});
  auto b = s.journal().journal_applied({.run_id = run,
                                        .host = "local",
                                        .kind = "sysctl",
                                        .name = "k2",
                                        .path = "/p2",
                                        .original = "5",
                                        .target = "6"});
  s.journal().journal_applied({.run_id = run,
                               .host = "other",
                               .kind = "sysctl",
                               .name = "k3",
                               .path = "/p3",
                               .original = "0",
                               .target = "1"});
  auto pending = s.journal().unrestored("local");
  REQUIRE(pending.size() == 2);
  CHECK(pending[0].id == b);
  CHECK(pending[1].id == a);
  s.journal().journal_restored(b);
  CHECK(s.journal().unrestored("local").size() == 1);
}
