// A sysctl's value checked by kind before anything runs: "abc", "0 1" or
// 99999999999999999999 for kernel.sched_autogroup_enabled is an error in
// the config (file:line:key) or at preflight, never a run that measures the
// baseline and then fails writing the variant's knob.
#pragma once

#include <optional>
#include <string>

namespace schedlab {

// At config time: a sysctl whose range the kernel documents (the scheduler
// sysctls a variant flips: kernel.sched_autogroup_enabled 0..1,
// kernel.numa_balancing 0..3, ...) takes one integer in it; any sysctl's
// value is one line of printable text. Nothing when fine, else why.
std::optional<std::string> sysctl_value_problem(const std::string& name, const std::string& value);

// Any knob's value: one line of printable text. Nothing when it is.
std::optional<std::string> one_line_problem(const std::string& value);

// At preflight, against the SUT's current value: a sysctl that holds
// integers takes integers, as many as it holds, each one a 64-bit value
// (the widest the kernel's proc handlers read). Nothing when fine.
std::optional<std::string> sysctl_value_against(const std::string& name, const std::string& value,
                                                const std::string& current);

}  // namespace schedlab
