// The workload interface: what to run where (steps) and how to read the
// output (parser). A workload never starts a process or opens a file itself;
// the runner executes its steps on hosts. That keeps every workload testable
// from fixture text alone.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "workloads/guest_needs.h"
#include "workloads/metric.h"
#include "workloads/mmtests_format.h"

namespace schedlab {

enum class ParamType { kInt, kString, kDuration, kBool, kDouble };

// How a swept parameter shapes the comparison table: a block parameter
// starts a new table (hackbench's mode), a row parameter is one table row
// (hackbench's group count), a fixed parameter takes one value per run.
enum class Axis { kFixed, kBlock, kRow };

using ParamValue = std::variant<std::int64_t, std::string, std::chrono::milliseconds, bool, double>;

std::string format_param(const ParamValue& v);

// One row of a workload's parameter table: config validation, defaults and
// the help text all come from these rows.
struct ParamSpec {
  std::string name;
  ParamType type;
  Axis axis = Axis::kFixed;
  ParamValue default_value;
  std::string help;
  std::string unit;
  std::vector<std::string> choices;  // for kString; empty = any
  std::optional<std::int64_t> min;   // for kInt (unset: kIntParamMin); for kDuration, in ms
  std::optional<std::int64_t> max;   // for kInt; unset: kIntParamMax (a C int)
  // How schedlab reads an output, not how the output was made (schbench's
  // intervals: whether interval reports become samples): `parse` and
  // `import` take its default when no --param gives it, since schedlab
  // chose it, instead of recording it as unknown.
  bool reading = false;
  bool sweep() const { return axis != Axis::kFixed; }
};

// One fully resolved point of a sweep: every parameter has one value.
struct Point {
  std::map<std::string, ParamValue> values;
  // Parameters no one stated (`parse`, `import`: neither the output nor a
  // --param says them). Each keeps its default in `values`, so labels and
  // steps can still be made, but that default is no fact: it is stored as
  // JSON null, shown as "?", and no parser checks an output against it.
  std::set<std::string> unknown;

  bool known(const std::string& name) const { return !unknown.contains(name); }
  // The value as format_param writes it, "?" when unknown.
  std::string text(const std::string& name) const;

  // The value of a parameter by name, for code that reads every parameter
  // alike (labels, the plan, the generic command workload); a workload
  // reads its own through its ParamTable (param_table.h).
  const ParamValue& at(const std::string& name) const;
};

enum class Role { kSut, kLoadgen };

// Values the runner knows and a workload's steps may need.
struct StepContext {
  std::string workdir;      // a private directory on the SUT for this workload entry
  std::string sut_address;  // the SUT's address as the loadgen sees it
  int port = 0;             // a free TCP port on the SUT reserved for this workload entry
  // Every port reserved for it (Workload::ports() of them; ports[0] == port):
  // a lab guest forwards each, TCP and UDP (netperf's data connection).
  std::vector<int> ports;
  // Whether steps on the SUT run as uid 0 there. Tools that refuse root
  // (PostgreSQL's initdb, pg_ctl, postgres) are then wrapped in
  // `setpriv` to USER; the workload cannot ask getuid() itself, since the
  // SUT may be another machine.
  bool sut_root = false;
  // MemTotal of the SUT in bytes (/proc/meminfo), 0 when unknown; for
  // workloads that size themselves from memory (pgbench's scale 0).
  std::uint64_t sut_mem_bytes = 0;
  // A random token per workload entry, for throw-away credentials (a
  // benchmark database reached over TCP).
  std::string secret;
};

// How the runner knows a background process is ready to serve.
struct ReadyCheck {
  // Either a TCP port that must accept connections (on sut_address), or an
  // argv (run on the step's host) that must exit 0. Polled until timeout.
  int tcp_port = 0;
  std::vector<std::string> argv;
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};
  std::string what;  // for errors: "tbench_srv accepting on port 7003"
};

// One process to run.
struct Step {
  Role role = Role::kSut;
  std::vector<std::string> argv;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  // The variant's policy knob applies to measured steps, and only their
  // output reaches the parser.
  bool measured = true;
  // A server: started and left running; stopped (whole process group) by
  // the matching teardown, or by the runner on any exit path.
  bool background = false;
  std::optional<ReadyCheck> ready;  // for background steps
  // Teardown steps that may fail harmlessly (the server already gone).
  bool ignore_failure = false;
  std::map<std::string, std::string> env;
  std::string cwd;
  // Fed to the process's stdin: how a step writes a file without a shell
  // (`tee PATH` with the content here).
  std::string stdin_data;
};

