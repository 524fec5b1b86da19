#include "runner/run/kernel_runs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "base/message.h"
#include "base/text.h"
#include "results/runs_table.h"
#include "runner/hosts/interrupt.h"
#include "runner/run/session.h"

namespace schedlab {

KernelRunsResult run_kernels(Store& store, const RunShape& shape, const std::string& group,
                             const ExecOptions& base) {
  KernelRunsResult result;
  const auto& kernels = shape.kernels;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string& kernel = kernels[i].kernel;
    if (interrupted()) {
      result.interrupted = true;
      break;
    }
    ExecOptions exec = base;
    exec.name = kernel_run_name(group, kernel);
    exec.manifest["group"] = group;
    exec.resume_run.reset();
    if (const auto run = store.runs_table().find_run_by_name(exec.name)) {
      if (run_group(*run) != group)
        throw PreflightError(
            fmt::format("run '{}' exists and is not part of '{}'", exec.name, group));
      if (run->status == RunStatus::kFinished) {
        result.done.push_back(kernel);
        continue;
      }
      exec.resume_run = run->id;
    }
    print_line(fmt::format("schedlab: kernel {} of {}: {} as run '{}'", i + 1, kernels.size(),
                           kernel, exec.name));
    try {
      result.runs.push_back(run_kernel(store, shape, kernels[i], exec));
      if (result.runs.back().status == RunStatus::kInterrupted) {
        result.interrupted = true;
        break;
      }
    } catch (const ConfigError&) {
      throw;  // the same for every kernel
    } catch (const std::exception& e) {
      if (interrupted()) {
        result.interrupted = true;
        break;
      }
      // A boot's error quotes qemu, a guest's console, a kernel's path:
      // escaped, as every error schedlab prints.
      result.errors.push_back(terminal_safe(fmt::format("{}: {}", kernel, e.what()), true));
      print_message(fmt::format("schedlab: {}\n", result.errors.back()));
    }
  }
  return result;
}

int print_kernel_runs(const KernelRunsResult& r) {
  int failed = 0;
  for (const auto& s : r.runs) {
    for (const auto& e : s.errors) print_line(fmt::format("schedlab: {}", e));
    print_message(
        fmt::format("run {} '{}' {}: {} iterations measured ({} failed){}", s.run_id,
                    terminal_safe(s.name), to_string(s.status), s.measured, s.failed,
                    s.skipped ? fmt::format(", {} points already complete", s.skipped) : ""));
    failed += s.failed;
  }
  if (!r.done.empty())
    print_message(fmt::format("already finished: {}\n", fmt::join(r.done, ", ")));
  return failed;
}

}  // namespace schedlab
