#include "runner/lab/kernel_build.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <vector>

#include "base/file.h"
#include "base/hash.h"
#include "base/shell_quote.h"
#include "base/text.h"
#include "runner/lab/board.h"

namespace schedlab::lab {
namespace fs = std::filesystem;
namespace {

constexpr std::chrono::hours kBuildTimeout{4};

std::string sha12(std::string_view s) {
  return sha256_hex(s).substr(0, 12);
}

std::string expand_home(const std::string& p) {
  if (p == "~" || p.starts_with("~/")) {
    const char* home = std::getenv("HOME");
    return std::string(home ? home : "") + p.substr(1);
  }
  return p;
}

ExecResult run_in(Host& local, std::vector<std::string> argv, const std::string& cwd = "",
                  std::chrono::milliseconds timeout = std::chrono::minutes(10)) {
  Command c{.argv = std::move(argv), .cwd = cwd, .timeout = timeout};
  c.env["LC_ALL"] = "C";
  return local.run(c);
}

std::string trimmed(const std::string& s) {
  return std::string(trim(s));
}

// One line of a failed helper command for an error message.
std::string why(const ExecResult& r) {
  const std::string e = trimmed(last_lines(r.err.empty() ? r.out : r.err, 2));
  return e.empty() ? r.describe() : e;
}

struct Source {
  fs::path tree;  // canonical
  bool git = false;
  std::string commit;    // the commit built, or the work tree's HEAD
  std::string identity;  // what the source is, for the cache key; empty: unknown (no git)
  std::string describe;
  std::string edits;  // @WORKTREE: the edits on HEAD as a patch (worktree_patch)
};

// The most @WORKTREE's edited and untracked files may hold together: a
// source edit is kilobytes; a file neither committed nor ignored (a disk
// image, a core dump) would be read as a patch several times its size in
// memory and copied into the cache (issue 44: 100 MB took 325 MB).
constexpr std::uintmax_t kMaxEditsBytes = 64 << 20;

// Refuses edits past kMaxEditsBytes, naming the largest file, before any
// is read. NAMES: NUL-separated paths in the tree.
void check_edits_size(const Source& s, const std::string& spec, const std::string& names) {
  std::uintmax_t total = 0, largest = 0;
  std::string largest_name;
  std::istringstream in(names);
  for (std::string n; std::getline(in, n, '\0');) {
    std::error_code ec;
    if (n.empty() || !fs::is_regular_file(fs::symlink_status(s.tree / n, ec))) continue;
    const std::uintmax_t size = fs::file_size(s.tree / n, ec);
    if (ec) continue;
    total += size;
    if (size > largest) {
      largest = size;
      largest_name = n;
    }
  }
  if (total > kMaxEditsBytes)
    throw UnknownKernel(fmt::format(
        "lab: {}: the edits of {} hold {} MiB (the largest, {}: {} MiB); @WORKTREE takes at most "
        "{} MiB of edited and untracked files: commit or .gitignore what is not a source edit",
        spec, terminal_safe(s.tree.string()), total >> 20, terminal_safe(largest_name),
        largest >> 20, kMaxEditsBytes >> 20));
}

// `git diff ARGS` in the tree as a patch git apply -p1 takes whatever the
// user's git config says: no external diff program or textconv (a
// diff.external that printed nothing made the edits empty, HEAD's build), no
// colour, the a/ and b/ prefixes (diff.noprefix), git's 3 lines of context
// (diff.context 0 made a patch git apply refused: hostile10). Without such
// config its output is plain `git diff`'s, so an identity made before stays
// the same.
std::vector<std::string> git_diff(const Source& s, std::initializer_list<std::string> args) {
  std::vector<std::string> argv = {"git",
                                   "-C",
                                   s.tree.string(),
                                   "diff",
                                   "--no-ext-diff",
                                   "--no-textconv",
                                   "--no-color",
                                   "--src-prefix=a/",
                                   "--dst-prefix=b/",
                                   "--unified=3"};
  argv.insert(argv.end(), args);
  return argv;
}

// A file of the work tree git diff never compares with its committed
// version: its index entry is marked assume-unchanged (`git ls-files -v`
// tags it in lower case) or skip-worktree ('S'), so its edits are in no
// patch and no identity (hostile9: such an edit built as HEAD, silently).
// A sparse checkout's skipped files are absent, not counted.
struct UnwatchedFile {
  std::string path;
  std::string clear;  // the update-index option that clears the mark
};
std::optional<UnwatchedFile> first_unwatched_file(const Source& s, Host& local) {
  const ExecResult tagged = run_in(local, {"git", "-C", s.tree.string(), "ls-files", "-v", "-z"});
  std::istringstream in(tagged.out);
  for (std::string e; std::getline(in, e, '\0');) {
    const bool assumed = e.size() > 2 && std::islower(static_cast<unsigned char>(e[0]));
    if (e.size() < 3 || e[1] != ' ' || !(assumed || e[0] == 'S')) continue;
    std::error_code ec;
    if (fs::exists(fs::symlink_status(s.tree / e.substr(2), ec)))
      return UnwatchedFile{e.substr(2), assumed ? "--no-assume-unchanged" : "--no-skip-worktree"};
  }
  return std::nullopt;
}

// The first submodule (an index entry of mode 160000) of the tree: a build
// clones HEAD without it, so neither it nor its edits would be built
// (hostile10 24).
std::optional<std::string> first_submodule(const Source& s, Host& local) {
  const ExecResult staged = run_in(local, {"git", "-C", s.tree.string(), "ls-files", "-s", "-z"});
  std::istringstream in(staged.out);
  for (std::string e; std::getline(in, e, '\0');)
    if (e.starts_with("160000 ") && e.find('\t') != std::string::npos)
      return e.substr(e.find('\t') + 1);
  return std::nullopt;
}

// An untracked entry @WORKTREE's patch takes: a regular file, or a symbolic
// link as a link (git diff --no-index never follows it). Why not, else: a
// directory `git ls-files --others` lists whole (it holds a repository of
// its own), a FIFO, a socket, a device (hostile10 21: an untracked link was
// left out silently).
std::optional<std::string> untracked_problem(const fs::path& tree, const std::string& name) {
  std::error_code ec;
  const auto st = fs::symlink_status(tree / name, ec);
  if (!ec && (fs::is_regular_file(st) || fs::is_symlink(st))) return std::nullopt;
  if (name.ends_with('/') || fs::is_directory(st)) return "a directory holding a git repository";
  if (ec) return ec.message();
  return fs::is_fifo(st) ? "a FIFO" : fs::is_socket(st) ? "a socket" : "a device or special file";
}

// @WORKTREE's edits as one patch git apply takes: `git diff --binary HEAD`
// (staged and unstaged), then each untracked file and link that .gitignore
// does not exclude as a new one. Empty: the work tree is HEAD.
std::string worktree_patch(const Source& s, const std::string& spec, Host& local) {
  if (const auto f = first_unwatched_file(s, local))
    throw UnknownKernel(fmt::format(
        "lab: {}: git does not compare {} of {} with its commit (it is marked {}), so its edits "
        "would be in no patch: git -C {} update-index {} -- {}",
        spec, terminal_safe(f->path), terminal_safe(s.tree.string()), f->clear.substr(5),
        shell_word(s.tree.string()), f->clear, shell_word(f->path)));
  if (const auto sub = first_submodule(s, local))
    throw UnknownKernel(fmt::format(
        "lab: {}: {} of {} is a submodule, and a build takes none (neither it nor its edits "
        "would be built): @WORKTREE builds a tree without submodules",
        spec, terminal_safe(*sub), terminal_safe(s.tree.string())));
  const ExecResult edited = run_in(local, git_diff(s, {"--name-only", "--relative", "-z", "HEAD"}));
  const ExecResult untracked = run_in(
      local, {"git", "-C", s.tree.string(), "ls-files", "--others", "--exclude-standard", "-z"});
  if (!edited.ok() || !untracked.ok())
    throw UnknownKernel(fmt::format("lab: {}: cannot read the edits of {}: {}", spec,
                                    s.tree.string(), why(edited.ok() ? untracked : edited)));
  check_edits_size(s, spec, edited.out + untracked.out);
  const ExecResult diff = run_in(local, git_diff(s, {"--binary", "HEAD"}));
  if (!diff.ok())
    throw UnknownKernel(
        fmt::format("lab: {}: cannot read the edits of {}: {}", spec, s.tree.string(), why(diff)));
  std::string patch = diff.out;
  std::istringstream names(untracked.out);
  for (std::string n; std::getline(names, n, '\0');) {
    if (n.empty()) continue;
    if (const auto why = untracked_problem(s.tree, n))
      throw UnknownKernel(fmt::format(
          "lab: {}: the untracked {} of {} is {}: @WORKTREE takes untracked files and symbolic "
          "links only; commit, remove or .gitignore it",
          spec, terminal_safe(n), terminal_safe(s.tree.string()), *why));
    // --no-index exits 1 when the files differ, as a new file always does.
    const ExecResult added =
        run_in(local, git_diff(s, {"--no-index", "--binary", "--", "/dev/null", n}));
    if (added.exit_code != 1 || added.out.empty())
      throw UnknownKernel(fmt::format("lab: {}: cannot read the untracked file {}: {}", spec,
                                      terminal_safe(n), why(added)));
    patch += added.out;
  }
  return patch;
}

Source find_source(const GitKernelSpec& g, const std::string& spec, Host& local) {
  Source s;
  std::error_code ec;
  s.tree = fs::canonical(g.tree, ec);
  if (ec || !fs::is_directory(s.tree))
    throw UnknownKernel(fmt::format("lab: {}: no such directory '{}'", spec, g.tree));
  for (const char* f : {"Makefile", "Kconfig", "kernel/sched/core.c"})
    if (!fs::exists(s.tree / f))
      throw UnknownKernel(fmt::format(
          "lab: {}: '{}' is not a kernel source tree (no {}); give the top of a Linux tree", spec,
          s.tree.string(), f));
  const ExecResult top =
      run_in(local, {"git", "-C", s.tree.string(), "rev-parse", "--show-toplevel"});
  s.git = top.ok();
  // Git (2.35.2 on) refuses a repository owned by another user unless it is
  // listed in safe.directory; it is a repository all the same, so saying
  // "not a git repository" (or building it as a plain tree) would mislead.
  if (!s.git && top.err.find("detected dubious ownership") != std::string::npos)
    throw UnknownKernel(
        fmt::format("lab: {}: git refuses to read '{}': it is owned by another user (git's "
                    "\"detected dubious ownership\"); if you trust it: git config --global --add "
                    "safe.directory {}",
                    spec, s.tree.string(), s.tree.string()));
  const std::string at = g.worktree ? kWorktreeRef : g.ref;
  if (!s.git) {
    if (!at.empty())
      throw UnknownKernel(
          fmt::format("lab: {}: '{}' is not a git repository, so @{} names nothing; drop @{} to "
                      "build the tree as it is",
                      spec, s.tree.string(), at, at));
    return s;  // no identity: make decides what to rebuild
  }
  const std::string ref = g.ref.empty() ? "HEAD" : g.ref;
  const ExecResult c = run_in(local, {"git", "-C", s.tree.string(), "rev-parse", "--verify",
                                      "--quiet", "--end-of-options", ref + "^{commit}"});
  if (!c.ok()) {
    if (g.worktree)
      throw UnknownKernel(fmt::format(
          "lab: {}: {} has no commit yet, and @WORKTREE is HEAD plus its edits (commit once, or "
          "drop @WORKTREE to build the tree as it is)",
          spec, s.tree.string()));
    if (g.ref.empty()) return s;  // a repository with no commit yet
    throw UnknownKernel(fmt::format(
        "lab: {}: unknown ref '{}' in {} (a commit, tag or branch: git -C {} log --oneline)", spec,
        g.ref, s.tree.string(), s.tree.string()));
  }
  s.commit = trimmed(c.out);
  const ExecResult d =
      run_in(local, {"git", "-C", s.tree.string(), "describe", "--tags", "--always", s.commit});
  s.describe = d.ok() ? trimmed(d.out) : s.commit.substr(0, 12);
  if (!g.ref.empty()) {
    s.identity = "commit " + s.commit;
    return s;
  }
  if (g.worktree) {
    // No edits: HEAD's own identity, so HEAD's cached build is this one.
    s.edits = worktree_patch(s, spec, local);
    if (s.edits.empty()) {
      s.identity = "commit " + s.commit;
      return s;
    }
    const std::string h = sha12(s.edits);
    s.identity = "worktree " + s.commit + " " + h;
    s.describe += "-dirty-" + h.substr(0, 7);
    return s;
  }
  // The work tree: HEAD plus its edits (tracked changes and untracked files).
  // A file git does not compare leaves the identity unknown: make decides.
  if (first_unwatched_file(s, local)) return s;
  const ExecResult diff = run_in(local, git_diff(s, {"--binary", "HEAD"}));
  const ExecResult untracked = run_in(
      local, {"git", "-C", s.tree.string(), "ls-files", "--others", "--exclude-standard", "-z"});
  if (!diff.ok() || !untracked.ok()) return s;
  std::string edits = diff.out;
  std::istringstream names(untracked.out);
  for (std::string n; std::getline(names, n, '\0');)
    if (!n.empty() && fs::is_regular_file(s.tree / n))
      edits += "\n" + n + "\n" + sha256_file(s.tree / n);
  s.identity = "worktree " + s.commit + " " + sha12(edits);
  if (!edits.empty()) s.describe += "-dirty-" + sha12(edits).substr(0, 7);
  return s;
}

// An exclusive flock(2) on `path`, held while the object lives.
class BuildLock {
 public:
  explicit BuildLock(const fs::path& path)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0)
      throw std::runtime_error(
          fmt::format("lab: cannot lock {}: {}", path.string(), std::strerror(errno)));
  }
  ~BuildLock() { ::close(fd_); }
  BuildLock(const BuildLock&) = delete;
  BuildLock& operator=(const BuildLock&) = delete;

