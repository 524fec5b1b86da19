// report_db: writes the databases the report's bench and browser test open.
//
//   build/bench/report_db big DB    10 runs x 64 points x 30 samples (the report bench's size)
//   build/bench/report_db edge DB   one run of two variants over 64 points, with
//                                   failed cells, a single iteration and a
//                                   constant cell (intervals n/a)
//   build/bench/report_db year DB   a year of nightlies (history bench): 10,000 runs,
//                                   ~27 a night over 6 kernels, two variants,
//                                   2 points x 3 iterations each
#include <fmt/format.h>

#include <random>
#include <string>

#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"

using namespace schedlab;

namespace {

IterationRow point(std::int64_t run, std::int64_t variant, int p) {
  IterationRow it;
  it.run_id = run;
  it.variant_id = variant;
  it.workload = "hackbench";
  it.block = "hackbench-process-pipes";
  it.row = std::to_string(p + 1);
  it.row_order = p;
  it.params_json = fmt::format(R"({{"mode":"process-pipes","groups":{},"loops":100}})", p + 1);
  return it;
}

MetricInfo time_metric() {
  return {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4};
}

void big(Store& store) {
  std::mt19937_64 rng(16);
  std::normal_distribution<double> noise(1.0, 0.03);
  for (int r = 0; r < 10; ++r) {
    const auto run =
        store.runs_table().create_run({0, fmt::format("run{}", r), "bench.yaml", "", "0",
                                       fmt::format(R"({{"kernel_release":"6.{}.0"}})", r),
                                       RunStatus::kFinished, "2026-12-01T10:00:00Z", ""});
    const auto variant = store.variants_table().add_variant({0, run, "default", 0, "{}"});
    store.metrics_table().add_metric(run, time_metric());
    for (int p = 0; p < 64; ++p) {
      IterationRow it = point(run, variant, p);
      for (int s = 0; s < 30; ++s) {
        it.iteration = s;
        it.samples = {{"time", 0.01 * (p + 1) * (1 + 0.01 * r) * noise(rng), std::nullopt}};
        store.iterations_table().add_iteration(it);
      }
    }
  }
}

void edge(Store& store) {
  const auto run = store.runs_table().create_run(
      {0, "edge", "edge.yaml", "", "0", R"({"kernel_release":"6.1.0"})", RunStatus::kFinished,
       "2026-12-01T10:00:00Z", ""});
  const std::int64_t v[2] = {
      store.variants_table().add_variant({0, run, "default", 0, "{}"}),
      store.variants_table().add_variant({0, run, "sched-batch", 1, R"({"policy":"batch"})"})};
  store.metrics_table().add_metric(run, time_metric());
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(1.0, 0.05);
  for (int p = 0; p < 64; ++p)
    for (int s = 0; s < 5; ++s)
      for (int k = 0; k < 2; ++k) {  // interleaved, as the runner does
        IterationRow it = point(run, v[k], p);
        it.iteration = s;
        if (p == 3) {  // every iteration of sched-batch failed; default too at 4
          if (k == 1) it.status = IterationStatus::kFailed;
        } else if (p == 4) {
          it.status = IterationStatus::kFailed;
        } else if (p == 5 && s > 0) {
          continue;  // a single iteration: no interval
        }
        if (it.status == IterationStatus::kFailed) {
          it.error = "exit status 1";
        } else {
          const double value = p == 6 ? 0.5 : 0.01 * (p + 1) * (k ? 0.9 : 1.0) * noise(rng);
          it.samples = {{"time", value, std::nullopt}};
        }
        store.iterations_table().add_iteration(it);
      }
}

void year(Store& store) {
  std::mt19937_64 rng(17);
  std::normal_distribution<double> noise(1.0, 0.03);
  const char* kernels[] = {"6.1.0", "6.6.0", "6.12.0", "6.13.0", "6.14.0", "6.15.0"};
  for (int r = 0; r < 10000; ++r) {
    const int day = r / 27;
    const char* kernel = kernels[r % 6];
    const auto run = store.runs_table().create_run(
        {0, fmt::format("nightly-{:03}-{}@{}", day, r % 27, kernel), "nightly.yaml", "", "0",
         fmt::format(R"({{"kernel_release":"{}"}})", kernel), RunStatus::kFinished,
         fmt::format("2026-{:02}-{:02}T02:{:02}:{:02}Z", 1 + day / 31 % 12, 1 + day % 28, r % 27,
                     r % 60),
         ""});
    const std::int64_t v[2] = {
        store.variants_table().add_variant({0, run, "default", 0, "{}"}),
        store.variants_table().add_variant({0, run, "sched-batch", 1, R"({"policy":"batch"})"})};
    store.metrics_table().add_metric(run, time_metric());
    for (int p = 0; p < 2; ++p)
      for (int s = 0; s < 3; ++s)
        for (int k = 0; k < 2; ++k) {
          IterationRow it = point(run, v[k], p);
          it.iteration = s;
          it.samples = {{"time", 0.01 * (p + 1) * (k ? 0.95 : 1.0) * noise(rng), std::nullopt}};
          store.iterations_table().add_iteration(it);
        }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc == 3 ? argv[1] : "";
  if (what != "big" && what != "edge" && what != "year") {
    fmt::print(stderr, "usage: report_db big|edge|year DB\n");
    return 2;
  }
  Store store(argv[2]);
  if (what == "big") big(store);
  else if (what == "edge") edge(store);
  else year(store);
  return 0;
}
