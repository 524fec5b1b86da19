// A variant's knobs as its config gives them, in a form the kind rows
// (knob_kind.h) own: per kind, its settings in config order. A kind reads
// and interprets its own settings; config/ only stores them.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab {

// One setting of a kind: sysctl kernel.sched_autogroup_enabled = 0,
// sched_feature NO_PLACE_LAG (name and value the token), policy policy =
// batch, affinity client = 1-3, ... and the config line that set it.
struct KnobSetting {
  std::string name;
  std::string value;
  int line = 0;
};

struct KnobSettings {
  // By kind (a knob_kinds() row's name); a kind the variant does not set
  // has no entry.
  std::map<std::string, std::vector<KnobSetting>, std::less<>> by_kind;

  // A kind's settings; none when the variant does not set it.
  const std::vector<KnobSetting>& of(std::string_view kind) const {
    static const std::vector<KnobSetting> none;
    const auto it = by_kind.find(kind);
    return it == by_kind.end() ? none : it->second;
  }
  // The setting of a kind by its name, or nullptr.
  const KnobSetting* find(std::string_view kind, std::string_view name) const {
    for (const auto& s : of(kind))
      if (s.name == name) return &s;
    return nullptr;
  }
};

}  // namespace schedlab