 private:
  int fd_;
};

std::string compiler_version(Host& local, const Board& board) {
  const ExecResult r = run_in(local, {board.cross_compile + "gcc", "--version"});
  const auto lines = split_lines(r.out);
  return r.ok() && !lines.empty() ? std::string(lines.front()) : board.cross_compile + "gcc unknown";
}

std::string read_or_empty(const fs::path& p) {
  try {
    return schedlab::read_file(p);
  } catch (const std::exception&) {
    return "";
  }
}

// What a resolved .config depends on: the board's base, schedlab's and the
// user's request, and the tree's Kconfig and Makefiles, which the commit
// fixes unless @WORKTREE's edits touch one (then the edits count too).
// Empty: unknown (a tree without git), resolve every time.
std::string config_inputs(const Source& src, const Board& board, const std::string& requested) {
  if (src.commit.empty()) return "";
  std::string out = board.base_config + "\n" + src.commit + "\n" + requested;
  for (const auto line : split_lines(src.edits)) {
    if (!line.starts_with("diff --git ")) continue;
    const auto name = line.substr(line.rfind('/') + 1);
    if (name.starts_with("Kconfig") || name.starts_with("Makefile") || name.ends_with("config") ||
        name.starts_with("Kbuild"))
      return out + "\n" + sha256_hex(src.edits);
  }
  return out;
}

}  // namespace

