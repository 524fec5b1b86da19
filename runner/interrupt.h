// SIGINT/SIGTERM: the handler only sets a flag. Long waits (a running
// workload) poll it, kill their process group and unwind, so the knobs are
// restored by the normal exit path.
#pragma once

namespace schedlab {

void install_interrupt_handlers();
bool interrupted();
int interrupt_signal();  // the signal that interrupted us, 0 if none
void reset_interrupted();  // for tests

}  // namespace schedlab
