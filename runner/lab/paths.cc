#include "runner/lab/paths.h"

#include <cstdlib>
#include <stdexcept>

#include "base/file.h"

namespace schedlab::lab {

LabPaths LabPaths::from_env() {
  if (const char* c = std::getenv("SCHEDLAB_LAB_CACHE"); c && *c) {
    // The lab boots the kernels and images it finds there: a folder another
    // user can change is refused (hostile12).
    if (const auto problem = shared_dir_problem("SCHEDLAB_LAB_CACHE", c))
      throw std::runtime_error("lab: " + *problem);
    return {c};
  }
  const std::filesystem::path cache = user_cache_dir();
  if (cache.empty()) throw std::runtime_error("lab: neither SCHEDLAB_LAB_CACHE nor HOME is set");
  // The same check for the cache XDG_CACHE_HOME or HOME names (hostile13).
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (const auto problem = shared_dir_problem(xdg && *xdg ? "XDG_CACHE_HOME" : "HOME", cache))
    throw std::runtime_error("lab: " + *problem);
  return {cache / "lab"};
}

}  // namespace schedlab::lab
