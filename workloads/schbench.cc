#include "workloads/schbench.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/json_data.h"
#include "base/text.h"
#include "base/time.h"

namespace schedlab {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr const char* kSchbenchName = "schbench";

// The percentiles schbench prints per block (show_latencies' masks):
// latencies 50, 90, 99, 99.9 (pipe mode adds 20); RPS 20, 50, 90.
const std::vector<std::string> kLatencyPercentiles = {"50.0", "90.0", "99.0", "99.9"};
const std::vector<std::string> kRpsPercentiles = {"20.0", "50.0", "90.0"};
// Metric name suffix per percentile.
const std::map<std::string, std::string> kSuffix = {
    {"20.0", "p20"}, {"50.0", "p50"}, {"90.0", "p90"}, {"99.0", "p99"}, {"99.9", "p999"}};

struct Block {
  int line = 0;  // of its header
  std::int64_t runtime = 0;
  std::int64_t total = 0;
  std::map<std::string, double> percentiles;
  bool closed = false;  // its min/max line seen
};

// One report: interval (ends with "current rps") or final ("average rps",
// "final rps goal was", or pipe mode's "avg worker transfer").
struct Report {
  std::map<std::string, Block> blocks;  // "Wakeup Latencies", "Request Latencies", "RPS"
  std::optional<double> rps;            // current rps / average rps
  std::optional<double> transfer_ops, transfer_mib;
  int end_line = 0;
};

std::string describe(const Report& r) {
  std::string names;
  for (const auto& [name, b] : r.blocks) names += (names.empty() ? "" : ", ") + name;
  return names.empty() ? "no percentile block" : names;
}

// The final report's blocks, complete: every percentile schbench prints.
void require_block(const Report& r, const std::string& name, const std::vector<std::string>& pcts) {
  const auto b = r.blocks.find(name);
  if (b == r.blocks.end())
    throw ParseError(kSchbenchName, r.end_line,
                     fmt::format("line {}: the final report has no '{}' block ({})", r.end_line,
                                 name, describe(r)));
  for (const auto& p : pcts)
    if (!b->second.percentiles.count(p))
      throw ParseError(
          kSchbenchName, b->second.line,
          fmt::format("line {}: the '{}' block has no {}th percentile", b->second.line, name, p));
}

// A count or a number of seconds schbench prints, as an integer: checked
// before it is converted (a double past int64's range converts to
// INT64_MIN: "covers -9223372036854775808 s").
std::int64_t whole_number(int line, std::string_view what, double v) {
  // 2^53: every integer up to it is exact in a double, and no runtime or
  // sample count comes near it.
  constexpr double kMaxWhole = 9007199254740992.0;
  const std::string where = line > 0 ? fmt::format("line {}: ", line) : "schbench -j file: ";
  if (!std::isfinite(v) || v < 0 || v > kMaxWhole || v != std::floor(v))
    throw ParseError(kSchbenchName, line,
                     fmt::format("{}{} {:g} is not a whole number from 0 to 2^53", where, what, v));
  return static_cast<std::int64_t>(v);
}

void check_runtime(int line, std::int64_t have, const ParamTable<SchbenchParams>::Values& p) {
  if (!p.known(&SchbenchParams::runtime)) return;  // an imported output's: nothing to check against
  const std::int64_t want = whole_seconds(p.runtime);
  if (have != want)
    throw ParseError(
        kSchbenchName, line,
        fmt::format("line {}: the final report covers {} s, the point's runtime is {} s", line,
                    have, want));
}

// schbench's percentiles and its min and max come from one histogram:
// none is below the one before it (hostile16: a P90 below the P50 was read).
constexpr const char* kHistogramOrder =
    "schbench's percentiles come from one histogram and never decrease";
constexpr const char* kRangeOrder = "a maximum is never below its minimum";

// The block's percentiles by rank, each as "50.0th percentile".
void check_percentiles(int line, const Block& b) {
  std::vector<std::pair<double, std::pair<std::string, double>>> ranked;
  for (const auto& [pct, v] : b.percentiles)
    ranked.push_back({std::strtod(pct.c_str(), nullptr), {pct + "th percentile", v}});
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::pair<std::string, double>> seen;
  for (const auto& r : ranked) seen.push_back(r.second);
  check_nondecreasing(kSchbenchName, line, fmt::format("line {}", line), seen, kHistogramOrder);
}

void add_block(std::vector<Sample>& out, const Block& b, const std::string& prefix,
               const std::vector<std::string>& pcts) {
  for (const auto& p : pcts) out.push_back({prefix + "_" + kSuffix.at(p), b.percentiles.at(p)});
}

std::vector<Sample> parse_text(const ParamTable<SchbenchParams>::Values& p,
                               const std::string& text) {
  static const boost::regex header(
      R"(^(Wakeup Latencies|Request Latencies|RPS) percentiles \((usec|requests)\) runtime (\d+) \(s\) \((\d+) total samples\)$)");
  static const boost::regex pct(R"(^\t(?:\* |  )(\d+\.\d)th: (\d+)\s+\((\d+) samples\)$)");
  static const boost::regex minmax(R"(^\t  min=(\d+), max=(\d+)$)");
  // A rate's whole token, so that a crafted "1e308" or "-5" is refused as
  // the number it is (measured_value), not read as commentary and
  // reported as a missing final report.
  static const boost::regex current(R"(^current rps: (\S+)$)");
  static const boost::regex average(R"(^average rps: (\S+)$)");
  static const boost::regex goal(R"(^final rps goal was (\d+)$)");
  static const boost::regex transfer(
      R"(^avg worker transfer: (\S+) ops/sec (\S+?)(B|KB|MB|GB|TB|PB|EB)/s$)");
  const bool pipe = p.pipe > 0;
  const bool intervals = p.intervals;
  std::vector<Sample> out;
  Report report;
  Block* open = nullptr;  // the block whose lines are being read
  std::optional<Report> final_report;
  const auto lines = split_lines(text);
  const auto close_block = [&](int lineno) {
    if (open && !open->closed)
      throw ParseError(
          kSchbenchName, lineno,
          fmt::format(
              "line {}: the block from line {} ends before its min/max line (a truncated report)",
              lineno, open->line));
    open = nullptr;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    const int lineno = static_cast<int>(i) + 1;
    boost::smatch m;
    if (boost::regex_match(line, m, header)) {
      close_block(lineno);
      if (report.blocks.count(m[1]))
        throw ParseError(
            kSchbenchName, lineno,
            fmt::format(
                "line {}: a second '{}' block before the report's end line (a truncated report)",
                lineno, m[1].str()));
      Block& b = report.blocks[m[1]];
      b.line = lineno;
      b.runtime =
          whole_number(lineno, "runtime", captured_number(kSchbenchName, lineno, m[3].str()));
      b.total =
          whole_number(lineno, "total samples", captured_number(kSchbenchName, lineno, m[4].str()));
      open = &b;
    } else if (boost::regex_match(line, m, pct)) {
      if (!open || open->closed)
        throw ParseError(
            kSchbenchName, lineno,
            fmt::format("line {}: a percentile outside a block: {}", lineno, excerpt(line)));
      open->percentiles[m[1]] = measured_value(kSchbenchName, lineno, m[1].str() + "th percentile",
                                               captured_number(kSchbenchName, lineno, m[2].str()));
      check_percentiles(lineno, *open);
    } else if (boost::regex_match(line, m, minmax)) {
      if (!open || open->closed)
        throw ParseError(kSchbenchName, lineno,
                         fmt::format("line {}: a min/max line outside a block", lineno));
      check_nondecreasing(kSchbenchName, lineno, fmt::format("line {}", lineno),
                          {{"min", captured_number(kSchbenchName, lineno, m[1].str())},
                           {"max", captured_number(kSchbenchName, lineno, m[2].str())}},
                          kRangeOrder);
      open->closed = true;
    } else if (line.starts_with("\t") || line.find(" percentiles (") != std::string::npos) {
      throw ParseError(
          kSchbenchName, lineno,
          fmt::format("line {}: unrecognised report line: {}", lineno, excerpt(line, 120)));
    } else if (boost::regex_match(line, m, current)) {
      close_block(lineno);
      report.rps = measured_value(kSchbenchName, lineno, "current rps",
                                  captured_number(kSchbenchName, lineno, m[1].str()));
      report.end_line = lineno;
      // Interval reports count from the start (or the warm-up's end): the
      // percentiles so far, and the last second's requests.
      if (intervals) {
        const double at =
            report.blocks.empty() ? 0 : static_cast<double>(report.blocks.begin()->second.runtime);
        for (const auto& [name, prefix] : {std::pair{"Wakeup Latencies", "interval_wakeup_p99"},
                                           {"Request Latencies", "interval_request_p99"}})
          if (const auto b = report.blocks.find(name);
              b != report.blocks.end() && b->second.percentiles.count("99.0"))
            out.push_back({prefix, b->second.percentiles.at("99.0"), at});
        out.push_back({"interval_rps", *report.rps, at});
      }
      report = Report{};
    } else if (boost::regex_match(line, m, average) || boost::regex_match(line, m, goal) ||
               boost::regex_match(line, m, transfer)) {
      close_block(lineno);
      if (final_report)
        throw ParseError(
            kSchbenchName, lineno,
            fmt::format("line {}: a second final report (one schbench run per output)", lineno));
      report.end_line = lineno;
      if (line.starts_with("average rps")) {
        report.rps = measured_value(kSchbenchName, lineno, "average rps",
                                    captured_number(kSchbenchName, lineno, m[1].str()));
      } else if (line.starts_with("avg worker transfer")) {
        static const std::map<std::string, int> power = {{"B", 0},  {"KB", 1}, {"MB", 2}, {"GB", 3},
                                                         {"TB", 4}, {"PB", 5}, {"EB", 6}};
        report.transfer_ops = measured_value(kSchbenchName, lineno, "transfer rate",
                                             captured_number(kSchbenchName, lineno, m[1].str()));
        // schbench's pretty_size divides by 1024: its "MB" is a MiB.
        report.transfer_mib = measured_value(kSchbenchName, lineno, "transfer rate",
                                             captured_number(kSchbenchName, lineno, m[2].str()) *
                                                 std::pow(1024.0, power.at(m[3]) - 2));
      }
      final_report = report;
      report = Report{};
    }
    // Anything else is schbench's commentary ("sched delay: ...", "setting
    // worker threads to 4", "warmup done, zeroing stats", pinning lines).
  }
  if (!report.blocks.empty())
    throw ParseError(
        kSchbenchName, static_cast<int>(lines.size()),
        fmt::format("the output ends inside a report ({}) without its end line: schbench did not "
                    "finish (a truncated report)",
                    describe(report)));
  if (!final_report) {
    const std::string last = last_lines(text, 1);
    throw ParseError(
        kSchbenchName, 0,
        fmt::format("no final report ('average rps' or 'avg worker transfer' line) in the output{}",
                    last.empty() ? "" : ": " + terminal_safe(excerpt(last, 160))));
  }
  const Report& f = *final_report;
  const bool pipe_output = f.transfer_ops.has_value();
  if (p.known(&SchbenchParams::pipe) && pipe_output != pipe)
    throw ParseError(
        kSchbenchName, f.end_line,
        fmt::format("line {}: the output is {}, the point's pipe is {}", f.end_line,
                    pipe_output ? "pipe mode (avg worker transfer)" : "not pipe mode", p.pipe));
  require_block(f, "Wakeup Latencies", kLatencyPercentiles);
  const Block& wakeup = f.blocks.at("Wakeup Latencies");
  check_runtime(wakeup.line, wakeup.runtime, p);
  if (wakeup.total == 0)
    throw ParseError(
        kSchbenchName, wakeup.line,
        fmt::format("line {}: no wake-up was measured (0 total samples)", wakeup.line));
  add_block(out, wakeup, "wakeup", kLatencyPercentiles);
  if (pipe_output) {
    out.push_back({"transfer_ops", *f.transfer_ops});
    out.push_back({"transfer_rate", *f.transfer_mib});
    return out;
  }
  require_block(f, "Request Latencies", kLatencyPercentiles);
  require_block(f, "RPS", kRpsPercentiles);
  add_block(out, f.blocks.at("Request Latencies"), "request", kLatencyPercentiles);
  out.push_back({"rps_p50", f.blocks.at("RPS").percentiles.at("50.0")});
  if (f.rps) out.push_back({"average_rps", *f.rps});
  return out;
}

// The -j file: {"normal": {...}, "int": {"wakeup_latency_pct99.0": N, ...,
// "runtime": R}}; the final report's numbers, without average rps.
std::vector<Sample> parse_json(const ParamTable<SchbenchParams>::Values& p,
                               const std::string& text) {
  const auto j = parse_json_data(text);
  if (j.is_discarded())
    throw ParseError(kSchbenchName, 0, "the output starts like JSON but is not JSON");
  if (!j.is_object() || !j.contains("int") || !j["int"].is_object() ||
      !j["int"].contains("wakeup_latency_pct99.0"))
    throw ParseError(kSchbenchName, 0,
                     "a JSON document that is not schbench's -j file (no \"int\" object with "
                     "\"wakeup_latency_pct99.0\")");
  const auto& ints = j["int"];
  const auto value = [&](const std::string& key) {
    const auto it = ints.find(key);
    if (it == ints.end() || !it->is_number())
      throw ParseError(
          kSchbenchName, 0,
          fmt::format("schbench -j file: \"int\".\"{}\" is missing or not a number", key));
    // As the text parser takes them: a latency or rate, never negative
    // nor past kMaxSampleValue.
    return measured_value(kSchbenchName, 0, fmt::format("schbench -j file: \"int\".\"{}\"", key),
                          it->get<double>());
  };
  check_runtime(0, whole_number(0, "\"runtime\"", value("runtime")), p);
  const bool pipe =
      p.known(&SchbenchParams::pipe) ? p.pipe > 0 : !ints.contains("request_latency_pct99.0");
  if (pipe == ints.contains("request_latency_pct99.0"))
    throw ParseError(kSchbenchName, 0,
                     fmt::format("schbench -j file: {} request latencies, the point's pipe is {}",
                                 pipe ? "has" : "has no", p.pipe));
  std::vector<Sample> out;
  for (const auto& pct : kLatencyPercentiles)
    out.push_back({"wakeup_" + kSuffix.at(pct), value("wakeup_latency_pct" + pct)});
  if (!pipe) {
    for (const auto& pct : kLatencyPercentiles)
      out.push_back({"request_" + kSuffix.at(pct), value("request_latency_pct" + pct)});
    out.push_back({"rps_p50", value("rps_pct50.0")});
  }
  // Each distribution's percentiles (those the file has, by rank), then its
  // minimum and maximum, as the text report's are checked.
  for (const std::string block : {"wakeup_latency", "request_latency", "rps"}) {
    std::vector<std::pair<std::string, double>> seen, range;
    const auto add = [&](auto& to, const std::string& key) {
      if (const auto it = ints.find(block + key); it != ints.end() && it->is_number())
        to.emplace_back(fmt::format("\"int\".\"{}{}\"", block, key), it->get<double>());
    };
    for (const char* pct : {"_pct20.0", "_pct50.0", "_pct90.0", "_pct99.0", "_pct99.9"})
      add(seen, pct);
    add(range, "_min");
    add(range, "_max");
    check_nondecreasing(kSchbenchName, 0, "schbench -j file", seen, kHistogramOrder);
    check_nondecreasing(kSchbenchName, 0, "schbench -j file", range, kRangeOrder);
  }
  return out;
}

// The options of a -j file's "cmdline" ("./schbench -m 1 -t 2 -r 5 -j
// FILE"): each short option schedlab sets, as its parameter; what the
// command line leaves out stays unknown (schbench's defaults are not
// schedlab's: -t follows the CPU count).
std::vector<std::string> cmdline_params(const std::string& cmdline) {
  static const std::map<std::string, std::pair<std::string, bool>> options = {
      {"-m", {"message_threads", false}},
      {"-t", {"threads", false}},
      {"-r", {"runtime", true}},
      {"-i", {"interval", true}},
      {"-w", {"warmup", true}},
      {"-F", {"cache_footprint", false}},
      {"-n", {"operations", false}},
      {"-R", {"rps", false}},
      {"-p", {"pipe", false}}};
  std::vector<std::string> words;
  for (std::size_t at = 0; at < cmdline.size();) {
    const auto end = cmdline.find(' ', at);
    const std::string w = cmdline.substr(at, end == std::string::npos ? end : end - at);
    if (!w.empty()) words.push_back(w);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    // "-m 1" or "-m1".
    const auto o = options.find(words[i].substr(0, 2));
    if (o == options.end()) continue;
    std::string value = words[i].size() > 2 ? words[i].substr(2) : "";
    if (value.empty() && i + 1 < words.size()) value = words[++i];
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) continue;
    // An option given twice: schbench's getopt takes the last (hostile9:
    // "-t 2 -t 8" was stated as threads=2 for a run of 8 threads).
    const std::string name = o->second.first + "=";
    std::erase_if(out, [&](const std::string& p) { return p.starts_with(name); });
    out.push_back(name + value + (o->second.second ? "s" : ""));
  }
  return out;
}

