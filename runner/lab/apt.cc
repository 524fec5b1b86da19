#include "runner/lab/apt.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "base/file.h"
#include "base/text.h"
#include "base/time.h"

namespace schedlab::lab {
namespace {

const char* const kKeyring = "/usr/share/keyrings/debian-archive-keyring.gpg";

}  // namespace

std::optional<std::string> mirror_problem(std::string_view m) {
  if (!m.starts_with("http://") && !m.starts_with("https://") && !m.starts_with("file:/"))
    return "not an http://, https:// or file:/ URL";
  for (const char c : m)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f || c == '[' || c == ']' || c == '#')
      return fmt::format(
          "it holds {}: a mirror is one URL, and sources.list takes text after "
          "a space, a newline, [ ] or # as more of its own lines and options",
          static_cast<unsigned char>(c) < ' ' || c == 0x7f ? terminal_safe(std::string(1, c))
                                                           : fmt::format("'{}'", c));
  return std::nullopt;
}

namespace {

// The private sources.list. SCHEDLAB_LAB_MIRROR is one URL: a newline in it
// wrote a line of its own, "deb [trusted=yes] URL", that installs a kernel
// no key signed (hostile11).
std::string sources() {
  const char* m = std::getenv("SCHEDLAB_LAB_MIRROR");
  if (m && *m)
    if (const auto why = mirror_problem(m))
      throw std::runtime_error(fmt::format("lab: SCHEDLAB_LAB_MIRROR '{}' is refused: {}",
                                           terminal_safe(excerpt(m, 200)), *why));
  const std::string mirror = m && *m ? m : "http://deb.debian.org/debian";
  const std::string security = m && *m ? mirror + "-security" : "http://deb.debian.org/debian-security";
  return fmt::format(
      "# Written by schedlab: kernels for lab SUTs. Not used by the system's apt.\n"
      "deb [signed-by={0}] {1} bookworm main\n"
      "deb [signed-by={0}] {2} bookworm-security main\n"
      "deb [signed-by={0}] {1} bookworm-backports main\n",
      kKeyring, mirror, security);
}

std::string host_arch(Host& local) {
  const ExecResult r = local.run({.argv = {"dpkg", "--print-architecture"}, .timeout = std::chrono::seconds(30)});
  const std::string arch(trim(r.out));
  if (!r.ok() || arch.empty())
    throw std::runtime_error("lab: dpkg --print-architecture failed: " + r.describe());
  return arch;
}

}  // namespace

std::vector<std::string> unfetched_lists(std::string_view apt_stderr) {
  static constexpr std::string_view kFailed = "E: Failed to fetch ";
  std::vector<std::string> out;
  for (const auto line : split_lines(apt_stderr)) {
    if (!line.starts_with(kFailed)) continue;
    const std::string_view rest = line.substr(kFailed.size());
    const std::size_t space = rest.find(' ');
    const std::string_view url = rest.substr(0, space);
    const std::string_view reason = space == std::string_view::npos ? "" : trim(rest.substr(space));
    out.push_back(reason.empty() ? std::string(url) : fmt::format("{}: {}", url, reason));
  }
  return out;
}

PrivateApt PrivateApt::for_arch(const LabPaths& paths, const std::string& arch, Host& local, Log log) {
  const std::string native = host_arch(local);
  return PrivateApt(arch.empty() || arch == native ? paths.apt() : paths.root / ("apt-" + arch), local,
                    std::move(log), arch.empty() ? native : arch);
}

PrivateApt::PrivateApt(std::filesystem::path dir, Host& local, Log log, std::string arch)
    : dir_(std::move(dir)), arch_(arch.empty() ? host_arch(local) : std::move(arch)), local_(local),
      log_(std::move(log)) {
  std::filesystem::create_directories(dir_ / "lists" / "partial");
  std::filesystem::create_directories(dir_ / "cache" / "archives" / "partial");
  const std::string want = sources();
  const auto list = dir_ / "sources.list";
  std::string have;
  try {
    have = schedlab::read_file(list);
  } catch (const std::exception&) {
  }
  if (have != want) {
    write_whole_file(list, want);
    std::filesystem::remove(dir_ / "updated");  // new sources: the lists are stale
  }
}

