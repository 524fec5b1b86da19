// SIGINT/SIGTERM: the handler only records the signal. Long waits (a running
// workload) poll it, kill their process group and unwind, so the knobs are
// restored by the normal exit path.
//
// A second signal (at least 100 ms after the first: timeout(1) delivers one
// request twice) means "stop now": the handler wakes a dedicated thread
// (through a self-pipe; the handler itself does nothing else) that kills
// every workload process group schedlab started, runs the emergency actions
// (the executor registers one per run and SUT: restore the knob journal,
// mark the run interrupted), then _exits with 128 + the signal.
#pragma once

#include <sys/types.h>

#include <functional>

namespace schedlab {

void install_interrupt_handlers();
bool interrupted();
int interrupt_signal();  // the signal that interrupted us, 0 if none
void reset_interrupted();  // for tests

// Process groups of running workload processes (LocalHost registers each
// child it spawns, and forgets it once reaped).
void track_process_group(pid_t pgid);
void untrack_process_group(pid_t pgid);

// What the second signal must do before exiting; removed by the returned
// token's owner when the run ends normally. Actions run on the emergency
// thread, so they use their own database connection.
class EmergencyAction {
 public:
  explicit EmergencyAction(std::function<void()> action);
  ~EmergencyAction();
  EmergencyAction(const EmergencyAction&) = delete;
  EmergencyAction& operator=(const EmergencyAction&) = delete;

 private:
  int id_;
};

}  // namespace schedlab