std::string requested_config(const KernelBuildConfig& config, const Board& board) {
  std::string out = "# schedlab guest fragment\n";
  for (const auto& [k, v] : guest_config(board)) out += k + "=" + v + "\n";
  for (const auto& f : config.fragments) {
    std::string text;
    try {
      text = schedlab::read_file(expand_home(f));
    } catch (const std::exception& e) {
      throw UnknownKernel(fmt::format("lab: config fragment '{}' cannot be read: {}", f, e.what()));
    }
    out += "# " + f + "\n" + text + (text.ends_with('\n') ? "" : "\n");
  }
  if (!config.symbols.empty()) out += "# config:\n";
  for (const auto& [k, v] : config.symbols) out += k + "=" + v + "\n";
  return out;
}

std::string request_key(const std::string& identity, const std::string& requested,
                        const std::string& compiler, const Board& board) {
  return identity.empty() ? ""
                          : sha12(identity + "\n" + requested + "\n" + compiler + "\n" +
                                  board.base_config + "\n");
}

std::string built_kernel_key(const std::string& identity, const std::string& resolved,
                             const std::string& compiler) {
  return sha12(identity + "\n" + resolved + "\n" + compiler);
}

namespace {

// `checkout`/`tree`: a @WORKTREE build's errors name the files of the
// user's tree (the checkout holds the same edits), so they open in an editor.
void throw_failed(const std::string& spec, const std::string& step, const ExecResult& r,
                  const fs::path& log_path, const std::string& checkout = "",
                  const std::string& tree = "") {
  std::string text = join_output(r.out, r.err);
  if (!checkout.empty())
    for (auto at = text.find(checkout + "/"); at != std::string::npos;
         at = text.find(checkout + "/", at + tree.size()))
      text.replace(at, checkout.size(), tree);
  std::string where = "full log: " + log_path.string();
  try {
    write_whole_file(log_path, text);
  } catch (const std::exception& e) {
    where = fmt::format("the log could not be kept ({})", e.what());  // a full disk, often
  }
  std::string first = first_error_lines(text);
  if (first.empty()) first = last_lines(text, 6);
  std::string indented;
  for (const auto line : split_lines(first)) indented += "\n  " + std::string(line);
  throw KernelBuildFailed(fmt::format("lab: building {} failed at {} ({}):{}\n{}", spec, step,
                                      r.describe(), indented, where));
}

}  // namespace

