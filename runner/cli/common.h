// What every subcommand shares: the database option, exit codes, and the
// one place errors become a message and an exit code (--format is
// output_format.h).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/message.h"  // print_message: every command's messages

namespace schedlab {
struct RunSummary;
struct KernelRunsResult;
class Workload;
}  // namespace schedlab

namespace schedlab::cli {

// Documented in README.md ("Exit codes"); scripts depend on them.
enum ExitCode : int {
  kOk = 0,
  kError = 1,          // host, database or knob failure
  kBadInput = 2,       // usage or config error; nothing was run
  kIterationsFailed = 3,  // the run finished, some iterations failed
  kInterrupted = 130,  // SIGINT/SIGTERM: finished iterations kept, knobs restored
};

// What each exit code means, for the man pages' EXIT STATUS (man_pages.h);
// README.md's "Exit codes" table says the same.
struct ExitCodeRow {
  const char* code;
  const char* meaning;
};
inline constexpr ExitCodeRow kExitCodeRows[] = {
    {"0", "success"},
    {"1", "a host, database or knob failure (the message says which)"},
    {"2", "bad input: usage or config error; nothing was run"},
    {"3", "the run finished, but some iterations failed (timeout, exit status, unparseable output); their "
          "raw output is stored"},
    {"128+N", "interrupted by signal N (130 for Ctrl-C): finished iterations kept, knobs restored; schedlab run "
              "--resume RUN continues"},
};

struct DbOption {
  std::string path;  // --db, else $SCHEDLAB_DB, else ./schedlab.db
  std::string resolve() const;
};

void add_db_option(CLI::App& cmd, DbOption& db);

// A finite number from lo to hi, both included, for a floating-point
// option: CLI::Range lets "nan" through (no comparison with NaN is true).
CLI::Validator number_range(double lo, double hi);

// An integer from 0 to 2^64 - 1 written in digits only, for a std::uint64_t
// option: CLI11 would take "-1" or "1e23" and wrap or clamp them.
CLI::Validator uint64_digits();

// A scheduler domain's name (schedstat's --level-names): what a v17 file
// may carry (analysis/counters: domain_name_ok), cut and terminal-safe in
// the error, since the value is printed as a level.
CLI::Validator domain_name_check();

// The registered workload a command's argument names; throws
// std::invalid_argument ("unknown workload 'hackbnch' (did you mean
// 'hackbench'?)") for any other name. `also`: other names the command
// takes, offered as suggestions too.
const Workload& workload_arg(const std::string& name, const std::vector<std::string>& also = {});

// A new run's default name: the config's stem and the UTC time
// (flip-c1-20261129T183000Z).
std::string default_run_name(const std::string& config_path);

// A finished run_kernel's errors and one-line summary on stderr, and the
// exit code it makes (interrupted: the resume hint and 128 + signal).
int report_run(const RunSummary& s, const std::string& db_path, const std::string& resume_hint);

// A multi-kernel plan's closing lines on stderr, after each run's
// (print_kernel_runs: `failed` iterations): the command that compares the
// group when any run of it is `stored`, the one that resumes it when it was
// interrupted or a kernel failed; then the exit code, as report_run's.
int report_kernel_group(const KernelRunsResult& r, std::size_t kernels, const std::string& group,
                        bool stored, const std::string& db_path, int failed);

// Why ARG may not join the runs a command has resolved so far (IDS, named
// by ARGS): it names run ID (NAME) a second time ("run 1 'p1' is named
// twice, as '1' and 'p1'"; two columns or Otava rows of one run would count
// it twice). Nothing when it names a run not yet named.
std::optional<std::string> named_twice(const std::vector<std::int64_t>& ids,
                                       const std::vector<std::string>& args, std::int64_t id,
                                       const std::string& name, const std::string& arg);

// "schedlab run --resume RUN --db /abs/path.db", quoted for pasting: the
// database named whatever the directory or SCHEDLAB_DB is where it is pasted.
std::string resume_command(const std::string& run, const std::string& db_path);

// How a command's exceptions leave it: "PREFIX: what()" on stderr (and the
// hint on the next line), within 100 columns, then the exit code.
inline constexpr int kPropagate = -1;  // rethrow to an outer guarded()
struct OnError {
  std::string prefix = "schedlab";
  int listed = kBadInput;  // for the exception types guarded<...> names
  int other = kError;      // for any other std::exception, or kPropagate
  std::string hint;
};

int guard(const OnError& on, const std::function<int()>& body,
          bool (*is_listed)(const std::exception&));

// Runs BODY (returning an exit code) and turns what it throws into a
// message and an exit code, by OnError. The types listed are bad input by
// default: guarded<ConfigError>({}, body) exits 2 on a config error, 1 on
// anything else.
template <typename... Listed, typename Body>
int guarded(const OnError& on, Body&& body) {
  return guard(on, std::forward<Body>(body), [](const std::exception& e) {
    return (false || ... || (dynamic_cast<const Listed*>(&e) != nullptr));
  });
}

// Registers each subcommand; the callback stores the exit code here.
void register_run(CLI::App& app, int& exit_code);
void register_list(CLI::App& app, int& exit_code);
void register_merge(CLI::App& app, int& exit_code);
void register_compare(CLI::App& app, int& exit_code);
void register_restore(CLI::App& app, int& exit_code);
void register_stats(CLI::App& app, int& exit_code);
void register_design(CLI::App& app, int& exit_code);
void register_schedstat(CLI::App& app, int& exit_code);
void register_lab(CLI::App& app, int& exit_code);
void register_doctor(CLI::App& app, int& exit_code);
void register_parse(CLI::App& app, int& exit_code);
void register_import(CLI::App& app, int& exit_code);
void register_rm(CLI::App& app, int& exit_code);
void register_workloads(CLI::App& app, int& exit_code);
void register_nightly(CLI::App& app, int& exit_code);  // exit codes of its own
void register_history(CLI::App& app, int& exit_code);
void register_bisect(CLI::App& app, int& exit_code);
void register_report(CLI::App& app, int& exit_code);
void register_export(CLI::App& app, int& exit_code);
void register_slurm(CLI::App& app, int& exit_code);
void register_generate_docs(CLI::App& app, int& exit_code);  // hidden

}  // namespace schedlab::cli
