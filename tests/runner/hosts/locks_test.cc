// The SUT lock and run liveness on this host, in a lock directory of the
// test's own ($SCHEDLAB_LOCK_DIR): a second process is refused and told who
// holds it, this process never refuses itself, the lock dies with its
// holder.
#include "runner/hosts/locks.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "base/hash.h"
#include "runner/hosts/local_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

struct LockDir {
  test::TempDir dir;
  LockDir() { ::setenv("SCHEDLAB_LOCK_DIR", dir.path().c_str(), 1); }
  ~LockDir() { ::unsetenv("SCHEDLAB_LOCK_DIR"); }
};

// In a child process: 0 refused with the holder named, 1 taken, 2 other.
int try_in_child(const std::string& expect) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    try {
      LocalHost host;
      const auto lock = SutLock::acquire(host, "run 2 'b'", "/b.db");
      ::_exit(1);
    } catch (const SutBusy& e) {
      ::_exit(std::string(e.what()).find(expect) != std::string::npos ? 0 : 2);
    } catch (...) {
      ::_exit(2);
    }
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

}  // namespace

TEST_CASE("SUT lock: a second process is refused, naming the holder") {
  LockDir d;
  LocalHost host;
  {
    const auto lock = SutLock::acquire(host, "a run starting", "a.db");
    lock->describe_as("run 1 'a'");
    CHECK(try_in_child(fmt::format("local is in use by run 1 'a' (database {}", lock->holder().db)) == 0);
    CHECK(try_in_child(fmt::format("PID {} on host ", ::getpid())) == 0);
    // This process (a second pair, the next kernel) is not refused.
    const auto again = SutLock::acquire(host, "a second pair", "a.db");
    CHECK(again.get() == lock.get());
  }
  CHECK(try_in_child("") == 1);  // released with the last holder
}

