// schedlab import: saved outputs of a workload's tool recorded as a run, to
// compare with schedlab's own.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

#include "base/file.h"
#include "base/text.h"
#include "base/time.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/import/mmtests_tree.h"
#include "runner/input/file_glob.h"
#include "runner/input/param_values.h"
#include "runner/run/iteration_output.h"
#include "runner/run/manifest.h"
#include "runner/run/run_record.h"

namespace schedlab::cli {
namespace {

struct ImportOptions {
  std::string workload;
  std::string name;
  // VARIANT=FILE, FILE (of the variant named last) or VARIANT= (the files
  // after it are that variant's): each file is one iteration.
  std::vector<std::string> inputs;
  // --variant NAME: the files after it, on the command line, are its.
  std::vector<std::string> variants;
  // Both as typed, in order: (true, variant) or (false, input), from
  // CLI11's parse order (the two lists alone lose it).
  std::vector<std::pair<bool, std::string>> ordered;
  std::vector<std::string> params;
  // A regular expression whose named groups, matched in each file's name,
  // are that file's parameters: many sweep points into one run.
  std::string param_from_name;
  // An mmtests results tree (work/log): a run per mmtests run name.
  std::string mmtests;
  // Its limits, in MiB: one log decompressed, and what the tree holds
  // until it is stored (mmtests_tree.h).
  std::size_t max_log_mib = MmtestsLimits{}.log_bytes >> 20;
  std::size_t max_tree_mib = MmtestsLimits{}.tree_bytes >> 20;
  // --kernel RELEASE: the kernel the outputs were measured on (uname -r).
  std::string kernel;
  DbOption db;
};

// uname -r's limit (the kernel's __NEW_UTS_LEN).
constexpr std::size_t kMaxReleaseLength = 64;

// Why `release` cannot be a kernel release as uname -r prints it: too
// long, or not printable ASCII without spaces; nothing when it can be.
std::optional<std::string> kernel_release_problem(std::string_view release) {
  if (release.empty()) return "it is empty";
  if (release.size() > kMaxReleaseLength)
    return fmt::format("it is {} bytes long, and uname -r prints at most {}", release.size(),
                       kMaxReleaseLength);
  if (const auto problem = name_problem(release)) return problem;
  for (std::size_t i = 0; i < release.size(); ++i)
    if (release[i] <= ' ' || static_cast<unsigned char>(release[i]) >= 0x7F)
      return fmt::format(
          "it holds '{}' at byte {}: a release is printable ASCII without spaces, as "
          "uname -r prints it",
          release[i] == ' ' ? std::string(" ") : terminal_safe(release.substr(i, 1)), i);
  return std::nullopt;
}

void check_kernel_release(const std::string& release) {
  if (const auto problem = kernel_release_problem(release))
    throw std::invalid_argument(
        fmt::format("--kernel '{}': {}", terminal_safe(excerpt(release, 80)), *problem));
}

// One tool output to store as an iteration: its workload and variant, the
// sweep point it was made at, and where it comes from (a file, read when it
// is stored, or text already read: a run of an mmtests log, with the
// samples mmtests' extractor takes from it, or why it took none).
struct Input {
  const Workload* workload = nullptr;
  std::string variant, file;
  std::optional<std::string> text;
  std::optional<ReadSamples> extracted;
  Point point;
  std::string params_json, block, row;
  int row_order = 0;
};

// A run name is checked before anything is written: text (UTF-8, no
// control characters) that JSON, tables and terminals can carry, and not
// all digits (a RUN argument's id).
void check_run_name(const std::string& name) {
  if (const auto problem = run_name_problem(name))
    throw std::invalid_argument(fmt::format("run name '{}': {}; nothing imported", excerpt(name), *problem));
}

// The point of given parameters, what the output's text states for the
// rest, anything else unknown; and its labels.
void set_point(Input& in, const std::vector<std::string>& params, const std::string& text) {
  in.point = point_from_output(*in.workload, params, text, "");
  in.params_json = point_json(in.point).dump();
  in.block = in.workload->block_label(in.point);
  in.row = in.workload->row_label(in.point);
}

// Rows in natural order within each block (2 before 16), whatever order
// the shell listed the files in.
void order_rows(std::vector<Input>& inputs) {
  std::map<std::string, std::vector<std::string>> rows;
  for (const auto& in : inputs) rows[in.block].push_back(in.row);
  for (auto& [block, labels] : rows) {
    std::sort(labels.begin(), labels.end(), natural_less);
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
  }
  for (auto& in : inputs) {
    const auto& labels = rows[in.block];
    in.row_order = static_cast<int>(std::lower_bound(labels.begin(), labels.end(), in.row, natural_less) - labels.begin());
  }
}

// The names of a pattern's named groups, (?<name>...), in order; not the
// lookbehinds (?<= and (?<!.
std::vector<std::string> group_names(const std::string& pattern) {
  std::vector<std::string> names;
  for (auto at = pattern.find("(?<"); at != std::string::npos; at = pattern.find("(?<", at + 3)) {
    const auto end = pattern.find('>', at + 3);
    if (end == std::string::npos) break;
    const std::string name = pattern.substr(at + 3, end - at - 3);
    if (!name.empty() && name[0] != '=' && name[0] != '!') names.push_back(name);
  }
  return names;
}

// The --param overrides of one file: the common ones, then what its name
// gives through --param-from-name.
std::vector<std::string> file_params(const ImportOptions& o, const std::string& file, const boost::regex* re,
                                     const std::vector<std::string>& names) {
  std::vector<std::string> params = o.params;
  if (!re) return params;
  const std::string base = std::filesystem::path(file).filename().string();
  boost::smatch m;
  if (!boost::regex_search(base, m, *re))
    throw std::invalid_argument(fmt::format("{}: its name '{}' does not match --param-from-name '{}'", file, base,
                                            o.param_from_name));
  for (const auto& n : names) {
    if (!m[n].matched)
      throw std::invalid_argument(fmt::format("{}: --param-from-name group '{}' matched nothing in '{}'", file, n, base));
    params.push_back(n + "=" + m[n].str());
  }
  return params;
}

std::vector<Input> read_inputs(const ImportOptions& o, const Workload& w) {
  std::unique_ptr<boost::regex> re;
  std::vector<std::string> names;
  if (!o.param_from_name.empty()) {
    try {
      re = std::make_unique<boost::regex>(o.param_from_name);
    } catch (const boost::regex_error& e) {
      throw std::invalid_argument(fmt::format("--param-from-name '{}': {}", o.param_from_name, e.what()));
    }
    names = group_names(o.param_from_name);
    if (names.empty())
      throw std::invalid_argument(fmt::format(
          "--param-from-name '{}' has no named group: write (?<NAME>...) for each parameter", o.param_from_name));
    for (const auto& n : names)
      for (const auto& given : o.params)
        if (given.starts_with(n + "="))
          throw std::invalid_argument(fmt::format("parameter '{}' is given by --param and by --param-from-name", n));
  }
  std::vector<Input> inputs;
  std::string variant;  // the one the next bare file belongs to
  // A variant named with no file after it (--variant b GLOB where the
  // glob matched nothing) is an error, never a variant dropped.
  std::size_t files_of_variant = 0;
  const auto check_variant_has_files = [&] {
    if (!variant.empty() && files_of_variant == 0)
      throw std::invalid_argument(
          fmt::format("variant '{}' has no files (a glob that matched nothing?); nothing imported",
                      terminal_safe(excerpt(variant, 80))));
  };
  const auto add_file = [&](const std::string& file) {
    if (variant.empty())
      throw std::invalid_argument(fmt::format(
          "'{}': which variant? give VARIANT=FILE, or --variant NAME before the files", terminal_safe(excerpt(file, 80))));
    Input input{.workload = &w, .variant = variant, .file = file};
    if (const std::string problem = regular_file_problem(input.file); !problem.empty())
      throw std::invalid_argument(fmt::format("{}: {}", input.file, problem));
    ++files_of_variant;
    // The output's own statement of its parameters fills in what --param
    // and the name leave out; read now, again when stored (never held).
    const std::string text = read_input_file(input.file);
    try {
      set_point(input, file_params(o, input.file, re.get(), names), text);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{}: {}", input.file, e.what()));
    }
    inputs.push_back(std::move(input));
  };
  // A glob the shell left as it is (after VARIANT=, or quoted): its files.
  const auto add = [&](const std::string& file) {
    for (const auto& f : expand_file_argument(file)) add_file(f);
  };
  const auto set_variant = [&](const std::string& name) {
    if (const auto problem = name_problem(name))
      throw std::invalid_argument(fmt::format("variant name '{}': {}", excerpt(name), *problem));
    check_variant_has_files();
    variant = name;
    files_of_variant = 0;
  };
  for (const auto& [is_variant, arg] : o.ordered) {
    if (is_variant) {
      set_variant(arg);
      continue;
    }
    // A file of the current variant, unless it reads VARIANT=...: a file
    // whose own name holds '=' is taken as a file when it exists.
    const auto eq = arg.find('=');
    std::error_code ec;
    if (eq == std::string::npos || (!variant.empty() && std::filesystem::is_regular_file(arg, ec))) {
      add(arg);
      continue;
    }
    if (eq == 0) throw std::invalid_argument(fmt::format("'{}': expected VARIANT=FILE", terminal_safe(excerpt(arg, 80))));
    set_variant(arg.substr(0, eq));
    if (eq + 1 < arg.size()) add(arg.substr(eq + 1));
  }
  if (inputs.empty()) throw std::invalid_argument("no files to import: give VARIANT=FILE [FILE...]");
  check_variant_has_files();
  order_rows(inputs);
  return inputs;
}

// Records one run of the inputs (all checked already); returns how many
// outputs failed (did not parse, or failed by their workload's judgement:
// each kept, with its error, as a failed iteration).
struct Imported {
  std::int64_t run = 0;
  int failed = 0;
};
Imported store_run(Store& store, const std::string& name, const nlohmann::json& source,
                   const nlohmann::json& manifest, const std::vector<Input>& inputs) {
  std::vector<std::string> variants;
  std::vector<const Workload*> workloads;
  for (const auto& in : inputs) {
    if (std::find(variants.begin(), variants.end(), in.variant) == variants.end()) variants.push_back(in.variant);
    if (std::find(workloads.begin(), workloads.end(), in.workload) == workloads.end())
      workloads.push_back(in.workload);
  }
  // Paths from elsewhere may not be UTF-8: kept, with U+FFFD for what is not.
  const std::string text = source.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  RunRecord record{
      .name = name,
      .config_path = "(import)",
      .config_text = text,
      .manifest_json = manifest.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
      .workloads = workloads};
  for (const auto& v : variants) record.variants.emplace_back(v, "{}");
  const auto run = create_run_record(store, record);
  std::map<std::string, std::int64_t> ids;
  for (const auto& v : store.variants_table().variants(run)) ids[v.name] = v.id;
  // variant, workload, point -> next iteration
  std::map<std::tuple<std::string, std::string, std::string>, int> next;
  int failed = 0;
  for (const auto& in : inputs) {
    const Workload& w = *in.workload;
    IterationRow row{.run_id = run,
                     .variant_id = ids[in.variant],
                     .workload = w.name(),
                     .block = in.block,
                     .row = in.row,
                     .row_order = in.row_order,
                     .params_json = in.params_json,
                     .iteration = next[{in.variant, w.name(), in.params_json}]++,
                     .status = IterationStatus::kOk,
                     .started_at = utc_now_iso8601()};
    row.stdout_text = in.text ? *in.text : read_input_file(in.file);
    // Judged as `run` judges the same output: parse (or mmtests' extractor
    // rules), unsupported, the workload's own verdict.
    judge_into(row, w, in.point, row.stdout_text, "", in.extracted ? &*in.extracted : nullptr);
    if (row.status != IterationStatus::kOk) {
      row.error = fmt::format("{}: {}", in.file, row.error);
      fmt::print(stderr, "schedlab: {}\n", row.error);
      ++failed;
    }
    store.iterations_table().add_iteration(row);
  }
  store.runs_table().set_run_status(run, RunStatus::kFinished, true);
  return {run, failed};
}

int import_files(const ImportOptions& o) {
  const Workload& w = workload_arg(o.workload);
  // Every input is checked before anything is written.
  const std::vector<Input> inputs = read_inputs(o, w);
  // What was imported, as the run's "config": reproducible provenance
  // (each file as VARIANT=FILE, whichever way it was given).
  nlohmann::json files = nlohmann::json::array();
  for (const auto& in : inputs) files.push_back(in.variant + "=" + in.file);
  nlohmann::json source = {
      {"imported", true}, {"workload", w.name()}, {"params", o.params}, {"inputs", files}};
  if (!o.param_from_name.empty()) source["param_from_name"] = o.param_from_name;
  check_run_name(o.name);
  nlohmann::json manifest = {{"imported", true}};
  if (!o.kernel.empty()) manifest["kernel_release"] = o.kernel;  // checked by import_command
  Store store(o.db.resolve());
  if (store.runs_table().find_run_by_name(o.name))
    throw std::invalid_argument(
        fmt::format("{} already has a run named '{}'; nothing imported", store.path(), o.name));
  // One transaction: a killed or failed import leaves nothing behind.
  Store::WriteBatch batch(store);
  const auto r = store_run(store, o.name, source, manifest, inputs);
  batch.commit();
  fmt::print(stderr, "imported run {} '{}': {}, {} failed\n", r.run, o.name, count_of(inputs.size(), "file"),
             r.failed);
  return r.failed ? kIterationsFailed : kOk;
}

// Every run of an mmtests tree, each as a schedlab run of that name with
// one variant ("default"): compare two of them by name. The whole tree is
// read, and every name checked free, before anything is written.
int import_mmtests(const ImportOptions& o) {
  auto runs = read_mmtests_tree(
      o.mmtests, {.log_bytes = o.max_log_mib << 20, .tree_bytes = o.max_tree_mib << 20});
  std::vector<std::vector<Input>> inputs(runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    for (auto& out : runs[r].outputs) {  // moved: the tree's texts are held once
      Input in{.workload = &workload_arg(out.workload),
               .variant = "default",
               .file = out.source,
               .text = std::move(out.text)};
      // The tree's parameters (its names), then what the log states.
      try {
        set_point(in, out.params, *in.text);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: {}", in.file, e.what()));
      }
      in.extracted = ReadSamples{std::move(out.samples), std::move(out.error)};
      inputs[r].push_back(std::move(in));
    }
    runs[r].outputs.clear();
    order_rows(inputs[r]);
  }
  for (auto& run : runs) {
    check_run_name(run.name);
    // The tree's record is data: a release uname -r could not print is none.
    if (const auto problem = run.kernel_release.empty()
                                 ? std::nullopt
                                 : kernel_release_problem(run.kernel_release)) {
      fmt::print(stderr, "schedlab: {}: kernel.version's release '{}' ignored: {}\n",
                 terminal_safe(run.name), terminal_safe(run.kernel_release.substr(0, 80)),
                 *problem);
      run.kernel_release.clear();
    }
    // --kernel names the kernel of the runs whose tree does not; a tree
    // that records another is believed over the command line, and said.
    if (o.kernel.empty()) continue;
    if (run.kernel_release.empty())
      run.kernel_release = o.kernel;
    else if (run.kernel_release != o.kernel)
      throw std::invalid_argument(
          fmt::format("--kernel {}: the tree's run '{}' records kernel {} (iter-0/kernel.version); "
                      "nothing imported",
                      o.kernel, terminal_safe(run.name), terminal_safe(run.kernel_release)));
  }
  Store store(o.db.resolve());
  for (const auto& run : runs)
    if (store.runs_table().find_run_by_name(run.name))
      throw std::invalid_argument(fmt::format(
          "{} already has a run named '{}'; nothing imported (import into another --db)",
          store.path(), run.name));
  int failed = 0;
  // Every run of the tree in one transaction: all of it or nothing.
  Store::WriteBatch batch(store);
  std::vector<std::string> printed;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto& run = runs[r];
    for (const auto& why : run.skipped) fmt::print(stderr, "schedlab: {}: skipped {}\n", run.name, why);
    if (inputs[r].empty()) {
      fmt::print(stderr, "schedlab: {}: nothing schedlab reads; no run stored\n", run.name);
      continue;
    }
    const nlohmann::json source = {{"imported", true}, {"mmtests", run.dir}};
    nlohmann::json manifest = {{"imported", true},
                               {"mmtests", {{"dir", run.dir},
                                            {"iterations", run.iterations},
                                            {"kernel_versions", run.kernel_versions},
                                            {"skipped", run.skipped}}}};
    if (!run.kernel_release.empty()) manifest["kernel_release"] = run.kernel_release;
    const auto stored = store_run(store, run.name, source, manifest, inputs[r]);
    printed.push_back(fmt::format("imported run {} '{}' ({}): {} from {}, {} failed\n", stored.run, run.name,
                                  run.kernel_release.empty() ? "kernel unknown" : run.kernel_release,
                                  count_of(inputs[r].size(), "output"), count_of(run.iterations, "iteration"),
                                  stored.failed));
    failed += stored.failed;
  }
  batch.commit();
  for (const auto& line : printed) fmt::print(stderr, "{}", line);
  return failed ? kIterationsFailed : kOk;
}

int import_command(const ImportOptions& o) {
  return guarded<std::invalid_argument>({.prefix = "schedlab import"}, [&] {
    if (!o.kernel.empty()) check_kernel_release(o.kernel);
    if (!o.mmtests.empty()) {
      if (!o.workload.empty() || !o.inputs.empty() || !o.variants.empty() || !o.name.empty() ||
          !o.params.empty() || !o.param_from_name.empty())
        throw std::invalid_argument(
            "--mmtests DIR takes no workload, files, --name or --param: the tree says them");
      return import_mmtests(o);
    }
    if (o.workload.empty() || o.inputs.empty() || o.name.empty())
      throw std::invalid_argument(
          "give WORKLOAD VARIANT=FILE [FILE...] --name NAME (or --variant NAME FILE...), or --mmtests DIR (an "
          "mmtests work/log)");
    return import_files(o);
  });
}

}  // namespace

