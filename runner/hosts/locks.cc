#include "runner/hosts/locks.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <vector>

#include "base/file.h"
#include "base/hash.h"
#include "base/json_data.h"
#include "base/text.h"
#include "base/time.h"
#include "runner/hosts/local_host.h"

namespace schedlab {
namespace {

// Run remotely as `sh -c SCRIPT sh DIR HOLDER`: 74 cannot lock, 75 held by
// someone else; once locked it writes HOLDER, says kLockedLine on stdout
// (read here as it arrives: no round trip to poll the holder file) and
// sleeps until the SSH wrapper kills its group (the connection went, or
// stop_background).
constexpr const char* kRemoteLock = R"sh(mkdir -p -m 0755 "$1" 2> /dev/null
exec 9>> "$1/sut.lock" || exit 74
flock -n 9 || exit 75
printf '%s\n' "$2" > "$1/sut.holder.$$" && mv -f "$1/sut.holder.$$" "$1/sut.holder" || exit 74
echo schedlab-locked
exec sleep 2147483647)sh";
constexpr const char* kLockedLine = "schedlab-locked\n";

// This process among all (with its PID: a forked child is another one).
std::string process_token() {
  static const std::string random = [] {
    std::random_device rd;
    return fmt::format("{:08x}{:08x}", rd(), rd());
  }();
  return fmt::format("{}-{}", random, ::getpid());
}

std::string this_host() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? path : p.string();
}

// Locks of this process by owner, so a second pair on the same machine
// finds the first one's; acquisitions are serialised so a lock is never
// seen before its holder file says it is ours.
std::recursive_mutex& registry_mutex() {
  static std::recursive_mutex m;
  return m;
}
std::map<std::string, std::weak_ptr<SutLock>>& registry() {
  static std::map<std::string, std::weak_ptr<SutLock>> r;
  return r;
}

void write_local_holder(const std::string& dir, const LockHolder& h) {
  const std::string tmp = fmt::format("{}/sut.holder.{}", dir, ::getpid());
  // Never through a link at that name (a folder shared with other users).
  ::unlink(tmp.c_str());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw HostError(fmt::format("{}: {}", tmp, std::strerror(errno)));
  const std::string text = h.json() + "\n";
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), (dir + "/sut.holder").c_str()) != 0)
    throw HostError(fmt::format("{}/sut.holder: {}", dir, std::strerror(errno)));
}

std::string busy_message(Host& host, const std::optional<LockHolder>& h) {
  return fmt::format(
      "{} is in use by {}; one run per SUT at a time (wait for it, or stop it)", host.name(),
      h ? h->describe() : std::string("another schedlab process (its holder file is unreadable)"));
}

// Why the lock file open on FD may not be trusted: another user owns it
// (made first under the lock's name in a folder its group may write, and
// theirs to swap for one no one holds: hostile15 #11); nothing when it is
// this user's or root's.
std::optional<std::string> foreign_lock_file(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fmt::format("{}: {}", path, std::strerror(errno));
  const uid_t me = ::geteuid();
  if (st.st_uid == me || st.st_uid == 0) return std::nullopt;
  return fmt::format(
      "{} is owned by user {}, neither this user ({}) nor root: another user made it, and could "
      "swap it for one no one holds; use a lock folder of your own (SCHEDLAB_LOCK_DIR)",
      terminal_safe(path), st.st_uid, me);
}

bool is_dir_of(const std::string& dir, uid_t uid) {
  struct stat st{};
  return ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == uid;
}

}  // namespace