TEST_CASE("SUT lock: a holder file naming an exited process is not blamed for the lock") {
  LockDir d;
  LocalHost host;
  // The holder file of a run that has exited (a PID that is gone) ...
  const pid_t gone = ::fork();
  REQUIRE(gone >= 0);
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  LockHolder old{.what = "schedlab restore", .db = "/old.db", .pid = gone, .since = "2026-01-01T00:00:00Z"};
  {
    const auto lock = SutLock::acquire(host, "a run starting", "a.db");
    old.host = lock->holder().host;
  }
  test::write_text(d.dir.file("sut.holder"), old.json() + "\n");
  // ... while another process holds the lock and has not named itself yet.
  // It says on a pipe when it holds the lock (a fixed wait would race a
  // busy machine), then waits to be killed.
  int taken[2];
  REQUIRE(::pipe(taken) == 0);
  const pid_t holder = ::fork();
  REQUIRE(holder >= 0);
  if (holder == 0) {
    const int fd = ::open(d.dir.file("sut.lock").c_str(), O_RDWR | O_CREAT, 0644);
    ::flock(fd, LOCK_EX);
    [[maybe_unused]] auto n = ::write(taken[1], "x", 1);
    ::pause();
    ::_exit(0);
  }
  ::close(taken[1]);
  char x = 0;
  REQUIRE(::read(taken[0], &x, 1) == 1);
  ::close(taken[0]);
  CHECK(try_in_child("is in use by another schedlab process that has just taken it (its holder file "
                     "still names schedlab restore (database /old.db, PID " +
                     std::to_string(gone)) == 0);
  ::kill(holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
}

TEST_CASE("SUT lock: a holder file whose members are of other types is read, not thrown at") {
  // hostile10: json's type_error.302 was what a contender was told.
  const auto h = LockHolder::parse(
      R"({"what": 7, "db": ["x"], "pid": "12", "host": "h", "since": null, "owner": {}})");
  REQUIRE(h);
  CHECK(h->what.empty());
  CHECK(h->db.empty());
  CHECK(h->pid == 0);
  CHECK(h->host == "h");
  CHECK(h->since.empty());
  CHECK(h->owner.empty());
}

TEST_CASE("run liveness: held while a RunAlive lives, never created by a reader") {
  LockDir d;
  CHECK_FALSE(RunAlive::held("/x/a.db", 4));
  {
    const RunAlive alive("/x/a.db", 4);
    CHECK(RunAlive::held("/x/a.db", 4));
    CHECK_FALSE(RunAlive::held("/x/a.db", 5));
    CHECK_FALSE(RunAlive::held("/x/b.db", 4));
  }
  CHECK_FALSE(RunAlive::held("/x/a.db", 4));
}

TEST_CASE(
    "a lock or alive file another user made first is refused, naming it and its owner "
    "(hostile15 11)") {
  // In a folder its group may write (0770, sticky or not), another member
  // made sut.lock or a run's alive file first: theirs to swap for one no one
  // holds, letting a second run in or making a live run look dead.
  if (::geteuid() != 0) return;  // chown to another user needs root (CI runs as root)
  LockDir d;
  const std::string sut = d.dir.file("sut.lock");
  const std::string alive =
      d.dir.file(fmt::format("run-{}-7.alive", sha256_hex("/x/a.db").substr(0, 16)));
  for (const auto& f : {sut, alive}) {
    REQUIRE(::close(::open(f.c_str(), O_WRONLY | O_CREAT, 0666)) == 0);
    REQUIRE(::chown(f.c_str(), 65534, 65534) == 0);
  }
  LocalHost host;
  const auto refusal = [](auto&& f) {
    try {
      f();
    } catch (const HostError& e) {
      return std::string(e.what());
    }
    return std::string("taken");
  };
  const std::string owned =
      " is owned by user 65534, neither this user (0) nor root: another "
      "user made it, and could swap it for one no one holds; use a lock "
      "folder of your own (SCHEDLAB_LOCK_DIR)";
  CHECK(refusal([&] { SutLock::acquire(host, "t", "/x/a.db"); }) ==
        "cannot lock the SUT: " + sut + owned);
  CHECK(refusal([&] { RunAlive a("/x/a.db", 7); }) ==
        "cannot mark the run alive: " + alive + owned);
  {
    // Nor is another user's file, held, taken for a live run of ours: a dead
    // run listed running, its leftovers never cleaned (hostile18).
    const int fd = ::open(alive.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
    CHECK_FALSE(RunAlive::held("/x/a.db", 7));
    ::close(fd);
  }
  // Root's and this user's own files are taken.
  for (const auto& f : {sut, alive}) REQUIRE(::chown(f.c_str(), 0, 0) == 0);
  CHECK(refusal([&] { SutLock::acquire(host, "t", "/x/a.db"); }) == "taken");
  CHECK(refusal([&] {
          RunAlive a("/x/a.db", 7);
          if (!RunAlive::held("/x/a.db", 7)) throw HostError("not held");
        }) == "taken");
}

TEST_CASE("SCHEDLAB_LOCK_DIR is made 0700 first, then the folder opened is checked (issue 44)") {
  // hostile13: the folder was checked (a folder not made yet passes), then
  // made 0755: another user could make it in between, and a link in its
  // place was followed. Now made first, then opened without following a
  // link and held to owner and mode by its fd.
  test::TempDir dir;
  struct Env {
    explicit Env(const std::string& d) { ::setenv("SCHEDLAB_LOCK_DIR", d.c_str(), 1); }
    ~Env() { ::unsetenv("SCHEDLAB_LOCK_DIR"); }
  };
  const std::string made = dir.file("made");
  {
    Env env(made);
    CHECK(local_lock_dir() == made);
    struct stat st {};
    REQUIRE(::stat(made.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0700);
    CHECK(local_lock_dir() == made);  // there already: fine
  }
  const auto refusal = [](const std::string& d) {
    Env env(d);
    try {
      local_lock_dir();
    } catch (const HostError& e) {
      return std::string(e.what());
    }
    return std::string("(taken)");
  };
  // A link of this user's own to a good folder: the folder opened would be
  // the link's target, which its owner may change.
  const std::string link = dir.file("link");
  std::filesystem::create_directory_symlink(made, link);
  CHECK(refusal(link) == "SCHEDLAB_LOCK_DIR: " + link +
                             " is no folder (a symbolic link or a file); use a folder of your own");
  // "link/" names the folder it points to: refused as the link (hostile15).
  CHECK(refusal(link + "//") ==
        "SCHEDLAB_LOCK_DIR: " + link +
            "// is no folder (a symbolic link or a file); use a folder of your own");
  // The folder itself writable by every user, even with the sticky bit (as
  // /tmp): another user makes the lock's files there first and swaps them
  // later; a live run's were, and restore killed it (hostile15).
  const std::string sticky = dir.file("sticky");
  std::filesystem::create_directory(sticky);
  ::chmod(sticky.c_str(), 01777);
  CHECK(refusal(sticky).find("is writable by every user: even with the sticky bit") !=
        std::string::npos);
  CHECK(refusal(sticky + "/own") == "(taken)");  // a folder of one's own in it is fine
  // Writable by its group without the sticky bit: a member renames the
  // locks away (minors16); with the bit, a lock file a member made first is
  // refused by its owner check.
  const std::string group = dir.file("group");
  std::filesystem::create_directory(group);
  ::chmod(group.c_str(), 0770);
  struct stat gst {};
  REQUIRE(::stat(group.c_str(), &gst) == 0);
  CHECK(refusal(group) == fmt::format("SCHEDLAB_LOCK_DIR: {} is writable by its group ({}) and has "
                                      "no sticky bit: a member could rename the locks away and "
                                      "make their own (chmod g-w, or +t); use a folder of your own",
                                      group, gst.st_gid));
  ::chmod(group.c_str(), 01770);
  CHECK(refusal(group) == "(taken)");
  ::chmod(group.c_str(), 0750);
  CHECK(refusal(group) == "(taken)");
  test::write_text(dir.file("file"), "x");
  CHECK(refusal(dir.file("file")) ==
        "SCHEDLAB_LOCK_DIR: " + dir.file("file") + " is no folder; use a folder of your own");
  CHECK(refusal(dir.file("no/such"))
            .starts_with("SCHEDLAB_LOCK_DIR: " + dir.file("no/such") +
                         " cannot be made: No such file or directory"));
  // A folder another user made first (as in the race), found by the check
  // of what was opened as by the one before.
  if (::geteuid() == 0) {
    const std::string theirs = dir.file("theirs");
    std::filesystem::create_directory(theirs);
    REQUIRE(::chown(theirs.c_str(), 65534, 65534) == 0);
    CHECK(refusal(theirs).find("is owned by user 65534") != std::string::npos);
  }
}
