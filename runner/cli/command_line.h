// How schedlab's command line answers what CLI11 does not: a mistyped
// command ("unknown command 'compre' (did you mean 'compare'?)"), `help`,
// and CLI11's own parse errors worded like every other schedlab message.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::cli {

// The commands a user can type under `app`: hidden ones (group "", such as
// generate-docs) are left out, in registration order.
std::vector<const CLI::App*> visible_commands(const CLI::App& app);

// "schedlab", "schedlab schedstat diff": how a command is typed.
std::string command_path(const CLI::App& app);

// The words a user typed after "schedlab", checked for a command that does
// not exist where one is expected: right after "schedlab", or after a
// command that takes a subcommand (schedstat, lab, bisect, slurm). The
// one-line error ("schedlab: unknown command 'compre' (did you mean
// 'compare'?)"), or nothing when CLI11 should parse the line.
std::optional<std::string> unknown_command(const CLI::App& root, const std::vector<std::string>& args);

// The command `path` names under `root` ({"schedstat", "diff"}), or the
// error for the first word that is none.
struct FoundCommand {
  const CLI::App* app = nullptr;
  std::string error;
};
FoundCommand find_command(const CLI::App& root, const std::vector<std::string>& path);

// A CLI11 parse error as schedlab says it: "schedlab compare: --format: ...
// (schedlab help compare)" on stderr, exit 2. --help and --version print
// as CLI11 does, exit 0.
int parse_error_exit(CLI::App& root, const CLI::ParseError& e);

// CLI11's help (--help and `help`) with every line within a mail's 100
// columns: an option's or command's description continues under itself
// (CLI11 puts it at column 30), a paragraph or an example under its own
// indentation. Set on the root before any command is added (commands copy
// their parent's formatter).
std::shared_ptr<CLI::Formatter> help_formatter();

// `schedlab help [COMMAND...]`: the overview, or a command's help.
void register_help(CLI::App& app, int& exit_code);

}  // namespace schedlab::cli
