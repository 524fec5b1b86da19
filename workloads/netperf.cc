#include "workloads/netperf.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "base/text.h"
#include "base/time.h"

namespace schedlab {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr const char* kNetperfName = "netperf";

bool is_rr(const std::string& test) {
  return test == "TCP_RR" || test == "UDP_RR" || test == "TCP_CRR";
}

// The test a banner names ("MIGRATED TCP REQUEST/RESPONSE TEST from ..."),
// as -t names it.
std::optional<std::string> test_of_banner(const std::string& proto, const std::string& kind) {
  static const std::map<std::pair<std::string, std::string>, std::string> tests = {
      {{"TCP", "STREAM"}, "TCP_STREAM"},       {{"TCP", "MAERTS"}, "TCP_MAERTS"},
      {{"UDP", "STREAM"}, "UDP_STREAM"},       {{"TCP", "REQUEST/RESPONSE"}, "TCP_RR"},
      {{"UDP", "REQUEST/RESPONSE"}, "UDP_RR"}, {{"TCP", "Connect/Request/Response"}, "TCP_CRR"}};
  const auto it = tests.find({proto, kind});
  if (it == tests.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
    const std::size_t start = at;
    while (at < line.size() && line[at] != ' ' && line[at] != '\t') ++at;
    if (at > start) out.push_back(line.substr(start, at - start));
  }
  return out;
}

// Every whitespace-separated token of the line a number (a result row).
std::optional<std::vector<double>> numbers(std::string_view line) {
  std::vector<double> out;
  for (const auto t : tokens(line)) {
    const auto v = to_number(t);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// The first token of a line of numbers that is no finite number ("nan",
// "inf", "1e400"): a result row with a value netperf could not compute,
// which is to be named as such, not taken for a header line ("no result row
// after the banner", hostile16). Nothing for a line with a word in it.
std::optional<std::string_view> non_finite_value(std::string_view line) {
  std::optional<std::string_view> bad;
  for (const auto t : tokens(line)) {
    if (to_number(t)) continue;
    const std::string s(t);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || std::isfinite(v)) return std::nullopt;
    if (!bad) bad = t;
  }
  return bad;
}

struct Line {
  int number = 0;  // 1-based
  std::string_view text;
};

// One netperf output cut into its parts.
struct Output {
  Line banner;                // none with -P 0
  std::string test;           // as -t names it; empty with -P 0 (no banner names it)
  std::string wanted;         // "+/-2.500% @ 95% conf." with -i/-I, else empty
  std::vector<Line> warning;  // the "!!! " block
  std::vector<Line> header;
  std::vector<Line> rows;  // all-number lines
  Line late_timer;         // netperf's "catcher: timer popped with times_up != 0"
};

// What netperf's SIGALRM handler (netperf.c, catcher) prints when the test's
// timer fires after the test had already ended (the other side closed the
// data connection first, on a loaded machine, say). The results around it
// are whole, with the elapsed time netperf measured; the line can fall
// between any two lines of the output, banner and header included.
constexpr std::string_view kLateTimer = "catcher: timer popped with times_up != 0";

// The lines are views into text: a temporary would leave them dangling.
Output cut(std::string&& text) = delete;
Output cut(const std::string& text) {
  static const boost::regex banner(R"(^(?:MIGRATED )?(TCP|UDP) (\S+) TEST from .*)");
  static const boost::regex wanted(R"(: (\+/-[0-9.]+% @ \d+% conf\.))");
  Output o;
  // Before a banner: all-number lines (-P 0 prints the result row alone),
  // and the first other line, which no -P 0 output has.
  std::vector<Line> bare_rows;
  Line other;
  const auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line line{static_cast<int>(i) + 1, lines[i]};
    const std::string s(line.text);
    // netperf exits 255 with these when nothing answers on the control port.
    if (s.starts_with("establish control:") || s.starts_with("establish_control could not"))
      throw ParseError(
          kNetperfName, line.number,
          fmt::format("line {}: no netserver answered: {}", line.number, excerpt(s, 200)));
    if (trim(line.text) == kLateTimer) {
      o.late_timer = line;
      continue;
    }
    if (const auto bad = non_finite_value(line.text))
      throw ParseError(kNetperfName, line.number,
                       fmt::format("line {}: a result row with a value that is not a finite "
                                   "number ('{}'): {}",
                                   line.number, excerpt(*bad), excerpt(s, 120)));
    boost::smatch m;
    if (boost::regex_match(s, m, banner)) {
      if (o.banner.number)
        throw ParseError(kNetperfName, line.number,
                         fmt::format("line {}: a second test banner (one test per output): {}",
                                     line.number, excerpt(s, 120)));
      const auto test = test_of_banner(m[1], m[2]);
      if (!test)
        throw ParseError(kNetperfName, line.number,
                         fmt::format("line {}: a {} {} test, which schedlab does not read: {}",
                                     line.number, m[1].str(), m[2].str(), excerpt(s, 120)));
      o.banner = line;
      o.test = *test;
      if (boost::smatch w; boost::regex_search(s, w, wanted)) o.wanted = w[1];
      continue;
    }
    if (!o.banner.number) {
      if (numbers(line.text))
        bare_rows.push_back(line);
      else if (!trim(line.text).empty() && !other.number)
        other = line;
      continue;
    }
    if (trim(line.text).empty()) continue;
    if (s.starts_with("!!!")) {
      o.warning.push_back(line);
    } else if (numbers(line.text)) {
      o.rows.push_back(line);
    } else if (o.rows.empty()) {
      o.header.push_back(line);
    } else {
      throw ParseError(kNetperfName, line.number,
                       fmt::format("line {}: unexpected after the result rows: {}", line.number,
                                   excerpt(s, 120)));
    }
  }
  if (!o.banner.number) {
    // -P 0: the result row alone; the test (a --param) fixes its columns.
    if (!bare_rows.empty() && !other.number) {
      o.rows = std::move(bare_rows);
      return o;
    }
    throw ParseError(kNetperfName, other.number,
                     "no netperf test banner ('... TEST from ... to ...') in the output, nor only "
                     "result rows (-P 0)");
  }
  if (o.rows.empty())
    throw ParseError(
        kNetperfName, 0,
        fmt::format("no result row after the {} banner (line {})", o.test, o.banner.number));
  return o;
}

// The omni human output (-- -O LIST): header lines of stacked words over
// left-aligned columns, then one line of values. Each column starts where
// its value does; its name is the header words above it, joined.
std::vector<std::pair<std::string, double>> omni_columns(const Output& o) {
  if (o.rows.size() != 1)
    throw ParseError(
        kNetperfName, o.rows[1].number,
        fmt::format("line {}: omni output (-O) has one value line, this is another: {}",
                    o.rows[1].number, excerpt(o.rows[1].text, 120)));
  const std::string_view values = o.rows[0].text;
  std::vector<std::size_t> starts;
  for (const auto t : tokens(values))
    starts.push_back(static_cast<std::size_t>(t.data() - values.data()));
  std::vector<std::pair<std::string, double>> out;
  const auto nums = *numbers(values);
  for (std::size_t c = 0; c < starts.size(); ++c) {
    const std::size_t end = c + 1 < starts.size() ? starts[c + 1] : std::string_view::npos;
    std::string name;
    for (const Line& h : o.header) {
      if (starts[c] >= h.text.size()) continue;
      const auto part =
          trim(h.text.substr(starts[c], end == std::string_view::npos ? end : end - starts[c]));
      if (!part.empty()) name += (name.empty() ? "" : " ") + std::string(part);
    }
    out.push_back({name, nums[c]});
  }
  return out;
}

// The omni column names schedlab reads, as netperf 2.7 heads them.
const std::map<std::string, std::string>& omni_metrics() {
  static const std::map<std::string, std::string> m = {
      {"Mean Latency Microseconds", "latency_mean"},
      {"50th Percentile Latency Microseconds", "latency_p50"},
      {"90th Percentile Latency Microseconds", "latency_p90"},
      {"99th Percentile Latency Microseconds", "latency_p99"},
      {"Transaction Rate Tran/s", "transactions"},
      {"Local CPU Util %", "local_cpu"},
      {"Remote CPU Util %", "remote_cpu"}};
  return m;
}

bool classic_header(const Output& o) {
  if (o.header.empty()) return false;
  const std::string_view first = trim(o.header.front().text);
  return first.starts_with("Local /Remote") || first.starts_with("Recv ") ||
         first.starts_with("Socket ");
}

// What one output holds: the samples, and what it says about itself.
struct NetperfReading {
  std::vector<Sample> samples;
  std::vector<std::string> notes;
};

void check_positive(const Line& line, const char* what, double v) {
  if (!(v > 0))
    throw ParseError(kNetperfName, line.number,
                     fmt::format("line {}: a {} of {} is no measurement: {}", line.number, what, v,
                                 excerpt(line.text, 120)));
}

// WANT: the point's message_size when it is known.
void check_size(const Line& line, double have, std::optional<std::int64_t> want) {
  if (want && *want > 0 && have != static_cast<double>(*want))
    throw ParseError(
        kNetperfName, line.number,
        fmt::format("line {}: ran with {}-byte messages, the point says {} (message_size): {}",
                    line.number, have, *want, excerpt(line.text, 120)));
}

std::string count_error(const Line& line, const std::string& test, const char* expected,
                        std::size_t got) {
  return fmt::format("line {}: a {} result row has {} numbers, this one {}: {}", line.number, test,
                     expected, got, excerpt(line.text, 120));
}

// A flag of the point, when it is known: an imported output's unknown
// cpu_util or latency is checked against nothing.
bool known_flag(const ParamTable<NetperfParams>::Values& p, bool NetperfParams::*flag) {
  return p.known(flag) && p.*flag;
}

// A result figure: finite and in range (measured_value).
double figure(const Line& line, const char* what, double v) {
  return measured_value(kNetperfName, line.number, what, v);
}

// Classic output, or with -P 0 (o.header empty) the same rows without it.
void read_classic(const Output& o, const ParamTable<NetperfParams>::Values& p, NetperfReading& r) {
  const std::optional<std::int64_t> size =
      p.known(&NetperfParams::message_size) ? std::optional(p.message_size) : std::nullopt;
  const auto row = [&](std::size_t i) { return *numbers(o.rows[i].text); };
  const auto cpu = [&](const Line& local_line, double local, const Line& remote_line,
                       double remote) {
    r.samples.push_back({"local_cpu", figure(local_line, "local CPU utilisation", local)});
    r.samples.push_back({"remote_cpu", figure(remote_line, "remote CPU utilisation", remote)});
  };
  bool has_cpu = false;
  if (is_rr(o.test)) {
    // Socket sizes, request and response sizes, elapsed, rate [, CPU % local
    // remote, service demand local remote]; then the remote socket sizes.
    const auto r0 = row(0);
    if (r0.size() != 6 && r0.size() != 10)
      throw ParseError(kNetperfName, o.rows[0].number,
                       count_error(o.rows[0], o.test, "6 (10 with -c -C)", r0.size()));
    if (o.rows.size() > 2 || (o.rows.size() == 2 && row(1).size() != 2))
      throw ParseError(
          kNetperfName, o.rows.back().number,
          fmt::format("line {}: after a {} result row only the remote socket sizes follow: {}",
                      o.rows.back().number, o.test, excerpt(o.rows.back().text, 120)));
    check_size(o.rows[0], r0[2], size);
    check_size(o.rows[0], r0[3], size);
    check_positive(o.rows[0], "transaction rate", r0[5]);
    r.samples.push_back({"transactions", figure(o.rows[0], "transaction rate", r0[5])});
    has_cpu = r0.size() == 10;
    if (has_cpu) cpu(o.rows[0], r0[6], o.rows[0], r0[7]);
  } else {
    const bool units = std::any_of(o.header.begin(), o.header.end(), [](const Line& h) {
      return h.text.find("10^6bits/s") != std::string_view::npos;
    });
    if (o.header.empty())
      r.notes.push_back(
          "netperf: no header (-P 0): the throughput is taken in netperf's default unit, "
          "10^6bits/s (-f m), which the output does not show");
    else if (!units)
      throw ParseError(kNetperfName, o.header.empty() ? o.banner.number : o.header.back().number,
                       "the throughput is not in 10^6bits/s (netperf -f changed the units)");
    if (o.test == "UDP_STREAM") {
      // Sent: socket, message size, elapsed, messages okay, errors,
      // throughput [, local CPU %, service demand]. Received: socket,
      // elapsed, messages, throughput [, remote CPU %, service demand].
      if (o.rows.size() != 2)
        throw ParseError(
            kNetperfName, o.rows.back().number,
            fmt::format(
                "line {}: UDP_STREAM prints two result rows (sent, received), this output {}",
                o.rows.back().number, o.rows.size()));
      const auto sent = row(0), received = row(1);
      if (sent.size() != 6 && sent.size() != 8)
        throw ParseError(kNetperfName, o.rows[0].number,
                         count_error(o.rows[0], o.test, "6 (8 with -c -C)", sent.size()));
      if (received.size() != sent.size() - 2)
        throw ParseError(kNetperfName, o.rows[1].number,
                         count_error(o.rows[1], o.test + " receive", sent.size() == 6 ? "4" : "6",
                                     received.size()));
      check_size(o.rows[0], sent[1], size);
      check_positive(o.rows[0], "sent throughput", sent[5]);
      check_positive(o.rows[1], "received throughput", received[3]);
      r.samples.push_back({"throughput", figure(o.rows[1], "received throughput", received[3])});
      r.samples.push_back({"send_throughput", figure(o.rows[0], "sent throughput", sent[5])});
      has_cpu = sent.size() == 8;
      if (has_cpu) cpu(o.rows[0], sent[6], o.rows[1], received[4]);
    } else {
      // Receive and send socket, message size, elapsed, throughput [, CPU
      // % local remote, service demand local remote].
      if (o.rows.size() != 1)
        throw ParseError(kNetperfName, o.rows[1].number,
                         fmt::format("line {}: {} prints one result row: {}", o.rows[1].number,
                                     o.test, excerpt(o.rows[1].text, 120)));
      const auto r0 = row(0);
      if (r0.size() != 5 && r0.size() != 9)
        throw ParseError(kNetperfName, o.rows[0].number,
                         count_error(o.rows[0], o.test, "5 (9 with -c -C)", r0.size()));
      check_size(o.rows[0], r0[2], size);
      check_positive(o.rows[0], "throughput", r0[4]);
      r.samples.push_back({"throughput", figure(o.rows[0], "throughput", r0[4])});
      has_cpu = r0.size() == 9;
      if (has_cpu) cpu(o.rows[0], r0[5], o.rows[0], r0[6]);
    }
  }
  if (known_flag(p, &NetperfParams::cpu_util) && !has_cpu)
    throw ParseError(
        kNetperfName, o.rows[0].number,
        fmt::format("line {}: cpu_util is set but the result has no CPU columns (-c -C)",
                    o.rows[0].number));
  if (is_rr(o.test) && known_flag(p, &NetperfParams::latency))
    throw ParseError(
        kNetperfName, o.rows[0].number,
        fmt::format(
            "line {}: latency is set but the output has no latency columns (omni -O selectors)",
            o.rows[0].number));
}

// netperf's latency percentiles come from one histogram: the minimum, the
// 50th, 90th and 99th percentiles and the maximum never decrease in that
// order, and their mean lies between the minimum and maximum. Otherwise the
// output is not netperf's (hostile14).
void check_latency_order(const Line& row, const std::vector<Sample>& samples,
                         const std::map<std::string, double>& others) {
  std::vector<std::pair<std::string, double>> seen;
  const auto add = [&](const std::string& label, std::optional<double> v) {
    if (v) seen.emplace_back(label, *v);
  };
  const auto sample = [&](const char* metric) -> std::optional<double> {
    for (const Sample& x : samples)
      if (x.metric == metric) return x.value;
    return std::nullopt;
  };
  const auto other = [&](const char* column) -> std::optional<double> {
    const auto it = others.find(column);
    return it == others.end() ? std::nullopt : std::optional<double>(it->second);
  };
  add("Minimum Latency", other("Minimum Latency Microseconds"));
  add("50th Percentile", sample("latency_p50"));
  add("90th Percentile", sample("latency_p90"));
  add("99th Percentile", sample("latency_p99"));
  add("Maximum Latency", other("Maximum Latency Microseconds"));
  check_nondecreasing(
      kNetperfName, row.number, fmt::format("line {}", row.number), seen,
      "netperf's latencies come from one histogram and never decrease in that order");
  // The mean of those latencies lies between their minimum and maximum
  // (hostile16: a mean of 99999999 above a maximum of 174252 was read).
  const auto mean = sample("latency_mean");
  const auto low = other("Minimum Latency Microseconds"),
             high = other("Maximum Latency Microseconds");
  if (mean && ((low && *mean < *low) || (high && *mean > *high)))
    throw ParseError(kNetperfName, row.number,
                     fmt::format("line {}: Mean Latency {:g} is outside Minimum Latency {} to "
                                 "Maximum Latency {}: a mean lies between them",
                                 row.number, *mean, low ? fmt::format("{:g}", *low) : "?",
                                 high ? fmt::format("{:g}", *high) : "?"));
}

// netperf prints no "!!!" block in omni output: the confidence columns say
// whether the interval was reached (each width at most the target).
void read_omni(const Output& o, const ParamTable<NetperfParams>::Values& p, NetperfReading& r) {
  if (!is_rr(o.test))
    throw ParseError(
        kNetperfName, o.rows[0].number,
        fmt::format(
            "line {}: {} in omni output (-O): schedlab reads streams in the classic output, "
            "where UDP_STREAM shows what arrived",
            o.rows[0].number, o.test));
  std::map<std::string, double> confid;
  for (const auto& [name, value] : omni_columns(o)) {
    if (const auto m = omni_metrics().find(name); m != omni_metrics().end()) {
      if (m->second == "transactions") check_positive(o.rows[0], "transaction rate", value);
      r.samples.push_back({m->second, figure(o.rows[0], name.c_str(), value)});
    } else {
      confid[name] = value;
    }
  }
  const auto has = [&](const char* metric) {
    return std::any_of(r.samples.begin(), r.samples.end(),
                       [&](const Sample& s) { return s.metric == metric; });
  };
  if (!has("transactions"))
    throw ParseError(
        kNetperfName, o.rows[0].number,
        fmt::format("line {}: no 'Transaction Rate' column (selector TRANSACTION_RATE)",
                    o.rows[0].number));
  check_latency_order(o.rows[0], r.samples, confid);
  if (known_flag(p, &NetperfParams::latency))
    for (const char* m : {"latency_mean", "latency_p50", "latency_p90", "latency_p99"})
      if (!has(m))
        throw ParseError(kNetperfName, o.rows[0].number,
                         fmt::format("line {}: latency is set but the output has no {} column",
                                     o.rows[0].number, m));
  if (known_flag(p, &NetperfParams::cpu_util) && !(has("local_cpu") && has("remote_cpu")))
    throw ParseError(kNetperfName, o.rows[0].number,
                     fmt::format("line {}: cpu_util is set but the output has no CPU Util columns",
                                 o.rows[0].number));
  const auto level = confid.find("Confidence Level Percent");
  const auto target = confid.find("Confidence Width Target");
  if (level == confid.end() || target == confid.end() || !(level->second > 0) ||
      !(target->second > 0))
    return;
  std::vector<std::string> wide;
  for (const auto& [column, label] : {std::pair{"Throughput Confidence Width (%)", "Throughput"},
                                      {"Local CPU Confidence Width (%)", "Local CPU"},
                                      {"Remote CPU Confidence Width (%)", "Remote CPU"}}) {
    const auto w = confid.find(column);
    if (w != confid.end() && w->second > target->second)
      wide.push_back(fmt::format("{} {:g}%", label, w->second));
  }
  if (wide.empty()) return;
  const auto it = confid.find("Confidence Iterations Run");
  r.notes.push_back(
      fmt::format("netperf: desired confidence not achieved{}: wanted a {:g}% wide interval at "
                  "{:g}%, reached {}",
                  it == confid.end() ? "" : fmt::format(" in {:g} iterations", it->second),
                  target->second, level->second, fmt::join(wide, ", ")));
}

// "!!! Desired confidence was not achieved ..." and the widths reached
// ("!!! Confidence intervals: Throughput      : 333.562%").
void read_warning(const Output& o, NetperfReading& r) {
  static const boost::regex figure(
      R"(^!!!\s+(?:Confidence intervals:\s*)?(\S.*?)\s*:\s*(-?[0-9.]+%)\s*$)");
  const bool missed = std::any_of(o.warning.begin(), o.warning.end(), [](const Line& l) {
    return l.text.find("Desired confidence was not achieved") != std::string_view::npos;
  });
  if (!missed) return;
  std::vector<std::string> figures;
  for (const Line& l : o.warning) {
    boost::smatch m;
    const std::string s(l.text);
    if (boost::regex_match(s, m, figure)) figures.push_back(m[1].str() + " " + m[2].str());
  }
  r.notes.push_back(fmt::format(
      "netperf: desired confidence not achieved{}{}",
      o.wanted.empty() ? "" : " (" + o.wanted + " wanted)",
      figures.empty() ? "" : fmt::format("; confidence intervals: {}", fmt::join(figures, ", "))));
}

NetperfReading read(const ParamTable<NetperfParams>::Values& p, const std::string& out,
                    const std::string& err) {
  // Output's lines are views into the text: it must outlive them.
  const std::string text = join_output(out, err);
  Output o = cut(text);
  if (o.test.empty()) {
    // -P 0: only the test says what the row's columns are.
    if (!p.known(&NetperfParams::test))
      throw ParseError(
          kNetperfName, o.rows[0].number,
          fmt::format("line {}: a result row without banner or header (netperf -P 0): give the "
                      "test it ran (--param test=TCP_STREAM, ...), which fixes its columns",
                      o.rows[0].number));
    o.test = p.test;
  } else if (p.known(&NetperfParams::test) && o.test != p.test) {
    throw ParseError(kNetperfName, o.banner.number,
                     fmt::format("line {}: the output is a {} test, the point's test is {}",
                                 o.banner.number, o.test, p.test));
  }
  NetperfReading r;
  if (classic_header(o) || o.header.empty())
    read_classic(o, p, r);
  else
    read_omni(o, p, r);
  read_warning(o, r);
  if (o.late_timer.number)
    r.notes.push_back(fmt::format(
        "netperf: the test had ended before its timer fired (line {}: {}); the rate is over the "
        "time it ran",
        o.late_timer.number, kLateTimer));
  return r;
}

// What an output states about the point it was made at: the test (its
// banner), netperf's own confidence (the banner's "+/-2.500% @ 95% conf.",
// absent without -I), the message size (classic rows; not for a given 0,
// netperf's default, whose size the row shows), and which column sets it
// has (cpu_util: -c -C; latency: the omni latency columns, which classic
// RR output lacks). Not the duration: the elapsed time is a measurement
// (3.32 s for -l 3), not the -l it ran with.
std::vector<std::string> stated(const Output& o, const ParamTable<NetperfParams>::Values& given) {
  std::vector<std::string> out;
  const std::string test =
      o.test.empty() && given.known(&NetperfParams::test) ? given.test : o.test;
  if (test.empty()) return out;
  if (o.banner.number) {
    out.push_back("test=" + test);
    static const boost::regex wanted(R"(^\+/-([0-9]{1,3}(?:\.[0-9]{1,6})?)% @ (\d{1,3})% conf\.$)");
    boost::smatch m;
    if (o.wanted.empty()) {
      out.push_back("confidence=0");
    } else if (boost::regex_match(o.wanted, m, wanted)) {
      out.push_back("confidence=" + m[2].str());
      out.push_back(fmt::format("confidence_width={:g}", 2 * *to_number(m[1].str())));
    }
  }
  const auto row = [&](std::size_t i) { return *numbers(o.rows[i].text); };
  const bool size_given_default =
      given.known(&NetperfParams::message_size) && given.message_size == 0;
  const auto size = [&](double v) {
    if (!size_given_default && v >= 0 && v <= INT32_MAX && v == std::floor(v))
      out.push_back(fmt::format("message_size={}", static_cast<std::int64_t>(v)));
  };
  if (classic_header(o) || o.header.empty()) {
    const auto r0 = row(0);
    if (is_rr(test)) {
      if (r0.size() != 6 && r0.size() != 10) return out;
      if (r0[2] == r0[3]) size(r0[2]);  // -r N,N: one size both ways
      out.push_back(r0.size() == 10 ? "cpu_util=true" : "cpu_util=false");
      out.push_back("latency=false");
    } else if (test == "UDP_STREAM") {
      if (r0.size() != 6 && r0.size() != 8) return out;
      size(r0[1]);
      out.push_back(r0.size() == 8 ? "cpu_util=true" : "cpu_util=false");
    } else {
      if (r0.size() != 5 && r0.size() != 9) return out;
      size(r0[2]);
      out.push_back(r0.size() == 9 ? "cpu_util=true" : "cpu_util=false");
    }
    return out;
  }
  if (!is_rr(test) || o.rows.size() != 1) return out;
  std::set<std::string> columns;
  for (const auto& [name, value] : omni_columns(o))
    if (const auto m = omni_metrics().find(name); m != omni_metrics().end())
      columns.insert(m->second);
  const bool latency = columns.contains("latency_mean") && columns.contains("latency_p50") &&
                       columns.contains("latency_p90") && columns.contains("latency_p99");
  out.push_back(latency ? "latency=true" : "latency=false");
  const bool cpu = columns.contains("local_cpu") && columns.contains("remote_cpu");
  out.push_back(cpu ? "cpu_util=true" : "cpu_util=false");
  return out;
}

std::string selectors(const ParamTable<NetperfParams>::Values& p) {
  std::string s = Netperf::kLatencySelectors;
  if (p.cpu_util) s += ",LOCAL_CPU_UTIL,REMOTE_CPU_UTIL";
  if (p.confidence > 0)
    s += ",CONFIDENCE_LEVEL,CONFIDENCE_INTERVAL,CONFIDENCE_ITERATION,THROUGHPUT_CONFID,LOCAL_CPU_"
         "CONFID,"
         "REMOTE_CPU_CONFID";
  return s;
}

// A transaction latency of an RR test run with latency (omni -O), in us.
MetricSpec rr_latency_metric(const std::string& name, const std::string& what) {
  return cost_metric(name, "us", 2, "RR tests with latency: " + what);
}

}  // namespace

