// What every writer of SUT state shares, below the knobs' journal
// (knobs.h) and the threads' policies (task_policies.h): the one lock and
// the one error.
#pragma once

#include <mutex>
#include <stdexcept>

namespace schedlab {

class KnobError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Knob writes with their journal updates hold this lock (process-wide, every
// pair's thread), so the emergency restore of a second signal (interrupt.h)
// takes it and never races a write in flight.
std::recursive_timed_mutex& knob_write_lock();

}  // namespace schedlab
