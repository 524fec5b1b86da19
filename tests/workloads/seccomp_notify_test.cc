// seccomp-notify: the parser on the real program's output (schedlab's own
// tools/seccomp_notify.c, run here), its error cases, and the n/a line of a
// kernel without SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP.
#include "workloads/seccomp_notify.h"

#include <catch2/catch.hpp>

#include "runner/hosts/local_host.h"

using namespace schedlab;

namespace {

Point seccomp_point(const std::string& mode, std::int64_t loops = 20000) {
  static const SeccompNotify w;
  Point p = default_point(w);
  p.values["modes"] = mode;
  p.values["loops"] = loops;
  return p;
}

const SeccompNotify kW;

}  // namespace

TEST_CASE("seccomp-notify: the real program's output parses into nsec per syscall") {
  LocalHost local;
  const auto steps = kW.iteration_steps(seccomp_point("basic", 2000), {});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].argv == std::vector<std::string>{"schedlab-seccomp-notify", "--mode", "basic",
                                                  "--loops", "2000"});
  auto argv = steps[0].argv;
  argv[0] = SCHEDLAB_SECCOMP_NOTIFY;
  const auto r = local.run({.argv = argv, .timeout = std::chrono::seconds(60)});
  INFO(r.out << r.err);
  REQUIRE(r.ok());
  CHECK_FALSE(kW.unsupported(seccomp_point("basic", 2000), r.out, r.err));
  const auto samples = kW.parse(seccomp_point("basic", 2000), r.out, r.err);
  REQUIRE(samples.size() == 1);
  CHECK(samples[0].metric == "time");
  CHECK(samples[0].value > 100);  // a round trip is two context switches at least
  CHECK(samples[0].value < 1e8);
}

TEST_CASE("seccomp-notify: a kernel without the sync flag is unsupported, not a number") {
  const std::string out =
      "seccomp-notify: mode sync: unsupported: kernel lacks SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP\n";
  CHECK(kW.unsupported(seccomp_point("sync"), out, "") == "kernel lacks SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP");
  CHECK_FALSE(kW.unsupported(seccomp_point("basic"), out, ""));  // another mode's line
  CHECK_THROWS_AS(kW.parse(seccomp_point("sync"), out, ""), ParseError);
}

TEST_CASE("seccomp-notify: output that does not fit is a ParseError naming the line") {
  const auto p = seccomp_point("basic", 20000);
  const auto err_of = [&](const std::string& out, const std::string& err = "") {
    try {
      kW.parse(p, out, err);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string good = "seccomp-notify: mode basic: 20000 syscalls in 0.170 s: 8489 nsec/syscall\n";
  CHECK(kW.parse(p, good, "").at(0).value == 8489);
  CHECK(err_of("") == "no 'seccomp-notify: mode M: ... nsec/syscall' line");
  CHECK(err_of("seccomp-notify: mode sync: 20000 syscalls in 0.1 s: 5000 nsec/syscall\n") ==
        "line 1: not mode basic: seccomp-notify: mode sync: 20000 syscalls in 0.1 s: 5000 nsec/syscall");
  CHECK(err_of("seccomp-notify: mode basic: 10 syscalls in 0.1 s: 5000 nsec/syscall\n") ==
        "line 1: ran 10 syscalls, expected 20000");
  CHECK(err_of("seccomp-notify: mode basic: 20000 syscalls in 0 s: 0 nsec/syscall\n") ==
        "line 1: no positive 'N nsec/syscall': seccomp-notify: mode basic: 20000 syscalls in 0 s: 0 nsec/syscall");
  CHECK(err_of("seccomp-notify: mode basic: 20000 syscalls in 0.1 s: fast nsec/syscall\n")
            .starts_with("line 1: no positive 'N nsec/syscall'"));
  CHECK(err_of(good + good) == "line 2: a second result line");
  CHECK(err_of("", "seccomp-notify: seccomp(SECCOMP_SET_MODE_FILTER, NEW_LISTENER): Operation not permitted\n") ==
        "tool error: seccomp-notify: seccomp(SECCOMP_SET_MODE_FILTER, NEW_LISTENER): Operation not permitted");
  // A hostile line: one error, no crash.
  CHECK(err_of("seccomp-notify: mode basic: 20000 syscalls in 1 s: " + std::string(100000, '9') +
               " nsec/syscall\n")
            .starts_with("line 1: no positive"));
}
