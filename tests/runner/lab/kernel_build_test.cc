// Kernels built from source. Bad input through the real binary on small
// trees (real git, real make); then the real thing [kernel]: Debian's
// linux-source-6.1 as a git tree (made once, kept in a fixed cache folder so
// the suite builds cold at most once), a commit adding a sched feature,
// built, booted under qemu, the feature listed, flipped by a variant's
// sched_features and put back.
#include "runner/lab/kernel_build.h"

#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/file.h"
#include "base/hash.h"
#include "base/text.h"
#include "results/bisect_log.h"
#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "runner/hosts/local_host.h"
#include "runner/lab/apt.h"
#include "runner/lab/lab_host.h"
#include "tests/support/one_line.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

ExecResult sh(const std::vector<std::string>& argv, const std::string& cwd = "",
              std::chrono::milliseconds timeout = 10min) {
  LocalHost local;
  Command c{.argv = argv, .cwd = cwd, .timeout = timeout};
  c.env = {{"GIT_AUTHOR_NAME", "schedlab"},
           {"GIT_AUTHOR_EMAIL", "schedlab@localhost"},
           {"GIT_COMMITTER_NAME", "schedlab"},
           {"GIT_COMMITTER_EMAIL", "schedlab@localhost"},
           {"GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"},
           {"GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"}};
  return local.run(c);
}

void must(const std::vector<std::string>& argv, const std::string& cwd = "") {
  const auto r = sh(argv, cwd, 30min);
  INFO(argv.front() << " " << (argv.size() > 1 ? argv[1] : "") << ": " << r.describe() << " "
                    << r.err);
  REQUIRE(r.ok());
}

// The top-level files schedlab looks for in a kernel tree, with this
// kernel/sched/core.c and Makefile.
void kernel_tree(const fs::path& dir, const std::string& core_c, const std::string& makefile) {
  fs::create_directories(dir / "kernel/sched");
  test::write_text(dir / "Kconfig", "mainmenu \"test\"\n");
  test::write_text(dir / "kernel/sched/core.c", core_c);
  test::write_text(dir / "Makefile", makefile);
}

// The tree in DIR as a git repository of one commit, "base".
void commit_base(const fs::path& dir) {
  must({"git", "init", "-q"}, dir.string());
  must({"git", "add", "-A"}, dir.string());
  must({"git", "commit", "-q", "-m", "base"}, dir.string());
}

// A kernel tree whose Makefile's targets fail like a broken kernel build
// does.
void small_tree(const fs::path& dir) {
  kernel_tree(dir, "\n",
              "tinyconfig olddefconfig kernelrelease bzImage:\n"
              "\t@echo 'scripts/kconfig/conf.c:1:1: error: planted failure' >&2; exit 2\n");
}

// small_tree as a git repository of one commit, "base".
void small_repo(const fs::path& dir) {
  small_tree(dir);
  commit_base(dir);
}

ExecResult schedlab_cmd(std::vector<std::string> args,
                        const std::map<std::string, std::string>& env = {}) {
  args.insert(args.begin(), SCHEDLAB_BINARY);
  LocalHost local;
  // A cold kernel build on 2 cores (the source unpacked, ccache empty) took
  // over 10 minutes here once.
  Command c{.argv = args, .timeout = 30min};
  c.env = env;
  return local.run(c);
}

// `bisect start` (its result R) found the commit planted at SHAS[FIRST_BAD]
// in TREE, the one before it the last good: in the session it stored in DB
// and in what it printed. Returns the session.
BisectSession check_found_planted(const ExecResult& r, const std::string& db, const fs::path& tree,
                                  const std::vector<std::string>& shas, std::size_t first_bad) {
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto session = Store(db).bisect_log().latest_bisect();
  REQUIRE(session);
  const auto res = nlohmann::json::parse(session->result_json);
  CHECK(res["first_bad_candidate"] == shas[first_bad]);
  CHECK(res["last_good_candidate"] == shas[first_bad - 1]);
  const std::string planted = std::string(
      trim(sh({"git", "-C", tree.string(), "log", "-1", "--format=%h %s", shas[first_bad]}).out));
  CHECK(test::one_line(r.out).find(test::one_line("first bad: " + planted)) != std::string::npos);
  return *session;
}

}  // namespace

TEST_CASE("lab build: bad input is a one-line error naming what to do") {
  test::TempDir dir;
  const std::map<std::string, std::string> cache = {{"SCHEDLAB_LAB_CACHE", dir.file("cache")}};
  fs::create_directories(dir.path() / "notkernel");
  auto r = schedlab_cmd({"lab", "build", "git:" + dir.file("notkernel")}, cache);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line(
            "is not a kernel source tree (no Makefile); give the top of a Linux tree")) !=
        std::string::npos);

  small_tree(dir.path() / "plain");
  r = schedlab_cmd({"lab", "build", "git:" + dir.file("plain") + "@v6.1"}, cache);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line(
            "is not a git repository, so @v6.1 names nothing; drop @v6.1 to build the tree "
            "as it is")) != std::string::npos);

  small_repo(dir.path() / "repo");
  r = schedlab_cmd({"lab", "build", "git:" + dir.file("repo") + "@no-such-tag"}, cache);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line("unknown ref 'no-such-tag' in ")) !=
        std::string::npos);

  // The build itself fails: its first error line, and where the log is.
  r = schedlab_cmd({"lab", "build", "git:" + dir.file("repo") + "@HEAD"}, cache);
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line(
            "failed at make tinyconfig (exit 2):\n  scripts/kconfig/conf.c:1:1: error: "
            "planted failure\n")) != std::string::npos);
  CHECK(r.err.find("\nfull log: ") != std::string::npos);

  // Missing tools are named with their packages (a PATH with git only).
  fs::create_directories(dir.path() / "bin");
  fs::create_symlink("/usr/bin/git", dir.path() / "bin/git");
  auto env = cache;
  env["PATH"] = dir.file("bin");
  r = schedlab_cmd({"lab", "build", "git:" + dir.file("repo") + "@HEAD"}, env);
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line(
            "needs make (Debian package make), gcc (Debian package gcc), bc (Debian package bc), "
            "bison (Debian package bison), flex (Debian package flex)")) != std::string::npos);

  // A config naming a lab kernel that is not a tree fails in run, before anything is measured.
  const std::string cfg = dir.file("c.yaml");
  test::write_text(
      cfg, fmt::format("hosts:\n  sut: {{lab: {{kernel: 'git:{}'}}}}\nworkloads: [hackbench]\n",
                       dir.file("notkernel")));
  r = schedlab_cmd({"run", cfg, "--db", dir.file("db")}, cache);
  CHECK(r.exit_code != 0);
  CHECK(test::one_line(r.err).find(test::one_line("is not a kernel source tree")) !=
        std::string::npos);

  // bisect --repo with no hook builds kernels: the config must have a lab SUT.
  const std::string local_cfg = dir.file("local.yaml");
  test::write_text(local_cfg, "workloads: [hackbench]\n");
  r = schedlab_cmd({"bisect", "start", "--db", dir.file("b.db"), "--repo", dir.file("repo"),
                    "--good", "HEAD", "--bad", "HEAD", "--config", local_cfg, "--metric", "time"},
                   cache);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line(
            "--repo with no hook builds each commit as a lab kernel: give the config a "
            "lab SUT")) != std::string::npos);
}