Netperf::Netperf() {
  using P = NetperfParams;
  params_ = ParamTable<P>({
      {&P::test,
       {.name = "test",
        .axis = Axis::kBlock,
        .default_value = std::string("TCP_STREAM"),
        .help = "netperf test (-t): streams measure throughput, RR tests transactions (TCP_CRR "
                "opens a connection "
                "per transaction); one table each",
        .choices = {"TCP_STREAM", "TCP_MAERTS", "UDP_STREAM", "TCP_RR", "UDP_RR", "TCP_CRR"}}},
      {&P::message_size,
       {.name = "message_size",
        .axis = Axis::kRow,
        .default_value = std::int64_t{0},
        .help = "bytes per send for streams (-- -m N,N: netperf's send size, the SUT's for "
                "TCP_MAERTS), request "
                "and response size for RR tests (-- -r N,N); 0 = netperf's default (the socket's "
                "send size for "
                "streams, 1 byte for RR), row 'default'; one row per value",
        .unit = "bytes",
        .min = 0}},
      {&P::duration,
       {.name = "duration",
        .default_value = milliseconds(seconds(10)),
        .help = "length of one netperf test (-l, whole seconds); with confidence, of each of its "
                "repetitions",
        .unit = "duration",
        .min = 1000}},
      {&P::confidence,
       {.name = "confidence",
        .default_value = std::int64_t{0},
        .help = "netperf's own confidence level in % (-I LEVEL,WIDTH with -i MAX,MIN): 95 or 99; "
                "netperf repeats "
                "the test until the interval is narrow enough, and a miss is a note under the "
                "table. 0 = one "
                "test, no interval",
        .unit = "%",
        .min = 0}},
      {&P::confidence_width,
       {.name = "confidence_width",
        .default_value = 5.0,
        .help = "-I's WIDTH: the whole interval's width in % of the mean (5 = +/-2.5%)",
        .unit = "%"}},
      {&P::confidence_max,
       {.name = "confidence_max",
        .default_value = std::int64_t{10},
        .help = "-i MAX: at most this many repetitions (netperf takes 3 to 30)",
        .unit = "tests",
        .min = 3,
        .max = 30}},
      {&P::confidence_min,
       {.name = "confidence_min",
        .default_value = std::int64_t{3},
        .help = "-i MIN: at least this many repetitions (netperf takes 3 to 30)",
        .unit = "tests",
        .min = 3,
        .max = 30}},
      {&P::cpu_util,
       {.name = "cpu_util",
        .default_value = false,
        .help = "measure CPU utilisation on both sides (-c -C): local_cpu and remote_cpu"}},
      {&P::latency,
       {.name = "latency",
        .default_value = false,
        .help =
            std::string(
                "RR tests: the latency percentiles of the transactions (omni selectors -- -O ") +
            kLatencySelectors + "); streams have no transactions to time and ignore it"}},
      {&P::timeout,
       {.name = "timeout",
        .default_value = milliseconds(0),
        .help = "kill a netperf still running after this; 0 = duration x repetitions "
                "(confidence_max, or 1) + 60s",
        .unit = "duration"}},
  });
  metrics_ = {
      rate_metric("throughput", "10^6bits/s", 2,
                  "streams: the result row's throughput; UDP_STREAM: the second row, what the "
                  "receiver got"),
      rate_metric(
          "send_throughput", "10^6bits/s", 2,
          "UDP_STREAM: the first row, what the sender sent (datagrams may be dropped on the way)"),
      rate_metric("transactions", "tx/s", 2,
                  "RR tests: transactions (request and response; TCP_CRR: with a connection each) "
                  "per second"),
      rr_latency_metric("latency_mean", "the mean transaction latency (MEAN_LATENCY)"),
      rr_latency_metric("latency_p50", "the median transaction latency (P50_LATENCY)"),
      rr_latency_metric("latency_p90", "the 90th percentile (P90_LATENCY)"),
      rr_latency_metric("latency_p99", "the 99th percentile (P99_LATENCY)"),
      cost_metric(
          "local_cpu", "%", 2,
          "with cpu_util: the loadgen's CPU utilisation during the test, as netperf measures it"),
      cost_metric(
          "remote_cpu", "%", 2,
          "with cpu_util: the SUT's CPU utilisation during the test, as netserver measures it"),
  };
}

