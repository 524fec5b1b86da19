// `schedlab lab list`: the kernel cache (packaged kernels, kernels built
// from trees), the initramfs images, the kernel names and the boards.
#pragma once

#include <string>

#include "runner/lab/paths.h"

namespace schedlab::lab {

std::string describe_cache(const LabPaths& paths);

}  // namespace schedlab::lab
