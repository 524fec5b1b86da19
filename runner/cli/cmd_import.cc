// schedlab import: saved outputs of a workload's tool recorded as a run, to
// compare with schedlab's own.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/message.h"
#include "base/text.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/import/import_runs.h"

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

int import_files(const ImportOptions& o) {
  const Workload& w = workload_arg(o.workload);
  const auto r = schedlab::import_files(
      o.db.resolve(), w, o.name,
      {.ordered = o.ordered,
       .params = o.params,
       .param_from_name = o.param_from_name,
       .kernel = o.kernel});
  print_message(fmt::format("imported run {} '{}': {}, {} failed", r.run, o.name,
                            count_of(r.outputs, "file"), r.failed));
  return r.failed ? kIterationsFailed : kOk;
}

// Every run of an mmtests tree, each as a schedlab run of that name with
// one variant ("default"): compare two of them by name.
int import_mmtests(const ImportOptions& o) {
  const auto tree = schedlab::import_mmtests(
      o.db.resolve(), o.mmtests,
      {.log_bytes = o.max_log_mib << 20, .tree_bytes = o.max_tree_mib << 20}, o.kernel);
  for (const auto& line : tree.lines) fmt::print(stderr, "{}", line);
  return tree.failed ? kIterationsFailed : kOk;
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
  auto* imp = add_command(
      app, "import", "record saved outputs as a run, to compare with schedlab's",
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
         "name=value: the parameters the outputs were made with (repeat, each once); checked "
         "against what each output states, which is taken where no --param gives it; the rest "
         "is unknown (?)")
      ->allow_extra_args(false);
  imp->add_option("--param-from-name", io->param_from_name,
                  "regular expression whose named groups, found in each file's name, are its parameters "
                  "(e.g. 'hackbench-(?<groups>[0-9]+)'): many sweep points in one run");
  auto* mmtests = imp->add_option(
      "--mmtests", io->mmtests,
      "an mmtests results tree (work/log): each run in it (RUN/iter-N/TEST/logs) becomes "
      "a schedlab run of its name; hackbench, tbench4 and pgbench logs are read");
  // A limit of --mmtests in MiB (1 to 1 TiB), its default shown in --help.
  const auto mib_limit = [&](const char* name, std::size_t& mib, const char* help) {
    imp->add_option(name, mib, help)
        ->capture_default_str()
        ->check(CLI::Range(1, 1 << 20))
        ->needs(mmtests);
  };
  mib_limit("--max-log-mib", io->max_log_mib,
            "with --mmtests: a log larger than this, decompressed, is refused");
  mib_limit("--max-tree-mib", io->max_tree_mib,
            "with --mmtests: the memory the tree's outputs may take before they are stored (their "
            "kept text, at most 1 MiB each, and their samples)");
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
