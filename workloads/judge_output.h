// One iteration's output judged once, for `run`, `import` and `parse`
// alike: the same output gets the same status whichever path read it (a
// dmatest log counting failures fails under import as it does under run).
#pragma once

#include <string>
#include <vector>

#include "workloads/workload.h"

namespace schedlab {

enum class OutputVerdict {
  kOk,
  kParseError,   // the parser did not read it (ParseError)
  kUnsupported,  // the SUT lacks what the point measures (Workload::unsupported)
  kFailed,       // it parsed, and the workload's judgement failed it (Workload::judge)
};

struct OutputJudgement {
  OutputVerdict verdict = OutputVerdict::kOk;
  // The parsed samples: for kOk, and for kFailed (a failure count is the
  // evidence); empty otherwise.
  std::vector<Sample> samples;
  // Why, for anything but kOk, prefixed with the workload's name:
  // "dmatest: dmatest reported 2 failed transfers",
  // "hackbench output did not parse: line 3: ...".
  std::string error;
  // What an ok output says about its own quality (Workload::notes).
  std::vector<std::string> notes;
  bool ok() const { return verdict == OutputVerdict::kOk; }
};

// Samples another reader took from an output instead of the workload's
// parser (import --mmtests: mmtests' extractor rules), or why it took none.
struct ReadSamples {
  std::vector<Sample> samples;
  std::string parse_error;  // empty when it read them
};

// The output of a step that exited successfully: unsupported first, then
// parsed (parse_output, or `read` when given), then the workload's
// judgement of the samples.
OutputJudgement judge_output(const Workload& w, const Point& p, const std::string& out,
                             const std::string& err, const ReadSamples* read = nullptr);

}  // namespace schedlab