bool is_git_kernel(const std::string& spec) {
  return spec.starts_with("git:");
}

GitKernelSpec parse_git_kernel(const std::string& spec) {
  std::string rest = spec.substr(4);
  GitKernelSpec g;
  // PATH@REF splits at the last '@': a ref may hold '/' (feature/x), a
  // tree's path rarely holds '@'.
  const auto at = rest.rfind('@');
  if (at != std::string::npos) {
    g.ref = rest.substr(at + 1);
    rest.resize(at);
  }
  if (rest.empty() || (at != std::string::npos && g.ref.empty()))
    throw UnknownKernel(fmt::format(
        "lab: '{}': expected git:PATH (the work tree), git:PATH@REF or git:PATH@WORKTREE", spec));
  g.tree = expand_home(rest);
  if (g.ref == kWorktreeRef) {
    g.worktree = true;
    g.ref.clear();
  }
  return g;
}

std::vector<std::pair<std::string, std::string>> guest_config(const Board& board) {
  // Each symbol with what it depends on: olddefconfig does not turn a
  // dependency on, and unmet_symbols names what did not stick. The board's
  // part (board.h: its console, NIC, CPUs, modules or not) follows.
  static const std::vector<std::pair<std::string, std::string>> common = {
      {"CONFIG_SMP", "y"},
      // tinyconfig optimises for size and compresses with xz (slow to unpack under TCG).
      {"CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE", "y"},
      {"CONFIG_KERNEL_GZIP", "y"},
      {"CONFIG_SLUB", "y"},
      {"CONFIG_PRINTK", "y"},
      {"CONFIG_MULTIUSER", "y"},
      {"CONFIG_BINFMT_ELF", "y"},
      {"CONFIG_BINFMT_SCRIPT", "y"},
      {"CONFIG_BLK_DEV_INITRD", "y"},
      {"CONFIG_RD_GZIP", "y"},
      {"CONFIG_TTY", "y"},
      {"CONFIG_UNIX98_PTYS", "y"},
      {"CONFIG_PROC_FS", "y"},
      {"CONFIG_PROC_SYSCTL", "y"},
      {"CONFIG_SYSFS", "y"},
      {"CONFIG_DEBUG_FS", "y"},
      {"CONFIG_SHMEM", "y"},
      {"CONFIG_TMPFS", "y"},
      {"CONFIG_DEVTMPFS", "y"},
      // What the workloads, dropbear and bash call.
      {"CONFIG_FUTEX", "y"},
      {"CONFIG_EPOLL", "y"},
      {"CONFIG_EVENTFD", "y"},
      {"CONFIG_TIMERFD", "y"},
      {"CONFIG_SIGNALFD", "y"},
      {"CONFIG_POSIX_TIMERS", "y"},
      {"CONFIG_FILE_LOCKING", "y"},
      {"CONFIG_HIGH_RES_TIMERS", "y"},
      {"CONFIG_SECCOMP", "y"},
      {"CONFIG_SECCOMP_FILTER", "y"},
      {"CONFIG_CGROUPS", "y"},
      {"CONFIG_CGROUP_SCHED", "y"},
      {"CONFIG_FAIR_GROUP_SCHED", "y"},
      {"CONFIG_SCHED_AUTOGROUP", "y"},
      {"CONFIG_PERF_EVENTS", "y"},
      // /sys/kernel/debug/sched (features, tunables) and /proc/schedstat.
      {"CONFIG_DEBUG_KERNEL", "y"},
      {"CONFIG_SCHED_DEBUG", "y"},
      {"CONFIG_SCHEDSTATS", "y"},
      {"CONFIG_NET", "y"},
      {"CONFIG_UNIX", "y"},
      {"CONFIG_INET", "y"},
      {"CONFIG_NETDEVICES", "y"},
      {"CONFIG_NET_CORE", "y"},
  };
  auto out = common;
  out.insert(out.end(), board.kernel_config.begin(), board.kernel_config.end());
  // Modules: the board's (board_modules), as their workloads load them;
  // none, everything built in, on a board that builds no modules.
  if (board.kernel_modules) {
    out.insert(out.end(), {{"CONFIG_MODULES", "y"}, {"CONFIG_MODULE_UNLOAD", "y"}});
    for (const auto& m : board_modules(board)) out.emplace_back(m.config, "m");
  } else {
    out.emplace_back("CONFIG_MODULES", "n");
  }
  out.insert(out.end(), board.kernel_config_off.begin(), board.kernel_config_off.end());
  return out;
}

