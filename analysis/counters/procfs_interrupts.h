// /proc/interrupts and /proc/softirqs: one row per interrupt source (IRQ
// number, or a name like LOC, RES, NET_RX), one counter per CPU column.
// Both files are the same table: a header of CPU columns, then
// "NAME: count count ... [description]".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/counters/proc_text.h"

namespace schedlab::procfs {

struct IrqRow {
  std::string name;  // "24", "LOC", "NET_RX" (without the colon)
  // One per CPU column; rows the kernel prints with a single total (ERR,
  // MIS on x86) have one value and total_only set.
  std::vector<std::uint64_t> per_cpu;
  bool total_only = false;
  std::string description;  // "IO-APIC 5-edge ACPI:Ged", "Local timer interrupts"
  std::uint64_t total() const;
};

struct IrqTable {
  std::vector<int> cpus;  // from the header: CPU0 CPU1 ... (gaps when CPUs are offline)
  std::vector<IrqRow> rows;
  const IrqRow* find(std::string_view name) const;
};

// Throws CounterParseError for a missing CPU header or a row that is not
// "NAME:" followed by counters.
IrqTable parse_interrupts(std::string_view text);
IrqTable parse_softirqs(std::string_view text);  // same table, no descriptions

// after - before per row and CPU. Throws CounterMismatchError when the CPU
// columns differ. A row only in `after` (a driver loaded meanwhile) counts
// from 0; a row only in `before` is dropped: IRQs come and go with devices.
IrqTable diff(const IrqTable& before, const IrqTable& after);

}  // namespace schedlab::procfs