namespace {

// SCHEDLAB_LOCK_DIR, made if need be and checked as it was opened. A
// folder another user can change is no place for the locks (their holder
// could be replaced and a second run let in): the folders above it are
// checked first (nothing is made under one refused), then it is made
// (0700; one there already is fine), then the folder itself is opened,
// not through a link, and held to the same rule by its fd: one another
// user made between the check and mkdir (hostile13), or put there by a
// link, is refused. The folders above, checked, are this user's or root's
// and others cannot swap what they hold.
std::string checked_lock_dir(const std::string& dir) {
  const auto refuse = [&](const std::string& why) {
    return HostError(
        fmt::format("SCHEDLAB_LOCK_DIR: {} {}; use a folder of your own", terminal_safe(dir), why));
  };
  if (const auto problem = shared_dir_problem("SCHEDLAB_LOCK_DIR", dir)) throw HostError(*problem);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw refuse(fmt::format("cannot be made: {}", std::strerror(errno)));
  // Without its trailing slashes: "link/" names what the link points to,
  // and O_NOFOLLOW would not see the link (hostile15).
  std::string own = dir;
  while (own.size() > 1 && own.back() == '/') own.pop_back();
  const int fd = ::open(own.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    throw refuse(errno == ELOOP || errno == ENOTDIR
                     ? std::string("is no folder (a symbolic link or a file)")
                     : fmt::format("cannot be opened: {}", std::strerror(errno)));
  struct stat st {};
  const bool stated = ::fstat(fd, &st) == 0;
  ::close(fd);
  const uid_t me = ::geteuid();
  if (!stated || !S_ISDIR(st.st_mode)) throw refuse("is no folder");
  if (st.st_uid != me && st.st_uid != 0)
    throw refuse(
        fmt::format("is owned by user {}, neither this user ({}) nor root", st.st_uid, me));
  // With the sticky bit too: another user's files there, made first under
  // the lock's names, stay theirs to swap (hostile15).
  if (st.st_mode & S_IWOTH) throw refuse("is writable by every user");
  // Writable by its group without the sticky bit: a member can rename this
  // user's sut.lock or a live run's .alive file away and make their own,
  // which the owner check of a lock file made first does not see
  // (minors16). With the bit, what a member makes first is theirs, and
  // refused by that check.
  if ((st.st_mode & S_IWGRP) && !(st.st_mode & S_ISVTX))
    throw refuse(fmt::format(
        "is writable by its group ({}) and has no sticky bit: a member could rename the locks "
        "away and make their own (chmod g-w, or +t)",
        st.st_gid));
  return dir;
}

}  // namespace

std::string local_lock_dir() {
  if (const char* env = std::getenv("SCHEDLAB_LOCK_DIR"); env && *env) return checked_lock_dir(env);
  const std::string run = "/run/schedlab";
  if ((::mkdir(run.c_str(), 0755) == 0 || errno == EEXIST) && ::access(run.c_str(), W_OK) == 0)
    return run;
  // A user who cannot write /run: a directory of their own.
  const uid_t uid = ::geteuid();
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  const std::string dir = xdg && *xdg ? std::string(xdg) + "/schedlab"
                                      : fmt::format("/tmp/schedlab-{}", uid);
  ::mkdir(dir.c_str(), 0700);
  if (!is_dir_of(dir, uid))
    throw HostError(fmt::format("cannot use {} for locks (not a directory of user {})", dir, uid));
  return dir;
}

std::string LockHolder::json() const {
  return nlohmann::json{{"what", what}, {"db", db},       {"pid", pid},
                        {"host", host}, {"since", since}, {"owner", owner}}
      .dump();
}

std::optional<LockHolder> LockHolder::parse(const std::string& text) {
  const auto j = parse_json_data(text);
  if (!j.is_object()) return std::nullopt;
  // A member of another type (a crafted or damaged file) is left empty:
  // j.value() threw json's type_error at whoever waited for the lock.
  const auto member = [&](const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
  };
  LockHolder h;
  h.what = member("what");
  h.db = member("db");
  h.pid = j.contains("pid") && j["pid"].is_number_integer() ? j["pid"].get<long>() : 0;
  h.host = member("host");
  h.since = member("since");
  h.owner = member("owner");
  return h;
}

std::string LockHolder::describe() const {
  return fmt::format("{} (database {}, PID {} on host {}, since {})", what, db, pid, host, since);
}

std::shared_ptr<SutLock> SutLock::acquire(Host& host, const std::string& what,
                                          const std::string& db) {
  std::unique_lock guard(registry_mutex());
  static int count = 0;
  std::shared_ptr<SutLock> lock(new SutLock);
  lock->holder_ = {.what = what,
                   .db = absolute(db),
                   .pid = static_cast<long>(::getpid()),
                   .host = this_host(),
                   .since = utc_now_iso8601(),
                   .owner = fmt::format("{}:{}", process_token(), ++count)};
  const bool local = dynamic_cast<LocalHost*>(&host) != nullptr;
  lock->dir_ = local ? local_lock_dir() : kRemoteLockDir;
  const std::string holder_path = lock->dir_ + "/sut.holder";
  auto current_holder = [&]() -> std::optional<LockHolder> {
    try {
      const auto text = host.read_file(holder_path);
      return text ? LockHolder::parse(*text) : std::nullopt;
    } catch (const HostError&) {
      return std::nullopt;
    }
  };
  // Held already: by this process (share it) or by another (refuse).
  auto refuse_or_share = [&]() -> std::shared_ptr<SutLock> {
    auto h = current_holder();
    // The holder writes its file just after taking the lock: until then the
    // file still names the previous holder, a process of this machine that
    // has exited. Wait a moment for the new name rather than blame it.
    const auto stale = [&](const std::optional<LockHolder>& x) {
      return local && x && x->host == this_host() && x->pid > 0 &&
             ::kill(static_cast<pid_t>(x->pid), 0) != 0 && errno == ESRCH;
    };
    for (int i = 0; i < 100 && stale(h); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      h = current_holder();
    }
    if (stale(h))
      throw SutBusy(fmt::format(
          "{} is in use by another schedlab process that has just taken it (its holder file "
          "still names {}, which has exited); one run per SUT at a time",
          host.name(), h->describe()));
    if (h && h->owner.starts_with(process_token() + ":")) {
      if (auto mine = registry()[h->owner].lock(); mine && !mine->host_) return mine;
      // Remote under another name: borrowed, released with the first.
      std::shared_ptr<SutLock> borrowed(new SutLock);
      borrowed->holder_ = *h;
      return borrowed;
    }
    throw SutBusy(busy_message(host, h));
  };

  if (local) {
    const std::string path = lock->dir_ + "/sut.lock";
    lock->fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (lock->fd_ < 0)
      throw HostError(fmt::format("cannot lock the SUT: {}: {}", path, std::strerror(errno)));
    if (const auto why = foreign_lock_file(lock->fd_, path)) {
      ::close(lock->fd_);
      lock->fd_ = -1;
      throw HostError("cannot lock the SUT: " + *why);
    }
    if (::flock(lock->fd_, LOCK_EX | LOCK_NB) != 0) {
      const int e = errno;
      ::close(lock->fd_);
      lock->fd_ = -1;
      if (e != EWOULDBLOCK)
        throw HostError(fmt::format("cannot lock the SUT: {}: {}", path, std::strerror(e)));
      return refuse_or_share();
    }
    write_local_holder(lock->dir_, lock->holder_);
  } else {
    const std::string me = lock->holder_.json();
    // Not held over the round trips: kernels as columns lock their guests
    // at once, each from a thread of its own (the remote flock decides).
    guard.unlock();
    const Host::BackgroundId id = host.start_background(
        {.argv = {"sh", "-c", kRemoteLock, "sh", lock->dir_, me}, .interruptible = false});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (true) {
      if (const auto done = host.poll_background(id)) {
        if (done->outcome == ExecResult::Outcome::kExited && done->exit_code == 75) {
          guard.lock();
          return refuse_or_share();
        }
        // 74: the script could not take the lock file at all.
        const bool refused = done->outcome == ExecResult::Outcome::kExited && done->exit_code == 74;
        throw HostError(fmt::format("{}: cannot lock the SUT under {} ({}{}): {}", host.name(),
                                    lock->dir_, done->describe(),
                                    refused ? "; schedlab needs root there" : "", trim(done->err)));
      }
      // Its line, read here; a host that cannot show a background's output
      // is asked for the holder file instead.
      const auto said = host.background_output(id);
      if (said && said->find(kLockedLine) != std::string::npos) break;
      if (!said) {
        const auto text = host.read_file(holder_path);
        const auto h = text ? LockHolder::parse(*text) : std::nullopt;
        if (h && h->owner == lock->holder_.owner) break;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        host.stop_background(id);
        throw HostError(fmt::format("{}: the SUT lock was not taken within 60 s", host.name()));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(said ? 5 : 20));
    }
    lock->host_ = &host;
    lock->remote_ = id;
    guard.lock();
  }
  registry()[lock->holder_.owner] = lock;
  return lock;
}

void SutLock::describe_as(const std::string& what) {
  if (fd_ < 0 && !remote_) return;  // borrowed: the first pair's holder stands
  holder_.what = what;
  try {
    if (host_)
      host_->write_file(dir_ + "/sut.holder", holder_.json() + "\n");
    else
      write_local_holder(dir_, holder_);
  } catch (const HostError&) {
    // The lock stands; a contender sees the earlier description.
  }
}

SutLock::~SutLock() {
  if (fd_ >= 0 || remote_) {
    std::lock_guard guard(registry_mutex());
    registry().erase(holder_.owner);
  }
  if (fd_ >= 0) ::close(fd_);
  if (host_ && remote_) {
    try {
      host_->stop_background(*remote_);
    } catch (...) {
      // The connection is gone: so is the remote lock.
    }
  }
}

namespace {
std::string alive_path(const std::string& dir, const std::string& db, std::int64_t run_id) {
  return fmt::format("{}/run-{}-{}.alive", dir, sha256_hex(absolute(db)).substr(0, 16), run_id);
}
}  // namespace

RunAlive::RunAlive(const std::string& db_path, std::int64_t run_id) {
  const std::string path = alive_path(local_lock_dir(), db_path, run_id);
  fd_ = ::open(path.c_str(), O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd_ >= 0)
    if (const auto why = foreign_lock_file(fd_, path)) {
      ::close(fd_);
      fd_ = -1;
      throw HostError("cannot mark the run alive: " + *why);
    }
  if (fd_ >= 0 && ::flock(fd_, LOCK_SH) != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

RunAlive::~RunAlive() {
  if (fd_ >= 0) ::close(fd_);
}

bool RunAlive::held(const std::string& db_path, std::int64_t run_id) {
  // Wherever a runner may have put it (root's /run, a user's own), never
  // creating anything: `list` only reads.
  std::vector<std::string> dirs = {"/run/schedlab", fmt::format("/tmp/schedlab-{}", ::geteuid())};
  if (const char* env = std::getenv("SCHEDLAB_LOCK_DIR"); env && *env) {
    // There another user could swap a live run's file for one no one
    // holds, and rm or restore would take the run for dead.
    if (const auto problem = shared_dir_problem("SCHEDLAB_LOCK_DIR", env))
      throw HostError(*problem);
    dirs = {env};
  } else if (const char* xdg = std::getenv("XDG_RUNTIME_DIR"); xdg && *xdg)
    dirs.push_back(std::string(xdg) + "/schedlab");
  for (const auto& dir : dirs) {
    const int fd =
        ::open(alive_path(dir, db_path, run_id).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    // Another user's file there is no run of ours, held or not: anyone may
    // make /tmp/schedlab-0 and hold a file named for a dead run of root's,
    // which list then showed running, rm refused to remove and restore left
    // its process groups and work directories to (hostile18).
    if (foreign_lock_file(fd, dir)) {
      ::close(fd);
      continue;
    }
    const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    if (held) return true;
  }
  return false;
}

}  // namespace schedlab
