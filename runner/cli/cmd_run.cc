// schedlab run: load a config (or the run to resume: run_start.h), expand the plan, execute
// it into the store. A lab config listing `kernels:` runs once per kernel (kernel_runs.h), or,
// with the sequential stop, as columns of one run (kernel_columns.h).
#include <fmt/format.h>
#include <unistd.h>

#include "analysis/compare/compare.h"
#include "base/text.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/compare_output.h"
#include "runner/cli/output_format.h"
#include "runner/config/config.h"
#include "runner/hosts/interrupt.h"
#include "runner/run/dry_run.h"
#include "runner/run/kernel_columns.h"
#include "runner/run/kernel_runs.h"
#include "runner/run/new_database.h"
#include "runner/run/progress.h"
#include "runner/run/run_group.h"
#include "runner/run/run_shape.h"
#include "runner/run/run_start.h"
#include "runner/run/session.h"

namespace schedlab::cli {
namespace {

struct RunOptions {
  std::string config;
  std::string name;
  std::string resume;
  bool dry_run = false;
  int iterations = 0;  // --iterations N; 0: the config's
  bool quiet = false;  // no table at the end
  CompareOutput out;   // the table at the end, as compare prints it
  bool format_given = false;  // --format on the line (out.format has a default)
  bool progress = false, no_progress = false;
  DbOption db;
};

// The comparison of what ran, on stdout as `compare` would print it.
void print_table(Store& store, const std::vector<ColumnRef>& columns, const CompareOutput& out) {
  try {
    fmt::print("{}",
               comparison_output(compare(store, columns, {.known_domain = declared_domain}), out));
  } catch (const std::exception& e) {
    print_message("schedlab run: cannot compare what ran: " + terminal_safe(e.what()) + "\n");
  }
}

int run_kernel_group(Store& store, const RunShape& shape, const std::string& group,
                     const ExecOptions& exec, const RunOptions& o) {
  const KernelRunsResult r = run_kernels(store, shape, group, exec);
  const int failed = print_kernel_runs(r);
  // The group's combined table on stdout: kernels and variants as columns.
  const auto runs = group_runs(store.runs_table(), group);
  if (!runs.empty() && !o.quiet)
    print_table(store, group_columns(store.variants_table(), runs), o.out);
  return report_kernel_group(r, shape.kernels.size(), group, !runs.empty(), store.path(), failed);
}

// What is wrong with the options on this line: neither or both of CONFIG
// and --resume, --iterations for a resumed run, an option that would change
// nothing (the table's options with --quiet or --dry-run, which print none;
// --name with --resume), as the error that says so; none when they are fine.
std::optional<std::string> option_problem(const RunOptions& o) {
  if (o.config.empty() == o.resume.empty()) return "give either CONFIG or --resume RUN";
  if (!o.resume.empty() && o.iterations)
    return "--iterations starts a new run; a resumed run keeps the count it started with";
  const char* table_option = o.format_given ? "--format" : o.out.wide ? "--wide" : nullptr;
  if (o.dry_run && (table_option || o.quiet))
    return fmt::format("{} does nothing with --dry-run: it prints the plan, no table",
                       table_option ? table_option : "--quiet");
  if (o.quiet && table_option)
    return fmt::format("{} does nothing with --quiet: it prints no table", table_option);
  if (!o.resume.empty() && !o.name.empty())
    return std::string("--name does nothing with --resume: a resumed run keeps its name");
  return cli::option_without_effect(o.out);
}

int run_command(const RunOptions& o) {
  if (const auto error = option_problem(o)) {
    print_message(fmt::format("schedlab run: {}\n", *error));
    return kBadInput;
  }
  const NewDatabase fresh(o.db.resolve());
  const int code = guarded<ConfigError>({}, [&]() -> int {
    std::optional<Store> store;
    RunStart start;
    try {
      if (!o.resume.empty()) {
        store.emplace(o.db.resolve());
        start = resume_start(store->runs_table(), store->path(), o.resume);
      } else {
        Config config = load_config_file(o.config);
        start = new_run_start(std::move(config),
                              o.name.empty() ? default_run_name(o.config) : o.name, o.iterations);
      }
    } catch (const RunRefused& e) {
      print_message(fmt::format("schedlab run: {}\n", e.what()));
      return kBadInput;
    }
    const Config& config = start.config;
    const std::string& group = start.group;  // a multi-kernel plan's name
    ExecOptions& exec = start.exec;
    const auto forced = o.progress || o.no_progress ? std::optional(o.progress) : std::nullopt;
    exec.progress = progress_style(forced, ::isatty(2) != 0, std::getenv("TERM"));
    const Plan plan = expand_plan(config, start.plan_options);
    if (o.dry_run) {
      print_dry_run(config, start.plan_options, plan, group, start.iterations);
      return kOk;
    }
    const bool columns = kernels_as_columns(config);  // one run, every guest up at once
    if (!group.empty()) {
      if (!store) {
        store.emplace(o.db.resolve());
        // A new plan does not take over runs of an earlier one.
        if (group_name_taken(store->runs_table(), config, group)) {
          print_with_command(
              fmt::format("schedlab run: '{}' is already in {}: give another --name, or continue "
                          "it with:",
                          group, store->path()),
              resume_command(group, store->path()));
          return kBadInput;
        }
      }
      const RunShape shape = RunShape::per_kernel(config, start.plan_options);
      install_interrupt_handlers();
      return run_kernel_group(*store, shape, group, exec, o);
    }
    if (!store) store.emplace(o.db.resolve());
    const RunShape shape = columns ? RunShape::kernel_columns(config, start.plan_options)
                                   : RunShape::one_run(config, start.plan_options);
    install_interrupt_handlers();
    const RunSummary s = columns ? run_kernel_columns(*store, shape, exec)
                                 : run_kernel(*store, shape, shape.kernels.front(), exec);
    // The table of a run that went to its end (some iterations may have
    // failed: FAIL cells), as `compare RUN` prints it; then the run's
    // line on stderr, which scripts read.
    if (!o.quiet && s.status == RunStatus::kFinished) print_table(*store, default_columns(*store, {s.run_id}), o.out);
    std::fflush(stdout);
    return report_run(s, store->path(), resume_command(std::to_string(s.run_id), store->path()));
  });
  fresh.remove_if_empty();
  return code;
}

}  // namespace

void register_run(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = add_command(
      app, "run", "run an experiment config and store every iteration",
      {"Loads an experiment file (YAML), expands its plan (kernels x variants x workloads x "
       "points x iterations), applies each variant's knobs on the SUT after recording their "
       "values in the database's journal, runs every iteration and commits it with its raw "
       "output, and restores the knobs at the end, on Ctrl-C and at the next start after a "
       "crash. At the end it prints the comparison of what ran, as compare would.",
       {{"schedlab run configs/demo-local.yaml --dry-run",
         "print the plan and check the SUT, changing nothing"},
        {"schedlab run configs/demo-local.yaml --iterations 2 --name smoke",
         "a quick smoke run of 2 iterations per point"},
        {"schedlab run --resume smoke", "continue an interrupted run where it stopped"}}});
  cmd->add_option("config", o->config, "experiment file (YAML)");
  cmd->add_option("--name", o->name, "run name (default: config name and UTC time)");
  cmd->add_option("--resume", o->resume, "continue an interrupted run (id or name)");
  cmd->add_flag("--dry-run", o->dry_run, "print the plan and exit, touching nothing");
  cmd->add_option("--iterations", o->iterations,
                  "run N iterations of every point and variant, in place of the config's counts "
                  "and adaptive policies (a quick smoke run; recorded in the manifest)")
      ->check(CLI::Range(std::int64_t{1}, kMaxIterations));
  cmd->add_flag("-q,--quiet", o->quiet, "no comparison table on stdout at the end (the run's line on stderr stays)");
  comparison_outputs()
      .only({Format::kText, Format::kMarkdown, Format::kJson})
      .add_option(*cmd, o->out.format);
  cmd->add_flag("--wide", o->out.wide, "the table's full column labels, as compare --wide");
  auto* progress = cmd->add_flag("--progress", o->progress,
                                 "the status line on stderr even where it is not a terminal (plain lines there, "
                                 "and where TERM=dumb); by default only on a terminal");
  auto* no_progress = cmd->add_flag("--no-progress", o->no_progress, "no status line, even on a terminal");
  progress->excludes(no_progress);
  add_db_option(*cmd, o->db);
  cmd->callback([o, cmd, &exit_code] {
    o->format_given = cmd->count("--format") > 0;
    exit_code = run_command(*o);
  });
}

}  // namespace schedlab::cli