namespace {

// A tree whose Makefile builds like a kernel's, in miniature: the config
// targets write O=/.config, and bzImage compiles kernel/sched/core.c with
// the real compiler (its errors are a compiler's) into the image.
void buildable_repo(const fs::path& dir) {
  kernel_tree(dir, "int schedlab_core(void) { return 1; }\n",
              "tinyconfig:\n\t@mkdir -p $(O) && echo CONFIG_SMP=y > $(O)/.config\n"
              "olddefconfig:\n\t@true\n"
              "kernelrelease:\n\t@echo 6.1.0-small\n"
              "bzImage:\n\t@mkdir -p $(O)/arch/x86/boot\n"
              "\t$(CC) -c $(CURDIR)/kernel/sched/core.c -o $(O)/core.o\n"
              "\tcp $(O)/core.o $(O)/arch/x86/boot/bzImage\n");
  test::write_text(dir / ".gitignore", "*.o\n");
  commit_base(dir);
}

// `lab build SPEC`: the vmlinuz it printed (the cache entry is two levels up).
fs::path built_vmlinuz(const std::string& spec, const std::map<std::string, std::string>& env) {
  const auto r = schedlab_cmd({"lab", "build", spec}, env);
  INFO(spec << ": " << r.err);
  REQUIRE(r.exit_code == 0);
  return fs::path(std::string(trim(r.out)));
}

}  // namespace

TEST_CASE(
    "long names: lab build's lines, the compiler error it quotes and lab list fit 100 columns "
    "(issue 48)") {
  test::TempDir dir;
  const std::map<std::string, std::string> env = {{"SCHEDLAB_LAB_CACHE", dir.file("cache")}};
  // A tree in a folder of a 71-character name, as people name an
  // investigation; buildable_repo's Makefile, but its olddefconfig drops a
  // symbol asked for (a warning line), and its core.c is one gcc refuses.
  const std::string name =
      "sync-wakeup-from-irq-investigation-patched-v2-6.12.0-rc3-20261205T01011";
  REQUIRE(name.size() == 71);
  const fs::path tree = dir.path() / name;
  kernel_tree(tree, "int schedlab_core(void) { return sync_wakeup_from_irq_investigation; }\n",
              "tinyconfig:\n\t@mkdir -p $(O) && echo CONFIG_SMP=y > $(O)/.config\n"
              "olddefconfig:\n\t@sed -i /CONFIG_SCHEDLAB_DROPPED/d $(O)/.config\n"
              "kernelrelease:\n\t@echo 6.1.0-small\n"
              "bzImage:\n\t@mkdir -p $(O)/arch/x86/boot\n"
              "\t$(CC) -c $(CURDIR)/kernel/sched/core.c -o $(O)/core.o\n"
              "\tcp $(O)/core.o $(O)/arch/x86/boot/bzImage\n");
  commit_base(tree);
  const std::string spec = "git:" + tree.string() + "@HEAD";
  const std::vector<std::string> build = {"lab", "build", spec, "--config",
                                          "CONFIG_SCHEDLAB_DROPPED=y"};
  auto r = schedlab_cmd(build, env);
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(test::wider_line(r.err).empty());
  // The symbol olddefconfig dropped, named with the kernel (121 columns on
  // one line before).
  CHECK(test::one_line(r.err).find(test::one_line(
            "lab: warning: " + spec +
            ": CONFIG_SCHEDLAB_DROPPED=y (is absent) asked, not so after olddefconfig")) !=
        std::string::npos);
  // gcc's first error, quoted on a line of its own: wrapped like any line
  // (its continuation indented under it), its file:line:col first, whole,
  // where an editor or a terminal finds it; the full log's path follows.
  const auto at = r.err.find("/src/kernel/sched/core.c:1:");
  REQUIRE(at != std::string::npos);
  const auto line = r.err.rfind('\n', at) + 1;
  CHECK(r.err.substr(line, at - line).starts_with("  /"));  // the message's indentation
  CHECK(r.err.substr(line + 2, at - line - 2).find(' ') == std::string::npos);  // the path first
  CHECK(test::one_line(r.err).find("error: 'sync_wakeup_from_irq_investigation' undeclared") !=
        std::string::npos);
  CHECK(r.err.find("\nfull log: ") != std::string::npos);

  // Fixed: the build's own lines (building, built, cached) within 100 columns too.
  test::write_text(tree / "kernel/sched/core.c", "int schedlab_core(void) { return 1; }\n");
  must({"git", "commit", "-q", "-am", "fix"}, tree.string());
  r = schedlab_cmd(build, env);
  CHECK(r.exit_code == 0);
  CHECK(test::wider_line(r.err).empty());
  CHECK(test::one_line(r.err).find("lab: building " + spec + " (") != std::string::npos);
  CHECK(test::one_line(r.err).find("lab: built 6.1.0-small in ") != std::string::npos);
  r = schedlab_cmd(build, env);
  CHECK(r.exit_code == 0);
  CHECK(test::wider_line(r.err).empty());
  CHECK(test::one_line(r.err).find(test::one_line("lab: " + spec + " is built (")) !=
        std::string::npos);
  // lab list: the built kernel's row names its tree, on lines that fit but
  // for the path itself (a path stays whole).
  r = schedlab_cmd({"lab", "list"}, env);
  CHECK(r.exit_code == 0);
  INFO(r.out);
  const std::string row = r.out.substr(r.out.find("  6.1.0-small"));
  CHECK(row.starts_with("  6.1.0-small                  built from\n    " + tree.string()));
  for (const auto line : split_lines(r.out))
    if (line != "    " + tree.string()) CHECK(display_width(line) <= 100);
}