std::vector<std::string> PrivateApt::options() const {
  std::vector<std::string> o = {
      "-o", "Dir::Etc::SourceList=" + (dir_ / "sources.list").string(),
      "-o", "Dir::Etc::SourceParts=/dev/null",
      "-o", "Dir::State::Lists=" + (dir_ / "lists").string(),
      "-o", "Dir::Cache=" + (dir_ / "cache").string(),
      "-o", "Dir::State::status=/dev/null",
      "-o", "Debug::NoLocking=1",
      "-o", "Acquire::Retries=2",
      // Only this architecture's lists and packages, whatever dpkg's are.
      "-o", "APT::Architecture=" + arch_,
      "-o", "APT::Architectures=" + arch_};
  // As root, apt hands downloads to the _apt user, who cannot write into a
  // private cache under /root.
  if (::geteuid() == 0) o.insert(o.end(), {"-o", "APT::Sandbox::User=root"});
  return o;
}

ExecResult PrivateApt::apt(const std::string& tool, std::vector<std::string> args, const std::string& cwd,
                           std::chrono::minutes timeout) {
  std::vector<std::string> argv = {tool};
  for (auto& o : options()) argv.push_back(o);
  argv.insert(argv.end(), args.begin(), args.end());
  Command c{.argv = argv, .cwd = cwd, .timeout = timeout};
  c.env["LC_ALL"] = "C";
  return local_.run(c);
}

bool PrivateApt::has_lists() const { return std::filesystem::exists(dir_ / "updated"); }

bool PrivateApt::has_some_list() const {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir_ / "lists", ec))
    if (e.path().filename().string().find("_Packages") != std::string::npos) return true;
  return false;
}

bool PrivateApt::refresh(std::chrono::hours max_age, bool force) {
  const auto stamp = dir_ / "updated";
  if (!force && std::filesystem::exists(stamp) &&
      std::filesystem::last_write_time(stamp) > std::filesystem::file_time_type::clock::now() - max_age)
    return true;
  log_(fmt::format("lab: updating the {} package lists (private apt configuration in {})", arch_, dir_.string()));
  const ExecResult r = apt("apt-get", {"-q", "update"});
  if (!r.ok() || r.err.find("W: Failed") != std::string::npos || r.err.find("E: ") != std::string::npos) {
    const std::string why = last_lines(r.err.empty() ? r.describe() : r.err, 3);
    if (has_lists()) {
      log_("lab: apt-get update failed; using the lists from the last update: " + why);
      return false;
    }
    // No stamp: the next run updates again and may fetch what failed now.
    if (const auto missing = unfetched_lists(r.err); !missing.empty() && has_some_list()) {
      log_(fmt::format("lab: apt-get update could not fetch {}: {}; going on with the lists it fetched (a "
                       "package only there is not found until an update fetches it)",
                       count_of(missing.size(), "package list"), fmt::join(missing, "; ")));
      return false;
    }
    throw std::runtime_error("lab: apt-get update failed: " + why);
  }
  write_whole_file(stamp, utc_now_iso8601() + "\n");
  return true;
}

std::vector<std::string> PrivateApt::search(const std::string& name_regex) {
  const ExecResult r = apt("apt-cache", {"search", "--names-only", name_regex});
  if (!r.ok()) throw std::runtime_error("lab: apt-cache search failed: " + last_lines(r.err, 3));
  std::vector<std::string> names;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (auto sp = line.find(" - "); sp != std::string::npos) names.push_back(line.substr(0, sp));
  return names;
}

std::string PrivateApt::candidate_version(const std::string& package) {
  const ExecResult r = apt("apt-cache", {"policy", "--", package});
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const auto k = line.find("Candidate: ");
    if (k == std::string::npos) continue;
    std::string v = line.substr(k + 11);
    return v == "(none)" ? "" : v;
  }
  return "";
}

std::filesystem::path PrivateApt::download(const std::string& package, const std::filesystem::path& dir) {
  log_(fmt::format("lab: downloading {}", package));
  const ExecResult r = apt("apt-get", {"-q", "download", "--", package}, dir.string(), std::chrono::minutes(20));
  if (!r.ok())
    throw std::runtime_error(
        fmt::format("lab: apt-get download {} failed: {}", package, last_lines(r.err, 3)));
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".deb" && e.path().filename().string().starts_with(package + "_")) return e.path();
  throw std::runtime_error(fmt::format("lab: apt-get download {} left no .deb in {}", package, dir.string()));
}

}  // namespace schedlab::lab