// A setup or teardown step on the SUT (not measured unless told).
Step sut_step(std::vector<std::string> argv,
              std::chrono::milliseconds timeout = std::chrono::seconds(30), bool measured = false);

// The lifecycle the runner follows for each workload entry:
//   setup_steps                              once, before its first point
//   for each point, for each variant segment:
//     point_setup_steps                      (servers, under the variant's knobs)
//     iteration_steps x iterations           measured
//     point_teardown_steps                   background steps are stopped after it
//   teardown_steps                           once, on every exit path
struct Sample {
  std::string metric;
  double value = 0;
  std::optional<double> offset_s;  // for interval samples: seconds into the run
};

// Output that does not parse: names the line that did not match.
class ParseError : public std::runtime_error {
 public:
  ParseError(const std::string& workload, int line, const std::string& what)
      : std::runtime_error(what), workload_(workload), line_(line) {}
  const std::string& workload() const { return workload_; }
  int line() const { return line_; }  // 1-based; 0 = whole output

 private:
  std::string workload_;
  int line_;
};

// A program a workload's steps run, declared once: `schedlab doctor` looks
// for it (naming the package when it is missing), `schedlab workloads`
// lists it, and a lab guest gets a copy when `guest` is set.
struct ProgramSpec {
  std::string name;
  // The Debian package, or how to get it; empty: the workload's package().
  std::string package;
  // Also looked for as DIR/<any>/bin/NAME: Debian keeps PostgreSQL's server
  // programs off PATH, under /usr/lib/postgresql/<version>/bin.
  std::string versioned_dir;
  // Copied with its libraries into a lab guest's initramfs (a program that
  // runs on the SUT and needs nothing else installed there).
  bool guest = false;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual const std::vector<ParamSpec>& params() const = 0;
  virtual const std::vector<MetricSpec>& metrics() const = 0;
  // The Debian package that provides the tool, for "not installed" errors.
  virtual std::string package() const = 0;
  // The programs its steps run (none for the generic command workload).
  virtual std::vector<ProgramSpec> programs() const { return {}; }
  virtual GuestNeeds guest_needs() const { return {}; }
  // How mmtests logs this workload, for `import --mmtests`; none when
  // mmtests does not run it (mmtests_format.h).
  virtual std::vector<MmtestsFormat> mmtests_formats() const { return {}; }
  // Label of the table a point belongs to, e.g. "hackbench-process-pipes".
  virtual std::string block_label(const Point& p) const;
  // Label of the row within the table, e.g. "4" for four groups.
  virtual std::string row_label(const Point& p) const;
  virtual std::vector<Step> setup_steps(const Point&, const StepContext&) const { return {}; }
  virtual std::vector<Step> point_setup_steps(const Point&, const StepContext&) const { return {}; }
  // The steps of one measured iteration.
  virtual std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const = 0;
  virtual std::vector<Step> point_teardown_steps(const Point&, const StepContext&) const {
    return {};
  }
  virtual std::vector<Step> teardown_steps(const Point&, const StepContext&) const { return {}; }
  // Samples from one iteration's output (the measured steps' stdout and
  // stderr). Throws ParseError naming the line that did not match.
  virtual std::vector<Sample> parse(const Point& p, const std::string& out,
                                    const std::string& err) const = 0;
  // Whether the SUT lacks what this point measures, from a successful
  // iteration's output (seccomp-notify's sync mode before Linux 6.6): the
  // reason ("kernel lacks X") makes the cell "n/a (X)" instead of a number
  // or a failure. nullopt: parse as usual.
  virtual std::optional<std::string> unsupported(const Point&, const std::string& /*out*/,
                                                 const std::string& /*err*/) const {
    return std::nullopt;
  }
  // What a successful iteration's output says about its own quality that
  // is no number and no failure (netperf: "Desired confidence was not
  // achieved"): stored with the iteration and shown under the table, one
  // line each. Empty when there is nothing to say.
  virtual std::vector<std::string> notes(const Point&, const std::string& /*out*/,
                                         const std::string& /*err*/) const {
    return {};
  }
  // How many TCP ports on the SUT the runner reserves for a workload entry
  // (StepContext::ports): a server and its data connections.
  virtual int ports() const { return 1; }
  // The metric adaptive iterations follow at a point: the first one it
  // measures (netperf's RR tests have transactions, not throughput).
  virtual const MetricSpec& primary_metric(const Point&) const { return metrics().front(); }
  // The parameters an output states about itself, as name=value
  // overrides (hackbench's "Running in threaded mode with 2 groups using 40
  // file descriptors", "Each sender will pass 200 messages of 100 bytes"):
  // what `parse` and `import` take where the user gives no --param.
  // `given` is the point the user's parameters make: a parameter the output
  // states only in part (hackbench's modes: process or thread, not the
  // channel) keeps the rest from it. Nothing when the output states nothing
  // or cannot be read (its parse then says why).
  virtual std::vector<std::string> stated_params(const Point& /*given*/, const std::string& /*out*/,
                                                 const std::string& /*err*/) const {
    return {};
  }
  // Whether a parsed iteration failed on its own terms (dmatest failures > 0,
  // sysbench errors unless allow_errors); empty when it is fine. Called
  // through judge_output (judge_output.h) by run, import and parse alike.
  virtual std::string judge(const Point&, const std::vector<Sample>&) const { return ""; }
  // Config validation: a problem across the fixed parameters (one value
  // each in `fixed`; swept ones are absent), e.g. HammerDB's loader cap.
  // Empty when fine.
  virtual std::string check_fixed(const Point&) const { return ""; }
  // Whether teardown leaves the work directory on the SUT (a `keep: true`
  // parameter, for looking at a database afterwards).
  virtual bool keeps_workdir(const Point&) const { return false; }
  // The names (comm) of the workload's own processes on the SUT, for the
  // `tasks` monitor that samples them during an iteration. Default: the
  // program names (argv[0] basenames) of the measured SUT steps; a workload
  // with servers or helper processes lists them (tbench: tbench, tbench_srv).
  virtual std::vector<std::string> task_names(const Point& p, const StepContext& ctx) const;

