#include "runner/lab/guest_userland.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <deque>
#include <set>
#include <sstream>

#include "base/file.h"
#include "base/hash.h"
#include "base/text.h"
#include "runner/hosts/package_versions.h"
#include "runner/lab/apt.h"

namespace schedlab::lab {
namespace fs = std::filesystem;

std::vector<std::string> readelf_needed(const std::string& out) {
  static const boost::regex needed(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
  std::vector<std::string> libs;
  for (boost::sregex_iterator it(out.begin(), out.end(), needed), end; it != end; ++it)
    libs.push_back((*it)[1]);
  return libs;
}

std::string readelf_interpreter(const std::string& out) {
  static const boost::regex interp(R"(\[Requesting program interpreter: ([^\]]+)\])");
  boost::smatch m;
  return boost::regex_search(out, m, interp) ? m[1].str() : "";
}

namespace {

std::string guest_path(const std::string& abs) {
  return abs.substr(abs.find_first_not_of('/'));
}

class HostUserland final : public GuestUserland {
 public:
  explicit HostUserland(Host& local) : local_(local) {}
  std::string name() const override { return "this machine"; }
  std::optional<std::string> find_program(const std::string& n) override {
    return local_.find_program(n);
  }
  std::vector<GuestFile> libraries(const std::string& program) override {
    const ExecResult r =
        local_.run({.argv = {"ldd", program}, .timeout = std::chrono::seconds(30)});
    // ldd exits 1 for a static binary ("not a dynamic executable").
    if (!r.ok() && r.out.find("not a dynamic") == std::string::npos &&
        r.err.find("not a dynamic") == std::string::npos)
      throw std::runtime_error(fmt::format("lab: ldd {} failed: {}", program, r.err));
    std::vector<GuestFile> out;
    for (const auto& lib : parse_ldd(r.out)) out.push_back({lib, guest_path(lib)});
    return out;
  }
  std::string busybox() override {
    const std::string b = "/bin/busybox";
    if (!fs::exists(b))
      throw std::runtime_error("lab: /bin/busybox not found (install busybox-static)");
    return b;
  }
  std::optional<std::vector<std::string>> applets() override {
    const ExecResult list =
        local_.run({.argv = {busybox(), "--list"}, .timeout = std::chrono::seconds(10)});
    if (!list.ok()) throw std::runtime_error("lab: busybox --list failed: " + list.describe());
    std::vector<std::string> out;
    std::istringstream in(list.out);
    for (std::string a; std::getline(in, a);)
      if (!a.empty()) out.push_back(a);
    return out;
  }
  bool native() const override { return true; }
  std::map<std::string, std::string> package_versions(
      const std::vector<std::string>& packages) override {
    return installed_versions(local_, packages);
  }

 private:
  Host& local_;
};

class DebianUserland final : public GuestUserland {
 public:
  DebianUserland(fs::path root, std::string arch, std::string triplet, Host& local)
      : root_(std::move(root)),
        arch_(std::move(arch)),
        triplet_(std::move(triplet)),
        local_(local) {}
  std::string name() const override { return "Debian " + arch_ + " packages in " + root_.string(); }
  std::optional<std::string> find_program(const std::string& n) override {
    for (const char* dir : {"usr/sbin", "usr/bin", "sbin", "bin"})
      if (const fs::path p = root_ / dir / n; fs::exists(p)) return p.string();
    return std::nullopt;
  }
  std::vector<GuestFile> libraries(const std::string& program) override {
    std::vector<GuestFile> out;
    std::set<std::string> seen;
    std::deque<std::string> todo = {program};
    while (!todo.empty()) {
      const std::string file = todo.front();
      todo.pop_front();
      const ExecResult r = local_.run(
          {.argv = {"readelf", "-d", "-l", "-W", "--", file}, .timeout = std::chrono::seconds(30)});
      if (!r.ok())
        throw std::runtime_error(
            fmt::format("lab: readelf {} failed: {}", file, std::string(trim(r.err))));
      if (const std::string interp = readelf_interpreter(r.out);
          !interp.empty() && seen.insert(interp).second) {
        if (!fs::exists(root_ / guest_path(interp)))
          throw std::runtime_error(
              fmt::format("lab: {} needs the loader {}, in none of the {} packages ({})",
                          fs::path(program).filename().string(), interp, arch_, root_.string()));
        out.push_back({(root_ / guest_path(interp)).string(), guest_path(interp)});
      }
      for (const auto& lib : readelf_needed(r.out)) {
        if (!seen.insert(lib).second) continue;
        const auto found = find_library(lib);
        if (!found)
          throw std::runtime_error(
              fmt::format("lab: {} needs {}, in none of the {} packages ({}); add its package "
                          "to the board's userland_packages",
                          fs::path(program).filename().string(), lib, arch_, root_.string()));
        out.push_back({(root_ / *found).string(), *found});
        todo.push_back((root_ / *found).string());
      }
    }
    return out;
  }
  std::string busybox() override {
    const fs::path b = root_ / "bin/busybox";
    if (!fs::exists(b))
      throw std::runtime_error(fmt::format("lab: no bin/busybox in {}", root_.string()));
    return b.string();
  }
  // An armhf busybox cannot list its applets here.
  std::optional<std::vector<std::string>> applets() override { return std::nullopt; }
  bool native() const override { return false; }
  // What fetch_userland unpacked, as its `packages` file lists them (p=v).
  std::map<std::string, std::string> package_versions(
      const std::vector<std::string>& packages) override {
    std::map<std::string, std::string> out;
    std::string listed;
    try {
      listed = schedlab::read_file(root_.parent_path() / "packages");
    } catch (const std::exception&) {
      return out;
    }
    for (const std::string_view line : split_lines(listed)) {
      const auto eq = line.find('=');
      if (eq == std::string_view::npos) continue;
      const std::string name(line.substr(0, eq));
      if (std::ranges::count(packages, name)) out[name] = std::string(line.substr(eq + 1));
    }
    return out;
  }

 private:
  std::optional<std::string> find_library(const std::string& lib) const {
    for (const std::string& dir :
         {"lib/" + triplet_, "usr/lib/" + triplet_, std::string("lib"), std::string("usr/lib")})
      if (fs::exists(root_ / dir / lib)) return dir + "/" + lib;
    return std::nullopt;
  }
  fs::path root_;
  std::string arch_, triplet_;
  Host& local_;
};

fs::path fetch_userland(const Board& board, const LabPaths& paths, Host& local, const Log& log) {
  PrivateApt apt = PrivateApt::for_arch(paths, board.debian_arch, local, log);
  apt.refresh();
  std::string versions;
  std::vector<std::pair<std::string, std::string>> packages;
  for (const auto& p : board.userland_packages) {
    const std::string v = apt.candidate_version(p);
    if (v.empty())
      throw std::runtime_error(
          fmt::format("lab: no {} package {} in Debian (the {} board's userland)",
                      board.debian_arch, p, board.name));
    packages.emplace_back(p, v);
    versions += p + "=" + v + "\n";
  }
  const fs::path dir =
      paths.root / "userland" / (board.debian_arch + "-" + sha256_hex(versions).substr(0, 12));
  if (fs::exists(dir / "packages")) return dir / "root";
  log(fmt::format("lab: fetching the {} board's userland ({} packages for {}: {})", board.name,
                  packages.size(), board.debian_arch, fmt::join(board.userland_packages, ", ")));
  const fs::path tmp = paths.root / "userland" / fmt::format(".tmp-{}", ::getpid());
  fs::remove_all(tmp);
  fs::create_directories(tmp / "debs");
  try {
    for (const auto& [p, v] : packages) {
      const fs::path deb = apt.download(p, tmp / "debs");
      const ExecResult r =
          local.run({.argv = {"dpkg-deb", "-x", deb.string(), (tmp / "root").string()},
                     .timeout = std::chrono::minutes(5)});
      if (!r.ok())
        throw std::runtime_error(
            fmt::format("lab: dpkg-deb -x {} failed: {}", deb.string(), r.err));
    }
    fs::remove_all(tmp / "debs");
    write_whole_file(tmp / "packages", versions);
    std::error_code ec;
    fs::rename(tmp, dir, ec);  // another schedlab may have won the race: same content
    fs::remove_all(tmp, ec);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(tmp, ec);
    throw;
  }
  return dir / "root";
}

}  // namespace

std::unique_ptr<GuestUserland> guest_userland(const Board& board, const LabPaths& paths,
                                              Host& local, const Log& log) {
  if (board.userland_packages.empty()) return std::make_unique<HostUserland>(local);
  std::string triplet = board.cross_compile;
  if (triplet.ends_with('-')) triplet.pop_back();
  return std::make_unique<DebianUserland>(fetch_userland(board, paths, local, log),
                                          board.debian_arch, triplet, local);
}

std::vector<std::string> parse_ldd(const std::string& out) {
  std::vector<std::string> libs;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::string path;
    if (auto arrow = line.find("=> "); arrow != std::string::npos) {
      path = line.substr(arrow + 3);
    } else {
      const auto start = line.find_first_not_of(" \t");
      if (start != std::string::npos && line[start] == '/') path = line.substr(start);
    }
    path = path.substr(0, path.find(" ("));
    if (!path.empty() && path.front() == '/') libs.push_back(path);
  }
  return libs;
}

}  // namespace schedlab::lab