// What a text report states: the final report's runtime (unless a warm-up
// may have reset it: schbench honours -w only from 30 s on), pipe mode or
// not, and the rps goal ("final rps goal was N").
std::vector<std::string> text_params(const ParamTable<SchbenchParams>::Values& given,
                                     const std::string& text) {
  static const boost::regex header(
      R"(^Wakeup Latencies percentiles \(usec\) runtime (\d{1,9}) \(s\) )");
  static const boost::regex goal(R"(^final rps goal was (\d{1,9})$)");
  std::optional<std::int64_t> runtime, last;
  std::vector<std::string> out;
  bool pipe = false, final = false;
  for (const auto view : split_lines(text)) {
    const std::string line(view);
    boost::smatch m;
    if (boost::regex_search(line, m, header)) {
      last = std::stoll(m[1]);
      continue;
    }
    const bool with_goal = boost::regex_match(line, m, goal);
    if (with_goal || line.starts_with("average rps: ") ||
        line.starts_with("avg worker transfer: ")) {
      if (final) return {};  // two final reports: its parse refuses it
      final = true;
      runtime = last;
      pipe = line.starts_with("avg worker transfer: ");
      if (with_goal) out.push_back("rps=" + m[1].str());
    }
  }
  if (!final) return {};
  const bool no_warmup =
      given.known(&SchbenchParams::warmup) && given.warmup == std::chrono::milliseconds(0);
  if (runtime && (*runtime < 30 || no_warmup)) out.push_back(fmt::format("runtime={}s", *runtime));
  if (!pipe) out.push_back("pipe=0");
  return out;
}

