// Sysctl knobs against the real sysctl of this machine. Needs root (CI runs
// as root); skipped with a visible reason otherwise.
#include "runner/knobs/knobs.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "runner/hosts/local_host.h"
#include "runner/knobs/journal_rows.h"
#include "tests/support/journal_tag.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/raw_sql.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {
const std::string kKnob = "kernel.sched_autogroup_enabled";

bool can_write_knob() {
  return ::access(sysctl_path(kKnob).c_str(), W_OK) == 0;
}
}  // namespace

TEST_CASE("sysctl values compare the way the kernel prints them") {
  CHECK(normalize_sysctl_value("1\n") == "1");
  CHECK(normalize_sysctl_value("4096\t16384\t 4194304\n") == "4096 16384 4194304");
}

TEST_CASE("an unknown sysctl is an error with a suggestion") {
  LocalHost host;
  CHECK_THROWS_WITH(read_sysctl(host, "kernel.sched_autogrup_enabled"),
                    "sysctl kernel.sched_autogrup_enabled: does not exist on local (no "
                    "/proc/sys/kernel/sched_autogrup_enabled) (did you mean "
                    "'kernel.sched_autogroup_enabled'?)");
}

TEST_CASE("sysctl apply journals, writes, verifies and restores (real sysctl)") {
  if (!can_write_knob()) {
    SCHEDLAB_SKIP(sysctl_path(kKnob) << " is not writable here (needs root)");
  }
  LocalHost host;
  test::TempDir dir;
  Store store(dir.file("t.db"));
  const std::int64_t run = store.runs_table().create_run(
      {.name = "knobs", .config_path = "x", .config_text = "", .config_sha256 = ""});
  const std::string original = read_sysctl(host, kKnob);
  const std::string flipped = original == "0" ? "1" : "0";
  {
    KnobJournal journal(store.journal(), host, run);
    journal.apply_sysctl({kKnob, flipped, 1});
    CHECK(read_sysctl(host, kKnob) == flipped);
    // Journaled before anything else could go wrong.
    const auto pending = store.journal().unrestored("local");
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].original == original);
    CHECK(pending[0].target == flipped);
    journal.restore_all();
    CHECK(read_sysctl(host, kKnob) == original);
    CHECK(store.journal().unrestored("local").empty());
  }
  SECTION("the destructor restores when the scope unwinds") {
    try {
      KnobJournal journal(store.journal(), host, run);
      journal.apply_sysctl({kKnob, flipped, 1});
      throw std::runtime_error("workload blew up");
    } catch (const std::runtime_error&) {
    }
    CHECK(read_sysctl(host, kKnob) == original);
    CHECK(store.journal().unrestored("local").empty());
  }
  SECTION("a value the kernel rejects is an error and leaves nothing changed") {
    KnobJournal journal(store.journal(), host, run);
    CHECK_THROWS_WITH(journal.apply_sysctl({kKnob, "banana", 1}),
                      Catch::Contains("sysctl kernel.sched_autogroup_enabled = banana: ") &&
                          Catch::Contains("restored '" + original + "'"));
    CHECK(read_sysctl(host, kKnob) == original);
    CHECK(store.journal().unrestored("local").empty());
  }
  SECTION("a journal left by a crash is restored by restore_journal") {
    // Simulate kill -9 between write and restore: journal and write by
    // hand, as apply_sysctl does, and never restore.
    store.journal().journal_applied(stamped({.run_id = run,
                                             .kind = "sysctl",
                                             .name = kKnob,
                                             .path = sysctl_path(kKnob),
                                             .original = original,
                                             .target = flipped},
                                            host));
    host.write_file(sysctl_path(kKnob), flipped + "\n");
    REQUIRE(read_sysctl(host, kKnob) == flipped);
    const auto done = restore_journal(store.journal(), host);
    REQUIRE(done.size() == 1);
    CHECK(read_sysctl(host, kKnob) == original);
    CHECK(store.journal().unrestored("local").empty());
  }
}

