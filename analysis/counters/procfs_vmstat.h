// /proc/vmstat: one "name value" line per counter. Most are event counts
// (pgfault, numa_hit, ...); the nr_* lines are levels (pages in a state
// now). The monitor stores after - before for every name, signed, so a
// level's row says how it moved over the iteration.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/counters/proc_text.h"

namespace schedlab::procfs {

// name -> value, in file order. Throws CounterParseError for a line that
// is not "name integer", or a name given twice.
std::vector<std::pair<std::string, std::int64_t>> parse_vmstat(std::string_view text);

// after - before per name, in the after file's order. Throws
// CounterMismatchError when a name is in one snapshot only.
std::vector<std::pair<std::string, std::int64_t>> diff(
    const std::vector<std::pair<std::string, std::int64_t>>& before,
    const std::vector<std::pair<std::string, std::int64_t>>& after);

}  // namespace schedlab::procfs
