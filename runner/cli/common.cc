#include "runner/cli/common.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "analysis/counters/schedstat.h"
#include "base/shell_quote.h"
#include "base/suggest.h"
#include "base/text.h"
#include "base/time.h"
#include "results/store_error.h"
#include "runner/hosts/interrupt.h"
#include "runner/run/executor.h"
#include "runner/run/kernel_runs.h"
#include "workloads/registry.h"

namespace schedlab::cli {

std::string DbOption::resolve() const {
  if (!path.empty()) return path;
  if (const char* env = std::getenv("SCHEDLAB_DB"); env && *env) return env;
  return "schedlab.db";
}

void add_db_option(CLI::App& cmd, DbOption& db) {
  cmd.add_option("--db", db.path, "result database (default: $SCHEDLAB_DB or ./schedlab.db)");
}

const Workload& workload_arg(const std::string& name, const std::vector<std::string>& also) {
  const Workload* w = find_workload(name);
  if (!w) {
    auto names = workload_names();
    names.insert(names.end(), also.begin(), also.end());
    throw std::invalid_argument(fmt::format("unknown workload '{}'{}; known: {}", terminal_safe(excerpt(name, 60)),
                                            did_you_mean(name, names), fmt::join(names, ", ")));
  }
  return *w;
}

int guard(const OnError& on, const std::function<int()>& body,
          bool (*is_listed)(const std::exception&)) {
  try {
    return body();
  } catch (const std::exception& e) {
    const bool listed = is_listed(e);
    if (!listed && on.other == kPropagate) throw;
    // A message may quote a name from a database (merge's conflicts): no
    // escape sequence of it reaches the terminal. One ending in a path
    // keeps the path whole (README: a path is never broken at its spaces).
    const auto* store = dynamic_cast<const StoreError*>(&e);
    if (store && !store->trailing_path().empty()) {
      const std::string_view what = e.what();
      const std::string_view sentence =
          what.substr(0, what.size() - store->trailing_path().size() - 1);
      print_with_command(fmt::format("{}: {}", on.prefix, terminal_safe(sentence)),
                         terminal_safe(store->trailing_path()));
      if (!on.hint.empty()) print_message(on.hint + "\n");
    } else {
      print_message(fmt::format("{}: {}\n{}", on.prefix, terminal_safe(e.what(), true),
                                on.hint.empty() ? "" : on.hint + "\n"));
    }
    return listed ? on.listed : on.other;
  }
}

std::string default_run_name(const std::string& config_path) {
  const auto stem = std::filesystem::path(config_path).stem().string();
  std::string stamp = utc_now_iso8601();  // 2026-11-29T18:30:00Z
  std::erase(stamp, '-');
  std::erase(stamp, ':');
  return stem + "-" + stamp;
}

int report_run(const RunSummary& s, const std::string& db_path, const std::string& resume_hint) {
  // The layers' errors quote what they read (a guest's console, a tool's
  // output): escaped here whatever the layer did.
  for (const auto& e : s.errors) print_line(fmt::format("schedlab: {}", e));
  print_line(fmt::format("run {} '{}' {}: {} iterations measured ({} failed){} in {}", s.run_id,
                         terminal_safe(s.name), to_string(s.status), s.measured, s.failed,
                         s.skipped ? fmt::format(", {} points already complete", s.skipped) : "",
                         db_path));
  if (s.status == RunStatus::kInterrupted) {
    print_with_command("continue it with:", resume_hint);
    return 128 + interrupt_signal();
  }
  if (s.status == RunStatus::kFailed) return kError;  // a pair stopped early (pairs: runs)
  return s.failed ? kIterationsFailed : kOk;
}

int report_kernel_group(const KernelRunsResult& r, std::size_t kernels, const std::string& group,
                        bool stored, const std::string& db_path, int failed) {
  // Commands to paste stay whole, on the sentence's line or under it.
  if (stored)
    print_with_command(fmt::format("group '{}' in {}:", group, db_path),
                       "schedlab compare --group " + shell_word(group));
  if (r.interrupted) {
    print_with_command("continue it with:", resume_command(group, db_path));
    return 128 + interrupt_signal();
  }
  if (!r.errors.empty()) {
    print_with_command(fmt::format("{} of {} kernels failed (above); run them again with:",
                                   r.errors.size(), kernels),
                       resume_command(group, db_path));
    return kError;
  }
  return failed ? kIterationsFailed : kOk;
}

std::optional<std::string> named_twice(const std::vector<std::int64_t>& ids,
                                       const std::vector<std::string>& args, std::int64_t id,
                                       const std::string& name, const std::string& arg) {
  for (std::size_t i = 0; i < ids.size() && i < args.size(); ++i)
    if (ids[i] == id)
      return fmt::format("run {} '{}' is named twice, as '{}' and '{}': name each run once", id,
                         terminal_safe(excerpt(name, 60)), terminal_safe(excerpt(args[i], 60)),
                         terminal_safe(excerpt(arg, 60)));
  return std::nullopt;
}

std::string resume_command(const std::string& run, const std::string& db_path) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(db_path, ec);
  return fmt::format("schedlab run --resume {} --db {}", shell_word(run),
                     shell_word(ec ? db_path : absolute.lexically_normal().string()));
}

CLI::Validator number_range(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        const auto v = to_number(s);
        if (v && *v >= lo && *v <= hi) return "";
        return fmt::format("must be a number from {:g} to {:g}, not '{}'", lo, hi,
                           terminal_safe(excerpt(s)));
      },
      fmt::format("from {:g} to {:g}", lo, hi));
}

CLI::Validator uint64_digits() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        std::uint64_t v = 0;
        const auto* last = s.data() + s.size();
        const auto [end, ec] = std::from_chars(s.data(), last, v);
        const bool digits = !s.empty() && s.front() >= '0' && s.front() <= '9';
        if (digits && ec == std::errc{} && end == last) return "";
        return fmt::format("must be an integer from 0 to {} written in digits, not '{}'",
                           std::numeric_limits<std::uint64_t>::max(), terminal_safe(excerpt(s)));
      },
      "0 to 2^64-1");
}

CLI::Validator domain_name_check() {
  return CLI::Validator(
      [](std::string& name) -> std::string {
        if (name.empty() || schedstat::domain_name_ok(name)) return "";
        return fmt::format("'{}' is not a domain name (ASCII letters, digits and _, at most 16)",
                           terminal_safe(excerpt(name)));
      },
      "NAME");
}

}  // namespace schedlab::cli