TEST_CASE("lab build: git:TREE@WORKTREE is HEAD plus the uncommitted edits, kept with the build") {
  test::TempDir dir;
  const std::map<std::string, std::string> env = {{"SCHEDLAB_LAB_CACHE", dir.file("cache")}};
  const fs::path repo = dir.path() / "repo";
  buildable_repo(repo);
  const std::string head =
      std::string(trim(sh({"git", "-C", repo.string(), "rev-parse", "HEAD"}).out));
  const fs::path at_head = built_vmlinuz("git:" + repo.string() + "@HEAD", env);
  const auto entry = [](const fs::path& vmlinuz) { return vmlinuz.parent_path().parent_path(); };

  // No edits: HEAD's build, from the cache.
  const std::string wt = "git:" + repo.string() + "@WORKTREE";
  auto r = schedlab_cmd({"lab", "build", wt}, env);
  CHECK(r.exit_code == 0);
  CHECK(fs::path(std::string(trim(r.out))) == at_head);
  CHECK(r.err.find(wt + " is built (") != std::string::npos);
  CHECK_FALSE(fs::exists(entry(at_head) / "edits.diff"));

  // A one-line edit: its own kernel, the edit kept with it as a patch on HEAD.
  test::write_text(
      repo / "kernel/sched/core.c",
      "int schedlab_core(void) { return 1; }\nint schedlab_edit(void) { return 2; }\n");
  const fs::path edited = built_vmlinuz(wt, env);
  CHECK(edited != at_head);
  const std::string diff = test::read_text(entry(edited) / "edits.diff");
  CHECK(diff.find("+int schedlab_edit(void) { return 2; }\n") != std::string::npos);
  const auto j = nlohmann::json::parse(test::read_text(entry(edited) / "kernel.json"));
  CHECK(j["commit"] == head);
  CHECK(j["identity"].get<std::string>().starts_with("worktree " + head + " "));
  CHECK(j["describe"].get<std::string>().starts_with(head.substr(0, 7) + "-dirty-"));
  CHECK(j["edits_sha256"] == sha256_hex(diff));
  // The same edits again: the same build.
  CHECK(built_vmlinuz(wt, env) == edited);

  // A file the build ignores (untracked, not in .gitignore) is an edit too:
  // its own identity, in the patch as a new file; a .gitignore'd one is not.
  test::write_text(repo / "NOTES", "measured on 2 cores\n");
  test::write_text(repo / "scratch.o", "ignored");
  const fs::path noted = built_vmlinuz(wt, env);
  CHECK(noted != edited);
  const std::string noted_diff = test::read_text(entry(noted) / "edits.diff");
  CHECK(noted_diff.find("new file mode 100644") != std::string::npos);
  CHECK(noted_diff.find("+measured on 2 cores") != std::string::npos);
  CHECK(noted_diff.find("scratch.o") == std::string::npos);

  // hostile9: git config that changes what `git diff` prints (an external
  // diff program printing nothing, colour, no a/ b/ prefixes; hostile10: no
  // context lines) changes nothing: the same patch, the same build.
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"diff.external", "true"},
                                                        {"color.diff", "always"},
                                                        {"diff.noprefix", "true"},
                                                        {"diff.context", "0"}}) {
    must({"git", "config", key, value}, repo.string());
    CHECK(built_vmlinuz(wt, env) == noted);
    must({"git", "config", "--unset", key}, repo.string());
  }
  // hostile10 21: an untracked symbolic link is in the build as a link (to
  // where it points, never what it points to), its own identity.
  fs::create_symlink("/etc/passwd", repo / "LINK");
  const fs::path linked = built_vmlinuz(wt, env);
  CHECK(linked != noted);
  const std::string linked_diff = test::read_text(entry(linked) / "edits.diff");
  CHECK(linked_diff.find("diff --git a/LINK b/LINK\nnew file mode 120000\n") != std::string::npos);
  CHECK(linked_diff.find("\n+/etc/passwd\n") != std::string::npos);
  CHECK(linked_diff.find("root:") == std::string::npos);
  fs::remove(repo / "LINK");
  CHECK(built_vmlinuz(wt, env) == noted);

  // An edited file git does not compare with its commit (assume-unchanged,
  // skip-worktree) is refused, not built as HEAD's.
  for (const std::string mark : {"assume-unchanged", "skip-worktree"}) {
    must({"git", "update-index", "--" + mark, "kernel/sched/core.c"}, repo.string());
    r = schedlab_cmd({"lab", "build", wt}, env);
    CHECK(r.exit_code != 0);
    CHECK(test::one_line(r.err).find(test::one_line(
              "git does not compare kernel/sched/core.c of " + repo.string() +
              " with its commit (it is marked " + mark +
              "), so its edits would be in no patch: "
              "git -C " +
              repo.string() + " update-index --no-" + mark + " -- kernel/sched/core.c")) !=
          std::string::npos);
    must({"git", "update-index", "--no-" + mark, "kernel/sched/core.c"}, repo.string());
  }

  // The user's repository is left as it was: same HEAD, same edits.
  CHECK(trim(sh({"git", "-C", repo.string(), "rev-parse", "HEAD"}).out) == head);
  CHECK(sh({"git", "-C", repo.string(), "status", "--porcelain"}).out ==
        " M kernel/sched/core.c\n?? NOTES\n");

  // Back to HEAD's files: HEAD's build again, and @HEAD still is.
  must({"git", "checkout", "-q", "--", "."}, repo.string());
  fs::remove(repo / "NOTES");
  CHECK(built_vmlinuz(wt, env) == at_head);
  CHECK(built_vmlinuz("git:" + repo.string() + "@HEAD", env) == at_head);
}

TEST_CASE(
    "lab build: @WORKTREE of a tree that is no git tree, or that does not compile, fails "
    "before any boot with the compiler's first error") {
  test::TempDir dir;
  const std::map<std::string, std::string> env = {{"SCHEDLAB_LAB_CACHE", dir.file("cache")}};
  small_tree(dir.path() / "plain");
  auto r = schedlab_cmd({"lab", "build", "git:" + dir.file("plain") + "@WORKTREE"}, env);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line(
            "is not a git repository, so @WORKTREE names nothing; drop @WORKTREE to build "
            "the tree as it is")) != std::string::npos);

  // A repository with no commit: nothing for the edits to sit on.
  small_tree(dir.path() / "fresh");
  must({"git", "init", "-q"}, dir.file("fresh"));
  r = schedlab_cmd({"lab", "build", "git:" + dir.file("fresh") + "@WORKTREE"}, env);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line(
            "has no commit yet, and @WORKTREE is HEAD plus its edits")) != std::string::npos);

  // An edit that does not compile: the compiler's first error, in `lab
  // build` and in a run, where nothing boots.
  const fs::path repo = dir.path() / "repo";
  buildable_repo(repo);
  test::write_text(
      repo / "kernel/sched/core.c",
      "int schedlab_core(void) { return 1; }\nint broken(void) { return undeclared_here; }\n"
      "int worse(void) { return also_undeclared; }\n");
  const std::string wt = "git:" + repo.string() + "@WORKTREE";
  r = schedlab_cmd({"lab", "build", wt}, env);
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("failed at make bzImage (exit 2):\n  ") != std::string::npos);
  // The first error, at the edited file of the user's tree.
  CHECK(r.err.find("\n  " + repo.string() + "/kernel/sched/core.c:2:") != std::string::npos);
  CHECK(r.err.find("error: 'undeclared_here' undeclared") != std::string::npos);

  const std::string cfg = dir.file("c.yaml");
  test::write_text(cfg, fmt::format(R"(hosts:
  sut: {{lab: {{kernels: ['git:{0}@HEAD', 'git:{0}@WORKTREE'], cpus: 2, memory: 512M}}}}
iterations: {{stop: sequential}}
variants: {{default: {{}}}}
workloads:
  - hackbench: {{modes: [process-pipes], groups: [2], loops: 20}}
)",
                                    repo.string()));
  r = schedlab_cmd({"run", cfg, "--db", dir.file("db")}, env);
  INFO(r.err);
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("kernel/sched/core.c:2:") != std::string::npos);
  CHECK(r.err.find(" up (") == std::string::npos);  // no guest booted
}

