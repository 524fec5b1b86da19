// A test that cannot run on this machine: SCHEDLAB_SKIP(reason) says why and
// ends the test case. Catch2 v2 has no skip, and a case that just returns
// counts as passed.
//
// Under ctest (tests/CMakeLists.txt sets SCHEDLAB_SKIP_EXIT on every
// discovered test) the process prints the reason and exits with that code,
// which the test's SKIP_RETURN_CODE turns into "Not Run" instead of a pass.
// catch_discover_tests runs one test case per process, so exiting cuts
// nothing else short. Run by hand (every case in one process) it warns and
// returns, so the cases after it still run.
//
// Skip before the test creates anything that needs cleaning up: the exit
// runs no destructors of the test's locals.
#pragma once

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

namespace schedlab::test {

// The exit code that marks a skip, from SCHEDLAB_SKIP_EXIT; 0 when unset.
inline int skip_exit_code() {
  const char* code = std::getenv("SCHEDLAB_SKIP_EXIT");
  return code && *code ? std::atoi(code) : 0;
}

[[noreturn]] inline void exit_skipped(const std::string& reason, int code) {
  std::cout << "SKIPPED: " << reason << std::endl;
  std::fflush(nullptr);
  std::exit(code);
}

}  // namespace schedlab::test

#define SCHEDLAB_SKIP(reason)                                            \
  do {                                                                   \
    std::ostringstream schedlab_skip_reason_;                            \
    schedlab_skip_reason_ << reason;                                     \
    if (const int code = ::schedlab::test::skip_exit_code())             \
      ::schedlab::test::exit_skipped(schedlab_skip_reason_.str(), code); \
    WARN("SKIPPED: " << schedlab_skip_reason_.str());                    \
    return;                                                              \
  } while (0)
