#include "runner/cli/command_doc.h"

#include <fmt/format.h>

#include <sstream>

namespace schedlab::cli {
namespace {

constexpr std::string_view kExamples = "\nExamples:\n";
constexpr std::string_view kCommandIndent = "  ";
constexpr std::string_view kWhatIndent = "      ";

}  // namespace

void document(CLI::App& cmd, const CommandDoc& doc) {
  std::string footer = "\n" + doc.description + "\n";
  if (!doc.examples.empty()) {
    footer += kExamples;
    for (const auto& [line, what] : doc.examples)
      footer += fmt::format("{}{}\n{}{}\n", kCommandIndent, line, kWhatIndent, what);
  }
  cmd.footer(footer);
}

CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& summary,
                      const CommandDoc& doc) {
  CLI::App* cmd = parent.add_subcommand(name, summary);
  document(*cmd, doc);
  return cmd;
}

CommandDoc command_doc(const CLI::App& cmd) {
  const std::string footer = cmd.get_footer();
  CommandDoc doc;
  if (footer.empty()) return doc;
  const auto examples = footer.find(kExamples);
  doc.description =
      footer.substr(1, examples == std::string::npos ? std::string::npos : examples - 1);
  while (doc.description.ends_with('\n')) doc.description.pop_back();
  if (examples == std::string::npos) return doc;
  std::istringstream lines(footer.substr(examples + kExamples.size()));
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(kWhatIndent) && !doc.examples.empty())
      doc.examples.back().second = line.substr(kWhatIndent.size());
    else if (line.starts_with(kCommandIndent))
      doc.examples.emplace_back(line.substr(kCommandIndent.size()), "");
  }
  return doc;
}

}  // namespace schedlab::cli
