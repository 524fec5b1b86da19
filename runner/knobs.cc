#include "runner/knobs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>

#include "runner/suggest.h"

namespace schedlab {

std::string normalize_sysctl_value(const std::string& v) {
  std::istringstream in(v);
  std::string word, out;
  while (in >> word) {
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

std::string read_sysctl(Host& host, const std::string& name) {
  const std::string path = sysctl_path(name);
  std::optional<std::string> value;
  try {
    value = host.read_file(path);
  } catch (const HostError& e) {
    throw KnobError(fmt::format("sysctl {}: cannot read on {}: {}", name, host.name(), e.what()));
  }
  if (!value) {
    const auto slash = path.rfind('/');
    std::vector<std::string> siblings;
    try {
      for (auto& s : host.list_dir(path.substr(0, slash))) siblings.push_back(s);
    } catch (const HostError&) {
    }
    std::string hint = did_you_mean(path.substr(slash + 1), siblings);
    if (!hint.empty()) {
      // Suggest the dotted name, not the file name.
      const std::string prefix = name.substr(0, name.rfind('.') + 1);
      hint = " (did you mean '" + prefix + *suggest(path.substr(slash + 1), siblings) + "'?)";
    }
    throw KnobError(fmt::format("sysctl {}: does not exist on {} (no {}){}", name, host.name(),
                                path, hint));
  }
  return normalize_sysctl_value(*value);
}

KnobJournal::~KnobJournal() {
  try {
    restore_all();
  } catch (...) {
    // Still journaled: `schedlab restore` or the next run will put it back.
  }
}

void KnobJournal::apply_sysctl(const SysctlSetting& s) {
  const std::string path = sysctl_path(s.name);
  const std::string original = read_sysctl(host_, s.name);
  const std::string target = normalize_sysctl_value(s.value);
  // Journal first: if schedlab dies between the write and the restore, the
  // database still knows what to put back.
  Applied a{store_.journal_applied({.run_id = run_id_,
                                    .host = host_.name(),
                                    .kind = "sysctl",
                                    .name = s.name,
                                    .path = path,
                                    .original = original,
                                    .target = target}),
            s.name, path, original};
  applied_.push_back(a);
  std::string problem;
  try {
    host_.write_file(path, target + "\n");
    const std::string now = read_sysctl(host_, s.name);
    if (now != target)
      problem = fmt::format("wrote '{}' but it reads back as '{}'", target, now);
  } catch (const std::exception& e) {
    problem = e.what();
  }
  if (!problem.empty()) {
    applied_.pop_back();
    restore_one(a);
    throw KnobError(fmt::format("sysctl {} = {}: {}; restored '{}'", s.name, target, problem,
                                original));
  }
}

void KnobJournal::restore_one(const Applied& a) {
  host_.write_file(a.path, a.original + "\n");
  const std::string now = read_sysctl(host_, a.name);
  if (now != a.original)
    throw KnobError(fmt::format("sysctl {}: restored '{}' but it reads back as '{}'", a.name,
                                a.original, now));
  store_.journal_restored(a.entry_id);
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

std::vector<std::string> restore_journal(Store& store, Host& host) {
  std::vector<std::string> done;
  for (const auto& e : store.unrestored(host.name())) {
    if (e.kind != "sysctl")
      throw KnobError(fmt::format("journal entry {} has unknown kind '{}'", e.id, e.kind));
    host.write_file(e.path, e.original + "\n");
    const std::string now = read_sysctl(host, e.name);
    if (now != e.original)
      throw KnobError(fmt::format("sysctl {}: restored '{}' but it reads back as '{}'", e.name,
                                  e.original, now));
    store.journal_restored(e.id);
    done.push_back(fmt::format("{}: {} -> {} (run {})", e.name, e.target, e.original, e.run_id));
  }
  return done;
}

}  // namespace schedlab
