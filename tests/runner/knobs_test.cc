// Sysctl knobs against the real sysctl of this machine. Needs root (CI runs
// as root); skipped with a visible reason otherwise.
#include "runner/knobs.h"

#include <unistd.h>

#include <catch2/catch.hpp>

#include "runner/local_host.h"
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
    WARN("skipped: " << sysctl_path(kKnob) << " is not writable here (needs root)");
    return;
  }
  LocalHost host;
  test::TempDir dir;
  Store store(dir.file("t.db"));
  const std::int64_t run = store.create_run({.name = "knobs", .config_path = "x", .config_text = "", .config_sha256 = ""});
  const std::string original = read_sysctl(host, kKnob);
  const std::string flipped = original == "0" ? "1" : "0";
  {
    KnobJournal journal(store, host, run);
    journal.apply_sysctl({kKnob, flipped, 1});
    CHECK(read_sysctl(host, kKnob) == flipped);
    // Journaled before anything else could go wrong.
    const auto pending = store.unrestored("local");
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].original == original);
    CHECK(pending[0].target == flipped);
    journal.restore_all();
    CHECK(read_sysctl(host, kKnob) == original);
    CHECK(store.unrestored("local").empty());
  }
  SECTION("the destructor restores when the scope unwinds") {
    try {
      KnobJournal journal(store, host, run);
      journal.apply_sysctl({kKnob, flipped, 1});
      throw std::runtime_error("workload blew up");
    } catch (const std::runtime_error&) {
    }
    CHECK(read_sysctl(host, kKnob) == original);
    CHECK(store.unrestored("local").empty());
  }
  SECTION("a value the kernel rejects is an error and leaves nothing changed") {
    KnobJournal journal(store, host, run);
    CHECK_THROWS_WITH(journal.apply_sysctl({kKnob, "banana", 1}),
                      Catch::Contains("sysctl kernel.sched_autogroup_enabled = banana: ") &&
                          Catch::Contains("restored '" + original + "'"));
    CHECK(read_sysctl(host, kKnob) == original);
    CHECK(store.unrestored("local").empty());
  }
  SECTION("a journal left by a crash is restored by restore_journal") {
    // Simulate kill -9 between write and restore: journal and write by
    // hand, as apply_sysctl does, and never restore.
    store.journal_applied({.run_id = run, .host = "local", .kind = "sysctl", .name = kKnob,
                           .path = sysctl_path(kKnob), .original = original, .target = flipped});
    host.write_file(sysctl_path(kKnob), flipped + "\n");
    REQUIRE(read_sysctl(host, kKnob) == flipped);
    const auto done = restore_journal(store, host);
    REQUIRE(done.size() == 1);
    CHECK(read_sysctl(host, kKnob) == original);
    CHECK(store.unrestored("local").empty());
  }
}
