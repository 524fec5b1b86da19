// Runs a workload's steps on a SUT/loadgen pair: foreground steps to
// completion, background steps (servers) started and polled until ready.
// Every background process is stopped when the StepRunner goes away, on
// every exit path.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "results/knob_journal_table.h"
#include "runner/hosts/host.h"
#include "runner/hosts/pair.h"
#include "runner/knobs/knob_kind.h"
#include "workloads/workload.h"

namespace schedlab {

// ProcessKnobs (a variant's knobs on the workload's own processes) are
// runner/knobs/knob_kind.h's.

// How a phase (a list of steps) ended: every step fine, a step failed
// (exit status, signal), outlived its timeout, could not start, a server
// was never ready, or schedlab was interrupted.
enum class PhaseStatus { kOk, kFailed, kTimeout, kSpawnError, kNotReady, kInterrupted };

struct PhaseResult {
  PhaseStatus status = PhaseStatus::kOk;
  std::string error;           // why, when not ok
  std::string out, err;        // of the measured steps only
  std::optional<int> exit_code;  // of the last measured step
  bool ok() const { return status == PhaseStatus::kOk; }
};

class StepRunner {
 public:
  explicit StepRunner(const Pair& pair) : pair_(pair) {}
  // Journals the process group of every background step (leftovers.h).
  StepRunner(const Pair& pair, KnobJournalTable& journal, std::int64_t run_id)
      : pair_(pair), journal_(&journal), run_id_(run_id) {}
  ~StepRunner();  // stops every background process still running
  StepRunner(const StepRunner&) = delete;
  StepRunner& operator=(const StepRunner&) = delete;

  // Runs the steps in order and stops at the first failure (unless the
  // step ignores failures). The knobs' client policy applies to measured
  // steps, its server policy to background steps (servers).
  // Non-interruptible phases (teardown) run to the end after Ctrl-C.
  PhaseResult run(const std::vector<Step>& steps, const ProcessKnobs& knobs,
                  bool interruptible = true);
  PhaseResult run(const std::vector<Step>& steps, const std::optional<SchedPolicy>& policy,
                  bool interruptible = true) {
    return run(steps, ProcessKnobs{.policy = policy}, interruptible);
  }
  // Stops the background processes started so far, newest first.
  void stop_background();

  // A process group this runner started: a server's (background step) or a
  // measured step's; its id when the host can tell (not SSH's foreground
  // steps), and the program it runs.
  struct Group {
    Host* host = nullptr;
    std::optional<int> pgid;
    std::string program;
    bool server = false;
  };
  // Every group started so far, in order (stopped ones too).
  const std::vector<Group>& groups() const { return groups_; }
  // Called with each group as its id becomes known (a foreground step's as
  // it starts: the policy check then watches it while it runs).
  void on_group(std::function<void(const Group&)> f) { on_group_ = std::move(f); }

 private:
  PhaseResult start_server(const Step& step, const Command& cmd);

  struct Server {
    Host* host;
    Host::BackgroundId id;
    std::string name;
    std::int64_t entry = 0;  // its journal entry, 0 when not journaled
  };
  void forget(std::int64_t entry) noexcept;  // closes a process group's journal entry
  Pair pair_;
  KnobJournalTable* journal_ = nullptr;
  std::int64_t run_id_ = 0;
  std::vector<Server> servers_;
  std::vector<Group> groups_;
  std::function<void(const Group&)> on_group_;
};

}  // namespace schedlab
