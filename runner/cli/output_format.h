// The output formats of schedlab's commands, one row each. A command takes
// some of them (its --format option lists which); the option's help, the
// choices the man page and the bash completion show, and the error for any
// other name all come from these rows. What a command prints in each is its
// Renderers table: a renderer per format it takes, so the formats it
// accepts and the ones it can print are the same rows, and no command
// switches on a format itself.
#pragma once

#include <CLI/CLI.hpp>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::cli {

// kKcidb, kBmf, kOtava: the dashboards' own formats (schedlab export,
// analysis/export/).
enum class Format { kText, kMarkdown, kCsv, kJson, kHtml, kKcidb, kBmf, kOtava };

struct FormatRow {
  Format format;
  std::string_view name;  // as --format takes it
};
inline constexpr FormatRow kFormats[] = {
    {Format::kText, "text"}, {Format::kMarkdown, "markdown"}, {Format::kCsv, "csv"},
    {Format::kJson, "json"}, {Format::kHtml, "html"},         {Format::kKcidb, "kcidb"},
    {Format::kBmf, "bmf"},   {Format::kOtava, "otava"},
};

std::string_view format_name(Format f);
std::optional<Format> format_from_name(std::string_view name);

// --format, taking FORMATS in that order: its help reads "text or json"
// ("text, markdown or json"), its choices {text,json}; any other name is
// "unknown format 'xml' (did you mean ...?); known: text, json".
void add_format_option(CLI::App& cmd, Format& format,
                       const std::vector<Format>& formats = {Format::kText, Format::kJson});

// A command's outputs: {format, renderer} rows, the first row the default.
// `Render` is whatever the command's output takes (a std::function, or a
// struct of them when it prints in several shapes); the command registers
// --format through add_option and reaches its renderer through of().
template <class Render>
class Renderers {
 public:
  struct Row {
    Format format;
    Render render;
  };
  Renderers(std::initializer_list<Row> rows) : rows_(rows) {}

  std::vector<Format> formats() const {
    std::vector<Format> out;
    for (const Row& r : rows_) out.push_back(r.format);
    return out;
  }
  // --format, taking this table's formats in its order.
  void add_option(CLI::App& cmd, Format& format) const {
    add_format_option(cmd, format, formats());
  }
  // The renderer of `format`; one the option let through always has a row.
  const Render& of(Format format) const {
    for (const Row& r : rows_)
      if (r.format == format) return r.render;
    throw std::logic_error("no renderer for format " + std::string(format_name(format)));
  }
  // The rows of `formats` only (a command that takes fewer of a shared table).
  Renderers only(std::initializer_list<Format> formats) const {
    Renderers out;
    for (const Format f : formats) out.rows_.push_back({f, of(f)});
    return out;
  }

 private:
  Renderers() = default;
  std::vector<Row> rows_;
};

}  // namespace schedlab::cli
