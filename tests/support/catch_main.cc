#define CATCH_CONFIG_RUNNER
#include <sched.h>
#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string_view>

// SCHEDLAB_TEST_IDLE=1 (the sanitizer run's unit lane, tests/CMakeLists.txt):
// the case, and every process it starts, runs at the lowest CPU priority
// (SCHED_IDLE and nice 19, as scripts/idle-priority.sh), so that the host
// lane's case beside it runs as on an idle machine. ctest runs both in one
// session (one autogroup), where SCHED_IDLE ranks below every normal task.
int main(int argc, char* argv[]) {
  if (const char* idle = std::getenv("SCHEDLAB_TEST_IDLE"); idle && std::string_view(idle) == "1") {
    const sched_param none{};
    if (::sched_setscheduler(0, SCHED_IDLE, &none) != 0 ||
        ::setpriority(PRIO_PROCESS, 0, 19) != 0) {
      std::perror("SCHEDLAB_TEST_IDLE: the lowest priority");
      return 1;
    }
  }
  return Catch::Session().run(argc, argv);
}
