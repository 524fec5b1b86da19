#include "workloads/hackbench.h"

#include <fmt/format.h>

#include <boost/regex.hpp>
#include <charconv>
#include <cstdlib>

#include "base/text.h"

namespace schedlab {
namespace {

using std::chrono::milliseconds;

// "process-pipes" -> {threads?, pipes?}
struct Mode {
  bool threads;
  bool pipes;
};

Mode parse_mode(const std::string& m) {
  return Mode{m.starts_with("thread"), m.ends_with("pipes")};
}

}  // namespace

Hackbench::Hackbench() {
  using P = HackbenchParams;
  params_ = ParamTable<P>({
      {&P::modes,
       {.name = "modes",
        .axis = Axis::kBlock,
        .default_value = std::string("process-pipes"),
        .help = "tasks (process|thread) and channel (pipes|sockets); one table per mode",
        .choices = {"process-pipes", "process-sockets", "thread-pipes", "thread-sockets"}}},
      {&P::groups,
       {.name = "groups",
        .axis = Axis::kRow,
        .default_value = std::int64_t{1},
        .help = "number of sender/receiver groups (-g); one table row per value",
        .unit = "groups",
        .min = 1}},
      {&P::loops,
       {.name = "loops",
        .default_value = std::int64_t{1000},
        .help = "messages each sender passes (-l)",
        .unit = "messages",
        .min = 1}},
      {&P::fds,
       {.name = "fds",
        .default_value = std::int64_t{20},
        .help = "senders and receivers per group (-f)",
        .unit = "tasks",
        .min = 1}},
      {&P::datasize,
       {.name = "datasize",
        .default_value = std::int64_t{100},
        .help = "bytes per message (-s)",
        .unit = "bytes",
        .min = 1}},
      {&P::backend,
       {.name = "backend",
        .default_value = std::string("hackbench"),
        .help = "hackbench (rt-tests) or perf (perf bench sched messaging, the same algorithm; "
                "fixed 20 fds and 100-byte messages)",
        .choices = {"hackbench", "perf"}}},
      {&P::timeout,
       {.name = "timeout",
        .default_value = milliseconds(std::chrono::minutes(5)),
        .help = "an iteration still running after this is killed and recorded as failed",
        .unit = "duration"}},
  });
  metrics_ = {cost_metric("time", "s", 4, "wall time hackbench reports for passing all messages")};
}

std::string Hackbench::description() const {
  return "rt-tests hackbench: message passing between groups of tasks (time, lower is better)";
}

std::string Hackbench::block_label(const Point& point) const {
  const auto p = params_.read(point);
  // The two tools' times are not comparable, so they never share a table.
  const std::string prefix =
      p.known(&HackbenchParams::backend) && p.backend == "perf" ? "perf-messaging-" : "hackbench-";
  return prefix + p.text(&HackbenchParams::modes);
}

std::vector<MmtestsFormat> Hackbench::mmtests_formats() const {
  // mmtests' hackbench-bench ran its own hackbench ("Running with 1*40 (==
  // 40) tasks." then "Time: X"), one file per iteration; now it runs perf
  // bench sched messaging and appends every iteration to one file. Its
  // extractor takes each time line of hackbench-<groups>-*, whatever
  // surrounds it: older ones '^Time: (.*)', newer 'Total time: ([0-9.]*)'.
  return {{.test = "hackbench-(?<modes>process-pipes|process-sockets|thread-pipes|thread-sockets)",
           .logs = {"hackbench-(?<groups>[0-9]{1,9})(?:-[0-9]{1,9})?"},
           .lines = {{.pattern = "Total time: *(?<value>[0-9.]*)",
                      .metric = "time",
                      .params = {"backend=perf"}},
                     {.pattern = "^Time: *(?<value>[0-9.]*)",
                      .metric = "time",
                      .params = {"backend=hackbench"}}},
           .unit = MmtestsFormat::Unit::kLine,
           .source =
               "ExtractHackbench.pm: each line matching 'Total time: ([0-9.]*)' (perf) or '^Time: "
               "(.*)' (its own hackbench) in hackbench-<groups>-*"}};
}

std::vector<Step> Hackbench::iteration_steps(const Point& point, const StepContext&) const {
  const auto p = params_.read(point);
  Mode mode = parse_mode(p.modes);
  if (p.backend == "perf") {
    // perf 6.1's messaging has no --fds/--datasize: it always uses
    // hackbench's defaults, so anything else would silently run otherwise.
    if (p.fds != 20 || p.datasize != 100)
      throw std::invalid_argument(
          "hackbench: backend perf always uses 20 fds and 100-byte messages; leave fds and "
          "datasize at their defaults");
    std::vector<std::string> argv = {"perf", "bench", "sched", "messaging"};
    if (mode.threads) argv.push_back("--thread");
    if (mode.pipes) argv.push_back("--pipe");
    argv.insert(argv.end(),
                {"--group", std::to_string(p.groups), "--nr_loops", std::to_string(p.loops)});
    return {Step{.role = Role::kSut, .argv = argv, .timeout = p.timeout}};
  }
  std::vector<std::string> argv = {"hackbench"};
  if (mode.threads) argv.push_back("--threads");
  if (mode.pipes) argv.push_back("--pipe");
  argv.insert(argv.end(), {"--groups", std::to_string(p.groups),      //
                           "--fds", std::to_string(p.fds),            //
                           "--datasize", std::to_string(p.datasize),  //
                           "--loops", std::to_string(p.loops)});
  return {Step{.role = Role::kSut, .argv = argv, .timeout = p.timeout}};
}

std::vector<Sample> Hackbench::parse(const Point& point, const std::string& out,
                                     const std::string& err) const {
  const auto p = params_.read(point);
  if (p.backend == "perf") return parse_perf(p, out, err);
  // hackbench prints errors (and then its usage) on stderr and exits 1.
  const std::string all = err + out;
  for (const std::string_view line : split_lines(all))
    if (line.starts_with("hackbench: "))
      throw ParseError(name(), 0, "tool error: " + std::string(line));

  static const boost::regex header(
      R"(^Running in (process|threaded) mode with (\d+) groups using (\d+) file descriptors(?: each \(== (\d+) tasks\))?)");
  static const boost::regex time_line(R"(^Time: ([0-9]+(?:\.[0-9]+)?)\s*$)");
  const auto lines = split_lines(out);
  std::optional<double> time;
  bool saw_header = false;
  Mode mode = parse_mode(p.modes);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    const int lineno = static_cast<int>(i) + 1;
    boost::smatch m;
    if (boost::regex_search(line, m, header)) {
      saw_header = true;
      const bool threaded = m[1] == "threaded";
      if (p.known(&HackbenchParams::modes) && threaded != mode.threads)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: ran in {} mode, expected {}: {}", lineno,
                                     m[1].str(), mode.threads ? "threaded" : "process", line));
      if (p.known(&HackbenchParams::groups) && std::stoll(m[2]) != p.groups)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: ran {} groups, expected {}: {}", lineno, m[2].str(),
                                     p.groups, line));
      // rt-tests prints groups, 2 x fds descriptors and their product as
      // the tasks ("(== %d tasks)", num_groups * num_fds * 2): a line whose
      // count disagrees is not hackbench's (hostile16).
      const auto groups = to_number(m[2].str()), descriptors = to_number(m[3].str());
      if (m[4].matched && groups && descriptors && to_number(m[4].str()) != *groups * *descriptors)
        throw ParseError(
            name(), lineno,
            fmt::format("line {}: {} groups using {} file descriptors each are {:.0f} tasks, not "
                        "{}: {}",
                        lineno, excerpt(m[2].str()), excerpt(m[3].str()), *groups * *descriptors,
                        excerpt(m[4].str()), excerpt(line, 200)));
    } else if (boost::regex_match(line, m, time_line)) {
      if (time)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: a second 'Time:' line: {}", lineno, line));
      double v = 0;
      const std::string s = m[1].str();
      std::from_chars(s.data(), s.data() + s.size(), v);
      // A run of any size takes some time: 0 is a broken clock or output.
      if (!(v > 0))
        throw ParseError(name(), lineno,
                         fmt::format("line {}: a run time of {} s is no measurement: {}", lineno,
                                     excerpt(s), excerpt(line, 200)));
      time = v;
    } else if (line.starts_with("Time:")) {
      // A number in another form (1e-320, -5) is named as one (hostile16).
      const std::string value(trim(std::string_view(line).substr(5)));
      char* end = nullptr;
      std::strtod(value.c_str(), &end);
      throw ParseError(
          name(), lineno,
          !value.empty() && end == value.c_str() + value.size()
              ? fmt::format("line {}: 'Time:' value '{}' is not in hackbench's form (seconds as "
                            "digits and a decimal point, such as 0.094): {}",
                            lineno, terminal_safe(excerpt(value)),
                            terminal_safe(excerpt(line, 160)))
              : fmt::format("line {}: 'Time:' line without a number: {}", lineno,
                            terminal_safe(excerpt(line, 160))));
    }
  }
  if (!saw_header)
    throw ParseError(name(), 0, "no 'Running in ... mode with N groups' line in the output");
  if (!time) throw ParseError(name(), 0, "no 'Time: <seconds>' line in the output");
  return {Sample{.metric = "time", .value = *time}};
}

