#include "runner/bisect/bisect_git.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>

#include "base/text.h"
#include "runner/bisect/bisect_error.h"
#include "runner/hosts/local_host.h"

namespace schedlab {
namespace {

ExecResult git(const std::string& repo, std::vector<std::string> args) {
  LocalHost host;
  Command cmd;
  cmd.argv = {"git", "-C", repo};
  cmd.argv.insert(cmd.argv.end(), args.begin(), args.end());
  cmd.timeout = std::chrono::minutes(2);
  return host.run(cmd);
}

std::string git_ok(const std::string& repo, std::vector<std::string> args) {
  const std::string what = fmt::format("git -C {} {}", repo, fmt::join(args, " "));
  const ExecResult r = git(repo, std::move(args));
  if (!r.ok()) throw BisectError(fmt::format("{}: {}: {}", what, r.describe(), r.err));
  return r.out;
}

std::string first_line(const std::string& text) {
  return std::string(split_lines(text).at(0));
}

}  // namespace

std::string resolve_commit(const std::string& repo, const std::string& rev) {
  const ExecResult r = git(repo, {"rev-parse", "--verify", "--quiet", rev + "^{commit}"});
  if (!r.ok()) throw BisectError(fmt::format("{}: no commit '{}'", repo, rev));
  return first_line(r.out);
}

std::vector<std::string> first_parent_path(const std::string& repo, const std::string& good,
                                           const std::string& bad) {
  const std::string out = git_ok(
      repo, {"rev-list", "--reverse", "--first-parent", "--ancestry-path", good + ".." + bad});
  std::vector<std::string> path;
  for (const std::string_view line : split_lines(out))
    if (!line.empty()) path.emplace_back(line);
  return path;
}

std::string commit_label(const std::string& repo, const std::string& commit) {
  return first_line(git_ok(repo, {"log", "-1", "--format=%h %s", commit}));
}

void checkout_detached(const std::string& repo, const std::string& commit) {
  const ExecResult r = git(repo, {"checkout", "--quiet", "--detach", commit});
  if (!r.ok())
    throw BisectError(
        fmt::format("git checkout {} in {}: {}: {}", commit, repo, r.describe(), r.err));
}

}  // namespace schedlab
