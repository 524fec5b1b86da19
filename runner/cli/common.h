// What every subcommand shares: the database option, exit codes, and the
// one place errors are printed.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace schedlab::cli {

// Documented in README.md ("Exit codes"); scripts depend on them.
enum ExitCode : int {
  kOk = 0,
  kError = 1,          // host, database or knob failure
  kBadInput = 2,       // usage or config error; nothing was run
  kIterationsFailed = 3,  // the run finished, some iterations failed
  kInterrupted = 130,  // SIGINT/SIGTERM: finished iterations kept, knobs restored
};

struct DbOption {
  std::string path;  // --db, else $SCHEDLAB_DB, else ./schedlab.db
  std::string resolve() const;
};

void add_db_option(CLI::App& cmd, DbOption& db);

// Registers each subcommand; the callback stores the exit code here.
void register_run(CLI::App& app, int& exit_code);
void register_list(CLI::App& app, int& exit_code);
void register_compare(CLI::App& app, int& exit_code);
void register_restore(CLI::App& app, int& exit_code);
void register_stats(CLI::App& app, int& exit_code);
void register_schedstat(CLI::App& app, int& exit_code);
void register_lab(CLI::App& app, int& exit_code);
void register_doctor(CLI::App& app, int& exit_code);
void register_parse(CLI::App& app, int& exit_code);  // parse and import
void register_nightly(CLI::App& app, int& exit_code);  // exit codes of its own
void register_history(CLI::App& app, int& exit_code);
void register_bisect(CLI::App& app, int& exit_code);

}  // namespace schedlab::cli
