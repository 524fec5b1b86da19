#include "runner/import/mmtests_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "base/compression.h"
#include "base/file.h"
#include "base/text.h"

namespace schedlab {
namespace {

namespace fs = std::filesystem;

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// N of "iter-N".
std::optional<int> iteration_of(const std::string& dir) {
  if (!dir.starts_with("iter-") || !all_digits(std::string_view(dir).substr(5)) || dir.size() > 14)
    return std::nullopt;
  return std::stoi(dir.substr(5));
}

std::vector<std::string> entries(const fs::path& dir, bool directories) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory(ec) == directories) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end(), natural_less);
  return out;
}

// A log as mmtests opens it: .gz, .xz or plain, by content.
std::string read_log(const fs::path& file) {
  try {
    return decompressed(read_file(file), file.string());
  } catch (const std::runtime_error& e) {  // FileError, or corrupt data
    throw std::invalid_argument(e.what());
  }
}

// "dbench-8.log.xz" -> "dbench-8.log": the name mmtests gave the log.
std::string without_compression(std::string name) {
  for (const char* ext : {".gz", ".xz"})
    if (name.ends_with(ext)) return name.substr(0, name.size() - 3);
  return name;
}

// "prefix<digits>suffix" -> digits.
std::optional<std::string> number_between(const std::string& name, std::string_view prefix,
                                          std::string_view suffix) {
  if (!name.starts_with(prefix) || !name.ends_with(suffix) || name.size() <= prefix.size() + suffix.size())
    return std::nullopt;
  std::string n = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (!all_digits(n) || n.size() > 9) return std::nullopt;
  return n;
}

// The blocks of a hackbench log that holds every iteration appended: each
// starts at perf's "# Running" or rt-tests' "Running in" line.
std::vector<std::string> hackbench_blocks(const std::string& text) {
  std::vector<std::string> blocks;
  for (const auto line : split_lines(text)) {
    const bool starts = line.starts_with("# Running") || line.starts_with("Running in");
    const auto measured = [&] {  // the block so far holds its run's time
      return blocks.back().find("Time:") != std::string::npos ||
             blocks.back().find("Total time:") != std::string::npos;
    };
    if (blocks.empty() || (starts && measured())) blocks.emplace_back();
    blocks.back().append(line).append("\n");
  }
  return blocks;
}

void read_hackbench(const fs::path& logs, const std::string& mode, int iteration, MmtestsRun& run) {
  struct File {
    std::string name, groups, index;  // index empty: every iteration appended
  };
  std::vector<File> files;
  for (const auto& f : entries(logs, false)) {
    const std::string name = without_compression(f);
    const auto dash = name.rfind('-');
    if (auto g = number_between(name, "hackbench-", ""))
      files.push_back({f, *g, ""});
    else if (dash != std::string::npos && dash > 10 && all_digits(name.substr(dash + 1)))
      if (auto g2 = number_between(name.substr(0, dash), "hackbench-", ""))
        files.push_back({f, *g2, name.substr(dash + 1)});
  }
  std::stable_sort(files.begin(), files.end(), [](const File& a, const File& b) {
    return a.groups != b.groups ? natural_less(a.groups, b.groups) : natural_less(a.index, b.index);
  });
  for (const auto& f : files) {
    const std::string text = read_log(logs / f.name);
    const auto blocks = f.index.empty() ? hackbench_blocks(text) : std::vector<std::string>{text};
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      // perf bench sched messaging prints "Total time:", rt-tests "Time:".
      const bool perf = blocks[b].find("Total time:") != std::string::npos;
      run.outputs.push_back(
          {.workload = "hackbench",
           .params = {"modes=" + mode, "groups=" + f.groups, perf ? "backend=perf" : "backend=hackbench"},
           .text = blocks[b],
           .source = blocks.size() > 1 ? fmt::format("{} (run {} of {})", (logs / f.name).string(), b + 1,
                                                     blocks.size())
                                       : (logs / f.name).string(),
           .mmtests_iteration = iteration});
    }
  }
}