// ---- Scheduler features and debugfs tunables, against the test double ----

#include "tests/support/fake_host.h"

namespace {
test::FakeHost eevdf_kernel() {
  test::FakeHost k("fake-kernel");
  k.features = {{"PLACE_LAG", true}, {"RUN_TO_PARITY", true}, {"DELAY_DEQUEUE", true}};
  k.files["/sys/kernel/debug/sched/base_slice_ns"] = "3000000\n";
  return k;
}

// The journal of a run killed with kill -9: the object never runs its
// destructor, so nothing is restored but by restore_journal. Held by a
// list never destroyed, so it is still not a leak (the sanitizer build
// checks leaks).
KnobJournal& killed_run_journal(Store& store, test::FakeHost& kernel, std::int64_t run) {
  static auto* kept = new std::vector<KnobJournal*>;
  kept->push_back(new KnobJournal(store.journal(), kernel, run));
  return *kept->back();
}
}  // namespace

TEST_CASE("knob writes are confined to the allowlist") {
  CHECK(path_allowed("/sys/kernel/debug/sched/features"));
  CHECK(path_allowed("/proc/sys/kernel/sched_autogroup_enabled"));
  CHECK(path_allowed("/proc/sys/vm/stat_interval"));
  CHECK(path_allowed("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor"));
  CHECK_FALSE(path_allowed("/proc/sys/net/core/somaxconn"));
  CHECK_FALSE(path_allowed("/etc/passwd"));
  CHECK_FALSE(path_allowed("/proc/sys/kernel/../../../etc/passwd"));
  CHECK_FALSE(path_allowed("/sys/devices/system/cpu/cpu0/online"));
}

TEST_CASE("features flip, read back, and are restored (test double)") {
  auto kernel = eevdf_kernel();
  test::TempDir dir;
  Store store(dir.file("f.db"));
  const auto run = store.runs_table().create_run({.name = "f", .config_path = "", .config_text = "", .config_sha256 = ""});
  const KnobSettings v{.by_kind = {{"sched_feature",
                                    {{"NO_PLACE_LAG", "NO_PLACE_LAG", 3},
                                     {"NO_RUN_TO_PARITY", "NO_RUN_TO_PARITY", 3}}},
                                   {"debugfs", {{"sched/base_slice_ns", "1000000", 4}}}}};
  {
    KnobJournal journal(store.journal(), kernel, run);
    journal.apply_variant(v);
    CHECK_FALSE(kernel.feature("PLACE_LAG"));
    CHECK_FALSE(kernel.feature("RUN_TO_PARITY"));
    CHECK(kernel.feature("DELAY_DEQUEUE"));
    CHECK(kernel.files["/sys/kernel/debug/sched/base_slice_ns"] == "1000000\n");
    const auto pending = store.journal().unrestored("fake-kernel");
    REQUIRE(pending.size() == 3);
    CHECK(pending[0].kind == "sched_feature");
    CHECK(pending[0].name == "RUN_TO_PARITY");
    CHECK(pending[0].original == "RUN_TO_PARITY");
    CHECK(pending[0].target == "NO_RUN_TO_PARITY");
  }
  CHECK(kernel.feature("PLACE_LAG"));
  CHECK(kernel.feature("RUN_TO_PARITY"));
  CHECK(kernel.files["/sys/kernel/debug/sched/base_slice_ns"] == "3000000\n");
  CHECK(store.journal().unrestored("fake-kernel").empty());
  // Written one token at a time, never the whole list.
  CHECK(std::count(kernel.writes.begin(), kernel.writes.end(),
                   "/sys/kernel/debug/sched/features=NO_PLACE_LAG") == 1);
}

TEST_CASE("an unknown feature is an error listing the SUT's own features") {
  auto kernel = eevdf_kernel();
  CHECK_THROWS_WITH(read_knob(kernel, feature_knob("NO_PLACE_LAGG")),
                    "sched feature PLACE_LAGG: fake-kernel has no such feature (did you mean "
                    "'PLACE_LAG'?); it has: PLACE_LAG RUN_TO_PARITY DELAY_DEQUEUE");
  CHECK(read_knob(kernel, feature_knob("PLACE_LAG")) == "PLACE_LAG");
}

