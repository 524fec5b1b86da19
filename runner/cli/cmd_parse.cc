// schedlab parse: the samples a workload's parser reads from saved outputs.
#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/json_data.h"
#include "base/text.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_format.h"
#include "runner/input/file_glob.h"
#include "runner/input/param_values.h"
#include "runner/run/iteration_output.h"
#include "runner/run/manifest.h"
#include "workloads/registry.h"

namespace schedlab::cli {
namespace {

struct ParseOptions {
  std::string workload;
  std::vector<std::string> files;
  std::vector<std::string> params;
  Format format = Format::kText;
};

// A file's samples written as they are read, a file at a time: a million
// samples never sit in memory. file(): one file's judged output; end():
// after the last.
class SampleWriter {
 public:
  virtual ~SampleWriter() = default;
  virtual void file(const std::string& name, const Point& p, const OutputJudgement& j) = 0;
  virtual void end() {}
};

// A sample a line: FILE, metric, value (and "@Ns" when it has an offset).
class SampleLines : public SampleWriter {
 public:
  void file(const std::string& name, const Point&, const OutputJudgement& j) override {
    // Notes on stderr: stdout stays one sample a line. A file's name and
    // an output's text reach the terminal escaped, as import's and run's
    // (hostile18: a parser's message quoting a crafted line, the name of a
    // file in a tree from elsewhere).
    for (const auto& n : j.notes)
      print_message(fmt::format("schedlab: {}: note: {}\n", terminal_safe(name), terminal_safe(n)));
    const std::string shown = terminal_safe(name);
    fmt::memory_buffer buf;
    buf.reserve(j.samples.size() * (shown.size() + 40));
    for (const auto& s : j.samples) {
      // Compiled formats: a million lines' worth of format strings
      // would otherwise be parsed at run time.
      fmt::format_to(std::back_inserter(buf), FMT_COMPILE("{}\t{}\t{}"), shown, s.metric, s.value);
      if (s.offset_s) fmt::format_to(std::back_inserter(buf), FMT_COMPILE("\t@{}s"), *s.offset_s);
      buf.push_back('\n');
    }
    std::fwrite(buf.data(), 1, buf.size(), stdout);
  }
};

// The array nlohmann's dump(2) would print, an entry a file.
class SampleArray : public SampleWriter {
 public:
  void file(const std::string& name, const Point& p, const OutputJudgement& j) override {
    nlohmann::json js = nlohmann::json::array();
    for (const auto& s : j.samples)
      js.push_back(
          {{"metric", s.metric},
           {"value", s.value},
           {"offset_s", s.offset_s ? nlohmann::json(*s.offset_s) : nlohmann::json(nullptr)}});
    nlohmann::json entry = {{"file", name},
                            {"status", to_string(iteration_status(j.verdict))},
                            {"params", point_json(p)}};
    if (j.verdict != OutputVerdict::kParseError && j.verdict != OutputVerdict::kUnsupported)
      entry["samples"] = js;
    if (!j.ok()) entry["error"] = j.error;
    entry["notes"] = j.notes;
    std::string text = json_output(entry);
    std::string indented = "  ";
    for (char c : text) {
      indented += c;
      if (c == '\n') indented += "  ";
    }
    fmt::print("{}{}", first_ ? "[\n" : ",\n", indented);
    first_ = false;
  }
  void end() override { fmt::print("{}\n", first_ ? "[]" : "\n]"); }

 private:
  bool first_ = true;
};

template <class Writer>
std::unique_ptr<SampleWriter> make_writer() {
  return std::make_unique<Writer>();
}

const Renderers<std::unique_ptr<SampleWriter> (*)()> kParseOutputs{
    {Format::kText, make_writer<SampleLines>},
    {Format::kJson, make_writer<SampleArray>},
};

int parse_command(const ParseOptions& o) {
  return guarded<std::invalid_argument>({.prefix = "schedlab parse"}, [&] {
    const Workload& w = workload_arg(o.workload);
    point_from_overrides(w, o.params);  // a bad --param is bad input before any file is read
    const auto out = kParseOutputs.of(o.format)();
    int failed = 0;
    for (const auto& file : o.files) {
      const std::string text = read_input_file(file);
      // The point the output states it was made at, where --param is
      // silent (what neither says is unknown); a --param it contradicts
      // fails this file.
      Point p;
      std::string conflict;
      try {
        p = point_from_output(w, o.params, text, "");
      } catch (const std::invalid_argument& e) {
        p = point_from_given(w, o.params);
        conflict = e.what();
      }
      // Judged as `run` and `import` judge the same output.
      OutputJudgement j = judge_output(w, p, text, "");
      if (!conflict.empty()) {
        j.verdict = OutputVerdict::kParseError;
        j.error = conflict;
        j.samples.clear();
      }
      out->file(file, p, j);
      if (!j.ok()) {
        ++failed;
        std::fflush(stdout);
        const std::string_view status = to_string(iteration_status(j.verdict));
        print_message(fmt::format(
            "schedlab: {}: {} ({} {} iteration)\n", terminal_safe(file), terminal_safe(j.error),
            std::string_view("aeiou").find(status.front()) != std::string_view::npos ? "an" : "a",
            status));
      }
    }
    out->end();
    return failed ? kIterationsFailed : kOk;
  });
}

}  // namespace

void register_parse(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ParseOptions>();
  auto* cmd = add_command(
      app, "parse", "print the samples a workload's parser reads from saved outputs",
      {"Prints the samples a workload's parser reads from saved outputs, and the parameters each "
       "output states about itself, judged as run and import judge them (ok, parse_error, "
       "unsupported, failed).",
       {{"schedlab parse hackbench out.txt", "the samples of one saved hackbench output"},
        {"schedlab parse tbench *.log --format json", "each file with its status and samples"}}});
  cmd->add_option("workload", o->workload,
                  fmt::format("workload name ({})", fmt::join(workload_names(), ", ")))
      ->required();
  cmd->add_option("files", o->files, "saved outputs")->required();
  cmd->add_option(
         "--param", o->params,
         "name=value: a parameter the output was made with (repeat, each once); what the output "
         "states itself (hackbench's groups and loops, netperf's test, schbench's runtime, ...) "
         "is taken from it, and checked against this; what neither says is recorded as unknown "
         "(null, shown ?)")
      ->allow_extra_args(false);
  kParseOutputs.add_option(*cmd, o->format);
  cmd->callback([o, &exit_code] { exit_code = parse_command(*o); });
}

}  // namespace schedlab::cli
