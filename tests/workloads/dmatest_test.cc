#include "workloads/dmatest.h"

#include <catch2/catch.hpp>
#include <fstream>

#include "tests/support/samples.h"
#include "tests/support/temp_dir.h"
#include "tests/support/unknown_point.h"
#include "tests/workloads/step_exec.h"

using namespace schedlab;
using schedlab::test::metric_values;
using schedlab::test::fixture;
using schedlab::test::fixture_files;
using schedlab::test::read_text;
using schedlab::test::TempDir;
using schedlab::test::write_text;

namespace {

Point dmatest_point(std::int64_t tests = 1000) {
  static const Dmatest dt;
  Point p = default_point(dt);
  p.values["tests"] = tests;
  return p;
}

// The iterations each fixture's run asked for, from its name (300tests,
// 1test); the others ran at least the default 1000 per thread.
std::int64_t asked(const std::string& name) {
  if (name.find("300tests") != std::string::npos) return 300;
  if (name.find("-1test") != std::string::npos) return 1;
  return 1000;
}

// A test double of /sys/module/dmatest/parameters: the module's files with
// their default values, and a `wait` that returns at once. Plus a file that
// stands for the kernel log (/dev/kmsg when writing, dmesg when reading).
struct FakeDmatestModule {
  TempDir dir;
  std::string params() const { return dir.file("parameters"); }
  std::string log() const { return dir.file("kernel.log"); }
  FakeDmatestModule() {
    std::filesystem::create_directory(params());
    for (const auto& [name, value] :
         std::vector<std::pair<std::string, std::string>>{
             {"iterations", "0"}, {"timeout", "3000"}, {"test_buf_size", "16384"},
             {"transfer_size", "0"}, {"norandom", "N"}, {"noverify", "N"}, {"polled", "N"},
             {"threads_per_chan", "1"}, {"channel", ""}, {"run", "N"}, {"wait", "Y"}})
      write_text(params() + "/" + name, value + "\n");
    write_text(log(), "[    1.000000] dmatest: dma0chan0-copy0: summary 5 tests, 3 failures "
                      "1.00 iops 1 KB/s (0)\n");  // an earlier run: not ours
  }
  std::string param(const std::string& name) const { return read_text(params() + "/" + name); }
};

}  // namespace

TEST_CASE("dmatest parses every kernel log fixture, one sample per thread") {
  Dmatest dt;
  int parsed = 0;
  for (const auto& file : fixture_files("dmatest")) {
    const std::string name = file.filename().string();
    INFO(name);
    const std::string text = read_text(file);
    if (!name.ends_with(".dmesg.txt")) {
      CHECK_THROWS_AS(dt.parse(dmatest_point(), text, ""), ParseError);  // FORMAT.md, parameter listing
      continue;
    }
    const auto samples = dt.parse(dmatest_point(asked(name)), text, "");
    CHECK_FALSE(metric_values(samples, "failures").empty());
    ++parsed;
  }
  CHECK(parsed == 7);
}

TEST_CASE("dmatest reads exact values, the trimmed form and failures") {
  Dmatest dt;
  const auto four =
      dt.parse(dmatest_point(), read_text(fixture("dmatest/sf-pdma-2020-greenwan-4chan.dmesg.txt")), "");
  CHECK(metric_values(four, "iops") == std::vector<double>{38769.01, 40286.85, 41178.48, 38560.29});
  CHECK(metric_values(four, "throughput") == std::vector<double>{309661, 321643, 328740, 307726});
  CHECK(dt.judge(dmatest_point(), four).empty());
  const auto trimmed =
      dt.parse(dmatest_point(), read_text(fixture("dmatest/sdxi-2025-amd-2threads-trimmed.dmesg.txt")), "");
  CHECK(metric_values(trimmed, "failures").size() == 4);
  CHECK(metric_values(trimmed, "iops").empty());
  const auto failing = dt.parse(
      dmatest_point(), read_text(fixture("dmatest/hisi_dma-2024-jiehai-3chan-timeout-failures.dmesg.txt")),
      "");
  CHECK(metric_values(failing, "failures") == std::vector<double>{1, 1, 1});
  CHECK(dt.judge(dmatest_point(), failing) == "dmatest reported 3 failed transfers");
  // v4 kernels print integer iops.
  CHECK(metric_values(dt.parse(dmatest_point(10),
                        "dmatest: dma0chan0-copy0: summary 10 tests, 0 failures 1000 iops 80 KB/s (0)\n",
                        ""),
               "iops") == std::vector<double>{1000});
}

