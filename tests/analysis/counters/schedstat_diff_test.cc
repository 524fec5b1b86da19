// Deltas of real snapshot pairs checked against hand-computed values (and
// the aws/repro-collection newidle-deltas.txt figures quoted in the
// fixtures README), the topology checks, ratios and the A/B comparison.
#include "analysis/counters/schedstat_diff.h"

#include <catch2/catch.hpp>

#include "analysis/counters/render_schedstat.h"
#include "tests/support/schedstat_fixtures.h"
#include "tests/support/temp_dir.h"

namespace ss = schedlab::schedstat;
using schedlab::CounterMismatchError;
using schedlab::test::fixture;
using schedlab::test::fixture_files;
using schedlab::test::read_text;

using schedlab::test::kSchedstatV15;
using schedlab::test::kSchedstatV17;

namespace {

ss::Snapshot load(const std::string& file) {
  return ss::parse(read_text(fixture(file)));
}


ss::Snapshot v15_delta() {
  return ss::diff(load(kSchedstatV15 + "before.txt"), load(kSchedstatV15 + "after.txt"));
}
ss::Snapshot v17_delta() {
  return ss::diff(load(kSchedstatV17 + "before.txt"), load(kSchedstatV17 + "after.txt"));
}

std::uint64_t newidle_sum(const ss::Snapshot& d, ss::LbField f) {
  std::uint64_t sum = 0;
  for (const auto& cpu : d.cpus)
    for (const auto& dom : cpu.domains) sum += dom.c(ss::IdleType::newidle, f);
  return sum;
}

const ss::Ratio& ratio(const std::vector<ss::Ratio>& rs, const std::string& name) {
  for (const auto& r : rs)
    if (r.name == name) return r;
  FAIL("no ratio " << name);
  throw;
}

std::string mismatch(const ss::Snapshot& a, const ss::Snapshot& b) {
  try {
    ss::diff(a, b);
  } catch (const CounterMismatchError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("v15 delta matches the hand-computed newly-idle sums", "[schedstat]") {
  const auto d = v15_delta();
  CHECK(d.timestamp == 4295450613ULL - 4295241625ULL);
  CHECK(newidle_sum(d, ss::LbField::lb_count) == 255'783);
  CHECK(newidle_sum(d, ss::LbField::lb_balanced) == 138'791);
  CHECK(newidle_sum(d, ss::LbField::lb_failed) == 62'375);
  // cpu0, field by field from the two files.
  const auto& c0 = d.cpus[0].c;
  CHECK(c0[ss::CpuField::yld_count] == 5);
  CHECK(c0[ss::CpuField::sched_count] == 58'606'208);
  CHECK(c0[ss::CpuField::sched_goidle] == 28'651'420);
  CHECK(c0[ss::CpuField::ttwu_count] == 349'078);
  CHECK(c0[ss::CpuField::ttwu_local] == 16'108);
  CHECK(c0[ss::CpuField::pcount] == 29'953'910);
  // cpu3 domain1 (v15 order: idle, busy, newidle).
  const auto& d31 = d.cpus[3].domains[1].c;
  CHECK(d31(ss::IdleType::idle, ss::LbField::lb_count) == 36'344);
  CHECK(d31(ss::IdleType::busy, ss::LbField::lb_count) == 33);
  CHECK(d31(ss::IdleType::newidle, ss::LbField::lb_count) == 5'316);
  CHECK(d31(ss::TailField::ttwu_wake_remote) == 10'650'210);
  CHECK(d31(ss::TailField::ttwu_move_affine) == 13'820'197);
}

TEST_CASE("v17 delta matches the hand-computed newly-idle sums", "[schedstat]") {
  const auto d = v17_delta();
  CHECK(newidle_sum(d, ss::LbField::lb_count) == 37'172'414);
  CHECK(newidle_sum(d, ss::LbField::lb_balanced) == 16'076'277);
  CHECK(newidle_sum(d, ss::LbField::lb_failed) == 17'966'476);
  CHECK(newidle_sum(d, ss::LbField::lb_gained) == 3'129'661);
  CHECK(newidle_sum(d, ss::LbField::lb_imbalance_load) == 2'528);
  // The per-level summary sums the same numbers.
  const auto s = ss::summarize(d);
  REQUIRE(s.levels.size() == 2);
  CHECK(s.levels[0].key == "MC");
  CHECK(s.levels[1].key == "PKG");
  CHECK(s.levels[0].cpus == 16);
  CHECK(s.levels[0].c(ss::IdleType::newidle, ss::LbField::lb_count) +
            s.levels[1].c(ss::IdleType::newidle, ss::LbField::lb_count) ==
        37'172'414);
  // Moved = count - balanced - failed, which v17 also counts as lb_gained here.
  std::uint64_t moved = 0;
  for (const auto& l : s.levels)
    moved += l.c(ss::IdleType::newidle, ss::LbField::lb_count) -
             l.c(ss::IdleType::newidle, ss::LbField::lb_balanced) -
             l.c(ss::IdleType::newidle, ss::LbField::lb_failed);
  CHECK(moved == 3'129'661);
}

TEST_CASE("summary ratios", "[schedstat]") {
  const auto s = ss::summarize(v15_delta());
  CHECK(s.cpus == 16);
  CHECK(s.total[ss::CpuField::ttwu_count] == 380'433'516);
  CHECK(s.total[ss::CpuField::ttwu_local] == 48'047'460);
  CHECK(ratio(s.ratios, "ttwu_local_pct").pct.value() == Approx(100.0 * 48'047'460 / 380'433'516));
  CHECK(ratio(s.ratios, "sched_goidle_pct").pct.value() ==
        Approx(100.0 * 346'330'879 / 728'102'431));
  const auto& mc = s.levels[0];
  CHECK(ratio(mc.ratios, "move_affine_pct").pct.value() ==
        Approx(100.0 * 97'757'018 / 380'433'516));
  CHECK(ratio(mc.ratios, "wake_remote_pct").pct.value() ==
        Approx(100.0 * 246'671'084 / 380'433'516));
  CHECK(ratio(mc.ratios, "lb_success_pct_newidle").pct.value() ==
        Approx(100.0 * (154'946 - 73'598 - 32'939) / 154'946));
  // The PKG level never load-balanced while busy with success: 0 of 343.
  CHECK(ratio(s.levels[1].ratios, "lb_success_pct_busy").pct.value() == 0.0);
}

TEST_CASE("diff(a, a) is zero everywhere, and its ratios are n/a", "[schedstat]") {
  std::vector<std::filesystem::path> files = fixture_files("schedstat");
  for (const char* dir : {"guest/6.1", "guest/6.12"})
    for (const auto& f : fixture_files(dir)) files.push_back(f);
  int checked = 0;
  for (const auto& f : files) {
    if (!f.filename().string().starts_with("v1") &&
        !f.filename().string().starts_with("schedstat."))
      continue;
    INFO(f.string());
    const auto s = ss::parse(read_text(f));
    const auto d = ss::diff(s, s);
    CHECK(d.timestamp == 0);
    for (const auto& cpu : d.cpus) {
      for (auto v : cpu.c.v) CHECK(v == 0);
      for (const auto& dom : cpu.domains)
        for (auto v : dom.c.v) CHECK(v == 0);
    }
    const auto sum = ss::summarize(d);
    for (const auto& r : sum.ratios) CHECK_FALSE(r.pct);
    for (const auto& l : sum.levels)
      for (const auto& r : l.ratios) CHECK_FALSE(r.pct);
    ++checked;
  }
  CHECK(checked == 19);
}

TEST_CASE("a topology change is refused", "[schedstat]") {
  const auto all = load("schedstat/v15.openshift-cnto-8cpu-schedstats-off.txt");
  const auto isolated = load("schedstat/v15.openshift-cnto-8cpu-cpu2-cpu6-isolated.txt");
  CHECK(mismatch(all, isolated) ==
        "schedstat topology changed between the snapshots (cpu2 has 2 domain levels, then 0); a "
        "delta would mix unrelated counters");
  const auto v15 = load(kSchedstatV15 + "before.txt");
  CHECK(mismatch(all, v15) ==
        "schedstat topology changed between the snapshots (8 CPUs -> 16); a delta would mix "
        "unrelated counters");
  CHECK(mismatch(v15, load(kSchedstatV17 + "after.txt")) ==
        "schedstat topology changed between the snapshots (version 15 -> 17); a delta would mix "
        "unrelated counters");
  auto moved = v15;
  moved.cpus[4].domains[0].cpumask = "ff00";
  CHECK(mismatch(v15, moved) ==
        "schedstat topology changed between the snapshots (cpu4 domain0: 00ff -> ff00); a "
        "delta would mix unrelated counters");
  auto renumbered = v15;
  renumbered.cpus[15].cpu = 16;
  CHECK(mismatch(v15, renumbered).find("CPU #15 is cpu15 then cpu16") != std::string::npos);
}

TEST_CASE("32-bit counters wrap, 64-bit ones going backwards are refused", "[schedstat]") {
  const auto a =
      ss::parse("version 15\ntimestamp 4294967290\ncpu0 4294967295 0 1 1 1 1 10 10 10\n");
  const auto b = ss::parse("version 15\ntimestamp 4294967301\ncpu0 4 0 1 1 1 1 20 20 20\n");
  const auto d = ss::diff(a, b);
  CHECK(d.timestamp == 11);
  CHECK(d.cpus[0].c[ss::CpuField::yld_count] == 5);
  CHECK(d.cpus[0].c[ss::CpuField::rq_cpu_time] == 10);
  const auto back = ss::parse("version 15\ntimestamp 4294967302\ncpu0 5 0 1 1 1 1 19 20 20\n");
  CHECK(mismatch(b, back) ==
        "cpu0 rq_cpu_time went backwards (20 -> 19): the snapshots are not from one boot, or not "
        "in order");
}

TEST_CASE("a timestamp going back from past 2^32 is a reset; below, a 32-bit kernel's wrap (issue 44)",
          "[schedstat]") {
  // A 64-bit kernel's jiffies go on past 2^32 (the real snapshots in the
  // fixtures cross it going forwards): a step back from there is another
  // boot or snapshots out of order.
  const auto a = ss::parse("version 15\ntimestamp 4295000001\ncpu0 1 0 1 1 1 1 10 10 10\n");
  const auto b = ss::parse("version 15\ntimestamp 4295000000\ncpu0 2 0 2 2 2 2 20 20 20\n");
  CHECK(mismatch(a, b) ==
        "timestamp (jiffies: past 2^32, a 64-bit kernel's, which does not wrap) went backwards "
        "(4295000001 -> 4295000000): the snapshots are not from one boot, or not in order");
  const auto reset = ss::parse("version 15\ntimestamp 1\ncpu0 2 0 2 2 2 2 20 20 20\n");
  CHECK(mismatch(a, reset).find("went backwards (4295000001 -> 1)") != std::string::npos);
  // hostile12 #12: 1 after 4294894374. A 32-bit kernel (the armhf board)
  // prints nothing past 2^32 and wraps there five minutes after boot: 72923
  // jiffies. Nothing in the file says which kernel wrote it; below 2^32 the
  // wrap is the reading that a real snapshot pair can have.
  const auto before_wrap = ss::parse("version 15\ntimestamp 4294894374\ncpu0 1 0 1 1 1 1 10 10 10\n");
  CHECK(ss::diff(before_wrap, reset).timestamp == 72923);
  CHECK(ss::diff(before_wrap, a).timestamp == 4295000001ULL - 4294894374ULL);
  // Timeslices (pcount) are unsigned long too; run time (u64) never wraps.
  const auto slices = ss::parse("version 15\ntimestamp 2\ncpu0 2 0 2 2 2 2 20 20 3\n");
  const auto many = ss::parse("version 15\ntimestamp 1\ncpu0 1 0 1 1 1 1 10 10 4294967295\n");
  CHECK(ss::diff(many, slices).cpus[0].c[ss::CpuField::pcount] == 4);
  // hostile15 #25: a timestamp past 2^32 (in either snapshot) shows a 64-bit
  // kernel, whose pcount does not wrap: a step back from below 2^32 is refused.
  const auto near =
      ss::parse("version 15\ntimestamp 4294967290\ncpu0 1 0 1 1 1 1 10 10 4294967295\n");
  const auto past = ss::parse("version 15\ntimestamp 4294967301\ncpu0 1 0 1 1 1 1 10 10 3\n");
  CHECK(mismatch(near, past) ==
        "cpu0 pcount (unsigned long: the timestamp past 2^32 shows a 64-bit kernel's, which does "
        "not wrap) went backwards (4294967295 -> 3): the snapshots are not from one boot, or not "
        "in order");
  const auto later =
      ss::parse("version 15\ntimestamp 4295000000\ncpu0 1 0 1 1 1 1 10 10 4294967295\n");
  CHECK(mismatch(past, later) == "no error");
  CHECK(ss::diff(past, later).cpus[0].c[ss::CpuField::pcount] == 4294967292ULL);
}

TEST_CASE("accumulate sums deltas", "[schedstat]") {
  auto sum = v15_delta();
  ss::accumulate(sum, v15_delta());
  CHECK(newidle_sum(sum, ss::LbField::lb_count) == 2 * 255'783);
  CHECK(sum.timestamp == 2 * 208'988);
  CHECK_THROWS_AS(ss::accumulate(sum, v17_delta()), CounterMismatchError);
}

TEST_CASE("A vs B: values, change, n/a for a zero base", "[schedstat]") {
  const auto c = ss::compare(ss::summarize(v15_delta()), ss::summarize(v17_delta()), "6.1", "6.19");
  auto row = [&](const std::string& section, const std::string& name) -> const ss::CompareRow& {
    for (const auto& r : c.rows)
      if (r.section == section && r.name == name) return r;
    FAIL("no row " << section << " " << name);
    throw;
  };
  const auto& newidle = row("MC", "lb_count_newidle");
  CHECK(*newidle.a == 154'946);
  CHECK(*newidle.b == 22'461'482);
  CHECK(*newidle.change_pct == Approx((22'461'482.0 - 154'946) / 154'946 * 100));
  // 0 -> 0 and 0 -> 1 have no percentage.
  CHECK_FALSE(row("MC", "lb_nobusyq_busy").change_pct);
  CHECK_FALSE(row("PKG", "alb_failed").change_pct);
  CHECK(*row("PKG", "alb_failed").b == 1);
  // A field one layout lacks is empty on that side.
  const auto& split = row("MC", "lb_imbalance_task_newidle");
  CHECK_FALSE(split.a);
  CHECK(*split.b == 16'016'029);
  CHECK_FALSE(split.change_pct);
  const auto& affine = row("MC", "move_affine_pct");
  CHECK(affine.ratio);
  CHECK(affine.label == "Affine wakeups on same MC (% of all wakeups)");
  CHECK(*affine.a == Approx(25.696).epsilon(1e-4));

  const std::string text = ss::render_text(c);
  CHECK(text.find("n/a") != std::string::npos);
  CHECK(text.find("Affine wakeups on same MC (% of all wakeups)") != std::string::npos);
  const auto j = ss::to_json(c);
  CHECK(j["format_version"] == 1);
  CHECK(j["kind"] == "schedstat-compare");
  bool saw_null = false;
  for (const auto& r : j["rows"])
    if (r["section"] == "PKG" && r["name"] == "alb_failed") saw_null = r["change_pct"].is_null();
  CHECK(saw_null);
}

TEST_CASE("JSON of a delta: null for what a layout lacks", "[schedstat]") {
  const auto d = v15_delta();
  const auto j = ss::to_json(ss::summarize(d), {.per_cpu = &d});
  CHECK(j["layout"] == "v15");
  CHECK(j["all_cpus"]["counters"]["ttwu_count"] == 380'433'516);
  CHECK(j["levels"][0]["key"] == "MC");
  CHECK(j["levels"][0]["inferred"] == true);
  CHECK(j["levels"][0]["counters"]["lb_imbalance_load_newidle"].is_null());
  CHECK(j["levels"][0]["counters"]["lb_imbalance_newidle"] == 81'503);
  CHECK(j["per_cpu"].size() == 16);
  CHECK(j["per_cpu"][3]["domains"][1]["counters"]["ttwu_move_affine"] == 13'820'197);
  const auto text = ss::render_text(ss::summarize(d), {.title = "t", .per_cpu = &d});
  CHECK(text.starts_with("t\nschedstat version 15 (domain layout v15), 16 CPUs, 208988 jiffies\n"));
}

// Counters at 2^64-1 (a crafted or corrupt snapshot): the all-CPU and
// per-level sums, and sums over iterations, are refused naming the counter
// rather than wrapping into a plausible number (yld_count
// 18446744073709551213).
TEST_CASE("sums of counters that overflow 64 bits are refused, naming the counter (issue 44)",
          "[schedstat]") {
  const auto before = load(kSchedstatV15 + "before.txt");
  auto after = load(kSchedstatV15 + "after.txt");
  REQUIRE(after.cpus.size() >= 2);
  for (std::size_t i = 0; i < 2; ++i) after.cpus[i].c[ss::CpuField::yld_count] = UINT64_MAX;
  const auto d = ss::diff(before, after);
  CHECK_THROWS_WITH(ss::summarize(d),
                    Catch::StartsWith("the sum of yld_count over all CPUs (at cpu" +
                                      std::to_string(after.cpus[1].cpu) + ") overflows 64 bits"));
  auto big = v15_delta();
  big.cpus[0].domains[0].c.v[0] = UINT64_MAX;
  auto sum = big;
  CHECK_THROWS_WITH(
      ss::accumulate(sum, big),
      Catch::StartsWith("the sum of cpu" + std::to_string(big.cpus[0].cpu) + " domain0 ") &&
          Catch::Contains("over iterations overflows 64 bits"));
  big.cpus[1].domains[0].c.v[0] = UINT64_MAX;
  CHECK_THROWS_WITH(ss::summarize(big), Catch::Contains("over its CPUs (at cpu") &&
                                            Catch::Contains("overflows 64 bits"));
}
