// An mmtests results tree (work/log) read as tool outputs schedlab parses:
// work/log/<run>/iter-<N>/<test>/logs/<files>, one schedlab run per mmtests
// run name, the kernel from iter-<N>/kernel.version (uname -a). mmtests'
// own parsers define the files (bin/lib/MMTests/Extract*.pm and
// shellpack_src/src/<bench>/parse-results):
//   hackbench-{process,thread}-{pipes,sockets}: logs/hackbench-<groups>,
//     every iteration's perf "Total time: X [sec]" block appended (newer
//     mmtests), or logs/hackbench-<groups>-<i>, one run each (older; perf's
//     or rt-tests' "Time: X" output);
//   tbench4: logs/dbench-<clients>.log or tbench-<clients>.log, tbench's
//     own output (one "Throughput" line a run);
//   pgbench: logs/pgbench-<clients>.log, pgbench's own output (its "tps ="
//     line; the builtin script from its "transaction type:" line).
// Any log may be .gz or .xz, as mmtests opens them. Other tests are listed
// as skipped, with why.
#pragma once

#include <string>
#include <vector>

namespace schedlab {

// One tool output: one schedlab iteration.
struct MmtestsOutput {
  std::string workload;             // schedlab's name: hackbench, tbench, pgbench
  std::vector<std::string> params;  // "name=value", what the log's name and text say
  std::string text;                 // the output, decompressed
  std::string source;               // the file (and which block of it)
  int mmtests_iteration = 0;        // N of iter-N
};

struct MmtestsRun {
  std::string name;
  std::string dir;
  // uname -r of the kernel, from the first iteration's kernel.version; empty
  // when no iteration has one.
  std::string kernel_release;
  std::vector<std::string> kernel_versions;  // each iteration's whole line, in order
  int iterations = 0;                        // iter-N directories
  std::vector<MmtestsOutput> outputs;        // iteration, test, file order
  std::vector<std::string> skipped;          // "iter-0/dbench4: why"
};

// Every run under `log_dir` (a work/log directory), by name. Throws
// std::invalid_argument for a directory that is no mmtests tree (no run
// with an iter-N directory) or a log that cannot be read or decompressed.
std::vector<MmtestsRun> read_mmtests_tree(const std::string& log_dir);

}  // namespace schedlab
