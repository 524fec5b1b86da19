// libFuzzer target: one workload's parser (SCHEDLAB_FUZZ_WORKLOAD, set by
// CMake per binary) on arbitrary output, split into stdout and stderr at the
// first NUL, at the default point and at one that knows nothing (an
// import's), with what the output states about itself (stated_params; for
// schbench its seeds include the -j file). Samples or a ParseError are
// fine; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "workloads/command.h"
#include "workloads/registry.h"

using namespace schedlab;

namespace {

const Workload& workload() {
  static const std::shared_ptr<const Workload> command = [] {
    CommandSpec spec;
    spec.name = "command";
    spec.argv = {"true"};
    spec.metrics = {{.name = "v", .regex = R"(^\s*value:\s+(?<value>[0-9.]+)\s*$)", .unit = "x"},
                    {.name = "t", .regex = R"(^t=(?<offset>\d+) rate=(?<value>\d+)$)", .unit = "x",
                     .kind = SampleKind::kInterval}};
    spec.error_regex = R"(^(FATAL: |error))";
    return make_command_workload(spec);
  }();
  const std::string name = SCHEDLAB_FUZZ_WORKLOAD;
  if (name == "command") return *command;
  return *find_workload(name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Workload& w = workload();
  static const Point p = [&] {
    Point d;
    for (const auto& spec : w.params()) d.values[spec.name] = spec.default_value;
    return d;
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto nul = text.find('\0');
  const std::string out = text.substr(0, nul);
  const std::string err = nul == std::string::npos ? "" : text.substr(nul + 1);
  try {
    parse_output(w, p, out, err);
  } catch (const ParseError&) {
  }
  // What `parse` and `import` do first: what the output states (a schbench
  // -j file's command line, netperf's rows), and a parse at a point that
  // knows nothing (each check against an unknown parameter skipped).
  static const Point unknown = [&] {
    Point u = p;
    for (const auto& spec : w.params())
      if (!spec.reading) u.unknown.insert(spec.name);
    return u;
  }();
  w.stated_params(unknown, out, err);
  try {
    parse_output(w, unknown, out, err);
  } catch (const ParseError&) {
  }
  return 0;
}
