// schedlab export: runs in the formats of the dashboards people already use: KernelCI's
// KCIDB, Bencher's BMF, Apache Otava's CSV (analysis/export/).
#include <fmt/format.h>

#include <functional>
#include <memory>

#include "analysis/export/bmf.h"
#include "analysis/export/kcidb.h"
#include "analysis/export/otava.h"
#include "base/json_data.h"
#include "base/text.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_file.h"
#include "runner/cli/output_format.h"
#include "workloads/registry.h"
#include "workloads/workload.h"

namespace schedlab::cli {
namespace {

struct ExportCmdOptions {
  std::vector<std::string> runs;
  Format format = Format::kKcidb;
  std::string workload;
  std::string output;  // -o FILE; empty or "-": stdout
  std::string origin = "schedlab";
  bool origin_given = false;
  double level = 0.95;
  DbOption db;
};

// What a format writes of the runs, and what it could not say (one line
// each, for stderr).
struct Document {
  std::string text;
  std::vector<std::string> left_out;
};

// Bencher's report is one run on one branch and testbed; KCIDB and Otava
// take many (Otava's is a series of them).
struct ExportRender {
  std::function<Document(const std::vector<ExportRun>&, const ExportCmdOptions&)> render;
  bool one_run = false;
  bool all_runs_by_default = false;
};

std::string dumped(const nlohmann::json& j) {
  // A name that is not UTF-8 (a database made elsewhere) becomes U+FFFD:
  // the file stays JSON.
  return json_output(j, 2, nlohmann::json::error_handler_t::replace) + "\n";
}

const Renderers<ExportRender> kExportOutputs{
    {Format::kKcidb, {[](const std::vector<ExportRun>& runs, const ExportCmdOptions& o) {
       return Document{dumped(kcidb_report(runs, o.origin)), {}};
     }}},
    {Format::kBmf,
     {[](const std::vector<ExportRun>& runs, const ExportCmdOptions&) {
        BmfReport r = bmf_report(runs.at(0));
        return Document{dumped(r.json), std::move(r.left_out)};
      },
      true}},
    {Format::kOtava,
     {[](const std::vector<ExportRun>& runs, const ExportCmdOptions&) {
        OtavaTable t = otava_csv(runs);
        if (t.series.empty())
          throw std::invalid_argument(
              "--format otava: no series has a centre in every run exported");
        return Document{std::move(t.csv), std::move(t.left_out)};
      },
      false, true}},
};

// The runs to export: those named, else the latest (every run for a
// format that is a series).
std::optional<std::vector<std::int64_t>> selected_runs(const Store& store,
                                                       const ExportCmdOptions& o,
                                                       const ExportRender& r) {
  std::vector<std::int64_t> ids;
  for (const auto& arg : o.runs) {
    const auto run = store.runs_table().find_run_arg(arg);
    const auto why =
        run ? named_twice(ids, o.runs, run->id, run->name, arg)
            : fmt::format("no run '{}' in {}", terminal_safe(excerpt(arg, 60)), store.path());
    if (why) return print_message(fmt::format("schedlab export: {}\n", *why)), std::nullopt;
    ids.push_back(run->id);
  }
  if (!ids.empty()) return ids;
  const auto labels = store.runs_table().run_labels();
  if (labels.empty()) {
    print_message(fmt::format("schedlab export: no runs in {}\n", store.path()));
    return std::nullopt;
  }
  if (!r.all_runs_by_default) return std::vector<std::int64_t>{labels.back().id};
  for (const auto& l : labels) ids.push_back(l.id);
  return ids;
}

int export_command(const ExportCmdOptions& o) {
  const ExportRender& render = kExportOutputs.of(o.format);
  if (o.origin_given && o.format != Format::kKcidb) {
    fmt::print(
        stderr,
        "schedlab export: --origin does nothing with --format {}: it applies to --format kcidb\n",
        format_name(o.format));
    return kBadInput;
  }
  if (const auto problem = kcidb_origin_problem(o.origin)) {
    print_message(fmt::format("schedlab export: --origin '{}': {}\n",
                              terminal_safe(excerpt(o.origin, 60)), *problem));
    return kBadInput;
  }
  if (render.one_run && o.runs.size() > 1) {
    fmt::print(
        stderr,
        "schedlab export: --format {} takes one run (a Bencher report is one run of a branch on a "
        "testbed); export each run on its own\n",
        format_name(o.format));
    return kBadInput;
  }
  return guarded<std::invalid_argument>({.prefix = "schedlab export"}, [&]() -> int {
    if (!o.workload.empty()) workload_arg(o.workload);  // a mistyped name: the nearest one
    Store store(o.db.resolve(), Store::Access::kReadOnly);
    const auto ids = selected_runs(store, o, render);
    if (!ids) return kBadInput;
    const std::vector<ExportRun> runs =
        export_runs(store, *ids, o.workload, {.level = o.level, .known_domain = declared_domain});
    std::size_t cells = 0;
    for (const auto& r : runs) cells += r.cells.size();
    if (cells == 0)
      throw std::invalid_argument(
          o.workload.empty()
              ? "the runs exported have no cell"
              : fmt::format("the runs exported have no cell of workload '{}'", o.workload));
    const Document doc = render.render(runs, o);
    OutputFile out(o.output);
    out.write(doc.text);
    out.close();
    if (!doc.left_out.empty()) {
      print_message(fmt::format(
          "schedlab export: --format {} cannot state {}, left out:\n", format_name(o.format),
          o.format == Format::kOtava ? fmt::format("{} series", doc.left_out.size())
                                     : count_of(doc.left_out.size(), "cell")));
      for (const auto& line : doc.left_out)
        print_message(fmt::format("  {}\n", terminal_safe(line)));
    }
    if (!out.is_stdout())
      print_message(fmt::format("schedlab export: wrote {} ({} of {})\n", terminal_safe(o.output),
                                count_of(cells, "cell"), count_of(runs.size(), "run")));
    return kOk;
  });
}

}  // namespace

void register_export(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ExportCmdOptions>();
  auto* cmd = add_command(
      app, "export", "runs in KernelCI's KCIDB, Bencher's BMF or Apache Otava's CSV",
      {"Writes runs in another tool's format, each cell as compare computes it: kcidb, KernelCI's "
       "KCIDB report (schema v5.3: a checkout and a build per run, a test per cell, DONE with its "
       "centre, FAIL when every iteration failed, SKIP when the SUT cannot measure it, the samples "
       "and interval in misc); bmf, Bencher Metric Format (a benchmark per row and variant, the "
       "centre and its interval as value, lower_value and upper_value; one run); otava, the CSV "
       "Apache Otava reads for change-point detection (a line per run, oldest first: time, run, "
       "kernel, commit, then a column per series). What a run's manifest does not record (its "
       "kernel, its commit) is left empty, never guessed; a cell or series a format cannot state "
       "is named on stderr. Without RUN: the latest run (kcidb, bmf), every run (otava).",
       {{"schedlab export --format kcidb patch-v2 -o patch-v2.kcidb.json",
         "a run as a KCIDB report, for kcidb-submit"},
        {"schedlab export --format bmf patch-v2 -o patch-v2.bmf.json",
         "a run for bencher run --adapter json --file patch-v2.bmf.json"},
        {"schedlab export --format otava --workload hackbench -o hackbench.csv",
         "every run's hackbench cells as a series for otava analyze"}}});
  cmd->add_option("runs", o->runs,
                  "run ids or names (default: the latest run; every run for otava)");
  kExportOutputs.add_option(*cmd, o->format);
  cmd->get_option("--format")->required();
  cmd->add_option("--workload", o->workload, "only this workload's cells");
  cmd->add_option("-o,--output", o->output, "the file to write (default: stdout; - for stdout)");
  cmd->add_option_function<std::string>(
         "--origin",
         [o](const std::string& v) {
           o->origin = v;
           o->origin_given = true;
         },
         "--format kcidb: the origin (CI system) the ids start with (default: schedlab)")
      ->type_name("TEXT");
  cmd->add_option("--level", o->level, "confidence level of each centre's interval")
      ->check(number_range(0.5, 0.999999))
      ->capture_default_str();
  add_db_option(*cmd, o->db);
  cmd->callback([o, &exit_code] { exit_code = export_command(*o); });
}

}  // namespace schedlab::cli
