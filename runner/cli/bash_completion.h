// A bash completion script made from the CLI11 option tables the commands
// register: commands and their subcommands, options, the values an option
// takes (--format's choices, workload names, run names from the database,
// files). Written at build time by the hidden `schedlab generate-docs` and
// installed as share/bash-completion/completions/schedlab.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace schedlab::cli {

// The script: data tables, then one function that reads them; nothing in
// it depends on the bash-completion package. Run names come from the
// hidden `schedlab complete-runs [--db DB]`.
std::string bash_completion(const CLI::App& root);

// `schedlab complete-runs [--db DB]`: the run names of a database, a line
// each; nothing (exit 0) when there is no database to read.
void register_complete_runs(CLI::App& app, int& exit_code);

}  // namespace schedlab::cli
