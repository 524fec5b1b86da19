// The Vega script inlined into schedlab's HTML pages, from Debian's
// libjs-vega. Debian ships Vega as its separate UMD modules (vega-util,
// vega-dataflow, ...), not the one-file bundle; each module's browser
// global form would replace `vega` with its own exports, so they are
// loaded through a tiny AMD define() and assembled as Vega's own index.js
// does (every export merged, the transforms registered).
#pragma once

#include <string>

namespace schedlab::cli {

// The modules' directory: $SCHEDLAB_VEGA_DIR, else /usr/share/javascript/vega.
std::string vega_dir();

// The script defining the global `vega`. Throws std::runtime_error naming
// the missing file and the package (libjs-vega) when a module is missing.
std::string vega_script();

}  // namespace schedlab::cli