std::vector<std::string> Hackbench::stated_params(const Point& given_point, const std::string& out,
                                                  const std::string& err) const {
  const auto given = params_.read(given_point);
  // rt-tests' hackbench prints 2 x fds descriptors ("using %d file
  // descriptors each (== %d tasks)", num_fds * 2); perf prints its groups
  // and whether they are threads.
  static const boost::regex header(
      R"(^Running in (process|threaded) mode with (\d{1,9}) groups using (\d{1,9}) file descriptors)");
  static const boost::regex messages(R"(^Each sender will pass (\d{1,9}) messages of (\d{1,9}) bytes)");
  static const boost::regex perf_groups(R"(^# (\d{1,9}) groups == \d+ (processes|threads) run\s*$)");
  // The output's shape names its tool; a given backend picks the lines read.
  const bool any = !given.known(&HackbenchParams::backend);
  const bool perf = given.known(&HackbenchParams::backend) && given.backend == "perf";
  // The output says process or thread, never pipes or sockets: the mode is
  // stated only where --param modes gives the channel (and it is checked).
  const std::optional<std::string> channel =
      given.known(&HackbenchParams::modes)
          ? std::optional<std::string>(parse_mode(given.modes).pipes ? "pipes" : "sockets")
          : std::nullopt;
  std::vector<std::string> stated;
  // Held here: the lines are views into it (a temporary in the loop's
  // header would be gone before the first line is read).
  const std::string text = perf || any ? join_output(out, err) : out;
  for (const std::string_view view : split_lines(text)) {
    const std::string line(view);
    boost::smatch m;
    if (!perf && boost::regex_search(line, m, header)) {
      stated.push_back("backend=hackbench");
      if (channel)
        stated.push_back(
            fmt::format("modes={}-{}", m[1] == "threaded" ? "thread" : "process", *channel));
      stated.push_back("groups=" + m[2].str());
      const long long descriptors = std::stoll(m[3]);
      if (descriptors % 2 == 0) stated.push_back(fmt::format("fds={}", descriptors / 2));
    } else if (!perf && boost::regex_search(line, m, messages)) {
      stated.push_back("loops=" + m[1].str());
      stated.push_back("datasize=" + m[2].str());
    } else if ((perf || any) && boost::regex_match(line, m, perf_groups)) {
      stated.push_back("backend=perf");
      if (channel)
        stated.push_back(
            fmt::format("modes={}-{}", m[2] == "threads" ? "thread" : "process", *channel));
      stated.push_back("groups=" + m[1].str());
    }
  }
  return stated;
}

