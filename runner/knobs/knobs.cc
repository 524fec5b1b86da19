#include "runner/knobs/knobs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>

#include "base/suggest.h"
#include "base/text.h"
#include "runner/knobs/journal_rows.h"
#include "runner/knobs/task_policies.h"

namespace schedlab {
namespace {

const char* const kWritable[] = {"/sys/kernel/debug/sched/", "/proc/sys/kernel/", "/proc/sys/vm/"};

std::string missing_file_error(Host& host, const KnobRef& k) {
  const auto slash = k.path.rfind('/');
  std::vector<std::string> siblings;
  try {
    siblings = host.list_dir(k.path.substr(0, slash));
  } catch (const HostError&) {
  }
  std::string hint;
  if (auto s = suggest(k.path.substr(slash + 1), siblings)) {
    const KnobKind* kind = find_knob_kind(k.kind);
    const std::string prefix = k.name.substr(0, k.name.rfind(kind ? kind->separator : '/') + 1);
    hint = " (did you mean '" + prefix + *s + "'?)";
  }
  return fmt::format("{} {}: does not exist on {} (no {}){}", k.kind, k.name, host.name(), k.path,
                     hint);
}

}  // namespace

// Debugfs is where the scheduler's features and tunables live; a SUT that
// booted without it mounted gets it mounted (it stays mounted: harmless).
void ensure_debugfs(Host& host) {
  if (host.list_dir("/sys/kernel/debug").size() > 0) return;
  const auto r = host.run({.argv = {"mount", "-t", "debugfs", "debugfs", "/sys/kernel/debug"},
                           .timeout = std::chrono::seconds(10)});
  if (!r.ok())
    throw KnobError(fmt::format("{}: debugfs is not mounted and mounting it failed: {}",
                                host.name(), r.err.empty() ? r.describe() : r.err));
}

bool path_allowed(const std::string& path) {
  if (path.find("/../") != std::string::npos) return false;
  for (const char* prefix : kWritable)
    if (path.starts_with(prefix)) return true;
  // /sys/devices/system/cpu/cpuN/cpufreq/...
  static const std::string cpu = "/sys/devices/system/cpu/";
  return path.starts_with(cpu) && path.find("/cpufreq/", cpu.size()) != std::string::npos;
}

std::string normalize_sysctl_value(const std::string& v) {
  std::istringstream in(v);
  std::string word, out;
  while (in >> word) {
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

std::vector<std::string> read_sched_features(Host& host) {
  std::optional<std::string> text;
  try {
    text = host.read_file(kSchedFeaturesPath);
    if (!text) {
      ensure_debugfs(host);
      text = host.read_file(kSchedFeaturesPath);
    }
  } catch (const HostError& e) {
    throw KnobError(fmt::format("{}: cannot read the scheduler features: {}", host.name(), e.what()));
  }
  if (!text)
    throw KnobError(fmt::format("{}: no {} (a kernel without CONFIG_SCHED_DEBUG?)", host.name(),
                                kSchedFeaturesPath));
  std::vector<std::string> tokens;
  std::istringstream in(*text);
  for (std::string t; in >> t;) tokens.push_back(t);
  return tokens;
}

namespace {

// Whether the knob's kind writes and compares single tokens (features).
bool token_knob(const KnobRef& k) {
  const KnobKind* kind = find_knob_kind(k.kind);
  return kind && kind->token;
}

}  // namespace

std::string read_knob(Host& host, const KnobRef& k) {
  if (token_knob(k)) {
    const auto tokens = read_sched_features(host);
    std::vector<std::string> names;
    for (const auto& t : tokens) {
      if (feature_name(t) == k.name) return t;
      names.push_back(feature_name(t));
    }
    throw KnobError(fmt::format("sched feature {}: {} has no such feature{}; it has: {}", k.name,
                                host.name(), did_you_mean(k.name, names), fmt::join(names, " ")));
  }
  std::optional<std::string> value;
  try {
    value = host.read_file(k.path);
  } catch (const HostError& e) {
    throw KnobError(fmt::format("{} {}: cannot read on {}: {}", k.kind, k.name, host.name(), e.what()));
  }
  if (!value) throw KnobError(missing_file_error(host, k));
  return normalize_sysctl_value(*value);
}

std::string read_sysctl(Host& host, const std::string& name) {
  return read_knob(host, sysctl_knob(name));
}

namespace {

void write_knob(Host& host, const KnobRef& k, const std::string& value) {
  if (!path_allowed(k.path))
    throw KnobError(fmt::format("{} {}: {} is outside the paths schedlab may write", k.kind, k.name, k.path));
  // The features file takes one token per write; files take value + newline.
  host.write_file(k.path, token_knob(k) ? value : value + "\n");
}

std::string target_of(const KnobRef& k, const std::string& value) {
  return token_knob(k) ? value : normalize_sysctl_value(value);
}

}  // namespace

KnobJournal::~KnobJournal() {
  try {
    restore_all();
  } catch (...) {
    // Still journaled: `schedlab restore` or the next run will put it back.
  }
}

void KnobJournal::apply(const KnobRef& k, const std::string& value) {
  std::lock_guard lock(knob_write_lock());
  const std::string original = read_knob(host_, k);
  const std::string target = target_of(k, value);
  // Journal first: if schedlab dies between the write and the restore, the
  // database still knows what to put back.
  Applied a{journal_.journal_applied(stamped({.run_id = run_id_,
                                              .kind = k.kind,
                                              .name = k.name,
                                              .path = k.path,
                                              .original = original,
                                              .target = target},
                                             host_)),
            k, original};
  applied_.push_back(a);
  std::string problem;
  try {
    write_knob(host_, k, target);
    const std::string now = read_knob(host_, k);
    if (now != target) problem = fmt::format("wrote '{}' but it reads back as '{}'", target, now);
  } catch (const std::exception& e) {
    problem = e.what();
  }
  if (!problem.empty()) {
    applied_.pop_back();
    restore_one(a);
    throw KnobError(fmt::format("{} {} = {}: {}; restored '{}'", k.kind, k.name, target, problem,
                                original));
  }
}

void KnobJournal::apply_variant(const KnobSettings& knobs) {
  for (const auto& [kind, s] : kernel_settings(knobs)) apply(s.knob, s.value);
}

void KnobJournal::restore_one(const Applied& a) {
  std::lock_guard lock(knob_write_lock());
  write_knob(host_, a.knob, a.original);
  const std::string now = read_knob(host_, a.knob);
  if (now != a.original)
    throw KnobError(fmt::format("{} {}: restored '{}' but it reads back as '{}'", a.knob.kind,
                                a.knob.name, a.original, now));
  journal_.journal_restored(a.entry_id);
}

void KnobJournal::restore_all() {
  std::vector<std::string> failures;
  while (!applied_.empty()) {
    const Applied a = applied_.back();
    applied_.pop_back();
    try {
      restore_one(a);
    } catch (const std::exception& e) {
      failures.push_back(e.what());
    }
  }
  if (!failures.empty())
    throw KnobError(fmt::format("could not restore: {}; run 'schedlab restore' to retry",
                                fmt::join(failures, "; ")));
}

std::optional<std::string> journal_row_problem(const JournalEntry& e) {
  const KnobKind* kind = find_knob_kind(e.kind);
  if (!kind || !kind->kernel)
    return fmt::format("journal entry {} has unknown kind '{}'", e.id,
                       terminal_safe(excerpt(e.kind)));
  // A row names the file it writes: only the file its knob is, and only a
  // knob a config may set (a crafted row writing kernel.randomize_va_space,
  // or a path beside its name, is refused).
  const KnobRef k = kind->knob(e.name);
  if (k.path != e.path)
    return fmt::format("journal entry {}: {} {} names the file {}, not its own {}; not written",
                       e.id, e.kind, terminal_safe(excerpt(e.name, 80)),
                       terminal_safe(excerpt(e.path, 200)), terminal_safe(excerpt(k.path, 200)));
  if (const auto problem = kind->journal_problem(e.name, e.original))
    return fmt::format("journal entry {}: {}; not written", e.id, terminal_safe(*problem));
  return std::nullopt;
}

namespace {

// Writes a row's original value back to its knob, reads it back, and
// closes the row; a line saying so.
std::string restore_row(KnobJournalTable& journal, Host& host, const JournalEntry& e) {
  if (const auto problem = journal_row_problem(e)) throw KnobError(*problem);
  const KnobRef k = find_knob_kind(e.kind)->knob(e.name);
  write_knob(host, k, e.original);
  const std::string now = read_knob(host, k);
  if (now != e.original)
    throw KnobError(fmt::format("{} {}: restored '{}' but it reads back as '{}'", e.kind, e.name,
                                e.original, terminal_safe(excerpt(now, 80))));
  journal.journal_restored(e.id);
  // The target is the row's word alone (nothing checked it): escaped.
  return fmt::format("restored {} {}: {} -> {} (run {})", e.kind, e.name,
                     terminal_safe(excerpt(e.target, 80)), e.original, e.run_id);
}

bool leftover_kind(const std::string& kind) {
  return kind == "workdir" || kind == "pgroup";  // not knobs: run/leftovers.h
}

}  // namespace

std::vector<std::string> restore_journal(KnobJournalTable& journal, Host& host) {
  std::lock_guard lock(knob_write_lock());
  // Only what this host wrote in this boot is written back.
  const JournalRows rows = journal_rows(journal, host);
  std::vector<std::string> done = settle_foreign_rows(journal, rows);
  // A refused row (hostile10 14: a crafted path) stops none of the others.
  std::vector<std::string> refused;
  for (const auto& e : rows.live) {
    if (leftover_kind(e.kind)) continue;
    try {
      if (e.kind == kTaskPolicyKind) {  // a thread's policy: put back while it still runs
        const auto line = restore_task_policy_row(host, e);
        journal.journal_restored(e.id);
        done.push_back(
            line ? *line
                 : fmt::format("{} {} ({}): the thread is gone, nothing to put back (run {})",
                               e.kind, terminal_safe(excerpt(e.name, 80)),
                               terminal_safe(excerpt(e.path, 80)), e.run_id));
        continue;
      }
      done.push_back(restore_row(journal, host, e));
    } catch (const KnobError& err) {  // a host that fails (HostError) stops it
      refused.emplace_back(err.what());
    }
  }
  if (!refused.empty()) throw RestoreIncomplete(fmt::format("{}", fmt::join(refused, "; ")), done);
  return done;
}

std::vector<std::string> adoption_problems(const std::vector<JournalEntry>& rows) {
  std::vector<std::string> out;
  for (const auto& e : rows)
    if (!leftover_kind(e.kind))
      if (auto problem = journal_row_problem(e)) out.push_back(std::move(*problem));
  return out;
}

std::vector<std::string> adopt_unidentified(KnobJournalTable& journal, Host& host,
                                            const std::vector<JournalEntry>& rows) {
  if (const auto problems = adoption_problems(rows); !problems.empty())
    throw KnobError(fmt::format("{}; nothing adopted", fmt::join(problems, "; ")));
  std::lock_guard lock(knob_write_lock());
  std::vector<std::string> done;
  for (const auto& e : rows) {
    if (!leftover_kind(e.kind)) {
      done.push_back(restore_row(journal, host, e));
      continue;
    }
    // A process or directory is never killed or removed on such a row's
    // word: the row is closed and the user told.
    journal.journal_discard_entry(e.id);
    done.push_back(fmt::format("{} {} (run {}): closed without acting; {} yourself if it is yours",
                               e.kind, terminal_safe(excerpt(e.name, 80)), e.run_id,
                               row_action(e)));
  }
  return done;
}

}  // namespace schedlab
