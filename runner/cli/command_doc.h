// What a command does, in a paragraph, and examples of it: declared once
// next to the command's options (cmd_<name>.cc), shown at the end of its
// --help (CLI11's footer holds them) and as the DESCRIPTION and EXAMPLES of
// its man page (man_pages.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <utility>
#include <vector>

namespace schedlab::cli {

struct CommandDoc {
  std::string description;  // a paragraph: what the command does and reads or writes
  std::vector<std::pair<std::string, std::string>> examples;  // {command line, what it does}
};

// Sets CMD's footer to the paragraph and its examples.
void document(CLI::App& cmd, const CommandDoc& doc);

// The subcommand NAME of PARENT, with its one-line SUMMARY and its DOC: how
// every command is made, so none lacks its paragraph and examples.
CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& summary,
                      const CommandDoc& doc);

// The paragraph and examples document() gave CMD; empty when none.
CommandDoc command_doc(const CLI::App& cmd);

}  // namespace schedlab::cli