TEST_CASE("a crash between write and restore is undone by restore_journal (test double)") {
  auto kernel = eevdf_kernel();
  test::TempDir dir;
  Store store(dir.file("c.db"));
  const auto run = test::plain_run(store, "c");
  KnobJournal* journal = &killed_run_journal(store, kernel, run);
  journal->apply(feature_knob("NO_PLACE_LAG"), "NO_PLACE_LAG");
  journal->apply(debugfs_knob("sched/base_slice_ns"), "700000");
  CHECK_FALSE(kernel.feature("PLACE_LAG"));
  const auto done = restore_journal(store.journal(), kernel);
  CHECK(done.size() == 2);
  CHECK(kernel.feature("PLACE_LAG"));
  CHECK(kernel.files["/sys/kernel/debug/sched/base_slice_ns"] == "3000000\n");
  CHECK(store.journal().unrestored("fake-kernel").empty());
}

TEST_CASE("a value the kernel rejects leaves the knob as it was (test double)") {
  auto kernel = eevdf_kernel();
  test::TempDir dir;
  Store store(dir.file("r.db"));
  const auto run = test::plain_run(store, "r");
  KnobJournal journal(store.journal(), kernel, run);
  CHECK_THROWS_WITH(journal.apply(debugfs_knob("sched/base_slice_ns"), "banana"),
                    Catch::Contains("Invalid argument") && Catch::Contains("restored '3000000'"));
  CHECK(kernel.files["/sys/kernel/debug/sched/base_slice_ns"] == "3000000\n");
  CHECK_THROWS_AS(journal.apply(debugfs_knob("sched/no_such_tunable"), "1"), KnobError);
  CHECK(store.journal().unrestored("fake-kernel").empty());
}

TEST_CASE(
    "restore prints a crafted row's target escaped: no terminal control from a database "
    "(test double)") {
  auto kernel = eevdf_kernel();
  test::TempDir dir;
  const std::string path = dir.file("t.db");
  Store store(path);
  const auto run = test::plain_run(store, "t");
  KnobJournal* journal = &killed_run_journal(store, kernel, run);
  journal->apply(debugfs_knob("sched/base_slice_ns"), "700000");
  test::raw(path, "UPDATE knob_journal SET target = char(27) || '[31mRED' || char(7)");
  test::tag_journal_row(path, 1);
  const auto done = restore_journal(store.journal(), kernel);
  REQUIRE(done.size() == 1);
  CHECK(done[0] == "restored debugfs sched/base_slice_ns: \\x1b[31mRED\\x07 -> 3000000 (run 1)");
  CHECK(kernel.files["/sys/kernel/debug/sched/base_slice_ns"] == "3000000\n");
}