TEST_CASE(
    "run --resume: a @WORKTREE edited since the run is another kernel, refused before any "
    "guest boots") {
  test::TempDir dir;
  const std::map<std::string, std::string> env = {{"SCHEDLAB_LAB_CACHE", dir.file("cache")}};
  const fs::path repo = dir.path() / "repo";
  buildable_repo(repo);
  const std::string spec = "git:" + repo.string();
  const auto key = [](const fs::path& vmlinuz) {  // the cache entry's name
    return vmlinuz.parent_path().parent_path().filename().string();
  };
  const std::string head = key(built_vmlinuz(spec + "@HEAD", env));
  test::write_text(repo / "kernel/sched/core.c", "int schedlab_core(void) { return 2; }\n");
  const std::string measured = key(built_vmlinuz(spec + "@WORKTREE", env));
  REQUIRE(measured != head);

  // The run as an interrupted one left it: its config, and the kernels
  // its guests ran (the manifest's kernel_columns), HEAD then the edit.
  const std::string cfg = dir.file("c.yaml");
  const std::string text = fmt::format(R"(hosts:
  sut: {{lab: {{kernels: ['{0}@HEAD', '{0}@WORKTREE'], cpus: 2, memory: 512M}}}}
iterations: {{stop: sequential}}
workloads:
  - hackbench: {{modes: [process-pipes], groups: [2], loops: 20}}
)",
                                       spec);
  test::write_text(cfg, text);
  const nlohmann::json columns = {
      {{"kernel", spec + "@HEAD"}, {"lab", {{"kernel_key", head}}}},
      {{"kernel", spec + "@WORKTREE"}, {"lab", {{"kernel_key", measured}}}}};
  Store(dir.file("db"))
      .runs_table()
      .create_run({.name = "inner",
                   .config_path = cfg,
                   .config_text = text,
                   .manifest_json = nlohmann::json{{"kernel_columns", columns}}.dump(),
                   .status = RunStatus::kInterrupted});

  // Edited again: the work tree is a third kernel.
  test::write_text(repo / "kernel/sched/core.c", "int schedlab_core(void) { return 3; }\n");
  const auto r = schedlab_cmd({"run", "--resume", "inner", "--db", dir.file("db")}, env);
  INFO(r.err);
  CHECK(r.exit_code != 0);
  CHECK(test::one_line(r.err).find(test::one_line("measured " + spec + "@WORKTREE as " + measured +
                                                  "; it is ")) != std::string::npos);
  CHECK(r.err.find("now (edited since?): resuming would mix two kernels in one column") !=
        std::string::npos);
  CHECK(r.err.find("@HEAD as") == std::string::npos);  // HEAD is the kernel it was
  CHECK(r.err.find(" up (") == std::string::npos);     // no guest booted
  // Nothing of the run changed: still interrupted, no iteration.
  const auto run = Store(dir.file("db")).runs_table().find_run_by_name("inner");
  REQUIRE(run);
  CHECK(run->status == RunStatus::kInterrupted);
  CHECK(Store(dir.file("db")).iterations_table().iterations(run->id).empty());
}

TEST_CASE("lab build: @WORKTREE refuses a submodule and an untracked repository, naming them") {
  // hostile10 24: a submodule (and its edits) was in no build, silently;
  // an untracked directory holding a repository was left out too.
  test::TempDir dir;
  const std::map<std::string, std::string> env = {{"SCHEDLAB_LAB_CACHE", dir.file("cache")}};
  const fs::path repo = dir.path() / "repo";
  small_repo(repo);
  const std::string wt = "git:" + repo.string() + "@WORKTREE";
  must({"git", "init", "-q", (repo / "nested").string()});
  test::write_text(repo / "nested/x.c", "int x;\n");
  must({"git", "add", "x.c"}, (repo / "nested").string());
  must({"git", "commit", "-q", "-m", "x"}, (repo / "nested").string());
  auto r = schedlab_cmd({"lab", "build", wt}, env);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line(
            "the untracked nested/ of " + repo.string() +
            " is a directory holding a git repository: @WORKTREE takes untracked files and "
            "symbolic links only; commit, remove or .gitignore it")) != std::string::npos);
  // The same repository as a submodule (a gitlink in the index).
  must({"git", "add", "nested"}, repo.string());
  must({"git", "commit", "-q", "-m", "sub"}, repo.string());
  test::write_text(repo / "nested/x.c", "int edited;\n");
  r = schedlab_cmd({"lab", "build", wt}, env);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line(
            "nested of " + repo.string() +
            " is a submodule, and a build takes none (neither it nor its edits would be built): "
            "@WORKTREE builds a tree without submodules")) != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "cache" / "builds"));  // nothing checked out
}

// A run of pgbench built git:TREE@REF with CONFIG_SYSVIPC; `lab shell
// git:TREE@REF` afterwards must find that kernel, not start a cold build
// without it. The cache entry is written as a build
// writes it; the tree is a small git tree.
TEST_CASE("lab build: @WORKTREE refuses edits past 64 MiB, naming the file, before reading it") {
  // Issue 44: a 100 MB untracked file (neither committed nor ignored) was
  // read as a patch of 325 MB in memory and copied into the cache. Here a
  // sparse 65 MiB one beside an edited file with an escape in its name.
  test::TempDir dir;
  const std::map<std::string, std::string> env = {{"SCHEDLAB_LAB_CACHE", dir.file("cache")}};
  const fs::path repo = dir.path() / "repo";
  small_repo(repo);
  test::write_text(repo / "kernel/sched/core.c", "int edited;\n");
  const fs::path blob = repo / "disk\x1b[2J.img";
  test::write_text(blob, "");
  fs::resize_file(blob, 65 << 20);
  const auto r = schedlab_cmd({"lab", "build", "git:" + repo.string() + "@WORKTREE"}, env);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line(
            "the edits of " + repo.string() +
            " hold 65 MiB (the largest, disk\\x1b[2J.img: "
            "65 MiB); @WORKTREE takes at most 64 MiB of edited and untracked files: commit "
            "or .gitignore what is not a source edit")) != std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "cache" / "builds"));  // nothing checked out
}

