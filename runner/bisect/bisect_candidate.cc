#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "base/message.h"
#include "base/text.h"
#include "results/bisect_log.h"
#include "results/runs_table.h"
#include "runner/bisect/bisect_driver.h"
#include "runner/bisect/bisect_samples.h"
#include "runner/hosts/host.h"
#include "runner/run/run_context.h"

namespace schedlab {

void BisectDriver::record(std::size_t pos, const std::string& verdict, const std::string& by,
                          const std::vector<double>& x, const VerdictResult* v,
                          const std::string& note, const SequentialVerdict* looks) {
  store_.bisect_log().add_bisect_decision(
      {.session_id = id_,
       .position = static_cast<int>(pos),
       .candidate = spec_.candidates[pos],
       .verdict = verdict,
       .decided_by = by,
       .n = static_cast<int>(x.size()),
       .centre = v ? v->centre : std::nullopt,
       .p_good = v ? v->vs_good.p : std::nullopt,
       .p_bad = v ? v->vs_bad.p : std::nullopt,
       .run_ids_json = runs_json(pos),
       .note = note,
       .level_good = looks ? std::optional(looks->vs_good.nominal_alpha) : std::nullopt,
       .level_bad = looks ? std::optional(looks->vs_bad.nominal_alpha) : std::nullopt,
       .error_rates = looks && verdict != "UNKNOWN" ? looks->error_rates : ""});
}

// The candidate's verdict after its latest batch, with alpha spent
// across its looks (analysis/sequential/bisect_looks.h): a look after each batch,
// each against the references of the windows measured so far (good0 and
// bad0 for batches made before windows existed). The earlier looks are
// taken again from the stored runs, so a `continue` after a restart
// spends alpha as an uninterrupted bisection would.
SequentialVerdict BisectDriver::judge_looks(std::size_t pos, const std::vector<std::int64_t>& runs,
                                            const std::vector<double>& good0,
                                            const std::vector<double>& bad0) {
  const std::size_t last = spec_.candidates.size() - 1;
  const auto good_runs = window_runs(pos, 0), bad_runs = window_runs(pos, last);
  const auto first = [](const std::vector<std::int64_t>& ids, std::size_t k) {
    return std::vector<std::int64_t>(
        ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(std::min(k, ids.size())));
  };
  const auto reference = [&](const std::vector<std::int64_t>& ids, const std::vector<double>& fixed,
                             std::size_t k) {
    return ids.empty() ? fixed : bisect_samples(store_, spec_, first(ids, k));
  };
  const auto cap = static_cast<std::size_t>(spec_.max_iterations);
  // A reference measured beside each batch reaches about the cap with it.
  const auto at_cap = [&](const std::vector<std::int64_t>& ids, const std::vector<double>& fixed) {
    return ids.empty() ? fixed.size() : std::max(cap, bisect_samples(store_, spec_, ids).size());
  };
  SequentialJudge judge(verdict_, at_cap(good_runs, good0), at_cap(bad_runs, bad0), cap);
  std::optional<SequentialVerdict> latest;
  std::size_t seen = 0;
  for (std::size_t k = 1; k <= runs.size(); ++k) {
    const auto x = bisect_samples(store_, spec_, first(runs, k));
    const auto good = reference(good_runs, good0, k), bad = reference(bad_runs, bad0, k);
    if (x.size() <= seen || good.empty() || bad.empty()) continue;  // no look without new samples
    try {
      latest = judge.judge(good, bad, x);
    } catch (const std::invalid_argument&) {
      continue;  // a reference batch without samples: no more information, no look
    }
    seen = x.size();
    if (latest->vs_good.last) break;
  }
  if (!latest)
    throw BisectError(fmt::format("{}: no look could be taken at its samples", spec_.labels[pos]));
  return *latest;
}

// Batches until a verdict, the cap, or a skip. False when interrupted.
// Each batch runs between a batch of each reference (good, candidate,
// bad), and the verdict tests the candidate's pooled samples against the
// references pooled over the same windows (good0/bad0, the references'
// first measurement, only for batches made before windows existed).
bool BisectDriver::measure_candidate(std::size_t pos, const std::vector<double>& good0,
                                     const std::vector<double>& bad0) {
  verdict_.centre = metric_centre(0);
  const std::size_t last = spec_.candidates.size() - 1;
  while (true) {
    const auto runs = finished_runs(pos);
    const auto x = bisect_samples(store_, spec_, runs);
    if (!runs.empty() && !x.empty()) {
      const SequentialVerdict sv = judge_looks(pos, runs, good0, bad0);
      const VerdictResult& v = sv.result;
      const bool capped = sv.vs_good.last;
      std::string note =
          fmt::format("{}{}", v.vs_good.p ? "" : "vs good: " + v.vs_good.reason + " ",
                      v.vs_bad.p ? "" : "vs bad: " + v.vs_bad.reason);
      // What each batch says on its own, against its own window: a
      // candidate whose batches disagree is said to flip, wherever its
      // verdict is shown.
      const auto leanings = batch_leanings(pos, runs.size());
      const bool flipped = std::find(leanings.begin(), leanings.end(), "GOOD") != leanings.end() &&
                           std::find(leanings.begin(), leanings.end(), "BAD") != leanings.end();
      if (flipped)
        note += fmt::format("{}its batches flipped: {}", note.empty() ? "" : "; ",
                            fmt::join(leanings, ", "));
      if (v.verdict != Verdict::kUnknown) {
        record(pos, std::string(verdict_name(v.verdict)), v.decided_by, x, &v, note, &sv);
        fmt::print(
            stderr, "{}",
            wrap_words(fmt::format(
                "schedlab bisect: {} is {} (n={}, p vs good {}, p vs bad {} at look {}'s levels "
                "{:.3g} "
                "and {:.3g}, against references measured beside it{}{}); {}\n",
                spec_.labels[pos], verdict_name(v.verdict), x.size(), p_text(v.vs_good),
                p_text(v.vs_bad), sv.vs_good.look, sv.vs_good.nominal_alpha,
                sv.vs_bad.nominal_alpha,
                v.decided_by == "test" ? "" : "; by nearest median at the iteration cap",
                flipped ? "; its batches flipped: " + fmt::format("{}", fmt::join(leanings, ", "))
                        : "",
                sv.error_rates)));
        return true;
      }
      if (!last_is_unknown_at(pos, x.size())) record(pos, "UNKNOWN", "", x, &v, note, &sv);
      if (capped) {
        record(pos, "SKIP", "cap", x, &v, "still UNKNOWN at the iteration cap (centres tie)", &sv);
        return true;
      }
      fmt::print(
          stderr, "{}",
          wrap_words(fmt::format(
              "schedlab bisect: {} UNKNOWN at n={} (p vs good {}, p vs bad {}; look {} tests at "
              "{:.3g} and {:.3g}); another batch\n",
              spec_.labels[pos], x.size(), p_text(v.vs_good), p_text(v.vs_bad), sv.vs_good.look,
              sv.vs_good.nominal_alpha, sv.vs_bad.nominal_alpha)));
    }
    const std::size_t batch = runs.size() + 1;
    try {
      // good, candidate, bad: each installed (hook or build) right before
      // its run, so the window is as short as the hooks allow.
      for (const std::size_t which : {std::size_t{0}, pos, last}) {
        const std::string name =
            which == pos ? run_name(pos, batch) : window_name(pos, batch, which);
        if (finished(name)) continue;
        if (const auto failure = prepare(which)) {
          if (which != pos)
            throw BisectError(fmt::format("the {} reference {}: {}", which == 0 ? "good" : "bad",
                                          spec_.labels[which], *failure));
          print_message(fmt::format("schedlab bisect: skipping {}: {}\n", spec_.labels[pos],
                                    terminal_safe(*failure)));
          record(pos, "SKIP", builds_itself() ? "build" : "hook", x, nullptr, *failure);
          return true;
        }
        if (!run_batch(which, name)) return false;
      }
    } catch (const BisectInterrupted&) {
      return false;
    } catch (const PreflightError& e) {
      record(pos, "SKIP", "preflight", x, nullptr, e.what());
      return true;
    } catch (const HostError& e) {
      record(pos, "SKIP", "host", x, nullptr, e.what());
      return true;
    }
    if (bisect_samples(store_, spec_, finished_runs(pos)).size() == x.size()) {
      record(pos, "SKIP", "no-samples", x, nullptr,
             fmt::format("batch {} gave no samples of '{}'", batch, spec_.metric));
      return true;
    }
  }
}

// Each of the first `batches` batches of a candidate judged alone against
// its own window (the nearer median when the tests are unsure): GOOD,
// BAD or UNKNOWN (a batch without a window).
std::vector<std::string> BisectDriver::batch_leanings(std::size_t pos, std::size_t batches) const {
  const std::size_t last = spec_.candidates.size() - 1;
  std::vector<std::string> out;
  for (std::size_t k = 1; k <= batches; ++k) {
    const auto one = [&](const std::string& name) {
      const auto r = store_.runs_table().find_run_by_name(name);
      return r ? bisect_samples(store_, spec_, {r->id}) : std::vector<double>{};
    };
    const auto g = one(window_name(pos, k, 0)), b = one(window_name(pos, k, last)),
               x = one(run_name(pos, k));
    out.emplace_back(
        g.empty() || b.empty() || x.empty()
            ? "UNKNOWN"
            : std::string(verdict_name(decide_at_cap(judge(g, b, x, verdict_)).verdict)));
  }
  return out;
}

bool BisectDriver::last_is_unknown_at(std::size_t pos, std::size_t n) const {
  const auto ds = store_.bisect_log().bisect_decisions(id_);
  for (auto it = ds.rbegin(); it != ds.rend(); ++it)
    if (it->position == static_cast<int>(pos))
      return it->verdict == "UNKNOWN" && it->n == static_cast<int>(n);
  return false;
}

std::string BisectDriver::p_text(const PValue& p) {
  return p.p ? fmt::format("{:.3g}", *p.p) : "n/a";
}

}  // namespace schedlab
