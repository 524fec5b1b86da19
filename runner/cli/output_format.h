// The output formats of schedlab's commands, one row each. A command takes
// some of them (its --format option lists which); the option's help, the
// choices the man page and the bash completion show, and the error for any
// other name all come from these rows.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string_view>
#include <vector>

namespace schedlab::cli {

enum class Format { kText, kMarkdown, kCsv, kJson, kHtml };

struct FormatRow {
  Format format;
  std::string_view name;  // as --format takes it
};
inline constexpr FormatRow kFormats[] = {
    {Format::kText, "text"}, {Format::kMarkdown, "markdown"}, {Format::kCsv, "csv"},
    {Format::kJson, "json"}, {Format::kHtml, "html"},
};

std::string_view format_name(Format f);
std::optional<Format> format_from_name(std::string_view name);

// --format, taking FORMATS in that order: its help reads "text or json"
// ("text, markdown or json"), its choices {text,json}; any other name is
// "unknown format 'xml' (did you mean ...?); known: text, json".
void add_format_option(CLI::App& cmd, Format& format,
                       const std::vector<Format>& formats = {Format::kText, Format::kJson});

}  // namespace schedlab::cli
