#include "workloads/dmatest.h"

#include <fmt/format.h>

#include <boost/regex.hpp>
#include <set>
#include <variant>

#include "base/text.h"

namespace schedlab {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

// A module parameter is written like `echo VALUE > FILE`, without a shell.
Step write_param(const DmatestParams& p, const std::string& file, const std::string& value) {
  Step s = sut_step({"tee", p.sysfs + "/" + file});
  s.stdin_data = value + "\n";
  return s;
}

std::vector<std::string> log_argv(const std::string& source) {
  if (source == "dmesg") return {"dmesg"};
  if (source == "journal") return {"journalctl", "-k", "-b", "--no-pager", "-o", "short-monotonic"};
  return {"cat", "--", source};  // a file: /var/log/kern.log, or a test double
}

// Module parameter name -> schedlab parameter, written in this order before
// the channel (dmatest captures them when a channel is added).
struct ParamFile {
  const char* file;
  std::variant<std::int64_t DmatestParams::*, bool DmatestParams::*> field;
};
const ParamFile kParamFiles[] = {
    {"iterations", &DmatestParams::tests},
    {"timeout", &DmatestParams::transfer_timeout},
    {"test_buf_size", &DmatestParams::test_buf_size},
    {"transfer_size", &DmatestParams::transfer_size},
    {"norandom", &DmatestParams::norandom},
    {"noverify", &DmatestParams::noverify},
    {"polled", &DmatestParams::polled},
    {"threads_per_chan", &DmatestParams::threads_per_chan},
};

// What the module's file takes: Y or N for a flag, else the number.
std::string module_value(const DmatestParams& p, const ParamFile& f) {
  if (const auto* flag = std::get_if<bool DmatestParams::*>(&f.field)) return p.**flag ? "Y" : "N";
  return std::to_string(p.*std::get<std::int64_t DmatestParams::*>(f.field));
}

}  // namespace

GuestNeeds Dmatest::guest_needs() const {
  return {.kernel_modules = {{.name = "dmatest",
                              .source = "drivers/dma/dmatest.c",
                              .config = "CONFIG_DMATEST",
                              .hardware = "dma-engines"}}};
}

Dmatest::Dmatest() {
  const auto int_param = [](const char* name, std::int64_t def, std::int64_t min, const char* unit,
                            const char* help, Axis axis = Axis::kFixed) {
    return ParamSpec{.name = name, .type = ParamType::kInt, .axis = axis,
                     .default_value = def, .help = help, .unit = unit, .min = min};
  };
  const auto bool_param = [](const char* name, const char* help) {
    return ParamSpec{.name = name, .type = ParamType::kBool, .default_value = false, .help = help};
  };
  using P = DmatestParams;
  params_ = ParamTable<P>({
      {&P::threads_per_chan,
       int_param("threads_per_chan", 1, 1, "threads",
                 "kernel threads per DMA channel (threads_per_chan); one row per value",
                 Axis::kRow)},
      // Not "iterations": a workload's iterations key is the run's count
      // of measured iterations, and one key set both (a config asking 100
      // transfers ran 100 iterations).
      {&P::tests,
       int_param("tests", 1000, 1, "tests",
                 "transfers per thread (the module's iterations); never 0, which runs forever")},
      {&P::transfer_timeout,
       int_param("transfer_timeout", 3000, 1, "ms", "per-transfer timeout (the module's timeout)")},
      {&P::test_buf_size,
       int_param("test_buf_size", 16384, 1, "bytes", "buffer size (test_buf_size)")},
      {&P::transfer_size,
       int_param("transfer_size", 0, 0, "bytes",
                 "fixed transfer size (transfer_size); 0 = random up to the buffer size")},
      {&P::norandom, bool_param("norandom", "fixed offsets instead of random ones (norandom)")},
      {&P::noverify, bool_param("noverify", "skip filling and checking the buffers (noverify)")},
      {&P::polled,
       bool_param("polled", "poll for completion instead of waiting for the interrupt (polled)")},
      {&P::channel,
       {.name = "channel",
        .default_value = std::string(),
        .help = "DMA channel to test, e.g. dma0chan0; empty = any channel"}},
      {&P::sysfs,
       {.name = "sysfs",
        .default_value = std::string("/sys/module/dmatest/parameters"),
        .help = "directory of the module's parameter files"}},
      {&P::log,
       {.name = "log",
        .default_value = std::string("dmesg"),
        .help = "where the kernel log is read: dmesg, journal (journalctl -k), or a file path"}},
      {&P::kmsg,
       {.name = "kmsg",
        .default_value = std::string("/dev/kmsg"),
        .help = "where the start marker is written, so only this iteration's lines count"}},
      {&P::load_module,
       {.name = "load_module",
        .default_value = true,
        .help = "modprobe dmatest before the run and remove it after"}},
      {&P::timeout,
       {.name = "timeout",
        .default_value = milliseconds(minutes(10)),
        .help = "limit for one iteration's wait for the threads to finish",
        .unit = "duration"}},
  });
  metrics_ = {
      rate_metric("iops", "iops", 2, "transfers per second, one sample per thread's summary line"),
      rate_metric("throughput", "KB/s", 0, "KiB per second, one sample per thread's summary line"),
      cost_metric("failures", "tests", 0,
                  "failed transfers per thread; any failure fails the iteration"),
      cost_metric("cpus_hit", "cpus", 1,
                  "CPUs a thread's completions ran on, from 'CPUs hit' lines when the kernel "
                  "prints them (patched kernels)"),
  };
}

