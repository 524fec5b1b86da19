#include "runner/run/stored_config.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/file.h"
#include "base/json_data.h"
#include "base/local_secret.h"
#include "base/text.h"

namespace schedlab {

std::int64_t config_tag(const std::string& path, const std::string& text) {
  return local_tag("run config\n" + path + "\n" + text);
}

std::optional<std::string> stored_config_refusal(const RunInfo& run) {
  const auto m = parse_json_data(run.manifest_json);
  if (m.is_object() && m.contains("config_tag") && m["config_tag"].is_number_integer() &&
      m["config_tag"].get<std::int64_t>() == config_tag(run.config_path, run.config_text))
    return std::nullopt;
  try {
    if (regular_file_problem(run.config_path).empty() &&
        read_file(run.config_path) == run.config_text)
      return std::nullopt;
  } catch (const std::exception&) {
  }
  return fmt::format(
      "run {} '{}' was not started by this user on this machine (a database from elsewhere, or "
      "a schedlab before runs were marked), and its config {} is not here as it is stored: its "
      "config is not run; to resume it, put that config back at that path",
      run.id, terminal_safe(excerpt(run.name, 80)), terminal_safe(excerpt(run.config_path, 200)));
}

}  // namespace schedlab
