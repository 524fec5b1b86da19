// schedlab run: load a config, expand the plan, execute it into the store.
// A lab config listing `kernels:` runs once per kernel (kernel_runs.h) and
// ends with one table, kernels and variants as columns.
// `--iterations N` gives every point N iterations for a smoke run (the
// manifest's "iterations_override"; a resume keeps it).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/compare/compare.h"
#include "base/text.h"
#include "base/time.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/compare_output.h"
#include "runner/cli/output_format.h"
#include "runner/config/config.h"
#include "runner/hosts/interrupt.h"
#include "runner/input/units.h"
#include "runner/knobs/knobs.h"
#include "runner/lab/host_set.h"
#include "runner/lab/lab_config_yaml.h"
#include "runner/run/executor.h"
#include "runner/run/kernel_columns.h"
#include "runner/run/kernel_runs.h"
#include "runner/run/plan.h"
#include "runner/run/preflight.h"
#include "runner/run/progress.h"
#include "runner/run/run_group.h"
#include "runner/run/run_shape.h"
#include "runner/run/session.h"
#include "workloads/registry.h"

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
    fmt::print(stderr, "schedlab run: cannot compare what ran: {}\n", terminal_safe(e.what()));
  }
}

// `run --iterations N` of a run being resumed (its manifest), 0 when none.
int iterations_override(const RunInfo& run) {
  const auto m = nlohmann::json::parse(run.manifest_json, nullptr, false);
  if (!m.is_object() || !m.contains("iterations_override")) return 0;
  return m["iterations_override"].is_number_integer() ? m["iterations_override"].get<int>() : 0;
}

void print_plan(const Config& config, const Plan& plan, int iterations) {
  fmt::print(
      "plan for {}: {} variants x {} points, at most {} iterations{}, {}\n", config.path,
      config.variants.size(), plan.points.size(), plan.max_iterations(),
      config.pairs.empty() ? "" : fmt::format(" on each of {} pairs at once", config.pairs.size()),
      plan.order == Order::kInterleaved ? "variants interleaved per iteration"
                                        : "variants in sequence per point");
  if (iterations)
    fmt::print("  iterations: {} per point and variant (--iterations, in place of the config's)\n",
               iterations);
  for (const auto& p : config.pairs)
    fmt::print("  pair {}: sut {}, loadgen {}{}\n", p.name, p.sut, p.loadgen,
               p.sut_address.empty() ? "" : ", sut_address " + p.sut_address);
  for (const auto& v : config.variants) fmt::print("  variant {}:{}\n", v.name, describe_knobs(v.knobs));
  for (const auto& p : plan.points) {
    std::string argv;
    for (const auto& step : p.workload->workload->iteration_steps(p.point, StepContext{.workdir = "WORKDIR", .sut_address = "SUT", .port = 0}))
      argv += fmt::format(" [{}]", fmt::join(step.argv, " "));
    const auto& it = p.iterations;
    const std::string n =
        it.sequential ? fmt::format("{}..{} until every variant is decided against the baseline (sequential: "
                                    "alpha {:g}, power {:g}, min effect {:g}%)",
                                    it.min, it.max, it.sequential->design.alpha, it.sequential->design.power,
                                    it.sequential->design.min_effect_pct)
        : it.adaptive() ? fmt::format("{}..{} until CI half-width <= {}%", it.min, it.max, *it.ci_width_pct)
                        : fmt::format("x{}", it.max);
    fmt::print("  {} {}:{}\n", p.describe(), n, argv);
  }
}

// --dry-run: the run's read-only checks (check_plan) on each pair it can
// reach, so a knob the SUT lacks or a value it cannot take is found before
// the real run measures its baseline. A lab SUT is not booted for a dry run.
void dry_run_checks(const Config& config, const PlanOptions& plan_options) {
  if (config.sut_lab) {
    fmt::print("preflight: not run (the lab SUT is booted by the run itself; its knobs are checked then)\n");
    return;
  }
  const RunShape shape = RunShape::one_run(config, plan_options);
  const KernelShape& kernel = shape.kernels.front();
  for (std::size_t i = 0; i < shape.pair_count(); ++i) {
    const HostSpec hosts = shape.hosts(kernel, i);
    std::optional<HostSet> connected;
    try {
      connected.emplace(hosts);
    } catch (const HostError& e) {
      fmt::print(stderr, "schedlab run: dry run: cannot reach {} ({}): its checks are left to the run\n", hosts.sut,
                 e.what());
      continue;
    }
    check_plan(connected->pair(), config, kernel.plan);  // PreflightError as the run would
    fmt::print("preflight on {}: programs, CPUs and knobs checked, nothing changed\n", connected->pair().sut.name());
  }
}

