#include "runner/knobs/knob_write.h"

namespace schedlab {

std::recursive_timed_mutex& knob_write_lock() {
  static std::recursive_timed_mutex m;
  return m;
}

}  // namespace schedlab