std::string Netperf::description() const {
  return "netperf: netserver on the SUT, netperf on the loadgen; streams in 10^6bits/s, RR tests "
         "in "
         "transactions/s (higher is better)";
}

std::string Netperf::row_label(const Point& point) const {
  const auto p = params_.read(point);
  if (!p.known(&NetperfParams::message_size)) return "?";
  const std::int64_t size = p.message_size;
  return size > 0 ? std::to_string(size) : "default";
}

std::vector<Step> Netperf::point_setup_steps(const Point&, const StepContext& ctx) const {
  // -D: stays in the foreground, so the runner owns (and journals) its
  // process group, per-test children included; -4: a guest kernel built
  // without IPv6 still listens.
  Step server{.role = Role::kSut,
              .argv = {"netserver", "-D", "-4", "-p", std::to_string(ctx.port)},
              .measured = false,
              .background = true};
  server.ready = ReadyCheck{.tcp_port = ctx.port,
                            .what = fmt::format("netserver accepting on port {}", ctx.port)};
  return {server};
}

std::vector<Step> Netperf::iteration_steps(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  const std::string& test = p.test;
  const std::int64_t secs = whole_seconds(p.duration);
  std::vector<std::string> argv = {"netperf",
                                   "-H",
                                   ctx.sut_address.empty() ? "127.0.0.1" : ctx.sut_address,
                                   "-p",
                                   std::to_string(ctx.port),
                                   "-t",
                                   test,
                                   "-l",
                                   std::to_string(secs)};
  if (p.cpu_util) argv.insert(argv.end(), {"-c", "-C"});
  const std::int64_t level = p.confidence;
  if (level > 0)
    argv.insert(argv.end(), {"-i", fmt::format("{},{}", p.confidence_max, p.confidence_min), "-I",
                             fmt::format("{},{:g}", level, p.confidence_width)});
  std::vector<std::string> specific;
  // The data connection on a port of ours: a lab guest is reached only
  // through the ports it forwards (netserver would pick a random one).
  if (ctx.ports.size() > 1)
    specific.insert(specific.end(), {"-P", fmt::format(",{}", ctx.ports[1])});
  if (const std::int64_t size = p.message_size; size > 0)
    specific.insert(specific.end(), {is_rr(test) ? "-r" : "-m", fmt::format("{0},{0}", size)});
  if (is_rr(test) && p.latency) specific.insert(specific.end(), {"-O", selectors(p)});
  if (!specific.empty()) {
    argv.push_back("--");
    argv.insert(argv.end(), specific.begin(), specific.end());
  }
  milliseconds timeout = p.timeout;
  if (timeout.count() == 0) timeout = seconds(secs * (level > 0 ? p.confidence_max : 1) + 60);
  return {Step{.role = Role::kLoadgen, .argv = argv, .timeout = timeout}};
}

