// schedlab's own version: the project version (CMakeLists.txt) and the
// `git describe` of the tree it was built from, both taken at build time.
#pragma once

#include <string>

namespace schedlab {

// "0.1.0 (v0.1.0-12-g4f2fc9d-dirty)": what `schedlab --version` prints
// after "schedlab ", and every run's manifest records as schedlab_version.
std::string schedlab_version();

}  // namespace schedlab
