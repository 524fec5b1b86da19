#include "workloads/tbench.h"

#include <fmt/format.h>

#include <boost/regex.hpp>

#include "base/text.h"
#include "base/time.h"

namespace schedlab {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// The trace tbench replays without -c.
constexpr std::string_view kDefaultLoadfile = "/usr/share/dbench/client.txt";

}  // namespace

Tbench::Tbench() {
  using P = TbenchParams;
  params_ = ParamTable<P>({
      {&P::clients,
       {.name = "clients",
        .axis = Axis::kRow,
        .default_value = std::int64_t{1},
        .help = "tbench client processes (each one connection to tbench_srv); one row per value",
        .unit = "clients",
        .min = 1}},
      {&P::duration,
       {.name = "duration",
        .default_value = milliseconds(seconds(30)),
        .help = "run time (-t, whole seconds); tbench's own warm-up (a fifth of it) is not "
                "measured. At least 2s: with -t 1 tbench measures nothing (Throughput 0)",
        .unit = "duration",
        .min = 2000}},
      {&P::loadfile,
       {.name = "loadfile",
        .default_value = std::string(),
        .help = "trace to replay (-c); empty = tbench's default /usr/share/dbench/client.txt"}},
      {&P::timeout,
       {.name = "timeout",
        .default_value = milliseconds(0),
        .help = "kill a client still running after this (tbench hangs forever when no server "
                "answers); 0 = duration + 60s",
        .unit = "duration"}},
  });
  metrics_ = {
      rate_metric("throughput", "MB/s", 2,
                  "the final 'Throughput' line: MB/s over the execute phase"),
      cost_metric("max_latency", "ms", 3,
                  "the final line's max_latency: the worst operation latency of the run"),
      rate_metric("interval_throughput", "MB/s", 2,
                  "per-second progress lines of the execute phase (cumulative MB/s so far)",
                  SampleKind::kInterval),
      cost_metric("interval_max_latency", "ms", 3,
                  "per-second progress lines: the worst latency seen in that second",
                  SampleKind::kInterval),
  };
}

std::string Tbench::description() const {
  return "dbench's tbench: TCP client/server file-protocol trace (MB/s, higher is better)";
}

std::vector<MmtestsFormat> Tbench::mmtests_formats() const {
  // mmtests' tbench4 writes tbench's output to tbench-<clients>.log (dbench-
  // in older trees), one run a file. Its extractor takes the third field of
  // every line saying "execute": the per-second progress lines, as schedlab's
  // interval_throughput. The final Throughput line is read too: it is
  // schedlab's own throughput (mmtests prints no table of it).
  return {
      {.test = "tbench4?",
       .logs = {R"(tbench-(?<clients>[0-9]{1,9})\.log)", R"(dbench-(?<clients>[0-9]{1,9})\.log)"},
       .lines =
           {{.pattern =
                 R"(^(?=.*execute)\s*\S+\s+\S+\s+(?<value>\S+)(?:.*execute\s+(?<offset>[0-9]{1,9}) sec)?)",
             .metric = "interval_throughput"},
            {.pattern = R"(^Throughput (?<value>\S+) MB/sec)", .metric = "throughput"}},
       .unit = MmtestsFormat::Unit::kLog,
       .source = "ExtractTbench4.pm: the third field of each line matching /execute/ in "
                 "tbench-<clients>.log"}};
}

std::vector<Step> Tbench::point_setup_steps(const Point&, const StepContext&) const {
  // The runner stops it (whole process group: tbench_srv forks per client)
  // after the point's teardown, on every exit path.
  Step server{.role = Role::kSut, .argv = {"tbench_srv"}, .measured = false, .background = true};
  server.ready = ReadyCheck{.tcp_port = kPort,
                            .what = fmt::format("tbench_srv accepting on port {}", kPort)};
  return {server};
}

std::vector<Step> Tbench::iteration_steps(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  const std::int64_t secs = whole_seconds(p.duration);
  std::vector<std::string> argv = {"tbench", "-t", std::to_string(secs)};
  if (const auto& load = p.loadfile; !load.empty()) argv.insert(argv.end(), {"-c", load});
  argv.push_back(std::to_string(p.clients));
  argv.push_back(ctx.sut_address.empty() ? "127.0.0.1" : ctx.sut_address);
  milliseconds timeout = p.timeout;
  if (timeout.count() == 0) timeout = seconds(secs + 60);
  return {Step{.role = Role::kLoadgen, .argv = argv, .timeout = timeout}};
}

