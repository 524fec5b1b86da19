// schedlab parse: the samples a workload's parser reads from saved outputs.
#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>

#include "runner/cli/common.h"
#include "runner/cli/output_format.h"
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

int parse_command(const ParseOptions& o) {
  return guarded<std::invalid_argument>({.prefix = "schedlab parse"}, [&] {
    const Workload& w = workload_arg(o.workload);
    point_from_overrides(w, o.params);  // a bad --param is bad input before any file is read
    // Streamed a file at a time: a million samples never sit in memory as
    // JSON. The JSON form is the array nlohmann's dump(2) would print.
    int failed = 0;
    bool first = true;
    const auto emit_json = [&](const nlohmann::json& entry) {
      std::string text = entry.dump(2);
      std::string indented = "  ";
      for (char c : text) {
        indented += c;
        if (c == '\n') indented += "  ";
      }
      fmt::print("{}{}", first ? "[\n" : ",\n", indented);
      first = false;
    };
    for (const auto& file : o.files) {
      const std::string text = read_input_file(file);
      // The point the output states it was made at, where --param is
      // silent; a --param it contradicts fails this file.
      Point p;
      std::string conflict;
      try {
        p = point_from_output(w, o.params, text, "");
      } catch (const std::invalid_argument& e) {
        p = point_from_overrides(w, o.params);
        conflict = e.what();
      }
      // Judged as `run` and `import` judge the same output.
      OutputJudgement j = judge_output(w, p, text, "");
      if (!conflict.empty()) {
        j.verdict = OutputVerdict::kParseError;
        j.error = conflict;
        j.samples.clear();
      }
      const auto& samples = j.samples;
      if (o.format == Format::kJson) {
        nlohmann::json js = nlohmann::json::array();
        for (const auto& s : samples)
          js.push_back({{"metric", s.metric}, {"value", s.value},
                        {"offset_s", s.offset_s ? nlohmann::json(*s.offset_s) : nlohmann::json(nullptr)}});
        nlohmann::json params = nlohmann::json::object();
        for (const auto& [k, v] : p.values) params[k] = format_param(v);
        nlohmann::json entry = {{"file", file}, {"status", to_string(iteration_status(j.verdict))}, {"params", params}};
        if (j.verdict != OutputVerdict::kParseError && j.verdict != OutputVerdict::kUnsupported) entry["samples"] = js;
        if (!j.ok()) entry["error"] = j.error;
        entry["notes"] = j.notes;
        emit_json(entry);
      } else {
        // Notes on stderr: stdout stays one sample a line.
        for (const auto& n : j.notes) fmt::print(stderr, "schedlab: {}: note: {}\n", file, n);
        fmt::memory_buffer buf;
        buf.reserve(samples.size() * (file.size() + 40));
        for (const auto& s : samples) {
          // Compiled formats: a million lines' worth of format strings
          // would otherwise be parsed at run time.
          fmt::format_to(std::back_inserter(buf), FMT_COMPILE("{}\t{}\t{}"), file, s.metric, s.value);
          if (s.offset_s) fmt::format_to(std::back_inserter(buf), FMT_COMPILE("\t@{}s"), *s.offset_s);
          buf.push_back('\n');
        }
        std::fwrite(buf.data(), 1, buf.size(), stdout);
      }
      if (!j.ok()) {
        ++failed;
        std::fflush(stdout);
        fmt::print(stderr, "schedlab: {}: {} (a {} iteration)\n", file, j.error, to_string(iteration_status(j.verdict)));
      }
    }
    if (o.format == Format::kJson) fmt::print("{}\n", first ? "[]" : "\n]");
    return failed ? kIterationsFailed : kOk;
  });
}

}  // namespace

void register_parse(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ParseOptions>();
  auto* cmd = app.add_subcommand("parse", "print the samples a workload's parser reads from saved outputs");
  cmd->add_option("workload", o->workload,
                  fmt::format("workload name ({})", fmt::join(workload_names(), ", ")))
      ->required();
  cmd->add_option("files", o->files, "saved outputs")->required();
  cmd->add_option("--param", o->params,
                  "name=value: a parameter the output was made with (repeat); what the output states itself "
                  "(hackbench's groups, loops, mode) is taken from it, and checked against this")
      ->allow_extra_args(false);
  add_format_option(*cmd, o->format);
  cmd->callback([o, &exit_code] { exit_code = parse_command(*o); });
}

}  // namespace schedlab::cli
