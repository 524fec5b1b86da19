// Hostile output: a 1 MiB line, alone or inside a real run's output, in
// every parser. libstdc++'s std::regex recursed per character and overflowed
// the stack near 30,000 characters; each case must end in samples
// or a ParseError, never a crash or another exception. [heavy]: 3.4 GB of
// text through the parsers, 27 s at -O2 and 200 s of CPU in the sanitized
// build at -O0; the fuzz targets take the parsers through ASan.
#include <catch2/catch.hpp>
#include <filesystem>

#include "workloads/command.h"
#include "workloads/registry.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

constexpr std::size_t kMiB = 1 << 20;

// The line starts each tool's own patterns look for, then 1 MiB of a
// character that keeps the pattern going (digits, spaces) or breaks it.
std::vector<std::string> hostile_lines() {
  const std::vector<std::string> prefixes = {
      "", "Time: 0.", "Time: ", "Running in process mode with ", "# ", "     Total time: ",
      "Throughput ", "Throughput 1", "  1  ", "failed to connect to ", "tps = ", "latency average = ",
      "progress: ", "number of clients: ", "[ 1.0] dmatest: ", "dmatest: dma0chan0-copy0: summary ",
      "dmatest: x: CPUs hit: ", "Vuser 1:TEST RESULT : System achieved ", "TEST RESULT : System achieved 1 ",
      "Vuser 1:", "Error in Virtual User 1: "};
  std::vector<std::string> lines;
  for (const auto& p : prefixes)
    for (const char fill : {'0', '9', ' ', 'a', '-'}) lines.push_back(p + std::string(kMiB, fill));
  std::string digits_then_words = std::string(kMiB, '1') + " Active Virtual Users configured";
  lines.push_back(digits_then_words);
  lines.push_back("[ 1.0] dmatest: a: summary " + std::string(kMiB, '1') + " tests, 0 failures");
  return lines;
}

CommandSpec command_spec() {
  CommandSpec spec;
  spec.name = "cmd";
  spec.argv = {"true"};
  spec.metrics = {{.name = "v", .regex = R"(^\s*value:\s+(?<value>[0-9.]+)\s*$)", .unit = "x"},
                  {.name = "w", .regex = R"((?<value>[0-9]+) things)", .unit = "x"}};
  spec.error_regex = R"(^(FATAL: |error))";
  return spec;
}

// Runs one parse; counts what it gave. Anything but samples or ParseError
// fails the test (and a crash ends it).
void parse_one(const Workload& w, const std::string& out, const std::string& err, int& results,
               int& errors) {
  try {
    parse_output(w, default_point(w), out, err);
    ++results;
  } catch (const ParseError&) {
    ++errors;
  }
}

}  // namespace

TEST_CASE("every workload parser survives a 1 MiB line, alone or inside real output", "[heavy]") {
  const auto command = make_command_workload(command_spec());
  std::vector<const Workload*> workloads = all_workloads();
  workloads.push_back(command.get());
  const auto lines = hostile_lines();
  for (const Workload* w : workloads) {
    INFO(w->name());
    // A real output of the tool when the fixtures have one: the long line
    // lands in the middle of text the parser otherwise accepts.
    std::string real;
    // schedlab's own seccomp-notify has no shared fixture: its real output
    // is kept with the fuzz seeds.
    const auto files =
        w->name() == "seccomp-notify"
            ? std::vector<std::filesystem::path>{std::string(SCHEDLAB_SOURCE_DIR) +
                                                 "/fuzz/seeds/seccomp-notify/basic.txt"}
            : test::fixture_files(w->name() == "cmd" ? "sysbench" : w->name());
    for (const auto& f : files) {
      real = test::read_text(f);
      break;
    }
    int results = 0, errors = 0;
    for (const auto& line : lines) {
      parse_one(*w, line + "\n", "", results, errors);
      parse_one(*w, "", line + "\n", results, errors);
      const auto mid = real.find('\n', real.size() / 2);
      if (mid != std::string::npos)
        parse_one(*w, real.substr(0, mid + 1) + line + "\n" + real.substr(mid + 1), "", results, errors);
    }
    CHECK(results + errors >= static_cast<int>(2 * lines.size()));
  }
}

TEST_CASE("a parser's other exception becomes a ParseError naming the workload") {
  // hackbench's groups count is compared as an int64: 40 digits overflow it.
  const Workload& hb = *find_workload("hackbench");
  const std::string out = "Running in process mode with " + std::string(40, '9') +
                          " groups using 40 file descriptors each (== 1600 tasks)\nTime: 0.1\n";
  CHECK_THROWS_AS(parse_output(hb, default_point(hb), out, ""), ParseError);
}
