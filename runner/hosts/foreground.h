// A terminal program run in the foreground of this terminal (an ssh
// session into a lab guest): the terminal's Ctrl-C belongs to it while it
// runs, not to schedlab.
#pragma once

#include <string>
#include <vector>

namespace schedlab {

// Its exit status; -1 when it could not be started or did not exit.
int run_in_foreground(const std::vector<std::string>& argv);

}  // namespace schedlab
