#include "runner/import/import_inputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>

#include "base/file.h"
#include "base/text.h"
#include "results/runs_table.h"
#include "runner/input/file_glob.h"
#include "runner/input/param_values.h"
#include "workloads/registry.h"

namespace schedlab {
namespace {

// The point of given parameters, what the output's text states for the
// rest, anything else unknown; and its labels.
void set_point(ImportInput& in, const std::vector<std::string>& params, const std::string& text) {
  in.point = point_from_output(*in.workload, params, text, "");
  in.params_json = point_json(in.point).dump();
  in.block = in.workload->block_label(in.point);
  in.row = in.workload->row_label(in.point);
}

// Rows in natural order within each block (2 before 16), whatever order
// the shell listed the files in.
void order_rows(std::vector<ImportInput>& inputs) {
  std::map<std::string, std::vector<std::string>> rows;
  for (const auto& in : inputs) rows[in.block].push_back(in.row);
  for (auto& [block, labels] : rows) {
    std::sort(labels.begin(), labels.end(), natural_less);
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
  }
  for (auto& in : inputs) {
    const auto& labels = rows[in.block];
    in.row_order = static_cast<int>(
        std::lower_bound(labels.begin(), labels.end(), in.row, natural_less) - labels.begin());
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
std::vector<std::string> file_params(const ImportFiles& o, const std::string& file,
                                     const boost::regex* re,
                                     const std::vector<std::string>& names) {
  std::vector<std::string> params = o.params;
  if (!re) return params;
  const std::string base = std::filesystem::path(file).filename().string();
  boost::smatch m;
  if (!boost::regex_search(base, m, *re))
    throw std::invalid_argument(fmt::format(
        "{}: its name '{}' does not match --param-from-name '{}'", file, base, o.param_from_name));
  for (const auto& n : names) {
    if (!m[n].matched)
      throw std::invalid_argument(
          fmt::format("{}: --param-from-name group '{}' matched nothing in '{}'", file, n, base));
    params.push_back(n + "=" + m[n].str());
  }
  return params;
}

}  // namespace

void check_import_run_name(const std::string& name) {
  if (const auto problem = run_name_problem(name))
    throw std::invalid_argument(
        fmt::format("run name '{}': {}; nothing imported", excerpt(name), *problem));
}

std::vector<ImportInput> read_import_files(const Workload& w, const ImportFiles& o) {
  std::unique_ptr<boost::regex> re;
  std::vector<std::string> names;
  if (!o.param_from_name.empty()) {
    try {
      re = std::make_unique<boost::regex>(o.param_from_name);
    } catch (const boost::regex_error& e) {
      throw std::invalid_argument(
          fmt::format("--param-from-name '{}': {}", o.param_from_name, e.what()));
    }
    names = group_names(o.param_from_name);
    if (names.empty())
      throw std::invalid_argument(fmt::format(
          "--param-from-name '{}' has no named group: write (?<NAME>...) for each parameter",
          o.param_from_name));
    for (const auto& n : names)
      for (const auto& given : o.params)
        if (given.starts_with(n + "="))
          throw std::invalid_argument(
              fmt::format("parameter '{}' is given by --param and by --param-from-name", n));
  }
  std::vector<ImportInput> inputs;
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
      throw std::invalid_argument(
          fmt::format("'{}': which variant? give VARIANT=FILE, or --variant NAME before the files",
                      terminal_safe(excerpt(file, 80))));
    ImportInput input{.workload = &w, .variant = variant, .file = file};
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
    if (eq == std::string::npos ||
        (!variant.empty() && std::filesystem::is_regular_file(arg, ec))) {
      add(arg);
      continue;
    }
    if (eq == 0)
      throw std::invalid_argument(
          fmt::format("'{}': expected VARIANT=FILE", terminal_safe(excerpt(arg, 80))));
    set_variant(arg.substr(0, eq));
    if (eq + 1 < arg.size()) add(arg.substr(eq + 1));
  }
  if (inputs.empty())
    throw std::invalid_argument("no files to import: give VARIANT=FILE [FILE...]");
  check_variant_has_files();
  order_rows(inputs);
  return inputs;
}

std::vector<ImportInput> mmtests_inputs(MmtestsRun& run) {
  std::vector<ImportInput> inputs;
  for (auto& out : run.outputs) {  // moved: the tree's texts are held once
    // The tree names only registered workloads (its formats are theirs).
    const Workload* w = find_workload(out.workload);
    if (!w) throw std::logic_error(fmt::format("{}: no workload '{}'", out.source, out.workload));
    ImportInput in{
        .workload = w, .variant = "default", .file = out.source, .text = std::move(out.text)};
    // The tree's parameters (its names), then what the log states.
    try {
      set_point(in, out.params, *in.text);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{}: {}", in.file, e.what()));
    }
    in.extracted = ReadSamples{std::move(out.samples), std::move(out.error)};
    inputs.push_back(std::move(in));
  }
  run.outputs.clear();
  order_rows(inputs);
  return inputs;
}

// uname -r's limit (the kernel's __NEW_UTS_LEN).
constexpr std::size_t kMaxReleaseLength = 64;

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

}  // namespace schedlab
