// The only file that sees the generated version header (kept out of the
// unity batches): a new commit recompiles this file alone.
#include "base/version.h"

#include "schedlab_version.h"

namespace schedlab {

std::string schedlab_version() {
  return std::string(SCHEDLAB_PROJECT_VERSION) + " (" + SCHEDLAB_GIT_DESCRIBE + ")";
}

}  // namespace schedlab
