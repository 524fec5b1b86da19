// An mmtests results tree (work/log) read as mmtests reads it:
// work/log/<run>/iter-<N>/<test>/logs/<files>, one schedlab run per mmtests
// run name, the kernel from iter-<N>/kernel.version (uname -a). Which tests,
// logs and lines are read is each workload's MmtestsFormat
// (workloads/mmtests_format.h): hackbench, tbench4 and pgbench; other tests
// are listed as skipped, with why. Any log may be .gz or .xz, as mmtests
// opens them.
//
// A tree is data from elsewhere: only regular files are read, links only
// when they resolve inside the tree, and memory is bounded by
// MmtestsLimits: logs are read one at a time, each log's text dropped once
// its samples and a bounded part of it are taken.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace schedlab {

struct MmtestsLimits {
  // A log larger than this (decompressed) is refused: mmtests logs are
  // kilobytes to megabytes; a bomb or a runaway log is not read.
  std::size_t log_bytes = std::size_t{64} << 20;
  // What one iteration keeps of its output (head and tail): the raw text
  // stored with it.
  std::size_t output_bytes = std::size_t{1} << 20;
  // Everything held until the tree is stored: the outputs' kept text,
  // kOutputCharge for each output's labels and kSampleCharge for each
  // sample.
  std::size_t tree_bytes = std::size_t{512} << 20;
};

// What one output costs to hold besides its text, as measured (an import's
// Input: its Point and labels), for MmtestsLimits::tree_bytes.
inline constexpr std::size_t kOutputCharge = 2048;
// What one sample costs, and at most what a sample line costs while its
// log is read (the run it starts and its sample): so the lines a log may
// yield are bounded before they are held.
inline constexpr std::size_t kSampleCharge = 256;

// One iteration of an mmtests run.
struct MmtestsOutput {
  std::string workload;             // schedlab's name: hackbench, tbench, pgbench
  std::vector<std::string> params;  // "name=value", what the tree's names and the log's lines say
  std::vector<Sample> samples;      // as mmtests' extractor takes them
  std::string error;                // why it did not parse ("line 3: ..."); empty when it did
  std::string text;                 // its output, at most MmtestsLimits::output_bytes
  std::string source;               // the file (and which run of it)
  int mmtests_iteration = 0;        // N of iter-N
};

struct MmtestsRun {
  std::string name;
  std::string dir;
  // uname -r of the kernel, from the iterations' kernel.version (two that
  // differ are an error); empty when no iteration has one.
  std::string kernel_release;
  std::vector<std::string> kernel_versions;  // each iteration's whole line, in order
  int iterations = 0;                        // iter-N directories
  std::vector<MmtestsOutput> outputs;        // iteration, test, file order
  std::vector<std::string> skipped;          // "iter-0/dbench4: why"
};

// Every run under `log_dir` (a work/log directory), by name. Throws
// std::invalid_argument for a directory that is no mmtests tree (no run
// with an iter-N directory), a log that cannot be read or decompressed, is
// no regular file, links outside the tree, or is over a limit.
std::vector<MmtestsRun> read_mmtests_tree(const std::string& log_dir,
                                          const MmtestsLimits& limits = {});

}  // namespace schedlab