TEST_CASE("lab: the kernels a run built are found by their commit, with what the run added") {
  test::TempDir dir;
  small_repo(dir.path() / "repo");
  const std::string commit = std::string(trim(sh({"git", "-C", dir.file("repo"), "rev-parse", "HEAD"}).out));
  const auto paths = lab::LabPaths{dir.path() / "cache"};
  const fs::path entry = paths.kernels() / "6.1.0-abc";
  fs::create_directories(entry / "boot");
  test::write_text(entry / "boot" / "vmlinuz-6.1.0", "not a real kernel");
  test::write_text(entry / "kernel.json",
                   nlohmann::json{{"source", "git"},
                                  {"tree", fs::canonical(dir.path() / "repo").string()},
                                  {"commit", commit},
                                  {"release", "6.1.0"},
                                  {"request", {{"fragments", nlohmann::json::array()},
                                               {"symbols", nlohmann::json::array({nlohmann::json::array(
                                                               {"CONFIG_SYSVIPC", "y"})})}}}}
                       .dump());
  LocalHost local;
  const auto built = lab::cached_builds_of("git:" + dir.file("repo") + "@HEAD", paths, local);
  REQUIRE(built.size() == 1);
  CHECK(built[0].requested_symbols == std::vector<std::pair<std::string, std::string>>{{"CONFIG_SYSVIPC", "y"}});
  // Another commit, or the work tree, names none of them.
  must({"git", "commit", "-q", "--allow-empty", "-m", "next"}, dir.file("repo"));
  CHECK(lab::cached_builds_of("git:" + dir.file("repo") + "@HEAD", paths, local).empty());
  CHECK(lab::cached_builds_of("git:" + dir.file("repo") + "@HEAD~1", paths, local).size() == 1);
  CHECK(lab::cached_builds_of("git:" + dir.file("repo"), paths, local).empty());
  // The cached vmlinuz named by its path is that entry: no modules.dep asked.
  const auto k = lab::resolve_kernel((entry / "boot" / "vmlinuz-6.1.0").string(), "", lab::default_board(), paths, local,
                                     [](const std::string&) {});
  CHECK(k.release == "6.1.0");
  CHECK(k.modules_dir.empty());
  CHECK(k.commit == commit);
}

TEST_CASE("lab build: a repository owned by another user names git's safe.directory") {
  // Git refuses a repository its user does not own ("detected dubious
  // ownership"); root can make one here, another user cannot.
  if (::geteuid() != 0) SCHEDLAB_SKIP("needs root to give a repository to another user");
  test::TempDir dir;
  // No safe.directory of this machine's user config lets it through.
  const std::map<std::string, std::string> cache = {{"SCHEDLAB_LAB_CACHE", dir.file("cache")},
                                                    {"GIT_CONFIG_GLOBAL", "/dev/null"}};
  const fs::path repo = dir.path() / "theirs";
  small_repo(repo);
  must({"chown", "-R", "65534:65534", repo.string()});  // nobody
  const std::string hint = "git config --global --add safe.directory " + repo.string();
  // With a ref and without one (the work tree): both are git's refusal,
  // neither "not a git repository" nor a tree built without its identity.
  for (const std::string& spec : {"git:" + repo.string() + "@HEAD", "git:" + repo.string()}) {
    INFO(spec);
    const auto r = schedlab_cmd({"lab", "build", spec}, cache);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(test::one_line(r.err).find(
              test::one_line("is owned by another user (git's \"detected dubious ownership\")")) !=
          std::string::npos);
    CHECK(test::one_line(r.err).find(test::one_line(hint)) != std::string::npos);
    CHECK(r.err.find("not a git repository") == std::string::npos);
  }
}

TEST_CASE("lab build: a disk that fills during the build says which disk, and what to do") {
  if (::geteuid() != 0) SCHEDLAB_SKIP("mounting a small tmpfs as the lab cache needs root");
  test::TempDir dir;
  // A tree whose "make tinyconfig" writes 16 MiB into its build directory,
  // the lab cache on a 4 MiB tmpfs: the write fails with ENOSPC as a real
  // kernel build does when the disk fills.
  kernel_tree(dir.path() / "fill", "\n", "tinyconfig:\n\thead -c 16M /dev/zero > $(O)/.config\n");
  commit_base(dir.path() / "fill");
  const std::string cache = dir.file("cache");
  fs::create_directories(cache);
  must({"mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", cache});
  struct Unmount {
    std::string path;
    ~Unmount() { sh({"umount", "-l", path}); }
  } unmount{cache};
  const auto r = schedlab_cmd({"lab", "build", "git:" + dir.file("fill") + "@HEAD"},
                              {{"SCHEDLAB_LAB_CACHE", cache}});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  // The error's first line (after the progress lines) says it all.
  const auto at = r.err.find("\nschedlab: ");
  REQUIRE(at != std::string::npos);
  // One message: its line and the indented lines that continue it.
  auto end = r.err.find('\n', at + 1);
  while (end != std::string::npos && end + 1 < r.err.size() && r.err[end + 1] == ' ')
    end = r.err.find('\n', end + 1);
  const auto first = test::one_line(r.err.substr(at + 1, end - at - 1));
  CHECK(first.find("schedlab: lab: building git:" + dir.file("fill") + "@HEAD: the disk holding " + cache +
                   " is full (") != std::string::npos);
  CHECK(first.find(" MiB free); free space there, or set SCHEDLAB_LAB_CACHE to a folder on a "
                   "larger disk") != std::string::npos);
  // The make failure itself follows, with its first error line.
  CHECK(r.err.find("failed at make tinyconfig") != std::string::npos);
  CHECK(r.err.find("No space left on device") != std::string::npos);
}

