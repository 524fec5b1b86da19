// schedlab export --format otava: the runs as the CSV Apache Otava (once
// Hunter) reads for its change-point analysis (its `type: csv` tests): a
// header line, then a line per run, oldest first: its start (time), its
// attributes (run, kernel, commit) and one column per series (a variant,
// block, row and metric), the series' centre in that run.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analysis/export/export_cells.h"

namespace schedlab {

struct OtavaTable {
  std::string csv;
  std::vector<std::string> series;  // the metric columns, as named in the header
  // Series some run has no centre of, one line each: Otava's CSV reader
  // takes a number in every metric cell of every line (float() of an empty
  // cell is its error), so such a series is left out, never filled in.
  std::vector<std::string> left_out;
};

// Columns: time (the run's start, ISO 8601 UTC, which Otava's
// dateparser reads), run, kernel (the manifest's release; empty when it
// records none), commit (lab.build.commit; empty when the kernel was not
// built from a tree); for a run of kernels as columns, each kernel's by its
// label ("HEAD 6.1.0, WORKTREE 6.1.0+", "?" for one not recorded; commit
// empty when none was built from a tree). Then each series that every run
// has a centre of, named BLOCK/SWEPT=ROW/VARIANT/METRIC, in order of first
// appearance.
// Text cells are written as compare --format csv writes them
// (csv_text_cell); numbers at full precision.
OtavaTable otava_csv(std::span<const ExportRun> runs);

}  // namespace schedlab