// schbench's latencies: whole microseconds.
MetricSpec latency_metric(const std::string& name, const std::string& help,
                          SampleKind kind = SampleKind::kRun) {
  return cost_metric(name, "us", 0, help, kind);
}

}  // namespace

Schbench::Schbench() {
  const auto seconds_param = [](const char* name, milliseconds def, const char* help,
                                std::int64_t min) {
    return ParamSpec{.name = name,
                     .type = ParamType::kDuration,
                     .default_value = def,
                     .help = help,
                     .unit = "duration",
                     .min = min};
  };
  const auto int_param = [](const char* name, std::int64_t def, const char* help, const char* unit,
                            std::int64_t min, std::optional<std::int64_t> max = std::nullopt) {
    return ParamSpec{.name = name,
                     .type = ParamType::kInt,
                     .default_value = def,
                     .help = help,
                     .unit = unit,
                     .min = min,
                     .max = max};
  };
  using P = SchbenchParams;
  params_ = ParamTable<P>({
      {&P::message_threads,
       int_param("message_threads", 1, "message threads (-m), each with its own workers", "threads",
                 1)},
      {&P::threads,
       {.name = "threads",
        .axis = Axis::kRow,
        .default_value = std::int64_t{1},
        .help = "worker threads per message thread (-t): the threads' #workers column; one row per "
                "value",
        .unit = "threads",
        .min = 1}},
      {&P::runtime,
       seconds_param("runtime", seconds(30), "how long schbench runs (-r, whole seconds)", 1000)},
      {&P::interval, seconds_param("interval", seconds(10),
                                   "seconds between interval reports (-i, whole seconds)", 1000)},
      {&P::warmup,
       seconds_param(
           "warmup", seconds(0),
           "run this long, then zero the statistics (-w, whole seconds); schbench ignores "
           "it under a 30 s "
           "runtime and in rps or pipe mode, so schedlab refuses those",
           0)},
      {&P::rps,
       int_param(
           "rps", 0,
           "requests per second mode (-R): the message threads queue this many requests a second; "
           "0 = off (workers ask as fast as they can)",
           "requests/s", 0)},
      {&P::pipe,
       int_param(
           "pipe", 0,
           "pipe mode (-p): bytes each wake-up passes, a pipe test's transfer; 0 = off. Reports "
           "only the wake-up latencies and the transfer rate",
           "bytes", 0, 1 << 20)},
      {&P::cache_footprint,
       int_param("cache_footprint", 256, "each request's matrix work in KiB (-F)", "KiB", 0)},
      {&P::operations,
       int_param("operations", 5, "matrix multiplications per request (-n)", "operations", 1)},
      {&P::intervals,
       {.name = "intervals",
        .default_value = false,
        .help =
            "also store every interval report (-i) as interval samples: its wake-up and request "
            "p99 (counted "
            "since the start, or the warm-up's end) and its current rps",
        .reading = true}},
      {&P::path,
       {.name = "path",
        .default_value = std::string(),
        .help = "schbench on the SUT; empty = 'schbench' from PATH (a lab guest gets the host's "
                "copy from PATH)"}},
      {&P::timeout,
       {.name = "timeout",
        .default_value = milliseconds(0),
        .help = "kill a schbench still running after this; 0 = runtime + 60s",
        .unit = "duration"}},
  });
  metrics_ = {
      latency_metric("wakeup_p50",
                     "final report: median wake-up latency (a worker woken until it runs)"),
      latency_metric("wakeup_p90", "final report: 90th percentile wake-up latency"),
      latency_metric("wakeup_p99",
                     "final report: 99th percentile wake-up latency (schbench's '*' line)"),
      latency_metric("wakeup_p999", "final report: 99.9th percentile wake-up latency"),
      latency_metric("request_p50",
                     "final report: median request latency (a request's think time and work)"),
      latency_metric("request_p90", "final report: 90th percentile request latency"),
      latency_metric("request_p99",
                     "final report: 99th percentile request latency (schbench's '*' line)"),
      latency_metric("request_p999", "final report: 99.9th percentile request latency"),
      rate_metric(
          "rps_p50", "requests/s", 0,
          "final report: the median of the per-second request rates (schbench's '*' RPS line)"),
      rate_metric("average_rps", "requests/s", 2,
                  "final report: requests completed over the runtime (text report only; the -j "
                  "file lacks it)"),
      rate_metric("transfer_ops", "ops/s", 2,
                  "pipe mode: transfers per second per worker ('avg worker transfer')"),
      rate_metric("transfer_rate", "MiB/s", 2,
                  "pipe mode: bytes per second per worker, in MiB/s (schbench prints 1024-based "
                  "units as KB, MB, GB)"),
      latency_metric(
          "interval_wakeup_p99",
          "with intervals: each interval report's wake-up p99, over everything since the start",
          SampleKind::kInterval),
      latency_metric(
          "interval_request_p99",
          "with intervals: each interval report's request p99, over everything since the start",
          SampleKind::kInterval),
      rate_metric("interval_rps", "requests/s", 2,
                  "with intervals: each interval report's 'current rps' (the last second's rate)",
                  SampleKind::kInterval),
  };
}