TEST_CASE("dmatest counts only lines after the last start marker") {
  Dmatest dt;
  const std::string text = read_text(fixture("dmatest/ptdma-5.15.8-fomichev-2022-vanilla-noverify.dmesg.txt"));
  CHECK(metric_values(dt.parse(dmatest_point(), text, ""), "iops").size() == 3);
  const std::string marked = text + "[17200.000000] " + Dmatest::kMarker + "\n" +
                             "[17201.000000] dmatest: dma0chan0-copy0: summary 1000 tests, 0 "
                             "failures 40000.50 iops 2560000 KB/s (0)\n";
  CHECK(metric_values(dt.parse(dmatest_point(), marked, ""), "iops") == std::vector<double>{40000.50});
  CHECK_THROWS_WITH(dt.parse(dmatest_point(), text + Dmatest::kMarker + "\n", ""),
                    Catch::StartsWith("no 'dmatest: <thread>: summary"));
}

TEST_CASE("dmatest CPUs hit lines count the CPUs") {
  Dmatest dt;
  const auto s = dt.parse(dmatest_point(1),
                          "dmatest: dma0chan0-copy0: CPUs hit: 0-3 8\n"
                          "dmatest: dma0chan0-copy0: summary 1 tests, 0 failures 1.00 iops 2 KB/s (0)\n",
                          "");
  CHECK(metric_values(s, "cpus_hit") == std::vector<double>{5});
  CHECK_THROWS_WITH(dt.parse(dmatest_point(), "dmatest: dma0chan0-copy0: summary lots of tests\n", ""),
                    Catch::StartsWith("line 1: unrecognised summary line"));
}

TEST_CASE("dmatest steps drive a test double of the module's parameter files") {
  Dmatest dt;
  FakeDmatestModule mod;
  auto p = dmatest_point();
  p.values["sysfs"] = mod.params();
  p.values["log"] = mod.log();
  p.values["kmsg"] = mod.log();
  p.values["load_module"] = false;
  p.values["tests"] = std::int64_t{1000};
  p.values["noverify"] = true;
  p.values["norandom"] = true;
  p.values["test_buf_size"] = std::int64_t{1048576};
  p.values["transfer_size"] = std::int64_t{65536};
  p.values["transfer_timeout"] = std::int64_t{2000};
  p.values["channel"] = std::string("dma0chan0");
  CHECK(dt.setup_steps(p, {}).empty());

  const auto steps = dt.iteration_steps(p, {});
  REQUIRE(steps.size() == 13);
  std::string log_out;
  for (const auto& step : steps) {
    INFO(step.argv[0] << " " << step.argv.back());
    CHECK(step.role == Role::kSut);
    const auto ran = schedlab::test::exec_step(step);
    CHECK(ran.rc == 0);
    if (step.argv.back() == mod.params() + "/wait") {
      // The kernel's part: the threads finish and report.
      std::ofstream(mod.log(), std::ios::app)
          << read_text(fixture("dmatest/ptdma-5.15.8-fomichev-2022-patch2-noverify-N.dmesg.txt"));
    }
    if (step.measured) log_out = ran.out;
    else CHECK(step.argv[0] != "dmesg");
  }
  CHECK(mod.param("iterations") == "1000\n");
  CHECK(mod.param("timeout") == "2000\n");
  CHECK(mod.param("test_buf_size") == "1048576\n");
  CHECK(mod.param("transfer_size") == "65536\n");
  CHECK(mod.param("noverify") == "Y\n");
  CHECK(mod.param("norandom") == "Y\n");
  CHECK(mod.param("polled") == "N\n");
  CHECK(mod.param("channel") == "dma0chan0\n");
  CHECK(mod.param("run") == "1\n");
  // The order the module needs: parameters, channel, marker, run, wait, log.
  CHECK(steps[8].argv.back() == mod.params() + "/channel");
  CHECK(steps[9].stdin_data == std::string(Dmatest::kMarker) + "\n");
  CHECK(steps[10].argv.back() == mod.params() + "/run");
  CHECK(steps[11].timeout == std::chrono::minutes(10));
  const auto samples = dt.parse(p, log_out, "");
  CHECK(metric_values(samples, "iops") == std::vector<double>{23544.92, 23703.98, 23526.64});
  CHECK(dt.judge(p, samples).empty());  // the earlier run's failures are not ours

  const auto teardown = dt.teardown_steps(p, {});
  REQUIRE(teardown.size() == 1);
  CHECK(schedlab::test::exec_step(teardown[0]).rc == 0);
  CHECK(mod.param("run") == "0\n");
}