std::string Dmatest::description() const {
  return "kernel dmatest: DMA engine memcpy threads (iops and KB/s, higher is better)";
}

std::vector<Step> Dmatest::setup_steps(const Point& point, const StepContext&) const {
  const auto p = params_.read(point);
  if (!p.load_module) return {};
  return {sut_step({"modprobe", "dmatest"})};
}

std::vector<Step> Dmatest::iteration_steps(const Point& point, const StepContext&) const {
  const auto p = params_.read(point);
  std::vector<Step> steps;
  for (const auto& f : kParamFiles) steps.push_back(write_param(p, f.file, module_value(p, f)));
  if (const auto& channel = p.channel; !channel.empty())
    steps.push_back(write_param(p, "channel", channel));
  Step marker = sut_step({"tee", "-a", p.kmsg});
  marker.stdin_data = std::string(kMarker) + "\n";
  steps.push_back(marker);
  steps.push_back(write_param(p, "run", "1"));
  // Reading `wait` blocks until every thread has done its iterations.
  steps.push_back(sut_step({"cat", p.sysfs + "/wait"}, p.timeout));
  Step log = sut_step(log_argv(p.log));
  log.measured = true;
  steps.push_back(log);
  return steps;
}

std::vector<Step> Dmatest::teardown_steps(const Point& point, const StepContext&) const {
  const auto p = params_.read(point);
  // Stop threads a timed-out iteration left running, then unload.
  Step stop = write_param(p, "run", "0");
  stop.ignore_failure = true;
  std::vector<Step> steps = {stop};
  if (p.load_module) {
    Step unload = sut_step({"modprobe", "-r", "dmatest"});
    unload.ignore_failure = true;
    steps.push_back(unload);
  }
  return steps;
}

