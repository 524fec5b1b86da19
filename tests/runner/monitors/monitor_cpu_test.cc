// The monitors' CPU meter on this machine: the thread's own CPU and the
// CPU of the processes reaped while a scope lives go to its monitor, what
// happens outside any scope to none; a SUT whose processes are not this
// machine's is not measured.
#include "runner/monitors/monitor_cpu.h"

#include <catch2/catch.hpp>

#include "runner/hosts/local_host.h"
#include "tests/support/fake_host.h"

using namespace schedlab;

namespace {

// A shell busy in itself for a few tens of milliseconds of CPU.
const Command kBusy = {.argv = {"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"}};

// Spins the calling thread for `seconds` of its own CPU time.
void spin(double seconds) {
  const double until = thread_cpu_seconds() + seconds;
  volatile unsigned sink = 0;
  while (thread_cpu_seconds() < until) sink = sink + 1;
}

}  // namespace

TEST_CASE("monitor CPU: the thread's and the reaped processes' while a scope lives",
          "[monitors][runner]") {
  LocalHost local;
  MonitorCpu cpu(local);
  const double r0 = *local.reaped_cpu_seconds();
  {
    const auto metered = cpu.measure("a");
    REQUIRE(local.run(kBusy).ok());
  }
  const double r1 = *local.reaped_cpu_seconds();
  REQUIRE(r1 - r0 > 0);
  REQUIRE(local.run(kBusy).ok());  // outside any scope: nobody's
  const double outside = *local.reaped_cpu_seconds() - r1;
  REQUIRE(outside > 0);
  {
    const auto metered = cpu.measure("b");
    spin(0.02);
  }
  const auto spent = cpu.take();
  REQUIRE(spent.size() == 2);
  // The shell's CPU and schedlab's own while it waited (a poll with backoff).
  CHECK(spent.at("a") >= r1 - r0);
  CHECK(spent.at("a") < r1 - r0 + 0.05);
  CHECK(spent.at("b") >= 0.02);
  CHECK(spent.at("b") < 0.02 + outside / 2);  // not the second shell's
  CHECK(cpu.take().empty());                  // taken once
}

TEST_CASE("monitor CPU: a SUT that is not this machine is not measured", "[monitors][runner]") {
  test::FakeHost remote("sut1");
  MonitorCpu cpu(remote);
  {
    const auto metered = cpu.measure("a");
    spin(0.001);
  }
  CHECK(cpu.take().empty());
}
