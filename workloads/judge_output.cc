#include "workloads/judge_output.h"

#include <fmt/format.h>

namespace schedlab {

OutputJudgement judge_output(const Workload& w, const Point& p, const std::string& out,
                             const std::string& err, const ReadSamples* read) {
  OutputJudgement j;
  if (const auto lacks = w.unsupported(p, out, err)) {
    j.verdict = OutputVerdict::kUnsupported;
    j.error = fmt::format("{}: {}", w.name(), *lacks);
    return j;
  }
  const auto not_parsed = [&](const std::string& why) {
    j.verdict = OutputVerdict::kParseError;
    j.error = fmt::format("{} output did not parse: {}", w.name(), why);
  };
  if (read && !read->parse_error.empty()) {
    not_parsed(read->parse_error);
    return j;
  }
  try {
    j.samples = read ? read->samples : parse_output(w, p, out, err);
  } catch (const ParseError& e) {
    not_parsed(e.what());
    return j;
  }
  if (std::string why = w.judge(p, j.samples); !why.empty()) {
    j.verdict = OutputVerdict::kFailed;
    j.error = fmt::format("{}: {}", w.name(), why);
    return j;
  }
  j.notes = output_notes(w, p, out, err);
  return j;
}

}  // namespace schedlab