std::vector<Sample> Dmatest::parse(const Point& point, const std::string& out,
                                   const std::string&) const {
  const auto p = params_.read(point);
  // "[ 1623.254880] dmatest: dma0chan0-copy0: summary 1000 tests, 0 failures 23544.92 iops
  // 1506875 KB/s (0)"; v4 kernels print integer iops; quoted logs may lack the tail.
  static const boost::regex summary(
      R"((?:^|\s)dmatest: (\S+): summary (\d+) tests?, (\d+) failures?(?: ([0-9.]+) iops (\d+) KB/s \((-?\d+)\))?\s*$)");
  static const boost::regex cpus_hit(R"((?:^|\s)dmatest: (\S+): CPUs hit:?\s*(.*)$)");
  static const boost::regex cpu_item(R"((\d+)(?:-(\d+))?)");
  const auto lines = split_lines(out);
  size_t first = 0;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find(kMarker) != std::string::npos) first = i + 1;
  std::vector<Sample> samples;
  int summaries = 0;
  for (size_t i = first; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    const int lineno = static_cast<int>(i) + 1;
    boost::smatch m;
    if (boost::regex_search(line, m, summary)) {
      ++summaries;
      // A thread that stopped before its iterations (the kernel ends it at
      // once when transfer_size >= test_buf_size, or on an error) measured
      // something else; its return code says why.
      const auto tests = to_number(m[2].str());
      // An imported log's asked count is unknown: threads of a timed run
      // (iterations 0) end at different counts, so none is checked.
      if (!tests || (p.known(&DmatestParams::tests) && *tests < static_cast<double>(p.tests)))
        throw ParseError(name(), lineno,
                         fmt::format("line {}: thread {} ran {} tests, {} were asked (does "
                                     "transfer_size reach test_buf_size?): {}",
                                     lineno, excerpt(m[1].str()), excerpt(m[2].str()), p.tests,
                                     excerpt(line, 200)));
      if (m[6].matched && m[6].str() != "0")
        throw ParseError(name(), lineno,
                         fmt::format("line {}: thread {} ended with error {}: {}", lineno,
                                     excerpt(m[1].str()), excerpt(m[6].str()), excerpt(line, 200)));
      samples.push_back({"failures", measured_value(name(), lineno, "failures",
                                                    captured_number(name(), lineno, m[3].str()))});
      if (m[4].matched) {
        const auto iops = to_number(m[4].str());
        if (!iops)
          throw ParseError(name(), lineno,
                           fmt::format("line {}: iops is not a number: {}", lineno, line));
        // A figure statistics cannot hold is this output's parse error
        // (the file's, at import), not a store's refusal of the whole run.
        const double kbs =
            measured_value(name(), lineno, "KB/s", captured_number(name(), lineno, m[5].str()));
        measured_value(name(), lineno, "iops", *iops);
        // dmatest's rates are its tests over the runtime: none run, none
        // done (hostile16: "0 tests" with a rate was read).
        if (*tests == 0 && (*iops > 0 || kbs > 0))
          throw ParseError(name(), lineno,
                           fmt::format("line {}: thread {} ran 0 tests but states {} iops and {} "
                                       "KB/s (dmatest's rates count the tests run): {}",
                                       lineno, excerpt(m[1].str()), excerpt(m[4].str()),
                                       excerpt(m[5].str()), excerpt(line, 200)));
        samples.push_back({"iops", *iops});
        samples.push_back({"throughput", kbs});
      }
    } else if (boost::regex_search(line, m, cpus_hit)) {
      std::set<long> cpus;
      const std::string list = m[2].str();
      for (boost::sregex_iterator it(list.begin(), list.end(), cpu_item), end; it != end; ++it) {
        const long lo = std::stol((*it)[1]);
        const long hi = (*it)[2].matched ? std::stol((*it)[2]) : lo;
        for (long c = lo; c <= hi && c - lo < 65536; ++c) cpus.insert(c);
      }
      if (cpus.empty())
        throw ParseError(name(), lineno,
                         fmt::format("line {}: 'CPUs hit' without CPU numbers: {}", lineno, line));
      samples.push_back({"cpus_hit", static_cast<double>(cpus.size())});
    } else if (line.find("dmatest: ") != std::string::npos &&
               line.find(": summary ") != std::string::npos) {
      throw ParseError(name(), lineno,
                       fmt::format("line {}: unrecognised summary line: {}", lineno, line));
    }
  }
  if (summaries == 0)
    throw ParseError(name(), 0,
                     "no 'dmatest: <thread>: summary N tests, F failures' line in the kernel log "
                     "since the start");
  return samples;
}

std::string Dmatest::judge(const Point&, const std::vector<Sample>& samples) const {
  double failures = 0;
  for (const auto& s : samples)
    if (s.metric == "failures") failures += s.value;
  if (failures > 0) return fmt::format("dmatest reported {:g} failed transfers", failures);
  return "";
}

}  // namespace schedlab
