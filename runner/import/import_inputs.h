// What `schedlab import` reads before it writes anything: each saved tool
// output as one iteration to be (its workload, variant and sweep point),
// from files named on the command line or from an mmtests tree. Every
// input is checked here; import_runs.h stores them.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runner/import/mmtests_tree.h"
#include "workloads/judge_output.h"
#include "workloads/workload.h"

namespace schedlab {

// One tool output to store as an iteration: its workload and variant, the
// sweep point it was made at, and where it comes from (a file, read when it
// is stored, or text already read: a run of an mmtests log, with the
// samples mmtests' extractor takes from it, or why it took none).
struct ImportInput {
  const Workload* workload = nullptr;
  std::string variant, file;
  std::optional<std::string> text;
  std::optional<ReadSamples> extracted;
  Point point;
  std::string params_json, block, row;
  int row_order = 0;
};

// The files of `schedlab import WORKLOAD ...` as typed.
struct ImportFiles {
  // In command-line order: (true, NAME) for --variant NAME, (false, ARG)
  // for VARIANT=FILE, FILE (of the variant named last) or VARIANT= (the
  // files after it are that variant's); each file is one iteration, a
  // FILE holding a glob's characters is expanded (file_glob.h).
  std::vector<std::pair<bool, std::string>> ordered;
  std::vector<std::string> params;  // --param name=value
  // A regular expression whose named groups, matched in each file's name,
  // are that file's parameters: many sweep points into one run.
  std::string param_from_name;
  // --kernel RELEASE: the kernel the outputs were measured on (uname -r),
  // checked by check_kernel_release; empty when not given.
  std::string kernel;
};

// Why `release` cannot be a kernel release as uname -r prints it (too
// long, or not printable ASCII without spaces); nothing when it can be.
std::optional<std::string> kernel_release_problem(std::string_view release);
// Throws std::invalid_argument "--kernel 'R': why" for such a release.
void check_kernel_release(const std::string& release);

// Every file's input, each file read and its point worked out (its
// --param, its name's, what its text states), rows in natural order.
// Throws std::invalid_argument naming the file or argument at fault: a
// file that is no regular file, a variant with no file or a bad name, a
// name --param-from-name does not match, a parameter given twice.
std::vector<ImportInput> read_import_files(const Workload& workload, const ImportFiles& files);

// The inputs of one mmtests run (one variant, "default"), its outputs'
// texts moved out of it.
std::vector<ImportInput> mmtests_inputs(MmtestsRun& run);

// A new run's name, checked before anything is written: text (UTF-8, no
// control characters) that JSON, tables and terminals can carry, and not
// all digits (a RUN argument's id). Throws std::invalid_argument.
void check_import_run_name(const std::string& name);

}  // namespace schedlab
