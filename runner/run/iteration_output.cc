#include "runner/run/iteration_output.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace schedlab {

IterationStatus iteration_status(OutputVerdict v) {
  switch (v) {
    case OutputVerdict::kOk:
      return IterationStatus::kOk;
    case OutputVerdict::kParseError:
      return IterationStatus::kParseError;
    case OutputVerdict::kUnsupported:
      return IterationStatus::kUnsupported;
    case OutputVerdict::kFailed:
      return IterationStatus::kFailed;
  }
  return IterationStatus::kFailed;
}

void judge_into(IterationRow& row, const Workload& w, const Point& p, const std::string& out,
                const std::string& err, const ReadSamples* read) {
  OutputJudgement j = judge_output(w, p, out, err, read);
  row.status = iteration_status(j.verdict);
  row.error = std::move(j.error);
  row.notes = fmt::format("{}", fmt::join(j.notes, "\n"));
  row.samples.clear();
  row.samples.reserve(j.samples.size());
  for (auto& s : j.samples) row.samples.push_back({std::move(s.metric), s.value, s.offset_s});
}

IterationStatus stored_status(PhaseStatus s) {
  switch (s) {
    case PhaseStatus::kOk:
      return IterationStatus::kOk;
    case PhaseStatus::kTimeout:
      return IterationStatus::kTimeout;
    case PhaseStatus::kSpawnError:
      return IterationStatus::kSpawnError;
    case PhaseStatus::kNotReady:
      return IterationStatus::kNotReady;
    case PhaseStatus::kFailed:
    case PhaseStatus::kInterrupted:
      break;
  }
  return IterationStatus::kFailed;
}

}  // namespace schedlab
