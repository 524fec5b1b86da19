// `schedstat diff --style perf` on the real /proc/schedstat fixtures: perf's
// wording and layout (tools/lib/perf/include/perf/schedstat-v1[57].h,
// tools/perf/builtin-sched.c; see render_schedstat_perf.h), and every
// all-CPU and per-level figure equal to schedlab's own summary.
#include "analysis/counters/render_schedstat_perf.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "analysis/counters/schedstat.h"
#include "analysis/counters/schedstat_diff.h"
#include "tests/support/schedstat_fixtures.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace schedlab::schedstat;
using schedlab::test::fixture;
using schedlab::test::read_text;

namespace {

Snapshot snapshot(const std::string& prefix, const char* which) {
  return parse(read_text(fixture(prefix + which)));
}

Snapshot delta(const std::string& prefix) {
  return diff(snapshot(prefix, "before.txt"), snapshot(prefix, "after.txt"));
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// A CPU line of perf's diff: "%-65s: %11u,%11u  | %8.2f%% |" (and the ratios).
std::string diff_line(const std::string& desc, std::uint64_t a, std::uint64_t b) {
  return fmt::format(
      "{:<65}: {:>11},{:>11}  | {:>8.2f}% |", desc, a, b,
      (static_cast<double>(b) - static_cast<double>(a)) / static_cast<double>(a) * 100);
}

const LevelSummary& level(const Summary& s, const std::string& key) {
  for (const auto& l : s.levels)
    if (l.key == key) return l;
  FAIL("no level " << key);
  throw;
}

}  // namespace

TEST_CASE("perf style: the all-CPU and level figures are schedlab's summary", "[schedstat][perf]") {
  // A: the memcached run's delta; B: the counters since boot before it
  // (same machine, same topology): two real sides that differ.
  const Snapshot a = delta(test::kSchedstatV15);
  const Snapshot b = snapshot(test::kSchedstatV15, "before.txt");
  const Summary sa = summarize(a), sb = summarize(b);
  const std::string text = render_perf_text(a, &b);
  INFO(text.substr(0, 4000));

  CHECK(text.starts_with("Columns description\n" + std::string(100, '-') + "\nDESC\t\t\t-> "));
  CHECK(has(text, fmt::format("Time elapsed (in jiffies){:40}: {:>11},{:>11}\n", "", sa.jiffies,
                              sb.jiffies)));
  CHECK(has(text, "\nCPU <ALL CPUS SUMMARY>\n"));
  CHECK(has(text, fmt::format("{:<65} {:>12} {:>11} {:>12} {:>14} {:>10}\n", "DESC", "COUNT1",
                              "COUNT2", "PCT_CHANGE", "PCT_CHANGE1", "PCT_CHANGE2")));
  // Every CPU counter, with the ratios of perf's CPU_FIELD(_is_pct, _pct_of).
  const auto t = [](const Summary& s, CpuField f) { return s.total[f]; };
  CHECK(has(text, diff_line("sched_yield() count", t(sa, CpuField::yld_count),
                            t(sb, CpuField::yld_count)) +
                      "\n"));
  CHECK(has(text, diff_line("schedule() called", t(sa, CpuField::sched_count),
                            t(sb, CpuField::sched_count)) +
                      "\n"));
  // The idle and local shares are schedlab's own ratios.
  CHECK(has(text, diff_line("schedule() left the processor idle", t(sa, CpuField::sched_goidle),
                            t(sb, CpuField::sched_goidle)) +
                      fmt::format("  ( {:>8.2f}%,  {:>8.2f}% )\n", *sa.ratios[1].pct,
                                  *sb.ratios[1].pct)));
  CHECK(sa.ratios[1].name == "sched_goidle_pct");
  CHECK(has(text, diff_line("try_to_wake_up() was called to wake up the local cpu",
                            t(sa, CpuField::ttwu_local), t(sb, CpuField::ttwu_local)) +
                      fmt::format("  ( {:>8.2f}%,  {:>8.2f}% )\n", *sa.ratios[0].pct,
                                  *sb.ratios[0].pct)));
  CHECK(sa.ratios[0].name == "ttwu_local_pct");
  CHECK(has(text,
            diff_line("total waittime by tasks on this processor (in jiffies)",
                      t(sa, CpuField::run_delay), t(sb, CpuField::run_delay)) +
                fmt::format("  ( {:>8.2f}%,  {:>8.2f}% )\n",
                            100.0 * t(sa, CpuField::run_delay) / t(sa, CpuField::rq_cpu_time),
                            100.0 * t(sb, CpuField::run_delay) / t(sb, CpuField::rq_cpu_time))));
  CHECK(has(text,
            "Legacy counter can be ignored                                    :           0,"
            "          0  |     0.00% |\n"));

  // Each level summed over its CPUs, as schedlab's table has it; the
  // newly-idle load balances of MC and PKG add up to the source repository's
  // own newidle-deltas.txt (255,783 / 138,791 / 62,375).
  std::uint64_t count = 0, balanced = 0, failed = 0;
  for (const std::string key : {"MC", "PKG"}) {
    INFO(key);
    CHECK(has(text, "\nCPU <ALL CPUS SUMMARY>, DOMAIN " + key + "\n"));
    const auto& la = level(sa, key);
    const auto& lb = level(sb, key);
    const auto nc = la.c(IdleType::newidle, LbField::lb_count);
    count += nc;
    balanced += la.c(IdleType::newidle, LbField::lb_balanced);
    failed += la.c(IdleType::newidle, LbField::lb_failed);
    CHECK(has(text, diff_line("load_balance() count on cpu newly idle", nc,
                              lb.c(IdleType::newidle, LbField::lb_count)) +
                        fmt::format(
                            "  $ {:>11.2f}, {:>11.2f} $\n",
                            static_cast<double>(sa.jiffies) / static_cast<double>(nc),
                            static_cast<double>(sb.jiffies) /
                                static_cast<double>(lb.c(IdleType::newidle, LbField::lb_count)))));
    CHECK(
        has(text, diff_line("try_to_wake_up() moved task because cache-cold on own cpu",
                            la.c(TailField::ttwu_move_affine), lb.c(TailField::ttwu_move_affine))));
  }
  CHECK(count == 255783);
  CHECK(balanced == 138791);
  CHECK(failed == 62375);
  // Derived rows: success = count - balanced - failed; pulled per success.
  const auto& mc = level(sa, "MC");
  const auto success = mc.c(IdleType::newidle, LbField::lb_count) -
                       mc.c(IdleType::newidle, LbField::lb_balanced) -
                       mc.c(IdleType::newidle, LbField::lb_failed);
  CHECK(has(text, fmt::format("*{:<64}: {:>11},", "load_balance() success count on cpu newly idle",
                              success)));
  CHECK(has(text, fmt::format("*{:<64}: {:>11.2f},",
                              "avg task pulled per successful lb attempt (cpu newly idle)",
                              static_cast<double>(mc.c(IdleType::newidle, LbField::lb_gained)) /
                                  static_cast<double>(success))));

  // v15 prints its idle-type categories in its own order: idle, busy, newidle.
  const auto idle = text.find("<Category idle>"), busy = text.find("<Category busy>");
  CHECK(idle < busy);
  CHECK(has(text, std::string(41, '-') + " <Category idle> " + std::string(42, '-') + "\n"));
  CHECK(has(text, "imbalance sum on cpu busy"));
  // Each CPU and its domains, with the CPUs of the domain's mask.
  CHECK(has(text, "\nCPU 0\n"));
  CHECK(has(text, "\nCPU 15, DOMAIN 0 CPUS 8-15\n"));
  CHECK(has(text, "\nCPU 3, DOMAIN 1 CPUS 0-15\n"));
  // A zero base: perf's 0.00% would be false.
  CHECK(
      has(text, "load_balance() failed to find busier queue on cpu busy           :           0,"));
}

TEST_CASE("perf style: v17 wording, one side, and layouts that cannot meet", "[schedstat][perf]") {
  const Snapshot v17 = delta(test::kSchedstatV17);
  const std::string both = render_perf_text(v17, &v17);
  // v17: busy, idle, newidle; the imbalance split in four, named as perf names it.
  CHECK(both.find("<Category busy>") < both.find("<Category idle>"));
  CHECK(both.find("<Category idle>") < both.find("<Category newidle>"));
  CHECK(has(both, "imbalance in load on cpu busy"));
  CHECK(has(both, "imbalance in misfit tasks on cpu newly idle"));
  CHECK(!has(both, "imbalance sum"));
  CHECK(has(both, "\nCPU <ALL CPUS SUMMARY>, DOMAIN MC\n"));
  CHECK(has(both, "\nCPU 0, DOMAIN MC CPUS 0-7\n"));
  CHECK(has(both, "\nCPU 9, DOMAIN PKG CPUS 0-15\n"));
  // Against itself: no change anywhere but where the base is 0.
  CHECK(!has(both, "-0.00%"));
  for (std::size_t at = both.find("  | "); at != std::string::npos;
       at = both.find("  | ", at + 1)) {
    const std::string cell = both.substr(at, 15);
    CHECK((cell == "  |     0.00% |" || cell == "  |       n/a |"));
  }

  // One side: perf sched stats report's shape.
  const std::string one = render_perf_text(v17, nullptr);
  const Summary s = summarize(v17);
  CHECK(has(one, fmt::format("{:<65} {:>12} {:>12}\n", "DESC", "COUNT", "PCT_CHANGE")));
  CHECK(
      has(one, fmt::format("{:<65}: {:>11}  ( {:>8.2f}% )\n", "schedule() left the processor idle",
                           s.total[CpuField::sched_goidle], *s.ratios[1].pct)));
  CHECK(has(one, fmt::format("{:<65} {:>12} {:>14}\n", "DESC", "COUNT", "AVG_JIFFIES")));
  CHECK(!has(one, "COUNT1"));

  const Snapshot v15 = delta(test::kSchedstatV15);
  CHECK_THROWS_WITH(render_perf_text(v15, &v17),
                    "--style perf: the sides' domain lines differ in layout (v15 against v17): v17 "
                    "splits the load-balance imbalance that v15 and v16 count as one, so perf's "
                    "table cannot set them side by side");
}