std::string Schbench::description() const {
  return "schbench: wake-up and request latency percentiles of message and worker threads (usec, "
         "lower is "
         "better) and requests per second";
}

std::vector<Step> Schbench::iteration_steps(const Point& point, const StepContext&) const {
  const auto p = params_.read(point);
  const std::string& path = p.path;
  const std::int64_t runtime = whole_seconds(p.runtime);
  std::vector<std::string> argv = {path.empty() ? "schbench" : path,
                                   "-m",
                                   std::to_string(p.message_threads),
                                   "-t",
                                   std::to_string(p.threads),
                                   "-r",
                                   std::to_string(runtime),
                                   "-i",
                                   std::to_string(whole_seconds(p.interval)),
                                   "-F",
                                   std::to_string(p.cache_footprint),
                                   "-n",
                                   std::to_string(p.operations)};
  if (p.warmup.count() > 0)
    argv.insert(argv.end(), {"-w", std::to_string(whole_seconds(p.warmup))});
  if (const auto r = p.rps; r > 0) argv.insert(argv.end(), {"-R", std::to_string(r)});
  if (const auto b = p.pipe; b > 0) argv.insert(argv.end(), {"-p", std::to_string(b)});
  milliseconds timeout = p.timeout;
  if (timeout.count() == 0) timeout = seconds(runtime + 60);
  return {Step{.role = Role::kSut, .argv = argv, .timeout = timeout}};
}

