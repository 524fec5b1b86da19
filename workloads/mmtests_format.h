// How mmtests logs a workload's results, as mmtests' own extractors
// (bin/lib/MMTests/Extract*.pm) read them: which test directories, which log
// files, and which lines are samples. A workload that mmtests also runs
// declares its rows (Workload::mmtests_formats); `import --mmtests`
// (runner/import/) applies them to a results tree. Patterns are Boost.Regex
// (Perl syntax, as the extractors'); their named groups are parameters.
#pragma once

#include <string>
#include <vector>

namespace schedlab {

struct MmtestsFormat {
  // The test's directory under iter-N, matched whole:
  // "hackbench-(?<modes>process-pipes|...)".
  std::string test;
  // Log file names, matched whole after a .gz or .xz is taken off, as
  // mmtests opens either: "hackbench-(?<groups>[0-9]+)(?:-[0-9]+)?".
  std::vector<std::string> logs;

  // A line that holds a sample: searched anywhere in each line, as Perl's
  // =~ does; group "value" is the sample, an optional group "offset" its
  // seconds into the run (interval metrics). The first row that a line
  // matches takes it; every other line is ignored, whatever it says.
  struct Line {
    std::string pattern;
    std::string metric;
    // Parameters a match implies: "backend=perf" for perf's "Total time:".
    std::vector<std::string> params;
  };
  std::vector<Line> lines;

  // A line that gives the parameter of the samples after it in its log
  // (pgbench's "transaction type: <builtin: select only>").
  struct Setting {
    std::string pattern;
    std::string param;  // "builtin=select-only"
  };
  std::vector<Setting> settings;

  // What one iteration is: each sample line a run of its own (hackbench's
  // appended logs: the text since the previous sample line is its output),
  // or the whole log one run (tbench's per-second lines).
  enum class Unit { kLine, kLog };
  Unit unit = Unit::kLine;

  // Where the rule comes from, for the README and errors:
  // "ExtractHackbench.pm: lines matching 'Total time: ([0-9.]*)'".
  std::string source;
};

}  // namespace schedlab