void register_import(CLI::App& app, int& exit_code) {
  auto io = std::make_shared<ImportOptions>();
  auto* imp =
      app.add_subcommand("import", "record saved outputs as a run, to compare with schedlab's");
  document(
      *imp,
      {"Records saved tool outputs as a run, one iteration per file, so compare and history show "
       "them next to schedlab's own runs; or reads an mmtests results tree into one run per "
       "mmtests run name. Every file is checked before anything is stored, in one transaction.",
       {{"schedlab import hackbench base=imp/base-*.txt patched=imp/patched-*.txt --name patch-v2",
         "two variants from two globs (expanded by schedlab)"},
        {"schedlab import hackbench sweep=hackbench-*.txt --param-from-name "
         "'hackbench-(?<groups>[0-9]+)' --name sweep",
         "a row per group count, from the files' names"},
        {"schedlab import hackbench base=out-6.12/*.txt --kernel 6.12.0 --name v6.12",
         "outputs measured on 6.12, for history to place by kernel"},
        {"schedlab import --mmtests work/log", "an mmtests tree"}}});
  imp->add_option("workload", io->workload, "workload name");
  auto* inputs = imp->add_option(
      "inputs", io->inputs,
      "VARIANT=FILE, then more FILEs of that variant (VARIANT= FILE... too), one "
      "iteration each; the first variant is the baseline; a FILE holding * ? or [ "
      "(base=imp/base-*.txt, which bash leaves as it is) is a glob schedlab expands, "
      "sorted");
  auto* variants = imp->add_option("--variant", io->variants,
                                   "NAME: the files after it are this variant's (repeat for the next variant)")
                       ->allow_extra_args(false);
  imp->add_option("--name", io->name, "run name");
  imp->add_option(
      "--kernel", io->kernel,
      "RELEASE: the kernel the outputs were measured on, as uname -r prints it (list shows "
      "it, history orders by it, compare says where it differs); with --mmtests, the "
      "kernel of the runs whose tree records none (iter-N/kernel.version)");
  imp->add_option(
         "--param", io->params,
         "name=value: the parameters the outputs were made with (repeat); checked against what "
         "each output states, which is taken where no --param gives it; the rest is unknown (?)")
      ->allow_extra_args(false);
  imp->add_option("--param-from-name", io->param_from_name,
                  "regular expression whose named groups, found in each file's name, are its parameters "
                  "(e.g. 'hackbench-(?<groups>[0-9]+)'): many sweep points in one run");
  auto* mmtests = imp->add_option(
      "--mmtests", io->mmtests,
      "an mmtests results tree (work/log): each run in it (RUN/iter-N/TEST/logs) becomes "
      "a schedlab run of its name; hackbench, tbench4 and pgbench logs are read");
  imp->add_option("--max-log-mib", io->max_log_mib,
                  "with --mmtests: a log larger than this, decompressed, is refused")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20))
      ->needs(mmtests);
  imp->add_option("--max-tree-mib", io->max_tree_mib,
                  "with --mmtests: the memory the tree's outputs may take before they are stored "
                  "(their kept text, at most 1 MiB each, and their samples)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20))
      ->needs(mmtests);
  add_db_option(*imp, io->db);
  imp->callback([io, imp, inputs, variants, &exit_code] {
    // Which variant each file follows: the order they were typed in.
    std::size_t next_input = 0, next_variant = 0;
    io->ordered.clear();
    for (const CLI::Option* opt : imp->parse_order()) {
      if (opt == variants && next_variant < io->variants.size()) io->ordered.emplace_back(true, io->variants[next_variant++]);
      if (opt == inputs && next_input < io->inputs.size()) io->ordered.emplace_back(false, io->inputs[next_input++]);
    }
    exit_code = import_command(*io);
  });
}

}  // namespace schedlab::cli
