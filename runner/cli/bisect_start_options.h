// The options of `schedlab bisect start`: a flag per field of the
// BisectRequest (runner/bisect/bisect_request.h) they fill, with its help,
// default and check; the request becomes the bisection's spec there.
#pragma once

#include <CLI/CLI.hpp>

#include "runner/bisect/bisect_request.h"

namespace schedlab::cli {

void add_bisect_start_options(CLI::App& start, BisectRequest& r);

}  // namespace schedlab::cli
