// The status words the store keeps, one enum per vocabulary. The database
// spells them as it always has (to_string is that spelling; no migration);
// a word the store does not know is a StoreError when it is read back.
#pragma once

#include <optional>
#include <string_view>

#include "base/word_table.h"

namespace schedlab {

// A run: running until it ends finished, interrupted (a signal: `schedlab
// run --resume` continues it) or failed (an error stopped it).
enum class RunStatus { kRunning, kFinished, kInterrupted, kFailed };

// One measured iteration. ok has samples; the others keep the raw output
// and say why not: the measured step failed (exit status, signal, a
// workload's own verdict), outlived its timeout, printed what does not
// parse, could not start; or the point's server was never ready, or the
// workload's setup failed.
enum class IterationStatus {
  kOk,
  kFailed,
  kTimeout,
  kParseError,
  kSpawnError,
  kNotReady,
  kSetupError,
  // What the point measures does not exist on this SUT (a kernel without
  // SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP): no sample, not a failure; the
  // cell is "n/a (reason)", the reason in the row's error.
  kUnsupported
};

// A knob journal entry: applied (its original value still to be put back),
// restored, or discarded (it went with a powered-off lab guest).
enum class JournalState { kApplied, kRestored, kDiscarded };

// A nightly target measured with one config: measuring until its run ends
// measured, or failed (hook, SSH, kernel check or the run itself).
enum class NightlyStatus { kMeasuring, kMeasured, kFailed };

// A bisection: running until done (an answer) or refused (the references
// do not differ); reset by the user, or failed (an error stopped it).
enum class BisectStatus { kRunning, kDone, kRefused, kReset, kFailed };

namespace status_words {

inline constexpr WordTable<RunStatus, 4> kRun = {{{RunStatus::kRunning, "running"},
                                                  {RunStatus::kFinished, "finished"},
                                                  {RunStatus::kInterrupted, "interrupted"},
                                                  {RunStatus::kFailed, "failed"}}};
inline constexpr WordTable<IterationStatus, 8> kIteration = {
    {{IterationStatus::kOk, "ok"},
     {IterationStatus::kFailed, "failed"},
     {IterationStatus::kTimeout, "timeout"},
     {IterationStatus::kParseError, "parse_error"},
     {IterationStatus::kSpawnError, "spawn_error"},
     {IterationStatus::kNotReady, "not_ready"},
     {IterationStatus::kSetupError, "setup_error"},
     {IterationStatus::kUnsupported, "unsupported"}}};
inline constexpr WordTable<JournalState, 3> kJournal = {{{JournalState::kApplied, "applied"},
                                                         {JournalState::kRestored, "restored"},
                                                         {JournalState::kDiscarded, "discarded"}}};
inline constexpr WordTable<NightlyStatus, 3> kNightly = {{{NightlyStatus::kMeasuring, "measuring"},
                                                          {NightlyStatus::kMeasured, "measured"},
                                                          {NightlyStatus::kFailed, "failed"}}};
inline constexpr WordTable<BisectStatus, 5> kBisect = {{{BisectStatus::kRunning, "running"},
                                                        {BisectStatus::kDone, "done"},
                                                        {BisectStatus::kRefused, "refused"},
                                                        {BisectStatus::kReset, "reset"},
                                                        {BisectStatus::kFailed, "failed"}}};

}  // namespace status_words

constexpr std::string_view to_string(RunStatus s) {
  return word_of(status_words::kRun, s);
}
constexpr std::string_view to_string(IterationStatus s) {
  return word_of(status_words::kIteration, s);
}
constexpr std::string_view to_string(JournalState s) {
  return word_of(status_words::kJournal, s);
}
constexpr std::string_view to_string(NightlyStatus s) {
  return word_of(status_words::kNightly, s);
}
constexpr std::string_view to_string(BisectStatus s) {
  return word_of(status_words::kBisect, s);
}
constexpr std::optional<RunStatus> run_status_from_string(std::string_view s) {
  return from_word(status_words::kRun, s);
}
constexpr std::optional<IterationStatus> iteration_status_from_string(std::string_view s) {
  return from_word(status_words::kIteration, s);
}
constexpr std::optional<JournalState> journal_state_from_string(std::string_view s) {
  return from_word(status_words::kJournal, s);
}
constexpr std::optional<NightlyStatus> nightly_status_from_string(std::string_view s) {
  return from_word(status_words::kNightly, s);
}
constexpr std::optional<BisectStatus> bisect_status_from_string(std::string_view s) {
  return from_word(status_words::kBisect, s);
}

}  // namespace schedlab
