// The knob kind rows, one function each, defined beside their kin: the
// kernel kinds in kernel_knob_kinds.cc, the process kinds in
// process_knob_kinds.cc. knob_kind.cc lists them in the apply order.
#pragma once

#include "runner/knobs/knob_kind.h"

namespace schedlab {

KnobKind sysctl_kind();
KnobKind debugfs_kind();
KnobKind sched_feature_kind();
KnobKind policy_kind();
KnobKind affinity_kind();

}  // namespace schedlab
