#include "analysis/compare/emulation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "base/json_data.h"

namespace schedlab {

std::vector<EmulatedRun> emulated_runs(const std::vector<RunInfo>& runs) {
  std::vector<EmulatedRun> out;
  for (const auto& r : runs) {
    const auto m = parse_json_data(r.manifest_json);
    if (!m.is_object() || !m.contains("lab") || !m["lab"].is_object()) continue;
    const auto& lab = m["lab"];
    if (lab.value("emulated", false) != true) continue;
    const std::string board = lab.value("board", "");
    out.push_back({r.id, lab.value("release", ""), board == "x86" ? "" : board});
  }
  return out;
}

std::string emulation_note(const std::vector<RunInfo>& runs) {
  const auto emulated = emulated_runs(runs);
  if (emulated.empty()) return "";
  std::vector<std::string> what;
  for (const auto& e : emulated)
    what.push_back((e.release.empty() ? fmt::format("run {}", e.run_id) : e.release) +
                   (e.board.empty() ? "" : " on " + e.board));
  return fmt::format("note: lab SUT under TCG: numbers are emulated ({})\n", fmt::join(what, ", "));
}

}  // namespace schedlab