std::vector<Sample> Tbench::parse(const Point& point, const std::string& out,
                                  const std::string& err) const {
  const auto p = params_.read(point);
  // dbench 4.0: "Throughput 737.729 MB/sec  4 clients  4 procs  max_latency=8.131 ms";
  // dbench 3.x has no clients and no latency; newer git prints %f.
  static const boost::regex final_line(
      R"(^Throughput ([0-9.eE+-]+) MB/sec.*?(?:\s(\d+) clients)?\s+(\d+) procs(?:\s+max_latency=([0-9.]+) ms)?\s*$)");
  static const boost::regex progress(
      R"(^\s*(\d+)\s+(\d+)\s+([0-9.]+) MB/sec\s+(warmup|execute)\s+(\d+) sec\s+latency ([0-9.]+) ms\s*$)");
  static const boost::regex tool_error(R"(^(failed to connect to .*|client \d+ failed to start.*)$)");
  std::vector<Sample> samples;
  bool have_final = false;
  const std::string text = join_output(out, err);
  const auto lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    const int lineno = static_cast<int>(i) + 1;
    boost::smatch m;
    if (boost::regex_match(line, m, tool_error))
      throw ParseError(name(), lineno, fmt::format("line {}: tool error: {}", lineno, line));
    if (boost::regex_match(line, m, progress)) {
      if (m[4] != "execute") continue;  // warm-up seconds are not measured
      const double offset = captured_number(name(), lineno, m[5].str());
      samples.push_back({"interval_throughput", captured_number(name(), lineno, m[3].str()), offset});
      samples.push_back({"interval_max_latency", captured_number(name(), lineno, m[6].str()), offset});
    } else if (boost::regex_match(line, m, final_line)) {
      if (have_final)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: a second 'Throughput' line: {}", lineno, line));
      const auto mbps = to_number(m[1].str());
      if (!mbps)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: throughput is not a number: {}", lineno, line));
      // Clients that ran for the whole time moved some data.
      if (!(*mbps > 0))
        throw ParseError(name(), lineno,
                         fmt::format("line {}: a throughput of {} MB/sec is no measurement: {}",
                                     lineno, *mbps, line));
      if (p.known(&TbenchParams::clients) && std::stoll(m[3]) != p.clients)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: ran {} client processes, expected {}: {}", lineno,
                                     m[3].str(), p.clients, line));
      have_final = true;
      samples.push_back({"throughput", *mbps});
      if (m[4].matched) samples.push_back({"max_latency", captured_number(name(), lineno, m[4].str())});
    } else if (line.starts_with("Throughput")) {
      throw ParseError(name(), lineno,
                       fmt::format("line {}: unrecognised 'Throughput' line: {}", lineno, line));
    }
  }
  if (!have_final)
    throw ParseError(name(), 0, "no 'Throughput N MB/sec ... N procs' line in the output");
  return samples;
}

std::vector<std::string> Tbench::stated_params(const Point&, const std::string& out,
                                               const std::string& err) const {
  // "Running for 5 seconds with load '/usr/share/dbench/client.txt' and
  // minimum warmup 1 secs", "Throughput 737.729 MB/sec  4 clients  4 procs ...".
  const std::string text = join_output(out, err);
  std::vector<std::string> stated = stated_by_lines(
      text, {{R"(^Running for (\d{1,9}) seconds with load .*$)", "duration", "{}s"},
             {R"(^Running for \d+ seconds with load '(.*)' and minimum warmup .*$)", "loadfile"},
             {R"(^Throughput [0-9.eE+-]+ MB/sec.*?\s(\d{1,9}) procs(?:\s.*)?$)", "clients"}});
  // tbench's own default trace is what an empty loadfile asks for.
  for (auto& s : stated)
    if (s == "loadfile=" + std::string(kDefaultLoadfile)) s = "loadfile=";
  return stated;
}

}  // namespace schedlab