namespace {

// Debian's linux-source-6.1 as a git tree with one commit, made once in a
// fixed folder ($SCHEDLAB_TEST_KERNEL_TREE, else ~/.cache/schedlab/test-kernel/linux-6.1)
// so that its build directory (keyed by the tree's path) stays warm between
// suite runs. The tarball comes through the lab's private apt configuration.
fs::path linux_tree() {
  // On a fresh machine (CI) the build is cold once and incremental after:
  // ccache's cold misses only cost there (about a quarter more time, measured
  // on kernel/sched/), and make's own incrementality serves the rebuilds.
  // Set here, it reaches every schedlab the tests start.
  if (!std::getenv("SCHEDLAB_TEST_CCACHE")) ::setenv("CCACHE_DISABLE", "1", 1);
  const char* env = std::getenv("SCHEDLAB_TEST_KERNEL_TREE");
  const char* home = std::getenv("HOME");
  const fs::path tree =
      env && *env ? fs::path(env)
                  : fs::path(home ? home : "/root") / ".cache/schedlab/test-kernel/linux-6.1";
  if (fs::exists(tree / ".git") &&
      sh({"git", "-C", tree.string(), "rev-parse", "--verify", "main"}).ok())
    return tree;
  const fs::path work = tree.string() + ".tmp";
  fs::remove_all(work);
  fs::create_directories(work);
  LocalHost local;
  const auto log = [](const std::string& line) { std::cerr << line << "\n"; };
  lab::PrivateApt apt(lab::LabPaths::from_env().apt(), local, log);
  apt.refresh();
  const fs::path deb = apt.download("linux-source-6.1", work);
  must({"sh", "-c",
        "dpkg-deb --fsys-tarfile \"$1\" | tar -x -C \"$2\" ./usr/src/linux-source-6.1.tar.xz", "sh",
        deb.string(), work.string()});
  must({"tar", "-xJf", (work / "usr/src/linux-source-6.1.tar.xz").string(), "-C", work.string()});
  const fs::path src = work / "linux-source-6.1";
  // Debian's .gitignore ends by ignoring every top-level entry.
  std::string ignore = test::read_text(src / ".gitignore");
  if (const auto cut = ignore.find("\n#\n# Debian packaging"); cut != std::string::npos)
    ignore.resize(cut + 1);
  test::write_text(src / ".gitignore", ignore);
  must({"git", "init", "-q", "-b", "main"}, src.string());
  must({"git", "add", "-A"}, src.string());
  must({"git", "commit", "-q", "-m", "linux-source-6.1"}, src.string());
  fs::remove_all(tree);
  fs::create_directories(tree.parent_path());
  fs::rename(src, tree);
  fs::remove_all(work);
  return tree;
}

// A commit on branch NAME that adds SCHED_FEAT(SCHEDLAB_SEED, true), read
// where select_idle_sibling decides to look for an idle CPU (the
// BALANCE_IDLE_CPUS pattern). Fixed dates: the same commit every run.
std::string add_feature(const fs::path& tree, const std::string& branch) {
  if (sh({"git", "-C", tree.string(), "rev-parse", "--verify", branch}).ok()) return branch;
  must({"git", "-C", tree.string(), "checkout", "-q", "-B", branch, "main"});
  const fs::path features = tree / "kernel/sched/features.h";
  test::write_text(features, test::read_text(features) +
                                 "\n/* schedlab test: look for an idle sibling on wake-up */\n"
                                 "SCHED_FEAT(SCHEDLAB_SEED, true)\n");
  const fs::path fair = tree / "kernel/sched/fair.c";
  std::string text = test::read_text(fair);
  const std::string anchor =
      "static int select_idle_sibling(struct task_struct *p, int prev, int target)\n{\n";
  const auto at = text.find(anchor);
  REQUIRE(at != std::string::npos);
  text.insert(at + anchor.size(), "\tif (!sched_feat(SCHEDLAB_SEED))\n\t\treturn target;\n");
  test::write_text(fair, text);
  must({"git", "-C", tree.string(), "commit", "-q", "-am", "sched: SCHEDLAB_SEED feature"});
  must({"git", "-C", tree.string(), "checkout", "-q", "main"});
  return branch;
}

}  // namespace

TEST_CASE(
    "lab: a sched feature committed to Debian's 6.1 source is built, booted, flipped and put back",
    "[lab][kernel][long]") {
  const fs::path tree = linux_tree();
  const std::string branch = add_feature(tree, "schedlab-seed");
  const std::string spec = "git:" + tree.string() + "@" + branch;
  test::TempDir dir;
  // lab build: builds (or finds) it and prints the vmlinuz; lab list names it.
  auto r = schedlab_cmd({"lab", "build", spec}, {});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("/boot/vmlinuz-6.1.") != std::string::npos);
  const auto list = schedlab_cmd({"lab", "list"});
  CHECK(test::one_line(list.out).find("built from " + tree.string()) != std::string::npos);
  // Booted directly: the feature is listed, flips, and is put back.
  {
    lab::LabHost host(LabConfig{.kernel = spec, .memory = "512M"},
                      [](const std::string& line) { std::cerr << line << "\n"; });
    WARN(fmt::format("{}: boot to SSH {:.1f}s ({})", spec, host.boot_seconds(), host.accel()));
    CHECK(host.kernel().modules_dir.empty());  // everything built in
    // Both CPUs asked for are online (ACPI lists them; tinyconfig alone
    // booted on one), so wake placement has somewhere to go: /proc/schedstat
    // has two cpu lines, each with its domain lines.
    CHECK(host.manifest()["cpus_online"] == "0-1");
    CHECK(host.run({.argv = {"nproc"}}).out == "2\n");
    const auto schedstat = host.read_file("/proc/schedstat");
    REQUIRE(schedstat);
    CHECK(schedstat->find("\ncpu1 ") != std::string::npos);
    CHECK(schedstat->find("\ndomain0 ") != std::string::npos);
    const char* const features = "/sys/kernel/debug/sched/features";
    const auto on = host.read_file(features);
    REQUIRE(on);
    CHECK(on->find("SCHEDLAB_SEED ") != std::string::npos);
    host.write_file(features, "NO_SCHEDLAB_SEED");
    CHECK(host.read_file(features)->find("NO_SCHEDLAB_SEED") != std::string::npos);
    host.write_file(features, "SCHEDLAB_SEED");
    CHECK(*host.read_file(features) == *on);
  }
  // A two-kernel plan, the parent commit and the feature's: one table with
  // a column per kernel (named by git describe) and variant; the variant
  // that turns the feature off runs on the feature's kernel only.
  const std::string parent = "git:" + tree.string() + "@main";
  const std::string cfg = dir.file("seed.yaml");
  test::write_text(cfg, fmt::format(R"(hosts:
  sut: {{lab: {{kernels: ['{0}', '{1}'], cpus: 2, memory: 512M}}}}
iterations: 1
workloads:
  - hackbench: {{modes: [process-pipes], groups: [1], loops: 50, timeout: 120s}}
variants:
  default: {{}}
  noseed: {{kernels: ['{1}'], sched_features: [NO_SCHEDLAB_SEED]}}
)",
                                    parent, spec));
  const std::string db = dir.file("db");
  r = schedlab_cmd({"run", cfg, "--name", "seed", "--db", db});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  // Columns are named as the config named the kernels (the refs), and what
  // differs between them says which commits were built.
  const std::string main_name =
      std::string(trim(sh({"git", "-C", tree.string(), "rev-parse", "main"}).out)).substr(0, 12);
  CHECK(r.out.find("main/default") != std::string::npos);
  CHECK(r.out.find("schedlab-seed/noseed") != std::string::npos);
  CHECK(r.out.find("kernel commit") != std::string::npos);
  CHECK(r.out.find(main_name) != std::string::npos);
  CHECK(test::one_line(r.out).find(test::one_line("built from git:")) != std::string::npos);
  Store store(db);
  const auto run = store.runs_table().find_run_by_name("seed@schedlab-seed");
  REQUIRE(run);
  const auto m = nlohmann::json::parse(run->manifest_json);
  CHECK(m["lab"]["build"]["describe"].get<std::string>() != "");
  CHECK(m["lab"]["build"]["warnings"].empty());
  const std::string before = m["state_before"]["sched_features"].dump();
  CHECK(before.find("\"SCHEDLAB_SEED\"") != std::string::npos);
  CHECK(m["state_after"]["sched_features"] == m["state_before"]["sched_features"]);
  CHECK(store.journal().unrestored(m["host"].get<std::string>()).empty());
  CHECK(store.variants_table().variants(run->id).size() == 2);
  CHECK(store.iterations_table().count_iterations(run->id, IterationStatus::kOk) == 2);
  const auto base = store.runs_table().find_run_by_name("seed@main");
  REQUIRE(base);
  CHECK(store.variants_table().variants(base->id).size() == 1);
  const auto cmp = schedlab_cmd({"compare", "--db", db, "seed"});
  INFO(cmp.out << cmp.err);
  CHECK(cmp.exit_code == 0);
  CHECK(cmp.out.find("/noseed") != std::string::npos);
}

