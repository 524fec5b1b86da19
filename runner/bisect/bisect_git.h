// The git plumbing of a bisection over a commit range: every call is
// `git -C REPO ...` as argv on the local machine (two minutes at most), and
// a failure is a BisectError naming the command and what git said.
#pragma once

#include <string>
#include <vector>

namespace schedlab {

// The full hash of `rev` (any name git takes), or BisectError "no commit".
std::string resolve_commit(const std::string& repo, const std::string& rev);

// `git rev-list --reverse --first-parent --ancestry-path good..bad`: the
// first-parent commits after good up to bad, oldest first.
std::vector<std::string> first_parent_path(const std::string& repo, const std::string& good,
                                           const std::string& bad);

// "abc1234 subject": the commit as people read it.
std::string commit_label(const std::string& repo, const std::string& commit);

// The work tree at `commit`, detached (for a hook that builds it).
void checkout_detached(const std::string& repo, const std::string& commit);

}  // namespace schedlab