TEST_CASE(
    "restore acts only on rows with this user's tag: an edited, untagged or reopened row is "
    "listed and left alone (hostile15 S3, test double)") {
  auto kernel = eevdf_kernel();
  test::TempDir dir;
  const std::string path = dir.file("s3.db");
  Store store(path);
  const auto run = test::plain_run(store, "s3");
  KnobJournal* journal = &killed_run_journal(store, kernel, run);
  journal->apply(debugfs_knob("sched/base_slice_ns"), "700000");         // 1: value edited
  journal->apply(feature_knob("NO_PLACE_LAG"), "NO_PLACE_LAG");          // 2: tag dropped
  journal->apply(feature_knob("NO_RUN_TO_PARITY"), "NO_RUN_TO_PARITY");  // 3: as written
  REQUIRE(test::raw(path, "SELECT local_tag IS NOT NULL FROM knob_journal WHERE id = 3") == "1");
  test::raw(path, "UPDATE knob_journal SET original = '1' WHERE id = 1");
  test::raw(path, "UPDATE knob_journal SET local_tag = NULL WHERE id = 2");
  const auto done = restore_journal(store.journal(), kernel);
  CHECK(kernel.feature("RUN_TO_PARITY"));  // schedlab's own row: restored
  CHECK(kernel.files["/sys/kernel/debug/sched/base_slice_ns"] == "700000\n");
  CHECK_FALSE(kernel.feature("PLACE_LAG"));
  const auto line = [&](const std::string& start) {
    const auto it = std::find_if(done.begin(), done.end(),
                                 [&](const std::string& l) { return l.starts_with(start); });
    return it == done.end() ? std::string() : *it;
  };
  CHECK(line("debugfs sched/base_slice_ns (run 1): ") ==
        "debugfs sched/base_slice_ns (run 1): not journaled by this user on this machine: its "
        "tag is not this user's (another user's row, a database from elsewhere, or a row edited "
        "since); would write '1' to /sys/kernel/debug/sched/base_slice_ns; left alone");
  CHECK(line("sched_feature PLACE_LAG (run 1): ")
            .find("it has no tag (a row of a schedlab older than this one, which did not tag "
                  "its rows, or one written by other means)") != std::string::npos);
  CHECK(line("rows left alone are never acted on: if one is of a run of yours that died here (a "
             "run of an older schedlab too") != "");
  CHECK(store.journal().unrestored("fake-kernel").size() == 2);
  // A closed row loses its tag: set back to 'applied', it is no longer this user's.
  CHECK(test::raw(path, "SELECT coalesce(local_tag, 'none') FROM knob_journal WHERE id = 3") ==
        "none");
  test::raw(path, "UPDATE knob_journal SET state = 'applied' WHERE id = 3");
  for (auto& [name, on] : kernel.features)
    if (name == "RUN_TO_PARITY") on = false;
  restore_journal(store.journal(), kernel);
  CHECK_FALSE(kernel.feature("RUN_TO_PARITY"));
}

TEST_CASE(
    "restore refuses a crafted row and goes on with the host's others (hostile11, test double)") {
  // hostile10 14: the first refused row stopped the host's genuine ones.
  auto kernel = eevdf_kernel();
  test::TempDir dir;
  const std::string path = dir.file("p.db");
  Store store(path);
  const auto run = test::plain_run(store, "p");
  KnobJournal* journal = &killed_run_journal(store, kernel, run);
  journal->apply(feature_knob("NO_PLACE_LAG"), "NO_PLACE_LAG");
  journal->apply(debugfs_knob("sched/base_slice_ns"), "700000");
  journal->apply(feature_knob("NO_RUN_TO_PARITY"), "NO_RUN_TO_PARITY");
  // The first row's path crafted to another file.
  test::raw(path, "UPDATE knob_journal SET path = '/proc/sys/kernel/core_pattern' WHERE id = 1");
  test::tag_journal_row(path, 1);
  try {
    restore_journal(store.journal(), kernel);
    FAIL("no refusal");
  } catch (const RestoreIncomplete& e) {
    CHECK(std::string(e.what()) ==
          "journal entry 1: sched_feature PLACE_LAG names the file /proc/sys/kernel/core_pattern, "
          "not its own /sys/kernel/debug/sched/features; not written");
    // Newest first, as restore puts knobs back; the refused row in between.
    CHECK(e.done == std::vector<std::string>{
                        "restored sched_feature RUN_TO_PARITY: NO_RUN_TO_PARITY -> RUN_TO_PARITY "
                        "(run 1)",
                        "restored debugfs sched/base_slice_ns: 700000 -> 3000000 (run 1)"});
  }
  CHECK(kernel.files["/sys/kernel/debug/sched/base_slice_ns"] == "3000000\n");
  CHECK(kernel.feature("RUN_TO_PARITY"));
  CHECK_FALSE(kernel.feature("PLACE_LAG"));  // its row refused: left as it is
  CHECK(kernel.files.count("/proc/sys/kernel/core_pattern") == 0);
  CHECK(store.journal().unrestored("fake-kernel").size() == 1);  // the refused row stays
}