namespace {

// The commits of branch NAME, main first. main is the tree's root commit:
// it has no parent to range from.
std::vector<std::string> branch_commits(const fs::path& tree, const std::string& branch) {
  const std::string t = tree.string();
  const auto r = sh({"git", "-C", t, "rev-list", "--reverse", "main.." + branch});
  std::vector<std::string> out = {std::string(trim(sh({"git", "-C", t, "rev-parse", "main"}).out))};
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Inserts after the first occurrence of each anchor in FILE, then commits.
void insert_and_commit(const fs::path& tree, const std::string& file,
                       const std::vector<std::pair<std::string, std::string>>& inserts,
                       const std::string& subject) {
  const fs::path path = tree / file;
  std::string text = test::read_text(path);
  for (const auto& [anchor, insert] : inserts) {
    const auto at = text.find(anchor);
    REQUIRE(at != std::string::npos);
    text.insert(at + anchor.size(), insert);
  }
  test::write_text(path, text);
  must({"git", "-C", tree.string(), "commit", "-q", "-am", subject});
}

// Six commits on branch NAME touching kernel/sched/, with fixed dates (the
// same commits every run, so the built kernels stay cached): the third does
// not compile (a call to an undeclared function, an error with the kernel's
// -Werror=implicit-function-declaration), the fourth fixes it, the fifth
// plants the regression: 3 million empty loops in every task's exit, before
// it notifies its parent. hackbench reaps its 40 children before it stops
// its clock, so every iteration gets the same extra work. A loop, not
// mdelay(): with ACPI (2 CPUs) the guest's TSC runs fast under TCG and
// mdelay(20) took about 1 ms; a loop costs instructions, which TCG turns
// into time the same way for the good and the bad kernel. (A 200 us wait on
// every wake-up varied with how pipe wake-ups batch.)
// Returns the commits, main first.
std::vector<std::string> add_bisect_history(const fs::path& tree, const std::string& branch) {
  const std::string t = tree.string();
  const auto commits = [&] { return branch_commits(tree, branch); };
  if (sh({"git", "-C", t, "rev-parse", "--verify", branch}).ok()) return commits();
  must({"git", "-C", t, "checkout", "-q", "-B", branch, "main"});
  const auto edit = [&](const std::string& file,
                        const std::vector<std::pair<std::string, std::string>>& inserts,
                        const std::string& subject) { insert_and_commit(tree, file, inserts, subject); };
  const std::string pick =
      "static int select_idle_sibling(struct task_struct *p, int prev, int target)\n{\n";
  const std::string activate = "\tint en_flags = ENQUEUE_WAKEUP | ENQUEUE_NOCLOCK;\n";
  edit("kernel/sched/fair.c", {{pick, "\t/* schedlab bisect test: harmless 1 */\n"}},
       "sched/fair: a comment in select_idle_sibling");
  edit("kernel/sched/core.c", {{activate, "\t/* schedlab bisect test: harmless 2 */\n"}},
       "sched/core: a comment in ttwu_do_activate");
  edit("kernel/sched/fair.c", {{pick, "\tschedlab_undeclared_function();\n"}},
       "sched/fair: call a function that does not exist (does not compile)");
  {
    const fs::path path = tree / "kernel/sched/fair.c";
    std::string text = test::read_text(path);
    const std::string broken = "\tschedlab_undeclared_function();\n";
    text.erase(text.find(broken), broken.size());
    test::write_text(path, text);
    must({"git", "-C", t, "commit", "-q", "-am", "sched/fair: fix the build"});
  }
  edit("kernel/sched/autogroup.c",
       {{"void sched_autogroup_exit_task(struct task_struct *p)\n{\n",
         "\t{\n\t\tunsigned long i;\n\n\t\tfor (i = 0; i < 3000000UL; i++)\n\t\t\tbarrier();\n\t}"
         "\t/* schedlab bisect test: the regression */\n"}},
       "sched/autogroup: spin 3M loops in every task exit (the planted regression)");
  edit("kernel/sched/fair.c", {{pick, "\t/* schedlab bisect test: harmless 3 */\n"}},
       "sched/fair: another comment");
  must({"git", "-C", t, "checkout", "-q", "main"});
  return commits();
}

}  // namespace

TEST_CASE(
    "lab: bisect with no hook builds each commit of Debian's 6.1 source, names the planted "
    "regression and skips the commit that does not compile",
    "[lab][kernel][long]") {
  const fs::path tree = linux_tree();
  const auto shas = add_bisect_history(tree, "schedlab-bisect-spin");
  REQUIRE(shas.size() == 7);  // main and six commits
  test::TempDir dir;
  const std::string cfg = dir.file("bisect.yaml"), db = dir.file("db");
  // The lab's kernel is the tree; bisect boots each candidate commit of it.
  test::write_text(cfg, fmt::format(R"(hosts:
  sut: {{lab: {{kernel: 'git:{}', cpus: 2, memory: 512M}}}}
iterations: 5
workloads:
  - hackbench: {{modes: [process-pipes], groups: [1], loops: 20, timeout: 120s}}
)",
                                    tree.string()));
  auto r = schedlab_cmd({"bisect", "start", "--db", db, "--repo", tree.string(), "--good",
                         shas.front(), "--bad", shas.back(), "--config", cfg, "--metric", "time",
                         "--min-effect", "20"});
  const BisectSession session = check_found_planted(r, db, tree, shas, 5);
  Store store(db);
  bool skipped_broken = false;
  for (const auto& d : store.bisect_log().bisect_decisions(session.id)) {
    if (d.candidate != shas[3]) continue;
    CHECK(d.verdict == "SKIP");
    CHECK(d.decided_by == "build");
    CHECK(d.note.find("schedlab_undeclared_function") != std::string::npos);
    skipped_broken = true;
  }
  // The search went through the broken commit (the first midpoint).
  CHECK(skipped_broken);
  // The user's tree was never checked out.
  CHECK(sh({"git", "-C", tree.string(), "symbolic-ref", "--short", "HEAD"}).out == "main\n");
}

