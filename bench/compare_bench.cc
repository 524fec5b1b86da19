// bench_compare: times compare() and both renderers over a database of
// 10 runs x 4 workloads x 16 sweep points x 30 samples, the size of a
// typical mmtests sweep (target: under 0.5 s).
//
//   build/bench/bench_compare [DB]   (default: a new file in $TMPDIR)
//
// The database is built first (not timed). Each measurement runs in a forked
// child that opens the store afresh, so its peak RSS (wait4's rusage) is
// the comparison's own, not the builder's.
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"
#include "analysis/render/render.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"

using namespace schedlab;

namespace {

constexpr int kRuns = 10, kWorkloads = 4, kPoints = 16, kSamples = 30;

void build(const std::string& path) {
  Store store(path);
  std::mt19937_64 rng(42);
  std::normal_distribution<double> noise(1.0, 0.03);
  const char* names[kWorkloads] = {"hackbench", "tbench", "pgbench", "schbench"};
  for (int r = 0; r < kRuns; ++r) {
    const auto run =
        store.runs_table().create_run({0, fmt::format("run{}", r), "bench.yaml", "", "0", "{}",
                                       RunStatus::kFinished, "2024-05-01T10:00:00Z", ""});
    const auto variant = store.variants_table().add_variant({0, run, "default", 0, "{}"});
    for (int w = 0; w < kWorkloads; ++w) {
      const bool higher = w % 2 == 1;
      store.metrics_table().add_metric(run, {names[w], "metric", "u",
                             higher ? Direction::kHigherIsBetter : Direction::kLowerIsBetter,
                             higher ? "hmean" : "amean", SampleKind::kRun, 4});
      for (int p = 0; p < kPoints; ++p) {
        IterationRow it;
        it.run_id = run;
        it.variant_id = variant;
        it.workload = names[w];
        it.block = names[w];
        it.row = std::to_string(1 << (p % 10)) + (p >= 10 ? "b" : "");
        it.row_order = p;
        it.params_json = fmt::format(R"({{"point":{}}})", p);
        it.status = IterationStatus::kOk;
        for (int s = 0; s < kSamples; ++s) {
          it.iteration = s;
          it.samples = {{"metric", (p + 1) * noise(rng), std::nullopt}};
          store.iterations_table().add_iteration(it);
        }
      }
    }
  }
}

struct Measure {
  double seconds = 0;
  long max_rss_kib = 0;
  std::size_t bytes = 0;
};

// compare + render text + render JSON, in a child process.
Measure measure(const std::string& path) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe");
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const auto start = std::chrono::steady_clock::now();
    Store store(path);
    std::vector<std::int64_t> ids;
    for (const auto& r : store.runs_table().list_runs()) ids.push_back(r.id);
    const Comparison c = compare(store, default_columns(store, ids));
    const std::size_t bytes = render_text(c).size() + render_json(c).size();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string msg = fmt::format("{} {}", s, bytes);
    if (write(fds[1], msg.data(), msg.size()) < 0) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  char buf[128] = {};
  const ssize_t n = read(fds[0], buf, sizeof buf - 1);
  close(fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("measurement child failed");
  Measure m;
  std::sscanf(buf, "%lf %zu", &m.seconds, &m.bytes);
  m.max_rss_kib = usage.ru_maxrss;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const bool own = argc < 2;
  const std::string path =
      own ? (std::filesystem::temp_directory_path() / fmt::format("bench_compare-{}.db", getpid()))
                .string()
          : argv[1];
  try {
    if (own || !std::filesystem::exists(path)) {
      const auto t0 = std::chrono::steady_clock::now();
      build(path);
      fmt::print("built {} ({} runs x {} workloads x {} points x {} samples) in {:.1f} s\n", path,
                 kRuns, kWorkloads, kPoints, kSamples,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::vector<Measure> ms;
    for (int i = 0; i < 5; ++i) ms.push_back(measure(path));
    std::sort(ms.begin(), ms.end(), [](auto& a, auto& b) { return a.seconds < b.seconds; });
    fmt::print("compare + render text + render json, 5 runs: min {:.3f} s, median {:.3f} s, "
               "max {:.3f} s; peak RSS {} MiB; output {} KiB\n",
               ms.front().seconds, ms[2].seconds, ms.back().seconds,
               ms[2].max_rss_kib / 1024, ms[2].bytes / 1024);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_compare: {}\n", e.what());
    return 1;
  }
  if (own)
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  return 0;
}