std::vector<Sample> Hackbench::parse_perf(const ParamTable<HackbenchParams>::Values& p,
                                          const std::string& out, const std::string& err) const {
  // "# Running 'sched/messaging' benchmark:", "# 20 sender and receiver
  // threads per group", "# 2 groups == 80 threads run", "     Total time: 0.148 [sec]".
  static const boost::regex groups_line(R"(^# (\d+) groups == \d+ (processes|threads) run\s*$)");
  static const boost::regex time_line(R"(^\s*Total time: ([0-9.]+) \[sec\]\s*$)");
  const std::string text = join_output(out, err);
  const auto lines = split_lines(text);
  const Mode mode = parse_mode(p.modes);
  bool saw_groups = false;
  std::optional<double> time;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    const int lineno = static_cast<int>(i) + 1;
    boost::smatch m;
    if (line.find("Error: ") != std::string::npos)
      throw ParseError(name(), lineno, fmt::format("line {}: tool error: {}", lineno, line));
    if (boost::regex_match(line, m, groups_line)) {
      saw_groups = true;
      if (p.known(&HackbenchParams::modes) && (m[2] == "threads") != mode.threads)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: ran {}, expected {}: {}", lineno, m[2].str(),
                                     mode.threads ? "threads" : "processes", line));
      if (p.known(&HackbenchParams::groups) && std::stoll(m[1]) != p.groups)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: ran {} groups, expected {}: {}", lineno, m[1].str(),
                                     p.groups, line));
    } else if (boost::regex_match(line, m, time_line)) {
      if (time)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: a second 'Total time' line: {}", lineno, line));
      const auto v = to_number(m[1].str());
      if (!v || !(*v > 0))
        throw ParseError(name(), lineno,
                         fmt::format("line {}: a run time of {} s is no measurement: {}", lineno,
                                     excerpt(m[1].str()), excerpt(line, 200)));
      time = *v;
    } else if (line.find("Total time:") != std::string::npos) {
      throw ParseError(name(), lineno,
                       fmt::format("line {}: 'Total time:' line without a number: {}", lineno, line));
    }
  }
  if (!saw_groups) throw ParseError(name(), 0, "no '# N groups == M ... run' line in the output");
  if (!time) throw ParseError(name(), 0, "no 'Total time: <seconds> [sec]' line in the output");
  return {Sample{.metric = "time", .value = *time}};
}

}  // namespace schedlab
