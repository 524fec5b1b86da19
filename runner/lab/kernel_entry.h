// A kernel as the lab's cache holds it (kernel.h resolves Debian packages
// and paths to one, kernel_build.h builds one from a tree), and the error for
// a name that names none. Its own header so that what works on a kernel
// (out_of_tree_module.h) needs neither of them.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace schedlab::lab {

struct Kernel {
  std::string spec;             // as asked
  std::string package;          // empty for a path kernel
  std::string package_version;  // Debian version of the package
  std::string release;          // uname -r
  std::string vmlinuz;
  std::string modules_dir;      // .../lib/modules/<release>, with modules.dep; empty: none (built-in)
  std::string key;              // <release>-<sha12>: the cache key
  std::string board = "x86";    // the board it boots on (board.h)
  std::string dtb;              // the board's DTB as the kernel shipped it; empty: the board has none
  // A kernel built from source (kernel_build.h); empty for packages and paths.
  std::string tree;             // the source tree
  std::string commit;           // built commit (the work tree's HEAD)
  std::string describe;         // git describe --always (+ "-dirty" for a work tree with edits)
  // @WORKTREE with edits: what was built on `commit`, as a patch (git diff
  // HEAD, untracked files as new files), and its sha256; empty: none.
  std::string edits;
  std::string edits_sha256;
  std::string config_sha;       // sha12 of the resolved .config
  std::string build_log;        // the make output of the build that produced it
  double build_seconds = 0;     // of that build; 0: found in the cache now
  std::vector<std::string> warnings;  // requested config symbols not as asked
  // What was asked of a built kernel beyond the guest fragment (a run's
  // workloads' needs and its config's symbols and fragments), as its cache
  // entry records it: `lab shell` finds the kernel a run built by it.
  std::vector<std::pair<std::string, std::string>> requested_symbols;
  std::vector<std::string> requested_fragments;
};

// A kernel name that names nothing: bad input, not a failure.
class UnknownKernel : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace schedlab::lab
