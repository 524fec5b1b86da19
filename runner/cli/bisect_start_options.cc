#include "runner/cli/bisect_start_options.h"

#include "analysis/stats/significance.h"
#include "runner/cli/common.h"

namespace schedlab::cli {

void add_bisect_start_options(CLI::App& start, BisectRequest& r) {
  start.add_option("--good", r.good, "a good kernel (in the list) or commit")->required();
  start.add_option("--bad", r.bad, "a bad kernel (in the list) or commit")->required();
  start.add_option("--config", r.config, "the experiment each candidate runs")->required();
  start.add_option("--metric", r.metric, "the metric that tells good from bad")->required();
  start.add_option("--param", r.params,
                   "NAME=VALUE: the point of the sweep to judge on (repeatable, each name once)");
  start.add_option("--kernels", r.kernels, "ordered lab kernels, comma separated, oldest first");
  start.add_option("--kernels-file", r.kernels_file, "ordered kernels, one a line, oldest first");
  start.add_option("--repo", r.repo,
                   "git tree: candidates are the first-parent commits good..bad (no hook and a lab "
                   "SUT: schedlab builds and boots each)");
  start.add_option("hook", r.hook,
                   "after --: the hook argv that builds, installs (and boots) {commit} or "
                   "{kernel}; never a shell");
  start.add_option("--hook-file", r.hook_file, "the hook argv, one argument a line");
  start.add_option("--hook-cwd", r.hook_cwd, "the hook's directory (default: the --repo tree)");
  start
      .add_option("--hook-timeout", r.hook_timeout,
                  "a hook still running after this is killed "
                  "with its process group and the candidate skipped")
      ->capture_default_str();
  auto* reboots = start.add_flag("--reboots", r.reboots,
                                 "the hook reboots the ssh:// SUT: wait for a new boot");
  start
      .add_option("--reboot-timeout", r.reboot_timeout,
                  "with --reboots: how long the SUT may take to come back")
      ->capture_default_str()
      ->needs(reboots);
  start.add_option("--uname", r.uname,
                   "the `uname -r` the ssh:// SUT must report after the hook "
                   "({commit} / {kernel} allowed)");
  start
      .add_option("--test", r.test,
                  "mwu (Mann-Whitney U, the default: robust to the outliers "
                  "of a noisy machine) or welch")
      ->check(CLI::IsMember(test_names()))
      ->capture_default_str();
  start.add_option("--alpha", r.alpha, "significance level of every verdict")
      ->check(number_range(1e-9, 0.5))
      ->capture_default_str();
  start
      .add_option("--min-effect", r.min_effect,
                  "percent: two sides differ only when significant and their centres are at "
                  "least this far apart (0: the test alone)")
      ->check(number_range(0.0, 1000.0))
      ->capture_default_str();
  start
      .add_option(
          "--direction", r.direction,
          "worse (the default): the bad reference must be worse than the good one in the metric's "
          "direction, else nothing regressed and the bisection is refused; either: find a change "
          "either way")
      ->check(CLI::IsMember({"worse", "either"}))
      ->capture_default_str();
  start.add_option("--max-iterations", r.max_iterations,
                   "pooled samples per candidate before the nearest-median rule (default: 3x the "
                   "config's iterations)");
}

}  // namespace schedlab::cli