TEST_CASE("dmatest on a real SUT loads the module and reads dmesg") {
  Dmatest dt;
  const auto p = dmatest_point();
  CHECK(dt.setup_steps(p, {})[0].argv == std::vector<std::string>{"modprobe", "dmatest"});
  const auto steps = dt.iteration_steps(p, {});
  CHECK(steps.size() == 12);  // no channel: any
  CHECK(steps[0].argv == std::vector<std::string>{"tee", "/sys/module/dmatest/parameters/iterations"});
  CHECK(steps[8].argv == std::vector<std::string>{"tee", "-a", "/dev/kmsg"});
  CHECK(steps.back().argv == std::vector<std::string>{"dmesg"});
  CHECK(steps.back().measured);
  CHECK(dt.teardown_steps(p, {}).back().argv ==
        std::vector<std::string>{"modprobe", "-r", "dmatest"});
}

TEST_CASE("dmatest refuses a thread that stopped before its iterations, or returned an error") {
  Dmatest dt;
  // A real one-test run read as if 1000 were asked: what the kernel prints
  // when transfer_size >= test_buf_size ends every thread at once.
  const std::string one = read_text(fixture("dmatest/owl-dma-s700-1test.dmesg.txt"));
  CHECK(metric_values(dt.parse(dmatest_point(1), one, ""), "iops").size() == 1);
  CHECK_THROWS_WITH(dt.parse(dmatest_point(1000), one, ""),
                    Catch::Contains("ran 1 tests, 1000 were asked (does transfer_size reach test_buf_size?)"));
  // The (ret) field: a thread's error return.
  const std::string ret = "[ 1.0] dmatest: dma0chan0-copy0: summary 1000 tests, 0 failures 100.00 iops 80 KB/s (-12)\n";
  CHECK_THROWS_WITH(dt.parse(dmatest_point(1000), ret, ""),
                    Catch::StartsWith("line 1: thread dma0chan0-copy0 ended with error -12"));
  CHECK(metric_values(dt.parse(dmatest_point(1000), std::string(ret).replace(ret.find("(-12)"), 5, "(0)"), ""), "iops") ==
        std::vector<double>{100});
}

TEST_CASE("dmatest refuses 0 tests with a rate, and a figure statistics cannot hold (hostile16)") {
  Dmatest dt;
  const std::string one = read_text(fixture("dmatest/owl-dma-s700-1test.dmesg.txt"));
  // As import reads it: the asked count unknown.
  const Point unknown = test::unknown_point(dt);
  CHECK(metric_values(dt.parse(unknown, one, ""), "throughput") == std::vector<double>{32258});
  std::string none = one;
  none.replace(none.find("summary 1 tests"), 15, "summary 0 tests");
  CHECK_THROWS_WITH(dt.parse(unknown, none, ""),
                    Catch::StartsWith("line 3: thread dma0chan1-copy0 ran 0 tests but states "
                                      "16129.03 iops and 32258 KB/s (dmatest's rates count the "
                                      "tests run): [  317.259397] dmatest: dma0chan1-copy0: "
                                      "summary 0 tests"));
  // No test and no rate is what the kernel prints for a thread that ran none.
  std::string idle = none;
  idle.replace(idle.find("16129.03 iops 32258 KB/s"), 24, "0.00 iops 0 KB/s");
  CHECK(metric_values(dt.parse(unknown, idle, ""), "iops") == std::vector<double>{0});
  // 1e181 KB/s: this output's parse error (at import, its file's), not the
  // store's refusal of the whole run.
  std::string huge = one;
  huge.replace(huge.find("32258 KB/s"), 5, "1" + std::string(181, '0'));
  CHECK_THROWS_WITH(dt.parse(unknown, huge, ""),
                    Catch::StartsWith("line 3: KB/s 1e+181 is past 1e+15"));
  std::string failures = one;
  failures.replace(failures.find("0 failures"), 1, std::string(30, '9'));
  CHECK_THROWS_WITH(dt.parse(unknown, failures, ""),
                    Catch::StartsWith("line 3: failures 1e+30 is past 1e+15"));
}