  const ParamSpec* find_param(const std::string& name) const;
  const MetricSpec* find_metric(const std::string& name) const;
};

// A point of W with every parameter at its default: what `--param`
// overrides start from, and a test's point before it sets what it checks.
Point default_point(const Workload& w);

// A line that states a parameter (Workload::stated_params): PATTERN matches
// a whole line and its first group is the value, written into FORMAT
// ("{}s" for a number of seconds).
struct StatedLine {
  const char* pattern;
  const char* param;
  const char* format = "{}";
};

// "param=value" for each rule a line of TEXT matches, in the lines' order.
std::vector<std::string> stated_by_lines(std::string_view text,
                                         const std::vector<StatedLine>& rules);

// The number a parser's pattern captured: "[0-9.]+" still matches "1.2.3"
// or 400 digits. A ParseError naming the line when it is no finite number.
double captured_number(const std::string& workload, int line, std::string_view text);

// The largest magnitude a parser takes as a measurement. Statistics square
// samples and sum them (variances, t and Welch's degrees of freedom, whose
// denominator holds fourth powers): 1e15^4 = 1e60 times a million samples
// is still far below a double's 1.8e308, while 1e308 overflows at the first
// square (issue 44: "Degrees of freedom argument is -nan"). No figure a
// benchmark prints comes near it: a day in nanoseconds is 8.6e13, a
// 100 Tbit/s link 1e8 10^6bits/s, and a count past 1e15 is no run.
inline constexpr double kMaxSampleValue = 1e15;

// V, a measurement the output states at LINE, when it is finite, not
// negative and at most kMaxSampleValue; a ParseError saying which otherwise.
// WHAT names it ("throughput").
double measured_value(const std::string& workload, int line, std::string_view what, double v);

// Figures one distribution gives, in the order they never decrease in: a
// histogram's percentiles, its minimum and maximum. A ParseError at LINE
// ("WHERE: B 3 is below A 5: WHY") for the first one below the figure
// before it; nothing otherwise. WHERE names the line ("line 6") or file.
void check_nondecreasing(const std::string& workload, int line, std::string_view where,
                         const std::vector<std::pair<std::string, double>>& seen,
                         std::string_view why);

// w.parse(p, out, err) for every caller (run, parse, import): any other
// exception a parser lets through (a regex's complexity limit, a number out
// of range) becomes a ParseError, so hostile output fails the iteration and
// its raw output is kept instead of ending the run.
std::vector<Sample> parse_output(const Workload& w, const Point& p, const std::string& out,
                                 const std::string& err);

// w.notes(p, out, err), with any exception the scan lets through as a note
// saying so: a note never fails an iteration that parsed.
std::vector<std::string> output_notes(const Workload& w, const Point& p, const std::string& out,
                                      const std::string& err);

}  // namespace schedlab
