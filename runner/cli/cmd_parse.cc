// schedlab parse: the samples a workload's parser reads from saved outputs.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "runner/cli/common.h"
#include "runner/config/param_values.h"
#include "runner/run/manifest.h"
#include "workloads/registry.h"

namespace schedlab::cli {
namespace {

struct ParseOptions {
  std::string workload;
  std::vector<std::string> files;
  std::vector<std::string> params;
  std::string format = "text";
};

int parse_command(const ParseOptions& o) {
  return guarded<std::invalid_argument>({.prefix = "schedlab parse"}, [&] {
    const Workload& w = workload_arg(o.workload);
    const Point p = point_from_overrides(w, o.params);
    nlohmann::json out = nlohmann::json::array();
    int failed = 0;
    for (const auto& file : o.files) {
      const std::string text = read_input_file(file);
      try {
        const auto samples = parse_output(w, p, text, "");
        nlohmann::json js = nlohmann::json::array();
        for (const auto& s : samples) {
          js.push_back({{"metric", s.metric}, {"value", s.value},
                        {"offset_s", s.offset_s ? nlohmann::json(*s.offset_s) : nlohmann::json(nullptr)}});
          if (o.format == "text")
            fmt::print("{}\t{}\t{}{}\n", file, s.metric, s.value,
                       s.offset_s ? fmt::format("\t@{}s", *s.offset_s) : "");
        }
        out.push_back({{"file", file}, {"samples", js}});
      } catch (const ParseError& e) {
        ++failed;
        fmt::print(stderr, "schedlab: {}: {} output did not parse: {}\n", file, w.name(), e.what());
        out.push_back({{"file", file}, {"error", e.what()}});
      }
    }
    if (o.format == "json") fmt::print("{}\n", out.dump(2));
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
  cmd->add_option("--param", o->params, "name=value: the parameters the output was made with (repeat)")
      ->allow_extra_args(false);
  add_format_option(*cmd, o->format);
  cmd->callback([o, &exit_code] { exit_code = parse_command(*o); });
}

}  // namespace schedlab::cli