// A database `run` created and stored no run in (refused at preflight, a
// host that could not be reached) is removed again: a refused run leaves
// nothing behind that was not there before.
class NewDatabase {
 public:
  explicit NewDatabase(std::string path) : path_(std::move(path)) {
    std::error_code ec;
    existed_ = std::filesystem::exists(path_, ec) || ec;
  }
  // Call with the store closed.
  void remove_if_empty() const {
    if (existed_) return;
    try {
      if (!Store(path_, Store::Access::kReadOnly).runs_table().list_runs().empty()) return;
    } catch (const std::exception&) {
      return;
    }
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path_ + suffix, ec);
  }

 private:
  std::string path_;
  bool existed_ = true;
};

// Kernels x variants: which variants each kernel's run gets.
void print_kernels(const RunShape& shape, const std::string& group) {
  fmt::print("{} kernels, booted in turn, one run each (group '{}'):\n", shape.kernels.size(),
             group);
  for (const auto& k : shape.kernels) {
    std::vector<std::string> names;
    for (const auto& v : shape.config.variants)
      names.push_back(variant_applies(v, k.kernel) ? v.name : "(" + v.name + " skipped)");
    fmt::print("  kernel {} as run '{}': {}; at most {} iterations\n", k.kernel,
               kernel_run_name(group, k.kernel), fmt::join(names, " "), k.plan.max_iterations());
  }
}

// Kernels as columns: what the one run compares.
void print_kernel_columns(const RunShape& shape) {
  std::vector<std::string> names;
  for (const auto* v : shape.columns_plan->variants) names.push_back(v->name);
  fmt::print("{} kernels booted side by side, one run; columns (the first the baseline): {}\n",
             shape.kernels.size(), fmt::join(names, " "));
}

int run_kernel_group(Store& store, const RunShape& shape, const std::string& group,
                     const ExecOptions& exec, const RunOptions& o) {
  const KernelRunsResult r = run_kernels(store, shape, group, exec);
  int failed = 0;
  for (const auto& s : r.runs) {
    for (const auto& e : s.errors) fmt::print(stderr, "schedlab: {}\n", e);
    fmt::print(stderr, "run {} '{}' {}: {} iterations measured ({} failed){}\n", s.run_id, s.name,
               to_string(s.status), s.measured, s.failed,
               s.skipped ? fmt::format(", {} points already complete", s.skipped) : "");
    failed += s.failed;
  }
  if (!r.done.empty()) fmt::print(stderr, "already finished: {}\n", fmt::join(r.done, ", "));
  // The group's combined table on stdout: kernels and variants as columns.
  if (const auto runs = group_runs(store, group); !runs.empty() && !o.quiet)
    print_table(store, group_columns(store, runs), o.out);
  if (!group_runs(store, group).empty())
    fmt::print(stderr, "group '{}' in {}: schedlab compare --group {}\n", group, store.path(), group);
  if (r.interrupted) {
    fmt::print(stderr, "continue it with: {}\n", resume_command(group, store.path()));
    return 128 + interrupt_signal();
  }
  if (!r.errors.empty()) {
    fmt::print(stderr, "{} of {} kernels failed (above); run them again with: {}\n", r.errors.size(),
               shape.kernels.size(), resume_command(group, store.path()));
    return kError;
  }
  return failed ? kIterationsFailed : kOk;
}