std::map<std::string, std::string> parse_fragment(const std::string& text) {
  std::map<std::string, std::string> out;
  for (const auto raw : split_lines(text)) {
    const std::string line = std::string(trim(raw));
    if (line.starts_with("# CONFIG_") && line.ends_with(" is not set")) {
      out[line.substr(2, line.size() - 2 - 11)] = "n";
      continue;
    }
    if (!line.starts_with("CONFIG_")) continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

std::vector<std::string> unmet_symbols(const std::map<std::string, std::string>& requested,
                                       const std::string& resolved_config) {
  const auto have = parse_fragment(resolved_config);
  std::vector<std::string> out;
  for (const auto& [k, want] : requested) {
    const auto it = have.find(k);
    const std::string is = it == have.end() ? "n" : it->second;
    if (is != want)
      out.push_back(fmt::format("{}={} (is {})", k, want, it == have.end() ? "absent" : is));
  }
  return out;
}

const std::vector<BuildTool>& kernel_build_tools() {
  static const std::vector<BuildTool> tools = {
      {"make", "make"},
      {"gcc", "gcc"},
      {"bc", "bc"},
      {"bison", "bison"},
      {"flex", "flex"},
      {"git", "git"},
      {"/usr/include/libelf.h", "libelf-dev", true},
      {"/usr/include/openssl/opensslv.h", "libssl-dev", true},
  };
  return tools;
}

std::vector<std::string> missing_build_tools(Host& local, const Board& board) {
  std::vector<std::string> out;
  for (const auto& t : kernel_build_tools()) {
    const bool found =
        t.header ? local.read_file(t.name).has_value() : local.find_program(t.name).has_value();
    if (!found) out.push_back(fmt::format("{} (Debian package {})", t.name, t.package));
  }
  if (!board.cross_compile.empty() && !local.find_program(board.cross_compile + "gcc"))
    out.push_back(fmt::format("{}gcc (Debian package {}), the {} board's cross compiler", board.cross_compile,
                              board.cross_package, board.name));
  return out;
}

namespace {

// A build that ran out of disk (make's or git's "No space left on device",
// or a copy into the cache) says so on its first line, with the free space
// and where to build instead; not a KernelBuildFailed: bisect must stop
// here rather than skip every later candidate.
[[noreturn]] void throw_disk_full(const std::string& spec, const LabPaths& paths,
                                  const std::string& what) {
  std::error_code ec;
  const auto space = fs::space(paths.root, ec);
  const std::string free =
      ec ? std::string("free space unknown") : fmt::format("{} MiB free", space.available >> 20);
  throw std::runtime_error(fmt::format(
      "lab: building {}: the disk holding {} is full ({}); free space there, or set "
      "SCHEDLAB_LAB_CACHE to a folder on a larger disk (a 6.1 build takes about 1.5 GB with its "
      "source checkout)\n{}",
      spec, paths.root.string(), free, what));
}

Kernel build_kernel_in_cache(const std::string& spec, const KernelBuildConfig& config,
                             const LabPaths& paths, Host& local, const Log& log);

}  // namespace

std::vector<Kernel> cached_builds_of(const std::string& spec, const LabPaths& paths, Host& local,
                                     const std::string& board) {
  const GitKernelSpec g = parse_git_kernel(spec);
  if (g.ref.empty()) return {};  // a work tree's edits are part of what was built
  const Source src = find_source(g, spec, local);
  std::vector<std::pair<fs::file_time_type, Kernel>> found;
  for (auto& k : cached_kernels(paths)) {
    std::error_code ec;
    if (k.commit != src.commit || fs::path(k.tree) != src.tree || k.board != board) continue;
    const auto when = fs::last_write_time(fs::path(k.vmlinuz).parent_path().parent_path() / "kernel.json", ec);
    found.emplace_back(when, std::move(k));
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<Kernel> out;
  for (auto& [when, k] : found) out.push_back(std::move(k));
  return out;
}

Kernel build_kernel(const std::string& spec, const KernelBuildConfig& config, const LabPaths& paths,
                    Host& local, const Log& log) {
  try {
    return build_kernel_in_cache(spec, config, paths, local, log);
  } catch (const fs::filesystem_error& e) {
    if (e.code() == std::errc::no_space_on_device) throw_disk_full(spec, paths, e.what());
    throw;
  } catch (const std::runtime_error& e) {
    if (std::string_view(e.what()).find("No space left on device") != std::string_view::npos)
      throw_disk_full(spec, paths, e.what());
    throw;
  }
}

namespace {

Kernel build_kernel_in_cache(const std::string& spec, const KernelBuildConfig& config,
                             const LabPaths& paths, Host& local, const Log& log) {
  const GitKernelSpec g = parse_git_kernel(spec);
  const Board& board = board_named(config.board);
  if (const auto missing = missing_build_tools(local, board); !missing.empty())
    throw std::runtime_error(
        fmt::format("lab: building {} for {} needs {} (apt-get install them, or see schedlab doctor)",
                    spec, board.name, fmt::join(missing, ", ")));
  const Source src = find_source(g, spec, local);
  const std::string requested = requested_config(config, board);
  const std::string compiler = compiler_version(local, board);
  // One persistent build directory per tree and user config (schedlab's own
  // fragment changing keeps the directory: an incremental rebuild).
  std::string user_part;
  for (const auto& f : config.fragments) user_part += f + "\n";
  for (const auto& [k, v] : config.symbols) user_part += k + "=" + v + "\n";
  const std::string conf_id = (&board == &default_board() ? "" : board.name + "-") +
                              (user_part.empty() ? "default" : sha12(requested).substr(0, 8));
  const fs::path build_root = paths.root / "builds" / sha12(src.tree.string());
  const std::string request = request_key(src.identity, requested, compiler, board);

  if (!request.empty())
    for (const auto& k : cached_kernels(paths)) {
      const auto j = nlohmann::json::parse(
          schedlab::read_file(fs::path(k.vmlinuz).parent_path().parent_path() / "kernel.json"),
          nullptr, false);
      if (j.is_object() && j.value("request_key", "") == request) {
        Kernel out = k;
        out.spec = spec;
        log(fmt::format("lab: {} is built ({}, {}), cached in {}", spec, out.describe, out.key,
                        paths.kernels().string()));
        return out;
      }
    }

  fs::path srctree = src.tree, obj;
  fs::create_directories(build_root);
  // One build at a time in a tree's checkout (a run building two kernels
  // of one tree at once); a cached kernel was found above without it.
  const BuildLock lock(build_root / "lock");
  if (!g.ref.empty() || g.worktree) {
    // A --shared clone sees every object of the user's repository through
    // its alternates: checking out another commit needs no fetch, and only
    // the files that differ get a new mtime (an incremental rebuild).
    srctree = build_root / "src";
    if (!fs::exists(srctree / ".git")) {
      log(fmt::format("lab: checking out {} into {}", src.tree.string(), srctree.string()));
      fs::remove_all(srctree);
      const ExecResult r = run_in(local, {"git", "clone", "-q", "--shared", "--no-checkout",
                                          src.tree.string(), srctree.string()});
      if (!r.ok())
        throw std::runtime_error(
            fmt::format("lab: git clone --shared {} failed: {}", src.tree.string(), why(r)));
    }
    ExecResult r = run_in(
        local, {"git", "-C", srctree.string(), "checkout", "-q", "--detach", "-f", src.commit});
    if (!r.ok())
      throw std::runtime_error(fmt::format("lab: git checkout {} failed: {}", src.commit, why(r)));
    // Files an earlier @WORKTREE build added go; then this one's edits.
    r = run_in(local, {"git", "-C", srctree.string(), "clean", "-fdq"});
    if (!r.ok())
      throw std::runtime_error(
          fmt::format("lab: git clean in {} failed: {}", srctree.string(), why(r)));
    if (!src.edits.empty()) {
      const fs::path patch = build_root / "edits.diff";
      write_whole_file(patch, src.edits);
      r = run_in(local, {"git", "-C", srctree.string(), "apply", "--binary", "--whitespace=nowarn",
                         patch.string()});
      if (!r.ok())
        throw std::runtime_error(
            fmt::format("lab: {}: the edits of {} do not apply to {} in the build's checkout: {}",
                        spec, src.tree.string(), src.commit.substr(0, 12), why(r)));
    }
    obj = build_root / ("obj-" + conf_id);
  } else {
    obj = build_root / ("wt-" + conf_id);
  }
  fs::create_directories(obj);

  const long cpus = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
  std::vector<std::string> make = {"make", "-C", srctree.string(), "O=" + obj.string()};
  if (!board.cross_compile.empty())
    make.insert(make.end(), {"ARCH=" + board.arch, "CROSS_COMPILE=" + board.cross_compile});
  if (local.find_program("ccache")) make.push_back("CC=ccache " + board.cross_compile + "gcc");
  const auto make_with = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = make;
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  };
  const fs::path log_path = build_root / (obj.filename().string() + ".log");

  // The board's base config + fragment, resolved by olddefconfig; skipped
  // (about 6 s) when the build directory's .config was resolved from the
  // same inputs (config_inputs).
  const fs::path stamp = obj / ".schedlab-config-inputs";
  const std::string inputs = config_inputs(src, board, requested);
  ExecResult r;
  if (inputs.empty() || !fs::exists(obj / ".config") || read_or_empty(stamp) != inputs) {
    fs::remove(stamp);
    r = run_in(local, make_with({"-s", board.base_config}), "", std::chrono::minutes(20));
    if (!r.ok()) throw_failed(spec, "make " + board.base_config, r, log_path);
    {
      const std::string base = schedlab::read_file(obj / ".config");
      write_whole_file(obj / ".config", base + requested);
    }
    r = run_in(local, make_with({"-s", "olddefconfig"}), "", std::chrono::minutes(20));
    if (!r.ok()) throw_failed(spec, "make olddefconfig", r, log_path);
    if (!inputs.empty()) write_whole_file(stamp, inputs);
  }
  const std::string resolved = schedlab::read_file(obj / ".config");
  Kernel k;
  k.warnings = unmet_symbols(parse_fragment(requested), resolved);
  for (const auto& w : k.warnings)
    log(fmt::format("lab: warning: {}: {} asked, not so after olddefconfig (a dependency is off?)",
                    spec, w));
  r = run_in(local, make_with({"-s", "kernelrelease"}));
  if (!r.ok()) throw_failed(spec, "make kernelrelease", r, log_path);
  k.release = trimmed(r.out);
  k.config_sha = sha12(resolved);
  k.key = k.release + "-" + built_kernel_key(src.identity, resolved, compiler);
  const fs::path final_dir = paths.kernels() / k.key;

  const auto t0 = std::chrono::steady_clock::now();
  if (!fs::exists(final_dir / "kernel.json") || src.identity.empty()) {
    log(fmt::format("lab: building {} ({}) in {} with make -j{}{}", spec,
                    src.describe.empty() ? "no git" : src.describe, obj.string(), cpus,
                    local.find_program("ccache") ? " and ccache" : ""));
    std::vector<std::string> targets = {fmt::format("-j{}", cpus), board.image};
    if (!board.dtb.empty()) targets.push_back("dtbs");
    if (board.kernel_modules) targets.push_back("modules");
    r = run_in(local, make_with(targets), "", kBuildTimeout);
    if (!r.ok())
      throw_failed(spec,
                   "make " + fmt::format("{}", fmt::join(targets.begin() + 1, targets.end(), " ")),
                   r, log_path, g.worktree ? srctree.string() : "", src.tree.string());
    write_whole_file(log_path, join_output(r.out, r.err));
    k.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    log(fmt::format("lab: built {} in {:.0f}s", k.release, k.build_seconds));
    fs::create_directories(paths.kernels());
    const fs::path tmp = paths.kernels() / fmt::format(".tmp-build-{}", ::getpid());
    fs::remove_all(tmp);
    fs::create_directories(tmp / "boot");
    fs::copy_file(obj / "arch" / board.arch / "boot" / board.image, tmp / "boot" / ("vmlinuz-" + k.release));
    if (!board.dtb.empty()) {
      // Built from the same tree: dtbs/ of the entry (the path under
      // arch/ARCH/boot/dts moves between kernel versions).
      const fs::path dts = obj / "arch" / board.arch / "boot" / "dts";
      std::optional<fs::path> found;
      for (const auto& e : fs::recursive_directory_iterator(dts))
        if (e.path().filename() == board.dtb) found = e.path();
      if (!found)
        throw KernelBuildFailed(fmt::format("lab: building {} made no {} under {}", spec, board.dtb, dts.string()));
      fs::create_directories(tmp / "dtbs");
      fs::copy_file(*found, tmp / "dtbs" / board.dtb);
    }
    if (board.kernel_modules) {
      r = run_in(local, make_with({"-s", "modules_install", "INSTALL_MOD_PATH=" + tmp.string(), "INSTALL_MOD_STRIP=1"}),
                 "", std::chrono::minutes(20));
      if (!r.ok()) throw_failed(spec, "make modules_install", r, log_path);
      // Links back into the build directory: not part of the kept kernel.
      for (const char* link : {"build", "source"}) fs::remove(tmp / "lib/modules" / k.release / link);
    }
    fs::copy_file(obj / ".config", tmp / "config");
    fs::copy_file(log_path, tmp / "build.log");
    if (!src.edits.empty()) write_whole_file(tmp / "edits.diff", src.edits);
    const nlohmann::json j = {
        {"source", "git"},
        {"spec", spec},
        {"tree", src.tree.string()},
        {"commit", src.commit},
        {"describe", src.describe},
        {"identity", src.identity},
        {"edits_sha256", src.edits.empty() ? "" : sha256_hex(src.edits)},
        {"request_key", request},
        {"request", {{"fragments", config.fragments}, {"symbols", config.symbols}}},
        {"config_sha", k.config_sha},
        {"compiler", compiler},
        {"board", board.name},
        {"base_config", board.base_config},
        {"release", k.release},
        {"build_seconds", k.build_seconds},
        {"warnings", k.warnings}};
    write_whole_file(tmp / "kernel.json", j.dump(2) + "\n");
    std::error_code ec;
    fs::remove_all(final_dir, ec);
    fs::rename(tmp, final_dir, ec);
    if (ec)
      throw std::runtime_error(fmt::format("lab: cannot move the built kernel to {}: {}",
                                           final_dir.string(), ec.message()));
  } else {
    // Same resolved config and source: remember this request too.
    auto j = nlohmann::json::parse(schedlab::read_file(final_dir / "kernel.json"));
    j["request_key"] = request;
    write_whole_file(final_dir / "kernel.json", j.dump(2) + "\n");
    log(fmt::format("lab: {} is built ({}), cached in {}", spec, k.key, paths.kernels().string()));
  }
  const double seconds = k.build_seconds;
  const auto warnings = k.warnings;
  for (const auto& c : cached_kernels(paths))
    if (c.key == k.key) k = c;
  k.spec = spec;
  k.build_seconds = seconds;
  k.warnings = warnings;
  return k;
}

}  // namespace

}  // namespace schedlab::lab
