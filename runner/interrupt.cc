#include "runner/interrupt.h"

#include <csignal>

namespace schedlab {
namespace {
volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_signal(int sig) { g_signal = sig; }
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: blocking calls return EINTR
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
}

bool interrupted() { return g_signal != 0; }
int interrupt_signal() { return g_signal; }
void reset_interrupted() { g_signal = 0; }

}  // namespace schedlab
