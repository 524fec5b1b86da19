// Journal entries of lab guests: once a guest is powered off they can never
// be restored, and must not block a later run or `schedlab restore`.
#include "runner/lab/guest_journal.h"

#include <catch2/catch.hpp>

#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

const std::string kGuest = "lab:6.12.9+bpo-amd64/tcg@127.0.0.1:40001";

std::int64_t applied(Store& store, const std::string& host, const std::string& name) {
  const auto run = store.create_run({.name = "r-" + name, .config_path = "x.yaml", .config_text = "",
                                     .config_sha256 = "", .manifest_json = "{}", .status = "failed"});
  return store.journal_applied({.run_id = run, .host = host, .kind = "sched_feature", .name = name,
                                .path = "/sys/kernel/debug/sched/features", .original = name,
                                .target = "NO_" + name});
}

}  // namespace

TEST_CASE("guest journal: a powered-off guest's entries are discarded with a note naming them") {
  test::TempDir dir;
  Store store(dir.file("j.db"));
  CHECK(lab::is_lab_host_name(kGuest));
  CHECK_FALSE(lab::is_lab_host_name("local"));
  CHECK_FALSE(lab::is_lab_host_name("ssh://root@lab1"));
  const auto id = applied(store, kGuest, "PLACE_LAG");
  const std::string note = lab::discard_guest_journal(store, kGuest);
  CHECK(note == "note: " + kGuest + " is a lab guest, powered off: its kernel state went with it, so 1 "
                "journaled knob needs no restore: sched_feature PLACE_LAG (run 1)");
  CHECK(store.unrestored(kGuest).empty());
  CHECK(store.unrestored_hosts().empty());
  CHECK(lab::discard_guest_journal(store, kGuest).empty());  // nothing left
  CHECK(id > 0);
}

TEST_CASE("schedlab restore skips lab guests with a note and leaves nothing pending") {
  test::TempDir dir;
  const std::string db = dir.file("j.db");
  {
    Store store(db);
    applied(store, kGuest, "PLACE_LAG");
    applied(store, kGuest, "RUN_TO_PARITY");
    REQUIRE(store.unrestored_hosts() == std::vector<std::string>{kGuest});
  }
  const auto r = test::schedlab_cmd({"restore", "--db", db});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("note: " + kGuest + " is a lab guest, powered off") != std::string::npos);
  CHECK(r.out.find("2 journaled knobs need no restore") != std::string::npos);
  Store store(db);
  CHECK(store.unrestored_hosts().empty());
  const auto again = test::schedlab_cmd({"restore", "--db", db});
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("nothing to restore") != std::string::npos);
}
