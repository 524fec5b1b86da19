// Kernels built from a source tree: `git:PATH@REF` (a commit, tag or branch
// of the repository at PATH), `git:PATH@WORKTREE` (HEAD plus the work tree's
// uncommitted edits: `git diff HEAD` and untracked files, kept with the
// build as edits.diff; no edits: HEAD's build) and `git:PATH` (the tree as
// it is, git or not, built in place). The build is out of tree in the lab cache:
//   builds/<sha12 of the tree's path>/src        a --shared clone checked out
//                                                at each @REF, or at HEAD with
//                                                the edits applied (the user's
//                                                repository is never touched)
//   builds/<...>/obj-<conf>, wt-<conf>           one persistent O= directory per
//                                                tree and config (obj- for the
//                                                clone, @REF and @WORKTREE alike):
//                                                an edit to one file rebuilds
//                                                incrementally
// The config is the board's base (board.h: `make tinyconfig` for x86,
// `make exynos_defconfig` trimmed for the exynos4210, cross-built ARCH=arm
// with its DTB and modules) + schedlab's guest fragment (guest_config:
// what the guest needs; x86 everything built in, modules off) + the user's
// config_fragments and config: symbols, resolved by olddefconfig. A built
// kernel is kept in kernels/<release>-<key>, key = sha of (commit or work-tree
// diff, resolved .config, compiler version), with its .config and build log.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runner/hosts/host.h"
#include "runner/lab/board.h"
#include "runner/lab/build_errors.h"
#include "runner/lab/kernel.h"
#include "runner/lab/paths.h"

namespace schedlab::lab {

bool is_git_kernel(const std::string& spec);

struct GitKernelSpec {
  std::string tree;       // as written, ~ expanded
  std::string ref;        // empty: the work tree (as it is, or @WORKTREE)
  bool worktree = false;  // @WORKTREE: HEAD + its edits, built in the clone
};
// The reserved ref of HEAD plus the work tree's uncommitted edits.
inline constexpr const char* kWorktreeRef = "WORKTREE";
// Throws UnknownKernel for "git:" with no path.
GitKernelSpec parse_git_kernel(const std::string& spec);

// What the user adds to the config (hosts.sut.lab.config_fragments, config).
struct KernelBuildConfig {
  std::vector<std::string> fragments;                        // files of CONFIG_X=v lines
  std::vector<std::pair<std::string, std::string>> symbols;  // CONFIG_X -> y | n | m | value
  std::string board = "x86";  // board.h: its base config, fragment, ARCH and cross compiler
};

// schedlab's guest fragment: initramfs, proc/sys/debugfs, SMP,
// SCHED_DEBUG, SCHEDSTATS, ... (kernel_build.cc says why each is there),
// then the board's (board.h: console, NIC, x86's ACPI and virtio, the
// exynos4210's PL330), its modules (CONFIG_MODULES=n, or =y with the
// board_modules as =m) and what it turns off.
std::vector<std::pair<std::string, std::string>> guest_config(const Board& board);

// The cache keys of a build. Their bytes are the cache: a change to any
// of them rebuilds every cached kernel (tests/runner/lab/cache_keys_test.cc
// pins them).
// The text appended to the base config's .config: "# schedlab guest
// fragment", guest_config's lines, each of the user's fragments after a
// "# FILE" line, "# config:" and the symbols. Throws UnknownKernel for a
// fragment that cannot be read.
std::string requested_config(const KernelBuildConfig& config, const Board& board);
// What a request is found by in the cache before anything is built
// (kernel.json's request_key): sha12 of (source identity, requested_config,
// compiler version, base config); "" for a source with no identity (no git).
std::string request_key(const std::string& identity, const std::string& requested,
                        const std::string& compiler, const Board& board);
// A built kernel's key (kernels/<release>-KEY): sha12 of (source identity,
// resolved .config, compiler version).
std::string built_kernel_key(const std::string& identity, const std::string& resolved,
                             const std::string& compiler);

// "CONFIG_X=v" lines (a fragment file's format) of every requested symbol,
// later ones overriding earlier ones. Pure.
std::map<std::string, std::string> parse_fragment(const std::string& text);
// The requested symbols that the resolved .config does not have as asked,
// as "CONFIG_X=y (is n)". `n` is met by "# CONFIG_X is not set" or absence. Pure.
std::vector<std::string> unmet_symbols(const std::map<std::string, std::string>& requested,
                                       const std::string& resolved_config);
// The programs and headers a kernel build needs, with their Debian packages
// (doctor lists them; a build checks them first).
struct BuildTool {
  std::string name;     // program name, or header path for a -dev package
  std::string package;  // Debian package
  bool header = false;  // name is a file under /usr/include
};
const std::vector<BuildTool>& kernel_build_tools();
// "bison (Debian package bison)", ... of the tools missing on this host,
// the board's cross compiler included.
std::vector<std::string> missing_build_tools(Host& local, const Board& board);

class KernelBuildFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The cached kernels built from the commit `spec` (git:PATH@REF) names,
// with whatever a run added to their config, newest first; none for a work
// tree (git:PATH). Throws UnknownKernel as build_kernel does.
std::vector<Kernel> cached_builds_of(const std::string& spec, const LabPaths& paths, Host& local,
                                     const std::string& board = "x86");

// Builds (or finds in the cache) the kernel `spec` names. Throws
// UnknownKernel for bad input (not a kernel tree, unknown ref, @REF without
// git), KernelBuildFailed when make fails (first error lines, log path),
// std::runtime_error for missing tools.
Kernel build_kernel(const std::string& spec, const KernelBuildConfig& config, const LabPaths& paths,
                    Host& local, const Log& log);

}  // namespace schedlab::lab
