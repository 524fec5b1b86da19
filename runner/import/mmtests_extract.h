// One workload's MmtestsFormat applied to what an mmtests tree holds: which
// test directories and log names it reads (and the parameters their names
// give), and the runs a log's text holds, found as mmtests' extractors find
// them (a sample per matching line, whatever surrounds it). Pure: text in,
// samples out; the tree walk (mmtests_tree.cc) does the reading.
#pragma once

#include <boost/regex.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/mmtests_format.h"
#include "workloads/workload.h"

namespace schedlab {

// A log with more sample lines than extract was allowed to take.
struct MmtestsTooManyLines : std::length_error {
  using std::length_error::length_error;
};

// One iteration found in a log.
struct MmtestsLogRun {
  std::vector<std::string> params;  // "name=value": what its lines imply
  std::vector<Sample> samples;
  // Its output, at most the keep_bytes given to extract (head_and_tail):
  // for a line-per-run format the text since the previous run's sample
  // line (the last run also takes what follows it), else the whole log.
  std::string text;
  // Why it did not parse ("line 7: '1.2.3' is not a number"), with the
  // 1-based line of the log; empty when it did.
  std::string error;
  int error_line = 0;
};

class MmtestsExtractor {
 public:
  // Compiles the format's patterns; a pattern that does not compile, or a
  // line's metric the workload does not declare, is a programming error
  // (std::logic_error), caught by the workloads' unit test.
  MmtestsExtractor(const Workload& w, MmtestsFormat format);

  const Workload& workload() const { return *workload_; }
  const MmtestsFormat& format() const { return format_; }
  // The parameters a test directory's name gives, when the format reads it.
  std::optional<std::vector<std::string>> test_params(const std::string& dir) const;
  // The same for a log file's name, its .gz or .xz taken off.
  std::optional<std::vector<std::string>> log_params(const std::string& name) const;
  // The runs of one log; a log without a sample line is one run that did
  // not parse (mmtests would take nothing from it, silently). Throws
  // MmtestsTooManyLines past max_lines sample lines: what they would hold
  // is bounded before it is held (a log of nothing but time lines).
  std::vector<MmtestsLogRun> extract(std::string_view text, std::size_t keep_bytes,
                                     std::size_t max_lines = SIZE_MAX) const;

 private:
  struct Line {
    boost::regex re;
    std::size_t row;  // in format_.lines
  };
  struct Setting {
    boost::regex re;
    std::string param;
  };
  const Workload* workload_;
  MmtestsFormat format_;
  boost::regex test_;
  std::vector<boost::regex> logs_;
  std::vector<Line> lines_;
  std::vector<Setting> settings_;
};

// "dbench-8.log.xz" -> "dbench-8.log": the name mmtests gave the log.
std::string without_compression(const std::string& name);

}  // namespace schedlab