std::vector<Sample> Netperf::parse(const Point& p, const std::string& out,
                                   const std::string& err) const {
  return read(params_.read(p), out, err).samples;
}

std::vector<std::string> Netperf::stated_params(const Point& given, const std::string& out,
                                                const std::string& err) const {
  const std::string text = join_output(out, err);
  try {
    return stated(cut(text), params_.read(given));
  } catch (const ParseError&) {
    return {};  // its parse says why
  }
}

std::vector<std::string> Netperf::notes(const Point& p, const std::string& out,
                                        const std::string& err) const {
  return read(params_.read(p), out, err).notes;
}

const MetricSpec& Netperf::primary_metric(const Point& point) const {
  const auto p = params_.read(point);
  return *find_metric(is_rr(p.test) ? "transactions" : "throughput");
}

std::string Netperf::check_fixed(const Point& point) const {
  const auto p = params_.read(point);
  const std::int64_t level = p.confidence;
  if (level != 0 && level != 95 && level != 99)
    return fmt::format("confidence {}: netperf takes a level of 95 or 99 (or 0: no interval)",
                       level);
  if (p.confidence_min > p.confidence_max)
    return fmt::format(
        "confidence_min {} is above confidence_max {} (netperf would raise the maximum)",
        p.confidence_min, p.confidence_max);
  const double width = p.confidence_width;
  if (!(width > 0 && width <= 100))
    return fmt::format(
        "confidence_width {:g}: the interval's width in % of the mean, above 0 and at most 100",
        width);
  return "";
}

}  // namespace schedlab
