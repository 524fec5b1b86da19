// What a bisection is: its candidates (kernels or commits, oldest first),
// the config each runs, the metric and test that judge them, and the hook;
// stored with the session as JSON, so `continue` picks it up as it was.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "results/bisect_log.h"
#include "runner/bisect/bisect_error.h"
#include "runner/bisect/bisect_search.h"

namespace schedlab {

struct BisectSpec {
  std::string mode;                     // kernels | git
  std::vector<std::string> candidates;  // oldest first; [0] good, back() bad
  std::vector<std::string> labels;      // for people: "abc1234 subject"; parallel
  std::string config_path, config_text;
  std::string metric;
  std::map<std::string, std::string> params;  // --param P=V: picks one point (V as stored)
  std::string repo;                           // git mode
  // The hook per candidate: argv with {commit} (git) or {kernel} (kernels);
  // empty: none. Run by runner/nightly/hook.h (kept as plain fields so this header
  // stays free of the config types).
  std::vector<std::string> hook_argv;
  std::string hook_cwd;
  std::chrono::milliseconds hook_timeout{std::chrono::minutes(30)};
  bool hook_reboots = false;  // ssh:// SUT: wait for it to come back after the hook
  std::chrono::seconds reboot_timeout{600};
  std::string uname;  // expected `uname -r` after the hook ({commit} allowed); empty: unchecked
  std::string test = "mwu";  // mwu | welch
  double alpha = 0.05;
  double min_effect_pct = 0;  // see VerdictOptions
  int max_iterations = 0;     // pooled samples per candidate before the cap rule
  // "worse": the bad reference must be worse than the good one in the
  // metric's direction, else the bisection is refused (a "bad" kernel that
  // is faster found nothing regressing); "either": a change either way.
  std::string direction = "worse";
};

// Reads and validates the config into the spec: its text, that some
// workload has the metric, that --param names parameters, that a kernel
// list has a lab SUT or a hook, the default cap (3x the config's
// iterations). Throws BisectError naming the problem.
void set_bisect_config(BisectSpec& spec, const std::string& path);

// The spec as stored, tagged with this user's local secret
// (base/local_secret.h): `bisect continue` runs its hook and config only
// when spec_made_here says this user on this machine stored it.
std::string spec_to_json(const BisectSpec& s);
BisectSpec spec_from_json(const std::string& json);
// Whether the stored spec carries this user's tag over its every field: a
// database from elsewhere, crafted (hostile11: its hook ran), or stored by
// a schedlab before the tag, does not.
bool spec_made_here(const std::string& json);

// The git range: good, then every commit of `git rev-list --first-parent
// --ancestry-path good..bad`, oldest first (a linear history is bisected
// commit by commit; merges on the first-parent path count as one step).
// Throws BisectError when a commit is unknown or bad does not descend from
// good.
void fill_git_candidates(BisectSpec& spec, const std::string& good, const std::string& bad);
// The slice of an ordered kernel list from good to bad; BisectError unless
// both are in it, good first.
void fill_kernel_candidates(BisectSpec& spec, const std::vector<std::string>& kernels,
                            const std::string& good, const std::string& bad);

// What every verdict of a bisection by its tests holds (alpha spent across
// a candidate's repeated looks, analysis/sequential/bisect_looks.h), for the result,
// status and page.
std::string error_rates_statement(const BisectSpec& spec);

// Per-candidate state derived from the decisions (last decision wins).
std::vector<CandidateState> candidate_states(const BisectSpec& spec,
                                             const std::vector<BisectDecision>& decisions);

}  // namespace schedlab