// An option that would change nothing on this line (the table's options
// with --quiet or --dry-run, which print none; --name with --resume), as
// the error that says so; none when each option given applies.
std::optional<std::string> option_without_effect(const RunOptions& o) {
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
  if (o.config.empty() == o.resume.empty()) {
    fmt::print(stderr, "schedlab run: give either CONFIG or --resume RUN\n");
    return kBadInput;
  }
  if (!o.resume.empty() && o.iterations) {
    fmt::print(stderr, "schedlab run: --iterations starts a new run; a resumed run keeps the count "
                       "it started with\n");
    return kBadInput;
  }
  if (const auto error = option_without_effect(o)) {
    fmt::print(stderr, "schedlab run: {}\n", *error);
    return kBadInput;
  }
  const NewDatabase fresh(o.db.resolve());
  const int code = guarded<ConfigError>({}, [&]() -> int {
    std::optional<Store> store;
    Config config;
    ExecOptions exec;
    exec.progress = progress_style(o.progress ? std::optional(true) : o.no_progress ? std::optional(false) : std::nullopt,
                                   ::isatty(2) != 0, std::getenv("TERM"));
    std::string group;  // a multi-kernel plan's name
    int iterations = o.iterations;
    if (!o.resume.empty()) {
      store.emplace(o.db.resolve());
      auto run = store->runs_table().find_run_arg(o.resume);
      // A multi-kernel plan resumes as a whole, by its name or a member's.
      group = run ? run_group(*run).value_or("") : o.resume;
      const auto members = group.empty() ? std::vector<RunInfo>{} : group_runs(*store, group);
      if (!members.empty()) {
        config = parse_config(members.front().config_text, members.front().config_path);
        iterations = iterations_override(members.front());
        const auto kernels = plan_kernels(config.sut_lab);
        if (std::all_of(kernels.begin(), kernels.end(), [&](const std::string& k) {
              const auto r = store->runs_table().find_run_by_name(kernel_run_name(group, k));
              return r && r->status == RunStatus::kFinished;
            })) {
          fmt::print(stderr, "schedlab run: '{}' is already finished on every kernel\n", group);
          return kBadInput;
        }
      } else {
        group.clear();
        if (!run) {
          fmt::print(stderr, "schedlab run: no run '{}' in {}\n", o.resume, store->path());
          return kBadInput;
        }
        if (run->config_path == "(import)") {
          fmt::print(stderr, "schedlab run: run {} '{}' was imported, not run: there is nothing to resume "
                             "(schedlab rm {} removes it)\n",
                     run->id, run->name, run->id);
          return kBadInput;
        }
        if (run->status == RunStatus::kFinished) {
          fmt::print(stderr, "schedlab run: run {} '{}' is already finished\n", run->id, run->name);
          return kBadInput;
        }
        config = parse_config(run->config_text, run->config_path);
        iterations = iterations_override(*run);
        exec.resume_run = run->id;
      }
    } else {
      config = load_config_file(o.config);
      exec.name = o.name.empty() ? default_run_name(o.config) : o.name;
      if (const auto problem = run_name_problem(exec.name)) {
        fmt::print(stderr, "schedlab run: run name '{}': {}; give another --name\n",
                   terminal_safe(excerpt(exec.name)), *problem);
        return kBadInput;
      }
      if (is_multi_kernel(config)) group = exec.name;
    }
    // A smoke run: the same count for every point, recorded with the run
    // (and given again to the kernels a resumed group has not started).
    PlanOptions plan_options;
    if (iterations) {
      plan_options.iterations = iterations;
      exec.manifest["iterations_override"] = iterations;
    }
    const Plan plan = expand_plan(config, plan_options);
    const bool columns = kernels_as_columns(config);
    if (o.dry_run) {
      if (columns)
        print_kernel_columns(RunShape::kernel_columns(config, plan_options));
      else if (!group.empty())
        print_kernels(RunShape::per_kernel(config, plan_options), group);
      print_plan(config, plan, iterations);
      dry_run_checks(config, plan_options);
      return kOk;
    }
    if (columns) {
      // Kernels as columns: one run, every guest up at once.
      if (!store) store.emplace(o.db.resolve());
      const RunShape shape = RunShape::kernel_columns(config, plan_options);
      install_interrupt_handlers();
      const RunSummary s = run_kernel_columns(*store, shape, exec);
      if (!o.quiet && s.status == RunStatus::kFinished)
        print_table(*store, default_columns(*store, {s.run_id}), o.out);
      std::fflush(stdout);
      return report_run(s, store->path(), resume_command(std::to_string(s.run_id), store->path()));
    }
    if (!group.empty()) {
      if (!store) {
        store.emplace(o.db.resolve());
        // A new plan does not take over runs of an earlier one.
        for (const auto& k : plan_kernels(config.sut_lab))
          if (store->runs_table().find_run_by_name(kernel_run_name(group, k)) ||
              store->runs_table().find_run_by_name(group)) {
            fmt::print(stderr, "schedlab run: '{}' is already in {}: give another --name, or continue it "
                               "with {}\n", group, store->path(), resume_command(group, store->path()));
            return kBadInput;
          }
      }
      const RunShape shape = RunShape::per_kernel(config, plan_options);
      install_interrupt_handlers();
      return run_kernel_group(*store, shape, group, exec, o);
    }
    if (!store) store.emplace(o.db.resolve());
    const RunShape shape = RunShape::one_run(config, plan_options);
    install_interrupt_handlers();
    const RunSummary s = run_kernel(*store, shape, shape.kernels.front(), exec);
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
  auto* cmd = app.add_subcommand("run", "run an experiment config and store every iteration");
  document(*cmd,
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
