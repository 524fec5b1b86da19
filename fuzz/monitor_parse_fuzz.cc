// libFuzzer target: the kernel counter parsers (/proc/schedstat, /proc/stat,
// interrupts, softirqs, pressure, vmstat, sched debug) and perf's (perf stat
// CSV, perf script, folded stacks, a stored profile: base64 of gzip) on
// arbitrary text. A CounterParseError is fine; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analysis/counters/perf_profile.h"
#include "analysis/counters/perf_stat.h"
#include "analysis/counters/procfs_interrupts.h"
#include "analysis/counters/procfs_pressure.h"
#include "analysis/counters/procfs_stat.h"
#include "analysis/counters/procfs_vmstat.h"
#include "analysis/counters/sched_debug.h"
#include "analysis/counters/schedstat.h"
#include "base/base64.h"
#include "base/compression.h"

using namespace schedlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto quietly = [&](auto parse) {
    try {
      parse(text);
    } catch (const CounterParseError&) {
    }
  };
  quietly([](std::string_view t) { schedstat::parse(t); });
  quietly([](std::string_view t) { procfs::parse_stat(t); });
  quietly([](std::string_view t) { procfs::parse_interrupts(t); });
  quietly([](std::string_view t) { procfs::parse_softirqs(t); });
  quietly([](std::string_view t) { procfs::parse_pressure(t); });
  quietly([](std::string_view t) { procfs::parse_vmstat(t); });
  quietly([](std::string_view t) { sched_debug::parse(t); });
  quietly([](std::string_view t) { perf_stat::delta(perf_stat::parse(t)); });
  quietly([](std::string_view t) { perf_profile::shares(perf_profile::fold(t)); });
  quietly([](std::string_view t) { perf_profile::shares(perf_profile::parse_folded(t)); });
  // A stored profile as a crafted database holds it: the text itself, its
  // bytes as base64 (gzip's decoder on arbitrary bytes), and its gzip.
  quietly([](std::string_view t) { perf_profile::load(std::string(t), "fuzz"); });
  quietly([](std::string_view t) { perf_profile::load(base64_encode(t), "fuzz"); });
  quietly(
      [](std::string_view t) { perf_profile::load(base64_encode(gzip(std::string(t))), "fuzz"); });
  return 0;
}
