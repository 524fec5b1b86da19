#include "runner/lab/paths.h"

#include <cstdlib>
#include <stdexcept>

namespace schedlab::lab {

LabPaths LabPaths::from_env() {
  if (const char* c = std::getenv("SCHEDLAB_LAB_CACHE"); c && *c) return {c};
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return {std::filesystem::path(x) / "schedlab" / "lab"};
  const char* home = std::getenv("HOME");
  if (!home || !*home) throw std::runtime_error("lab: neither SCHEDLAB_LAB_CACHE nor HOME is set");
  return {std::filesystem::path(home) / ".cache" / "schedlab" / "lab"};
}

}  // namespace schedlab::lab
