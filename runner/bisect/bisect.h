// schedlab bisect: between a good and a bad kernel (a list of lab kernels)
// or commit (a git range built, installed and booted by a user hook), find
// the first bad one, deciding each candidate with analysis/sequential/bisect_verdict.h
// and choosing the next with runner/bisect/bisect_search.h.
//
// Everything lives in the database: the session (its spec: candidates,
// config text, metric, hook, test), one decision row per reference, batch
// verdict and skip, and the runs behind them (named bisect<S>-c<POS>-b<K>).
// So a restart of schedlab or a reboot of either machine loses at most the
// iterations of the batch in progress: `continue` re-runs the candidate's
// hook and resumes that batch's run where it stopped.
#pragma once

#include <cstdint>

#include "results/store.h"
#include "runner/bisect/bisect_spec.h"

namespace schedlab {

enum class BisectOutcome { kDone, kRefused, kStopped, kInterrupted };

struct DriveOptions {
  int max_candidates = -1;  // stop after deciding this many candidates (-1: run to the end)
  bool progress = false;
};

// Measures the references first (refusing when they do not differ, or
// differ the wrong way), then candidates until the search is done. Each
// batch of a candidate is measured between a batch of each reference
// (good, candidate, bad: the runs bisect<S>-c<POS>-b<K>-ref<0|LAST>), and
// its verdict uses those pooled references of its own time window, so a
// machine that drifts moves candidate and references alike. Messages go to
// stderr.
BisectOutcome drive_bisect(Store& store, std::int64_t session_id, const DriveOptions& options);

}  // namespace schedlab
