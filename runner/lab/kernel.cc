#include "runner/lab/kernel.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <nlohmann/json.hpp>

#include "base/file.h"
#include "base/hash.h"
#include "base/suggest.h"
#include "base/text.h"
#include "runner/lab/apt.h"
#include "runner/lab/out_of_tree_module.h"

namespace schedlab::lab {
namespace fs = std::filesystem;
namespace {

std::string short_hash(const std::string& hex) { return hex.substr(0, 12); }

// The single vmlinuz-<release> under root/boot.
std::string release_in(const fs::path& root) {
  for (const auto& e : fs::directory_iterator(root / "boot")) {
    const std::string n = e.path().filename().string();
    if (n.starts_with("vmlinuz-")) return n.substr(8);
  }
  throw std::runtime_error(fmt::format("lab: no boot/vmlinuz-* in {}", root.string()));
}

Kernel from_dir(const fs::path& dir) {
  const auto j = nlohmann::json::parse(schedlab::read_file(dir / "kernel.json"));
  Kernel k;
  k.package = j.value("package", "");
  k.package_version = j.value("version", "");
  k.release = j.at("release").get<std::string>();
  k.vmlinuz = (dir / "boot" / ("vmlinuz-" + k.release)).string();
  const fs::path modules = dir / "lib" / "modules" / k.release;
  if (fs::exists(modules)) k.modules_dir = modules.string();
  k.key = dir.filename().string();
  k.board = j.value("board", default_board().name);
  // A built kernel keeps its DTB in dtbs/, a Debian package where it installs it.
  if (const Board* b = find_board(k.board); b && !b->dtb.empty())
    for (const fs::path& p : {dir / "dtbs" / b->dtb, dir / "usr/lib" / ("linux-image-" + k.release) / b->dtb})
      if (fs::exists(p)) {
        k.dtb = p.string();
        break;
      }
  k.tree = j.value("tree", "");
  k.commit = j.value("commit", "");
  k.describe = j.value("describe", "");
  k.config_sha = j.value("config_sha", "");
  if (fs::exists(dir / "build.log")) k.build_log = (dir / "build.log").string();
  if (fs::exists(dir / "edits.diff")) {
    k.edits = schedlab::read_file(dir / "edits.diff");
    k.edits_sha256 = sha256_hex(k.edits);
  }
  if (const auto r = j.find("request"); r != j.end() && r->is_object()) {
    for (const auto& pair : r->value("symbols", nlohmann::json::array()))
      if (pair.is_array() && pair.size() == 2 && pair[0].is_string() && pair[1].is_string())
        k.requested_symbols.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
    for (const auto& f : r->value("fragments", nlohmann::json::array()))
      if (f.is_string()) k.requested_fragments.push_back(f.get<std::string>());
  }
  return k;
}

void run_or_throw(Host& local, std::vector<std::string> argv, const std::string& what) {
  const ExecResult r = local.run({.argv = argv, .timeout = std::chrono::minutes(10)});
  if (!r.ok()) {
    std::string err = r.err;
    while (!err.empty() && err.back() == '\n') err.pop_back();
    throw std::runtime_error(fmt::format("lab: {} failed ({}): {}", what, r.describe(), err));
  }
}

// Downloads, unpacks and indexes one package; returns the cached kernel.
Kernel fetch_package(const std::string& package, const std::string& version, const Board& board,
                     const LabPaths& paths, PrivateApt& apt, Host& local, const Log& log) {
  for (const auto& k : cached_kernels(paths))
    if (k.package == package && k.package_version == version) return k;
  fs::create_directories(paths.kernels());
  const fs::path tmp = paths.kernels() / fmt::format(".tmp-{}-{}", package, ::getpid());
  fs::remove_all(tmp);
  fs::create_directories(tmp / "tree");
  try {
    const fs::path deb = apt.download(package, tmp);
    const std::string sha = sha256_file(deb);
    log(fmt::format("lab: unpacking {} (sha256 {})", deb.filename().string(), short_hash(sha)));
    run_or_throw(local, {"dpkg-deb", "-x", deb.string(), (tmp / "tree").string()}, "dpkg-deb -x");
    const std::string release = release_in(tmp / "tree");
    run_or_throw(local, {"depmod", "-b", (tmp / "tree").string(), release}, "depmod");
    nlohmann::json j = {{"package", package}, {"version", version}, {"release", release}, {"deb_sha256", sha},
                        {"board", board.name}};
    write_whole_file(tmp / "tree" / "kernel.json", j.dump(2) + "\n");
    const fs::path final_dir = paths.kernels() / package_kernel_key(release, sha);
    std::error_code ec;
    fs::rename(tmp / "tree", final_dir, ec);  // another schedlab may have won the race: same content
    fs::remove_all(tmp);
    return from_dir(final_dir);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(tmp, ec);
    throw;
  }
}

std::string unknown_kernel(const std::string& spec, const Board& board) {
  std::vector<std::string> names;
  std::string list;
  for (const auto& s : kernel_series()) {
    names.push_back(s.name);
    list += fmt::format("\n  {:<12} {}", s.name, s.help);
  }
  return fmt::format(
      "lab: unknown kernel '{}'{}; known:{}\n  {:<12} an exact Debian package name\n  {:<12} a "
      "vmlinuz file (its modules directory beside it, or given)",
      spec, did_you_mean(spec, names), list, "linux-image-*-" + board.flavour, "/path/vmlinuz-REL");
}

Kernel from_path(const std::string& spec, std::string modules_dir, const Board& board) {
  const fs::path v = fs::absolute(spec);
  if (const std::string problem = regular_file_problem(v); problem == "no such file")
    throw std::runtime_error(fmt::format("lab: {}: no such kernel image", spec));
  else if (!problem.empty())
    throw std::runtime_error(fmt::format("lab: {}: {}", spec, problem));
  const std::string name = v.filename().string();
  std::string release = name.starts_with("vmlinuz-") ? name.substr(8) : "";
  // A kernel of the lab's own cache (a Debian package or one built from a
  // tree, with everything built in and no modules directory): the cache
  // entry says what it is and holds what a boot needs.
  if (const fs::path dir = v.parent_path().parent_path(); modules_dir.empty() && fs::exists(dir / "kernel.json")) {
    Kernel k = from_dir(dir);
    if (fs::equivalent(k.vmlinuz, v)) {
      if (k.board != board.name)
        throw UnknownKernel(fmt::format("lab: {}: a kernel for the {} board, not for {}", spec, k.board, board.name));
      k.spec = spec;
      return k;
    }
  }
  if (modules_dir.empty()) {
    if (release.empty())
      throw std::runtime_error(fmt::format("lab: {}: name it vmlinuz-RELEASE or give its modules directory", spec));
    modules_dir = (v.parent_path().parent_path() / "lib" / "modules" / release).string();
  }
  const fs::path m = fs::absolute(modules_dir);
  if (release.empty()) release = m.filename().string();
  if (!fs::exists(m / "modules.dep"))
    throw std::runtime_error(fmt::format("lab: {}: no modules.dep (run depmod -b ROOT {})", m.string(), release));
  Kernel k;
  k.spec = spec;
  k.release = release;
  k.vmlinuz = v.string();
  k.modules_dir = m.string();
  k.key = release + "-" + short_hash(sha256_file(v));
  k.board = board.name;
  if (!board.dtb.empty()) {
    if (!fs::exists(v.parent_path() / board.dtb))
      throw UnknownKernel(fmt::format("lab: {}: no {} beside it (the {} board boots with the kernel's DTB)", spec,
                                      board.dtb, board.name));
    k.dtb = (v.parent_path() / board.dtb).string();
  }
  return k;
}

}  // namespace

std::string package_kernel_key(const std::string& release, const std::string& deb_sha256) {
  return release + "-" + short_hash(deb_sha256);
}

const std::vector<KernelSeries>& kernel_series() {
  static const std::vector<KernelSeries> series = {
      {"debian:6.1", R"(6\.1\.0-[0-9]+)", "Debian bookworm's 6.1 (CFS, schedstat v15)"},
      {"debian:6.12", R"(6\.12\.[0-9]+\+deb12)", "Debian bookworm-backports' 6.12 (EEVDF, schedstat v16)"},
  };
  return series;
}

std::string package_regex(const KernelSeries& series, const Board& board) {
  return "^linux-image-" + series.release_regex + "-" + board.flavour + "$";
}

std::vector<Kernel> cached_kernels(const LabPaths& paths) {
  std::vector<Kernel> out;
  if (!fs::is_directory(paths.kernels())) return out;
  for (const auto& e : fs::directory_iterator(paths.kernels())) {
    if (e.path().filename().string().starts_with(".") || !fs::exists(e.path() / "kernel.json")) continue;
    try {
      out.push_back(from_dir(e.path()));
    } catch (const std::exception&) {
      // A damaged entry is not a kernel; `lab list` shows what is usable.
    }
  }
  std::sort(out.begin(), out.end(), [](const Kernel& a, const Kernel& b) { return natural_less(a.release, b.release); });
  return out;
}

namespace {

Kernel resolve_package(const std::string& spec, const Board& board, const LabPaths& paths, Host& local,
                       const Log& log) {
  const auto& series = kernel_series();
  const auto s = std::find_if(series.begin(), series.end(), [&](const auto& k) { return k.name == spec; });
  const bool package = spec.starts_with("linux-image-");
  if (s == series.end() && !package) throw UnknownKernel(unknown_kernel(spec, board));

  PrivateApt apt = PrivateApt::for_arch(paths, board.debian_arch, local, log);
  bool fresh = false;
  try {
    fresh = apt.refresh();
  } catch (const std::exception& e) {
    // Offline with no lists: the newest cached kernel of the series still boots.
    const auto cached = cached_kernels(paths);
    for (auto it = cached.rbegin(); s != series.end() && it != cached.rend(); ++it)
      if (boost::regex_match(it->package, boost::regex(package_regex(*s, board)))) {
        log(fmt::format("{}; using the cached {}", e.what(), it->package));
        Kernel k = *it;
        k.spec = spec;
        return k;
      }
    throw;
  }
  std::string name = spec;
  if (s != series.end()) {
    auto names = apt.search(package_regex(*s, board));
    if (names.empty())
      throw UnknownKernel(fmt::format("lab: no {} package of {} found for the {} board ({})", board.debian_arch, spec,
                                      board.name, package_regex(*s, board)));
    name = *std::max_element(names.begin(), names.end(), natural_less);
  }
  std::string version = apt.candidate_version(name);
  if (version.empty() && !fresh) {
    apt.refresh(std::chrono::hours(0), true);
    version = apt.candidate_version(name);
  }
  if (version.empty()) {
    std::vector<std::string> known;
    for (const auto& k : series)
      for (const auto& n : apt.search(package_regex(k, board))) known.push_back(n);
    std::vector<std::string> names;
    for (const auto& k : series) names.push_back(k.name);
    throw UnknownKernel(fmt::format("lab: no {} package '{}' in Debian{} (the {} board boots linux-image-*-{}; "
                                    "or name a series: {})",
                                    board.debian_arch, name, did_you_mean(name, known), board.name, board.flavour,
                                    fmt::join(names, ", ")));
  }
  Kernel k = fetch_package(name, version, board, paths, apt, local, log);
  k.spec = spec;
  for (const KernelModule& m : board_modules(board))
    add_out_of_tree_module(k, m, board, paths, apt, local, log);
  return k;
}

}  // namespace

Kernel resolve_kernel(const std::string& spec, const std::string& modules_dir, const Board& board,
                      const LabPaths& paths, Host& local, const Log& log) {
  if (spec.find('/') != std::string::npos) return from_path(spec, modules_dir, board);
  return resolve_package(spec, board, paths, local, log);
}

std::string kernel_label(const std::string& spec) {
  // git:PATH@REF -> REF (feature/x -> feature-x); git:PATH -> PATH's last
  // component. Stable while the ref moves: a resumed run keeps its name;
  // tables use the git describe of what was built (run_group.cc).
  if (spec.starts_with("git:")) {
    std::string s = spec.substr(4);
    if (const auto at = s.rfind('@'); at != std::string::npos && at + 1 < s.size()) {
      s = s.substr(at + 1);
      std::replace(s.begin(), s.end(), '/', '-');
      return s;
    }
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s.substr(s.rfind('/') + 1);
  }
  std::string s = spec;
  if (const auto slash = s.rfind('/'); slash != std::string::npos) s = s.substr(slash + 1);
  for (const std::string prefix : {"debian:", "linux-image-", "vmlinuz-"})
    if (s.starts_with(prefix) && s.size() > prefix.size()) s = s.substr(prefix.size());
  if (s.ends_with("-unsigned") && s.size() > 9) s.resize(s.size() - 9);
  return s;
}

}  // namespace schedlab::lab