// The exynos4210 board from the same tree: cross-built ARCH=arm
// (exynos_defconfig trimmed + the guest fragment with CONFIG_DMATEST=m, the
// DTB from the tree), booted under qemu-system-arm, and bisected on dmatest.
namespace {

// Two commits on branch NAME touching drivers/dma/dmatest.c (only the
// module rebuilds between them), fixed dates: the planted regression (a
// 4 ms busy wait before every transfer, in the loop dmatest times: hmean
// 265 -> 123 iops over 6 iterations each on the exynos4210 under TCG here),
// then a comment. The regression comes first so that every verdict the
// search needs is "different from good", which a 2x drop decides in one
// batch; proving a harmless commit "same" within the minimum effect takes
// many batches at dmatest's CV under TCG (17%), and the x86 test already
// covers that path. So the search builds and boots three kernels.
std::vector<std::string> add_dmatest_history(const fs::path& tree, const std::string& branch) {
  const std::string t = tree.string();
  const auto commits = [&] { return branch_commits(tree, branch); };
  if (sh({"git", "-C", t, "rev-parse", "--verify", branch}).ok()) return commits();
  must({"git", "-C", t, "checkout", "-q", "-B", branch, "main"});
  const auto edit = [&](const std::string& anchor, const std::string& insert, const std::string& subject) {
    insert_and_commit(tree, "drivers/dma/dmatest.c", {{anchor, insert}}, subject);
  };
  const std::string loop = "\t\ttotal_tests++;\n";
  edit(loop, "\t\tmdelay(4);\t/* schedlab bisect test: the regression */\n",
       "dmaengine: dmatest: busy-wait 4 ms before every transfer (the planted regression)");
  edit(loop, "\t\t/* schedlab bisect test: harmless */\n", "dmaengine: dmatest: a comment");
  must({"git", "-C", t, "checkout", "-q", "main"});
  return commits();
}

std::string qemu_arm_problem() {
  LocalHost local;
  const auto r = local.run({.argv = {"qemu-system-arm", "--version"}, .timeout = 30s});
  return r.ok() ? "" : "qemu-system-arm cannot start (Debian package qemu-system-arm)";
}

}  // namespace

TEST_CASE("lab build: a board whose cross compiler is missing names its package") {
  test::TempDir dir;
  small_repo(dir.path() / "repo");
  fs::create_directories(dir.path() / "bin");
  for (const char* tool : {"git", "make", "gcc", "bc", "bison", "flex"})
    if (fs::exists(std::string("/usr/bin/") + tool))
      fs::create_symlink(std::string("/usr/bin/") + tool, dir.path() / "bin" / tool);
  const auto r = schedlab_cmd({"lab", "build", "git:" + dir.file("repo") + "@HEAD", "--board", "exynos4210"},
                              {{"SCHEDLAB_LAB_CACHE", dir.file("cache")}, {"PATH", dir.file("bin")}});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line("for exynos4210 needs arm-linux-gnueabihf-gcc "
                                                  "(Debian package gcc-arm-linux-gnueabihf), the "
                                                  "exynos4210 board's cross compiler")) !=
        std::string::npos);
  const auto unknown = schedlab_cmd({"lab", "build", "git:" + dir.file("repo") + "@HEAD", "--board", "pc"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.starts_with("schedlab lab build: --board: unknown board 'pc'; known: x86 ("));
}

TEST_CASE(
    "lab: Debian's 6.1 source cross-built for the exynos4210 and bisected on dmatest names the planted regression",
    "[lab][kernel][arm][long]") {
  if (const auto why = qemu_arm_problem(); !why.empty()) {
    SCHEDLAB_SKIP(why);
  }
  const fs::path tree = linux_tree();
  const auto shas = add_dmatest_history(tree, "schedlab-bisect-dmatest-2");
  REQUIRE(shas.size() == 3);  // main and two commits
  // The good end, built alone first: the cold cross-build's time is the
  // figure CI pays once (bench/kernel_build_bench.sh measures it too).
  auto r = schedlab_cmd({"lab", "build", "git:" + tree.string() + "@" + shas.front(), "--board", "exynos4210"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("/boot/vmlinuz-6.1.") != std::string::npos);
  WARN("exynos4210 build of " << shas.front().substr(0, 12) << ":\n" << r.err);
  const auto list = schedlab_cmd({"lab", "list"});
  CHECK(test::one_line(list.out).find(test::one_line(", board exynos4210")) != std::string::npos);
  test::TempDir dir;
  const std::string cfg = dir.file("bisect.yaml"), db = dir.file("db");
  test::write_text(cfg, fmt::format(R"(hosts:
  sut: {{lab: {{kernel: 'git:{}', board: exynos4210}}}}
iterations: 3
workloads:
  - dmatest: {{threads_per_chan: [1], tests: 100, channel: dma2chan0, timeout: 2m}}
)",
                                    tree.string()));
  r = schedlab_cmd({"bisect", "start", "--db", db, "--repo", tree.string(), "--good", shas.front(), "--bad",
                    shas.back(), "--config", cfg, "--metric", "iops", "--min-effect", "20"});
  check_found_planted(r, db, tree, shas, 1);
  Store store(db);
  // Every run was on the board, with the kernel built from the candidate.
  for (const auto& run : store.runs_table().list_runs()) {
    const auto m = nlohmann::json::parse(run.manifest_json);
    CHECK(m["lab"]["board"] == "exynos4210");
    CHECK(m["lab"]["build"]["commit"].get<std::string>().size() == 40);
  }
  CHECK(sh({"git", "-C", tree.string(), "symbolic-ref", "--short", "HEAD"}).out == "main\n");
}
