// bench_schedstat: parse two synthetic /proc/schedstat v17 snapshots of a
// 256-CPU machine with 4 domain levels (SMT, MC, PKG, NUMA), diff and
// summarise them; prints the median and best time of one parse+parse+diff+
// summarize round. The target is under 5 ms.
#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "analysis/counters/schedstat_diff.h"

namespace {

constexpr int kCpus = 256;

// Thread CPU time: on a loaded 2-core box wall time mostly measures the
// other processes; both are printed.
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// %*pb of a set of CPUs on a 256-bit mask: 8 comma-separated 32-bit words.
std::string mask(const std::vector<int>& cpus) {
  std::vector<std::uint32_t> words(kCpus / 32, 0);
  for (int c : cpus) words[c / 32] |= 1u << (c % 32);
  std::string out;
  for (int w = static_cast<int>(words.size()) - 1; w >= 0; --w)
    out += fmt::format("{}{:08x}", out.empty() ? "" : ",", words[w]);
  return out;
}

std::string snapshot(std::uint64_t timestamp, std::uint64_t seed, std::uint64_t scale) {
  std::mt19937_64 rng(seed);
  auto n = [&] { return rng() % (1000 * scale); };
  std::string s = fmt::format("version 17\ntimestamp {}\n", timestamp);
  for (int cpu = 0; cpu < kCpus; ++cpu) {
    s += fmt::format("cpu{} {} 0 {} {} {} {} {} {} {}\n", cpu, n(), n(), n(), n(), n(),
                     n() * 1000000, n() * 1000, n());
    const int core = cpu % 128;
    std::vector<std::vector<int>> spans(4);
    spans[0] = {core, core + 128};  // SMT siblings
    for (int c = 0; c < kCpus; ++c) {
      if (c % 128 / 8 == core / 8) spans[1].push_back(c);      // 16-CPU LLC
      if ((c % 128) / 64 == core / 64) spans[2].push_back(c);  // 128-CPU package
      spans[3].push_back(c);                                   // all
    }
    const char* names[] = {"SMT", "MC", "PKG", "NUMA"};
    for (int d = 0; d < 4; ++d) {
      s += fmt::format("domain{} {} {}", d, names[d], mask(spans[d]));
      for (int k = 0; k < 45; ++k) s += fmt::format(" {}", n());
      s += '\n';
    }
  }
  return s;
}

}  // namespace

int main() {
  using clock = std::chrono::steady_clock;
  // Same seed, doubled modulus: x % 2000 is x % 1000 or that plus 1000, so
  // every counter in "after" is >= its value in "before", as on a real SUT.
  const std::string before = snapshot(4294967000, 1, 1);
  const std::string after = snapshot(4294999000, 1, 2);
  std::vector<double> ms, cpu;
  std::size_t sink = 0;
  for (int rep = 0; rep < 50; ++rep) {
    const auto t0 = clock::now();
    const double c0 = cpu_ms();
    const auto a = schedlab::schedstat::parse(before);
    const auto b = schedlab::schedstat::parse(after);
    std::size_t n = 0;
    try {
      const auto d = schedlab::schedstat::diff(a, b);
      n = schedlab::schedstat::summarize(d).levels.size();
    } catch (const std::exception& e) {
      fmt::print(stderr, "bench_schedstat: {}\n", e.what());
      return 1;
    }
    cpu.push_back(cpu_ms() - c0);
    ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
    sink += n;
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cpu.begin(), cpu.end());
  fmt::print(
      "bench_schedstat: 256 CPUs x 4 domain levels (v17), {} + {} bytes; parse x2 + diff + "
      "summarize over {} rounds: wall median {:.3f} ms (best {:.3f}), CPU median {:.3f} ms "
      "(target < 5 ms){}\n",
      before.size(), after.size(), ms.size(), ms[ms.size() / 2], ms.front(), cpu[cpu.size() / 2],
      sink ? "" : " ?");
  return 0;
}
