// What a bisection that cannot go on throws: bad input, a git range that
// is not one, a reference that cannot be measured. Its own header so that
// the git plumbing (bisect_git.h) throws it without the spec.
#pragma once

#include <stdexcept>

namespace schedlab {

class BisectError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace schedlab
