#include "runner/cli/output_format.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>

#include "base/text.h"
#include "base/suggest.h"

namespace schedlab::cli {

std::string_view format_name(Format f) {
  for (const auto& row : kFormats)
    if (row.format == f) return row.name;
  return "?";
}

std::optional<Format> format_from_name(std::string_view name) {
  for (const auto& row : kFormats)
    if (row.name == name) return row.format;
  return std::nullopt;
}

void add_format_option(CLI::App& cmd, Format& format, const std::vector<Format>& formats) {
  std::vector<std::string> names;
  for (const Format f : formats) names.emplace_back(format_name(f));
  const auto check = [names](std::string& name) -> std::string {
    if (std::find(names.begin(), names.end(), name) != names.end()) return "";
    return fmt::format("unknown format '{}'{}; known: {}", terminal_safe(excerpt(name, 60)),
                       did_you_mean(name, names), fmt::join(names, ", "));
  };
  // The validator's description is the choices as CLI11's IsMember shows
  // them ({text,json}): the man pages and the completion read them there.
  cmd.add_option_function<std::string>(
         "--format", [&format](const std::string& name) { format = *format_from_name(name); },
         or_list(names))
      ->check(CLI::Validator(check, fmt::format("{{{}}}", fmt::join(names, ","))));
}

}  // namespace schedlab::cli
