#include "runner/bisect/bisect_status.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/counters/render_schedstat.h"
#include "analysis/counters/schedstat_diff.h"
#include "analysis/counters/schedstat_runs.h"
#include "analysis/render/column_labels.h"
#include "analysis/render/render.h"
#include "base/json_data.h"
#include "base/text.h"
#include "results/variants_table.h"
#include "runner/bisect/bisect_ends.h"
#include "runner/bisect/bisect_samples.h"
#include "runner/bisect/bisect_spec.h"
#include "runner/bisect/bisect_stored.h"

namespace schedlab {
namespace {

using nlohmann::json;

std::string opt_num(const std::optional<double>& v, const char* fmt_spec = "{:.4g}") {
  return v ? fmt::format(fmt::runtime(fmt_spec), *v) : "-";
}

// Summed schedstat deltas of a run's first variant, when it has them.
std::optional<schedstat::Snapshot> schedstat_sum(const Store& store, std::int64_t run) {
  const auto variants = store.variants_table().variants(run);
  if (variants.empty()) return std::nullopt;
  return run_schedstat(store, {.run_id = run, .variant_id = variants.front().id}).sum;
}

void print_result(std::string& out, const Store& store, const BisectSpec& spec, const json& r,
                  const std::vector<BisectDecision>& decisions) {
  const std::size_t first_bad = r.at("first_bad"), last_good = r.at("last_good");
  const auto skipped = r.at("skipped_between");
  // How an end was decided, when it was not a test's clear verdict.
  const auto how = [&](const char* key) -> std::string {
    const json d = r.value(key, json(nullptr));
    if (!d.is_object()) return "";
    std::string why;
    if (d.value("decided_by", "") == "nearest-median")
      why += " (by nearest median at the iteration cap, not by the test)";
    if (d.contains("flipped") && d["flipped"].is_string())
      why +=
          fmt::format(" (its batches flipped: {})", terminal_safe(d["flipped"].get<std::string>()));
    return why;
  };
  if (skipped.empty())
    out += fmt::format("\nfirst bad: {}{}\nlast good: {}{}\n",
                       terminal_safe(spec.labels[first_bad]), how("first_bad_decision"),
                       terminal_safe(spec.labels[last_good]), how("last_good_decision"));
  else
    out += fmt::format(
        "\nthe first bad is one of (skipped candidates in between):\n  {}\nlast good: {}\n",
        [&] {
          std::vector<std::string> l;
          for (std::size_t i = last_good + 1; i <= first_bad; ++i)
            l.push_back(terminal_safe(spec.labels[i]));
          return fmt::format("{}", fmt::join(l, "\n  "));
        }(),
        terminal_safe(spec.labels[last_good]));
  out += fmt::format("measured candidates: {} (plus the 2 references), skipped: {}\n",
                     r.at("measured_candidates").get<int>(), r.at("skipped_candidates").get<int>());
  // The error rates the verdicts held (sessions before repeated looks have none).
  if (r.contains("error_rates") && r["error_rates"].is_string())
    out += fmt::format("error rates: {}\n", terminal_safe(r["error_rates"].get<std::string>()));
  for (const auto& [key, what] :
       {std::pair{"first_bad_decision", "first bad"}, {"last_good_decision", "last good"}}) {
    const json d = r.value(key, json(nullptr));
    if (d.is_object() && d.contains("error_rates") && d["error_rates"].is_string())
      out += fmt::format("  {}: {}\n", what, terminal_safe(d["error_rates"].get<std::string>()));
  }
  // The table: the first batch run of each, all the config's metrics.
  const auto ends = bisect_ends(store, spec, r, decisions);
  if (!ends) return;
  const auto a = ends->last_good_run, b = ends->first_bad_run;
  out += fmt::format("\n{}", render_text(ends->comparison));
  try {
    const auto sa = schedstat_sum(store, a), sb = schedstat_sum(store, b);
    if (sa && sb)
      out += fmt::format(
          "\nschedstat, last good vs first bad:\n{}",
          schedstat::render_text(schedstat::compare(
              schedstat::summarize(*sa), schedstat::summarize(*sb), "last-good", "first-bad")));
  } catch (const std::exception& e) {
    out += fmt::format("\nschedstat diff not available: {}\n", e.what());
  }
}

}  // namespace

std::string bisect_status_text(const Store& store, const BisectSession& session) {
  std::string out;
  // Every stored text goes through terminal_safe (a label from a commit's
  // subject, a note from a hook's output): no escape sequence of it reaches
  // the terminal, no newline of it forges a line, and no byte that takes no
  // column makes the wrapping below slow.
  const StoredBisection stored = load_bisection(store.bisect_log(), session);
  const BisectSpec& spec = stored.spec;
  const auto& decisions = stored.decisions;
  const json& r = stored.result;
  // The page reads the samples behind each decision: a stored spec that
  // selects several points of its runs (a crafted session) is refused here
  // as there, with the same message (bisect_samples').
  for (const auto& [position, d] : latest_decisions(decisions))
    bisect_samples(store, spec,
                   require_json_data(d->run_ids_json, "a bisect step's run ids")
                       .get<std::vector<std::int64_t>>());
  out += fmt::format("bisection {} ({}): {}, {} over {} candidates between {} and {}\n", session.id,
                     to_string(session.status), terminal_safe(spec.config_path),
                     terminal_safe(spec.metric), spec.candidates.size() - 2,
                     terminal_safe(spec.labels.front()), terminal_safe(spec.labels.back()));
  out += fmt::format(
      "{} at alpha {}{}; up to {} samples per candidate; started {}\n\n",
      verdict_test_title(spec.test), spec.alpha,
      spec.min_effect_pct > 0 ? fmt::format(", minimum effect {}%", spec.min_effect_pct) : "",
      spec.max_iterations, terminal_safe(session.created_at));
  // 89 columns before the note: a note that does not fit goes on below its row.
  constexpr std::size_t kLabelWidth = 24;
  constexpr std::string_view kRow = "{:>4}  {:<24} {:<8} {:>4} {:>9} {:>8} {:>8}  {:<14}";
  out += fmt::format(fmt::runtime(kRow), "pos", "candidate", "verdict", "n", "centre", "p(good)",
                     "p(bad)", "decided by") +
         " runs / note\n";
  // A longer name is cut in the middle (both ends tell kernels and commits
  // apart) and given whole in a key after the table.
  std::vector<std::pair<std::string, std::string>> key;
  for (const auto& d : decisions) {
    std::string label = terminal_safe(spec.labels.at(static_cast<std::size_t>(d.position)));
    if (display_width(label) > kLabelWidth) {
      const std::string pos = std::to_string(d.position);
      if (std::none_of(key.begin(), key.end(), [&](const auto& k) { return k.first == pos; }))
        key.emplace_back(pos, label);
      constexpr std::size_t kHead = (kLabelWidth - 3) / 2;
      label = std::string(head_columns(label, kHead)) + "..." +
              std::string(tail_columns(label, kLabelWidth - 3 - kHead));
    }
    std::string note = d.run_ids_json == "[]" ? "" : "runs " + terminal_safe(d.run_ids_json);
    // The levels this look's tests were held to (alpha spent across looks).
    if (d.level_good && d.level_bad)
      note += fmt::format("{}levels {:.3g}/{:.3g}", note.empty() ? "" : "; ", *d.level_good,
                          *d.level_bad);
    if (!d.note.empty()) note += (note.empty() ? "" : "; ") + terminal_safe(d.note);
    if (display_width(note) > 160) note = std::string(head_columns(note, 157)) + "...";
    const std::string row = fmt::format(
        fmt::runtime(kRow), d.position, label, terminal_safe(d.verdict), d.n, opt_num(d.centre),
        opt_num(d.p_good, "{:.3g}"), opt_num(d.p_bad, "{:.3g}"), terminal_safe(d.decided_by));
    if (display_width(row) + 1 + display_width(note) <= 100)
      out += row + " " + note + "\n";
    else
      out += std::string(trim_end(row)) + "\n" + wrap_words("      " + note, 100, "");
  }
  out += key_text(key, "candidates by pos: ");
  if (session.status == BisectStatus::kDone) print_result(out, store, spec, r, decisions);
  if (session.status == BisectStatus::kRefused) {
    // A centre that is undefined (hmean of a zero) is stored as null, printed n/a.
    auto number = [&](const char* key, const char* fmt_spec) {
      const json v = r.value(key, json(nullptr));
      return v.is_null() ? std::string("n/a")
                         : fmt::format(fmt::runtime(fmt_spec), v.get<double>());
    };
    if (r.value("reason", "") == "bad reference better than good")
      out += fmt::format(
          "\nrefused: the bad reference is better than the good one ({} is better): good {} "
          "(n={}), bad {} "
          "(n={}), p = {}; --direction either bisects a change either way\n",
          terminal_safe(r.value("direction", "lower")), number("good_centre", "{}"),
          r.value("n_good", 0), number("bad_centre", "{}"), r.value("n_bad", 0),
          number("p", "{:.4g}"));
    else
      out += fmt::format(
          "\nrefused: the references are not significantly different: good {} (n={}), bad {} "
          "(n={}), p = {}\n",
          number("good_centre", "{}"), r.value("n_good", 0), number("bad_centre", "{}"),
          r.value("n_bad", 0), number("p", "{:.4g}"));
  }
  if (session.status == BisectStatus::kRunning) {
    const auto states = candidate_states(spec, decisions);
    if (const auto step = next_candidate(states); step.next)
      out += fmt::format("\nnext: {} ({} untested left between {} and {})\n",
                         terminal_safe(spec.labels[*step.next]), remaining(states),
                         terminal_safe(spec.labels[step.last_good]),
                         terminal_safe(spec.labels[step.first_bad]));
  }
  // What the tables quote (a run's name) is escaped too, their lines kept.
  return wrap_words(terminal_safe(out, true), 100, "    ");  // a mail's 100 columns
}

void print_bisect_status(const Store& store, const BisectSession& session) {
  fmt::print("{}", bisect_status_text(store, session));
}

}  // namespace schedlab
