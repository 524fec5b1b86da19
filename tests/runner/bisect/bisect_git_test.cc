// The git plumbing of a bisection over a commit range, on a real repository
// made with git in a temporary directory.
#include "runner/bisect/bisect_git.h"

#include <catch2/catch.hpp>

#include "runner/bisect/bisect.h"
#include "runner/hosts/local_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

// git -C REPO ARGS...; its stdout without the final newline.
std::string git_out(const std::string& repo, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"});
  LocalHost host;
  const ExecResult r = host.run({.argv = args, .timeout = std::chrono::seconds(60)});
  INFO(r.err);
  REQUIRE(r.ok());
  return r.out.substr(0, r.out.find_last_not_of('\n') + 1);
}

// main: "one", "two", then a side branch's "side" merged as "merge", then
// "three". Returns the repository's path.
std::string history_repo(const test::TempDir& dir) {
  const std::string repo = dir.file("repo");
  git_out(dir.path().string(), {"init", "-q", "-b", "main", repo});
  for (const char* subject : {"one", "two"})
    git_out(repo, {"commit", "-q", "--allow-empty", "-m", subject});
  git_out(repo, {"checkout", "-q", "-b", "side"});
  git_out(repo, {"commit", "-q", "--allow-empty", "-m", "side"});
  git_out(repo, {"checkout", "-q", "main"});
  git_out(repo, {"merge", "-q", "--no-ff", "-m", "merge", "side"});
  git_out(repo, {"commit", "-q", "--allow-empty", "-m", "three"});
  return repo;
}

}  // namespace

TEST_CASE("bisect git: a name resolves to its full hash, an unknown one is an error") {
  const test::TempDir dir;
  const std::string repo = history_repo(dir);
  CHECK(resolve_commit(repo, "main~1") == git_out(repo, {"rev-parse", "main~1"}));
  CHECK_THROWS_WITH(resolve_commit(repo, "nope"), repo + ": no commit 'nope'");
}

TEST_CASE("bisect git: the range is the first-parent path, oldest first, a merge one step") {
  const test::TempDir dir;
  const std::string repo = history_repo(dir);
  const std::string one = git_out(repo, {"rev-parse", "main~3"});
  const std::vector<std::string> path =
      first_parent_path(repo, one, git_out(repo, {"rev-parse", "main"}));
  REQUIRE(path.size() == 3);
  CHECK(path[0] == git_out(repo, {"rev-parse", "main~2"}));  // two
  CHECK(path[1] == git_out(repo, {"rev-parse", "main~1"}));  // merge, not side
  CHECK(path[2] == git_out(repo, {"rev-parse", "main"}));    // three
  CHECK(first_parent_path(repo, one, one).empty());
}

TEST_CASE("bisect git: a commit's label is its short hash and subject") {
  const test::TempDir dir;
  const std::string repo = history_repo(dir);
  CHECK(commit_label(repo, git_out(repo, {"rev-parse", "main~1"})) ==
        git_out(repo, {"rev-parse", "--short", "main~1"}) + " merge");
}

TEST_CASE("bisect git: checkout detaches at the commit; an unknown one is an error naming it") {
  const test::TempDir dir;
  const std::string repo = history_repo(dir);
  const std::string two = git_out(repo, {"rev-parse", "main~2"});
  checkout_detached(repo, two);
  CHECK(git_out(repo, {"rev-parse", "HEAD"}) == two);
  CHECK(git_out(repo, {"rev-parse", "--abbrev-ref", "HEAD"}) == "HEAD");  // detached
  CHECK_THROWS_WITH(checkout_detached(repo, "nope"),
                    Catch::StartsWith("git checkout nope in " + repo + ": "));
}
