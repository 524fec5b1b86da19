// What a failed build says went wrong, read from its log: kernel builds
// (kernel_build.h) and out-of-tree modules (out_of_tree_module.h) alike.
#pragma once

#include <cstddef>
#include <string>

namespace schedlab::lab {

// The first lines of a failed build that say what failed (compiler errors,
// make's "***" lines), at most n. Pure.
std::string first_error_lines(const std::string& log, std::size_t n = 6);

}  // namespace schedlab::lab