std::vector<Sample> Schbench::parse(const Point& point, const std::string& out,
                                    const std::string& err) const {
  const auto p = params_.read(point);
  const std::string text = join_output(out, err);
  // The -j file (a JSON object); a text report starts with a word.
  if (const auto t = trim(text); t.starts_with("{") || t.starts_with("["))
    return parse_json(p, std::string(t));
  return parse_text(p, text);
}

std::vector<std::string> Schbench::stated_params(const Point& given_point, const std::string& out,
                                                 const std::string& err) const {
  const auto given = params_.read(given_point);
  const std::string text = join_output(out, err);
  if (const auto t = trim(text); !t.starts_with("{")) return text_params(given, text);
  const auto j = parse_json_data(trim(text));
  if (!j.is_object() || !j.contains("int") || !j["int"].is_object()) return {};
  std::vector<std::string> stated;
  if (j.contains("normal") && j["normal"].is_object() && j["normal"].contains("cmdline") &&
      j["normal"]["cmdline"].is_string())
    stated = cmdline_params(j["normal"]["cmdline"].get<std::string>());
  const auto& ints = j["int"];
  // The report's runtime, where the command line gives none, on the text
  // report's terms (a warm-up may have reset it from 30 s on).
  const bool has_runtime = std::any_of(
      stated.begin(), stated.end(), [](const std::string& s) { return s.starts_with("runtime="); });
  const bool no_warmup =
      given.known(&SchbenchParams::warmup) && given.warmup == std::chrono::milliseconds(0);
  if (const auto r = ints.find("runtime");
      !has_runtime && r != ints.end() && r->is_number_unsigned() &&
      (r->get<std::uint64_t>() < 30 || no_warmup) && r->get<std::uint64_t>() < 1000000000)
    stated.push_back(fmt::format("runtime={}s", r->get<std::uint64_t>()));
  if (ints.contains("request_latency_pct99.0")) stated.push_back("pipe=0");
  return stated;
}

std::string Schbench::check_fixed(const Point& point) const {
  const auto p = params_.read(point);
  const std::int64_t warmup = p.warmup.count() > 0 ? whole_seconds(p.warmup) : 0;
  const std::int64_t runtime = whole_seconds(p.runtime);
  if (warmup > 0 && runtime < 30)
    return fmt::format(
        "warmup {}s with runtime {}s: schbench ignores -w when the runtime is under 30 s", warmup,
        runtime);
  if (warmup > 0 && (p.rps > 0 || p.pipe > 0))
    return "warmup: schbench does not warm up in rps or pipe mode (it would ignore -w)";
  if (p.rps > 0 && p.pipe > 0) return "rps and pipe: two separate schbench modes; set one";
  if (p.intervals && p.pipe > 0)
    return "intervals: schbench prints no interval reports in pipe mode";
  return "";
}

}  // namespace schedlab
