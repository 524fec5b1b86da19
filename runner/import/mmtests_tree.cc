#include "runner/import/mmtests_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "base/compression.h"
#include "base/file.h"
#include "base/text.h"
#include "runner/import/mmtests_extract.h"
#include "workloads/registry.h"

namespace schedlab {
namespace {

namespace fs = std::filesystem;

// mmtests tests schedlab knows of and does not read, with why.
struct NotRead {
  std::string_view prefix, why;
};
constexpr NotRead kNotRead[] = {
    {"dbench", "dbench measures a file system; schedlab runs dbench's tbench only"},
};

// N of "iter-N".
std::optional<int> iteration_of(const std::string& dir) {
  if (!dir.starts_with("iter-") || !all_digits(std::string_view(dir).substr(5)) || dir.size() > 14)
    return std::nullopt;
  return std::stoi(dir.substr(5));
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

// One reading of a tree: its resolved root, the formats of the workloads,
// and what is held so far against the limits.
class TreeReader {
 public:
  TreeReader(const std::string& dir, const MmtestsLimits& limits) : dir_(dir), limits_(limits) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
      throw std::invalid_argument(fmt::format("{}: no such directory (an mmtests work/log)", dir));
    root_ = fs::canonical(dir, ec);
    if (ec) throw std::invalid_argument(fmt::format("{}: {}", dir, ec.message()));
    for (const Workload* w : all_workloads())
      for (auto& f : w->mmtests_formats()) formats_.emplace_back(*w, std::move(f));
  }

  std::vector<MmtestsRun> read() {
    std::vector<MmtestsRun> runs;
    for (const auto& name : entries(root_, true)) {
      MmtestsRun run{.name = name, .dir = (fs::path(dir_) / name).string()};
      const fs::path run_dir = inside(root_ / name);
      std::vector<std::pair<int, std::string>> iters;
      for (const auto& d : entries(run_dir, true))
        if (auto n = iteration_of(d)) iters.emplace_back(*n, d);
      if (iters.empty()) continue;  // not a run: mmtests writes other things here too
      hold(kOutputCharge + run.dir.size());
      std::sort(iters.begin(), iters.end());
      std::string release_from;  // the iteration the run's kernel release is from
      run.iterations = static_cast<int>(iters.size());
      for (const auto& [n, d] : iters) {
        const fs::path iter = inside(run_dir / d);
        if (std::error_code ec; fs::exists(fs::symlink_status(iter / "kernel.version", ec))) {
          const std::string text = read_log(iter / "kernel.version");
          const std::string line(text.substr(0, text.find('\n')));
          hold(line.size());
          run.kernel_versions.push_back(line);
          // One run is one kernel: a tree whose iterations record two was
          // stored, listed and compared as the first's (hostile16).
          const std::string release = release_of(line);
          if (run.kernel_release.empty()) {
            run.kernel_release = release;
            release_from = d;
          } else if (!release.empty() && release != run.kernel_release) {
            throw std::invalid_argument(fmt::format(
                "{}: {}/kernel.version records kernel {}, {}/kernel.version {}: one run is "
                "measured on one kernel; nothing imported",
                terminal_safe(run.dir), release_from, terminal_safe(run.kernel_release), d,
                terminal_safe(release)));
          }
        }
        for (const auto& test : entries(iter, true)) read_test(iter, test, n, run);
      }
      runs.push_back(std::move(run));
    }
    if (runs.empty())
      throw std::invalid_argument(fmt::format(
          "{}: no mmtests run here (expected RUN/iter-N/TEST/logs, as in mmtests' work/log)",
          dir_));
    return runs;
  }

 private:
  // The path with its links resolved, when they stay in the tree.
  fs::path inside(const fs::path& p) const {
    try {
      return resolved_within(root_, p);
    } catch (const FileError& e) {
      throw std::invalid_argument(e.what());
    }
  }

  static std::vector<std::string> entries(const fs::path& dir, bool directories) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_directory(ec) == directories) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end(), natural_less);
    return out;
  }

  std::invalid_argument too_large(const fs::path& file) const {
    return std::invalid_argument(fmt::format(
        "{}: larger than {} MiB (decompressed), the limit for one log; mmtests logs "
        "are kilobytes to megabytes, so it is not read (--max-log-mib raises the limit)",
        file.string(), limits_.log_bytes >> 20));
  }

  // A log as mmtests opens it (.gz, .xz or plain, by content), if it is a
  // regular file in the tree and within the limit.
  std::string read_log(const fs::path& file) const {
    const fs::path real = inside(file);
    std::string data;
    try {
      if (std::error_code ec; fs::file_size(real, ec) > limits_.log_bytes && !ec)
        throw too_large(file);
      data = read_file(real, limits_.log_bytes);
      if (compression_of(data) == Compression::kNone) return data;
      return decompressed(data, file.string(), limits_.log_bytes);
    } catch (const DecompressedTooLarge&) {
      throw too_large(file);
    } catch (const std::runtime_error& e) {  // FileError, or corrupt data
      if (const auto* f = dynamic_cast<const FileError*>(&e);
          f && f->errnum() == 0 && f->reason().starts_with("larger"))
        throw too_large(file);
      throw std::invalid_argument(e.what());
    }
  }

  // Counts what is held until the tree is stored.
  void hold(std::size_t bytes) {
    held_ += bytes;
    if (held_ > limits_.tree_bytes) over_budget();
  }

  [[noreturn]] void over_budget() const {
    throw std::invalid_argument(fmt::format(
        "{}: the tree's outputs need more than {} MiB of memory before they are stored (the "
        "limit for a tree; --max-tree-mib raises it); import a part of it (a directory of "
        "fewer runs)",
        dir_, limits_.tree_bytes >> 20));
  }

  void read_test(const fs::path& iter, const std::string& test, int iteration, MmtestsRun& run) {
    const std::string where = fmt::format("iter-{}/{}", iteration, test);
    const MmtestsExtractor* format = nullptr;
    std::vector<std::string> test_params;
    for (const auto& f : formats_)
      if (auto p = f.test_params(test)) {
        format = &f;
        test_params = std::move(*p);
        break;
      }
    if (!format) {
      std::string why = "schedlab has no workload for this mmtests test";
      for (const auto& n : kNotRead)
        if (test.starts_with(n.prefix)) why = n.why;
      skip(run, where + ": " + why);
      return;
    }
    const fs::path logs = iter / test / "logs";
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(logs, ec)) || !fs::is_directory(inside(logs), ec)) {
      skip(run, where + ": no logs directory");
      return;
    }
    struct Log {
      std::string name, file;
      std::vector<std::string> params;
    };
    std::vector<Log> files;
    for (const auto& f : entries(inside(logs), false))
      if (auto p = format->log_params(f))
        files.push_back({without_compression(f), f, std::move(*p)});
    std::stable_sort(files.begin(), files.end(),
                     [](const Log& a, const Log& b) { return natural_less(a.name, b.name); });
    for (const auto& f : files) {
      const fs::path file = logs / f.file;
      // Each log read, its samples and bounded output taken, and dropped.
      std::vector<MmtestsLogRun> found;
      try {
        found = format->extract(read_log(file), limits_.output_bytes,
                                (limits_.tree_bytes - held_) / kSampleCharge);
      } catch (const MmtestsTooManyLines&) {
        over_budget();  // as it would be once they were held
      }
      for (std::size_t b = 0; b < found.size(); ++b) {
        MmtestsOutput out{
            .workload = format->workload().name(),
            .params = test_params,
            .samples = std::move(found[b].samples),
            .error = std::move(found[b].error),
            .text = std::move(found[b].text),
            .source = found.size() > 1
                          ? fmt::format("{} (run {} of {})", file.string(), b + 1, found.size())
                          : file.string(),
            .mmtests_iteration = iteration};
        out.params.insert(out.params.end(), f.params.begin(), f.params.end());
        out.params.insert(out.params.end(), found[b].params.begin(), found[b].params.end());
        hold(kOutputCharge + out.text.size() + out.source.size() +
             out.samples.size() * kSampleCharge);
        run.outputs.push_back(std::move(out));
      }
    }
    if (files.empty()) skip(run, where + ": no log schedlab reads");
  }

  void skip(MmtestsRun& run, std::string why) {
    hold(why.size() + 64);
    run.skipped.push_back(std::move(why));
  }

  std::string dir_;
  fs::path root_;
  MmtestsLimits limits_;
  std::vector<MmtestsExtractor> formats_;
  std::size_t held_ = 0;
};

}  // namespace

std::vector<MmtestsRun> read_mmtests_tree(const std::string& log_dir, const MmtestsLimits& limits) {
  return TreeReader(log_dir, limits).read();
}

}  // namespace schedlab
