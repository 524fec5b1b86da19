// The point `parse` and `import` start from before an output is read: no
// --param given, so every parameter unknown but those saying how schedlab
// reads (ParamSpec::reading), as runner/input/param_values.h makes it.
#pragma once

#include "workloads/workload.h"

namespace schedlab::test {

inline Point unknown_point(const Workload& w) {
  Point p = default_point(w);
  for (const auto& spec : w.params())
    if (!spec.reading) p.unknown.insert(spec.name);
  return p;
}

// P with NAME known at VALUE.
inline Point with(Point p, const std::string& name, ParamValue value) {
  p.values[name] = std::move(value);
  p.unknown.erase(name);
  return p;
}

}  // namespace schedlab::test