// One output per file named PREFIX<clients>.log.
void read_per_clients(const fs::path& logs, const std::string& workload,
                      const std::vector<std::string_view>& prefixes, int iteration, MmtestsRun& run) {
  std::vector<std::pair<std::string, std::string>> files;  // clients, file
  for (const auto& f : entries(logs, false))
    for (const auto prefix : prefixes)
      if (auto c = number_between(without_compression(f), prefix, ".log")) files.emplace_back(*c, f);
  std::stable_sort(files.begin(), files.end(),
                   [](const auto& a, const auto& b) { return natural_less(a.first, b.first); });
  for (const auto& [clients, f] : files) {
    MmtestsOutput out{.workload = workload,
                      .params = {"clients=" + clients},
                      .text = read_log(logs / f),
                      .source = (logs / f).string(),
                      .mmtests_iteration = iteration};
    if (workload == "pgbench") {
      // -S or not is a config variable of mmtests: pgbench's header says.
      for (const auto line : split_lines(out.text)) {
        if (!line.starts_with("transaction type: ")) continue;
        if (line.find("<builtin: select only>") != std::string_view::npos)
          out.params.push_back("builtin=select-only");
        else if (line.find("<builtin: TPC-B (sort of)>") != std::string_view::npos)
          out.params.push_back("builtin=tpcb-like");
        else if (line.find("<builtin: simple update>") != std::string_view::npos)
          out.params.push_back("builtin=simple-update");
        break;
      }
    }
    run.outputs.push_back(std::move(out));
  }
}

void read_test(const fs::path& test_dir, const std::string& test, int iteration, MmtestsRun& run) {
  const fs::path logs = test_dir / "logs";
  const std::string where = fmt::format("iter-{}/{}", iteration, test);
  std::error_code ec;
  if (!fs::is_directory(logs, ec)) {
    run.skipped.push_back(where + ": no logs directory");
    return;
  }
  const std::size_t before = run.outputs.size();
  static const std::vector<std::string> kModes = {"process-pipes", "process-sockets", "thread-pipes",
                                                  "thread-sockets"};
  if (test.starts_with("hackbench-") &&
      std::find(kModes.begin(), kModes.end(), test.substr(10)) != kModes.end())
    read_hackbench(logs, test.substr(10), iteration, run);
  else if (test == "tbench4" || test == "tbench")
    read_per_clients(logs, "tbench", {"dbench-", "tbench-"}, iteration, run);
  else if (test == "pgbench")
    read_per_clients(logs, "pgbench", {"pgbench-"}, iteration, run);
  else if (test.starts_with("dbench")) {
    run.skipped.push_back(where + ": dbench measures a file system; schedlab runs dbench's tbench only");
    return;
  } else {
    run.skipped.push_back(where + ": schedlab has no workload for this mmtests test");
    return;
  }
  if (run.outputs.size() == before) run.skipped.push_back(where + ": no log schedlab reads");
}

// uname -a: "Linux host 6.8.0-1-default #1 SMP ..."; the release is the third word.
std::string release_of(const std::string& uname) {
  std::vector<std::string> words;
  for (std::size_t at = 0; at < uname.size() && words.size() < 3;) {
    const auto start = uname.find_first_not_of(" \t", at);
    if (start == std::string::npos) break;
    const auto end = uname.find_first_of(" \t", start);
    words.push_back(uname.substr(start, end - start));
    at = end == std::string::npos ? uname.size() : end;
  }
  return words.size() == 3 && words[0] == "Linux" ? words[2] : "";
}

}  // namespace

std::vector<MmtestsRun> read_mmtests_tree(const std::string& log_dir) {
  std::error_code ec;
  if (!fs::is_directory(log_dir, ec))
    throw std::invalid_argument(fmt::format("{}: no such directory (an mmtests work/log)", log_dir));
  std::vector<MmtestsRun> runs;
  for (const auto& name : entries(log_dir, true)) {
    MmtestsRun run{.name = name, .dir = (fs::path(log_dir) / name).string()};
    std::vector<std::pair<int, std::string>> iters;
    for (const auto& d : entries(run.dir, true))
      if (auto n = iteration_of(d)) iters.emplace_back(*n, d);
    if (iters.empty()) continue;  // not a run: mmtests writes other things here too
    std::sort(iters.begin(), iters.end());
    run.iterations = static_cast<int>(iters.size());
    for (const auto& [n, d] : iters) {
      const fs::path iter = fs::path(run.dir) / d;
      if (fs::is_regular_file(iter / "kernel.version", ec)) {
        const std::string text = read_log(iter / "kernel.version");
        const auto lines = split_lines(text);
        const std::string line = lines.empty() ? "" : std::string(lines.front());
        run.kernel_versions.push_back(line);
        if (run.kernel_release.empty()) run.kernel_release = release_of(line);
      }
      for (const auto& test : entries(iter, true)) read_test(iter / test, test, n, run);
    }
    runs.push_back(std::move(run));
  }
  if (runs.empty())
    throw std::invalid_argument(fmt::format(
        "{}: no mmtests run here (expected RUN/iter-N/TEST/logs, as in mmtests' work/log)", log_dir));
  return runs;
}

}  // namespace schedlab
