#include "runner/run/step_context.h"

#include <chrono>
#include <sstream>

#include "base/random_word.h"
#include "results/knob_journal_table.h"
#include "runner/run/run_context.h"

namespace schedlab {

StepContext sut_step_context(const Pair& pair) {
  StepContext c{.sut_address = pair.sut_address};
  // Both facts in one command: a round trip to an emulated guest costs a
  // tenth of a second. Fixed text; the uid is its first line.
  const auto r = pair.sut.run({.argv = {"sh", "-c", "id -u && exec cat /proc/meminfo"},
                               .timeout = std::chrono::seconds(10)});
  std::istringstream out(r.out);
  std::string uid;
  std::getline(out, uid);
  c.sut_root = uid == "0";
  // Unknown memory size (no /proc/meminfo): workloads that need it say so.
  std::string key, unit;
  std::uint64_t kb = 0;
  while (out >> key >> kb >> unit)
    if (key == "MemTotal:") c.sut_mem_bytes = kb * 1024;
  return c;
}

std::vector<Workdir> make_pair_workdirs(KnobJournalTable& journal, const Pair& pair,
                                        std::int64_t run_id, const std::string& prefix) {
  std::vector<Workdir> dirs;
  try {
    dirs.push_back(make_workdir(journal, pair.sut, run_id, prefix));
    // A loadgen that already sees the new, randomly named directory
    // shares the SUT's /tmp (one machine, two network namespaces, say):
    // the one directory serves both.
    const std::string& path = dirs.front().path;
    if (&pair.loadgen != &pair.sut &&
        !pair.loadgen.run({.argv = {"test", "-d", path}, .timeout = std::chrono::seconds(30)}).ok())
      dirs.push_back(make_workdir_at(journal, pair.loadgen, run_id, path));
  } catch (const HostError& e) {
    if (!dirs.empty()) remove_workdir(journal, pair.sut, dirs.front());
    throw PreflightError(e.what());
  }
  return dirs;
}

std::string random_secret() {
  return random_word(24, "abcdefghijklmnopqrstuvwxyz0123456789");
}

}  // namespace schedlab
