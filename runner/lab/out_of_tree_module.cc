#include "runner/lab/out_of_tree_module.h"

#include <fmt/format.h>
#include <unistd.h>

#include <boost/regex.hpp>

#include "base/file.h"
#include "base/text.h"
#include "runner/lab/build_errors.h"

namespace schedlab::lab {
namespace fs = std::filesystem;

std::string headers_package(const std::string& image_package) {
  return "linux-headers-" + image_package.substr(std::string("linux-image-").size());
}

std::string common_headers_package(const std::string& image_package, const std::string& flavour) {
  std::string h = headers_package(image_package);
  if (h.ends_with("-" + flavour)) h.resize(h.size() - flavour.size());
  return h + "common";
}

std::string kbuild_package(const std::string& depends) {
  static const boost::regex kbuild(R"((?:^|[ ,|])(linux-kbuild-[^ ,(]+))");
  boost::smatch m;
  return boost::regex_search(depends, m, kbuild) ? m[1].str() : "";
}

std::string source_package(const std::string& release) {
  static const boost::regex series(R"(^([0-9]+\.[0-9]+)[.-].*)");
  boost::smatch m;
  return boost::regex_match(release, m, series) ? "linux-source-" + m[1].str() : "";
}

namespace {

ExecResult run_tool(Host& local, std::vector<std::string> argv, const std::string& cwd = "",
                    std::chrono::minutes timeout = std::chrono::minutes(10)) {
  Command c{.argv = std::move(argv), .cwd = cwd, .timeout = timeout};
  c.env["LC_ALL"] = "C";
  return local.run(c);
}

void must_run(Host& local, std::vector<std::string> argv, const std::string& what,
              const std::string& cwd = "") {
  const ExecResult r = run_tool(local, std::move(argv), cwd);
  if (!r.ok())
    throw std::runtime_error(
        fmt::format("lab: {} failed ({}): {}", what, r.describe(),
                    std::string(trim(last_lines(join_output(r.out, r.err), 3)))));
}

// The module's source file (e.g. drivers/dma/dmatest.c) of linux-source-<series>
// at `version`, kept in sources/<package>_<version>/ under its file name
// (the tarball is large; the file is small).
fs::path module_source(const KernelModule& module, const std::string& package,
                       const LabPaths& paths, PrivateApt& apt, Host& local, const Log& log) {
  const std::string name = fs::path(module.source).filename().string();
  const std::string version = apt.candidate_version(package);
  if (version.empty())
    throw std::runtime_error(fmt::format("lab: no package {} in Debian (for {})", package, name));
  const fs::path dir = paths.root / "sources" / (package + "_" + version);
  const fs::path file = dir / name;
  if (fs::exists(file)) return file;
  const fs::path tmp = paths.root / "sources" / fmt::format(".tmp-{}", ::getpid());
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  try {
    const fs::path deb = apt.download(package, tmp);
    log(fmt::format("lab: taking {} from {}", module.source, deb.filename().string()));
    // The package holds one tarball; only the one file comes out of it. The
    // names are arguments of the script, never part of it.
    must_run(local,
             {"bash", "-o", "pipefail", "-c",
              "dpkg-deb --fsys-tarfile \"$1\" | tar -xO \"./usr/src/$2.tar.xz\" | "
              "tar -xJO \"$2/$4\" > \"$3\"",
              "bash", deb.string(), package, (tmp / name).string(), module.source},
             "extracting " + name + " from " + deb.filename().string());
    if (fs::file_size(tmp / name) == 0)
      throw std::runtime_error(
          fmt::format("lab: {} has no {}", deb.filename().string(), module.source));
    fs::create_directories(dir);
    fs::rename(tmp / name, file);
    fs::remove_all(tmp);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(tmp, ec);
    throw;
  }
  return file;
}

}  // namespace

fs::path out_of_tree_module_path(const Kernel& k, const KernelModule& module) {
  return fs::path(k.modules_dir) / "extra" / (module.name + ".ko");
}

void add_out_of_tree_module(Kernel& k, const KernelModule& module, const Board& board,
                            const LabPaths& paths, PrivateApt& apt, Host& local, const Log& log) {
  if (k.modules_dir.empty() || k.package.empty())
    return;  // built from a tree: the module's CONFIG_X=m there
  const fs::path ko = out_of_tree_module_path(k, module);
  if (fs::exists(ko)) return;
  const std::string ko_name = ko.filename().string();
  const std::string cc = board.cross_compile + "gcc";
  if (!local.find_program(cc))
    throw std::runtime_error(fmt::format(
        "lab: building {} for {} needs {} (Debian package {}); see schedlab doctor", ko_name,
        k.release, cc, board.cross_package.empty() ? "gcc" : board.cross_package));
  const auto t0 = std::chrono::steady_clock::now();
  const fs::path entry = fs::path(k.modules_dir).parent_path().parent_path().parent_path();
  // The build's scratch directory, removed after it (NAME-build, e.g. dmatest-build).
  const fs::path work =
      paths.root / (module.name + "-build") / fmt::format("{}-{}", k.key, ::getpid());
  fs::remove_all(work);
  fs::create_directories(work / "mod");
  try {
    const std::string headers = headers_package(k.package);
    const std::string common = common_headers_package(k.package, board.flavour);
    const fs::path h = apt.download(headers, work);
    const ExecResult dep = run_tool(local, {"dpkg-deb", "-f", h.string(), "Depends"});
    const std::string kbuild = kbuild_package(dep.out);
    if (!dep.ok() || kbuild.empty())
      throw std::runtime_error(fmt::format("lab: {} names no linux-kbuild package ({})", headers,
                                           std::string(trim(dep.out + dep.err))));
    // kbuild's programs run here: this machine's architecture.
    PrivateApt native = PrivateApt::for_arch(paths, "", local, log);
    native.refresh();
    std::vector<fs::path> debs = {h, apt.download(common, work), native.download(kbuild, work)};
    for (const auto& d : debs)
      must_run(local, {"dpkg-deb", "-x", d.string(), (work / "root").string()},
               "dpkg-deb -x " + d.filename().string());
    // The headers' Makefile includes the -common one by its installed path.
    const fs::path makefile = work / "root/usr/src" / ("linux-headers-" + k.release) / "Makefile";
    std::string text = schedlab::read_file(makefile);
    for (std::size_t at; (at = text.find("include /usr/src/")) != std::string::npos;)
      text.replace(at, 8, "include " + (work / "root").string());
    write_whole_file(makefile, text);
    // As NAME.c, so that kbuild makes NAME.ko, the module modprobe NAME loads.
    fs::copy_file(module_source(module, source_package(k.release), paths, apt, local, log),
                  work / "mod" / (module.name + ".c"));
    write_whole_file(work / "mod" / "Kbuild", "obj-m := " + module.name + ".o\n");
    log(fmt::format("lab: building {} for {} with {} (out of tree, against {})", ko_name, k.release,
                    cc, headers));
    const ExecResult r =
        run_tool(local, {"make", "-C", makefile.parent_path().string(),
                         "M=" + (work / "mod").string(), "ARCH=" + board.arch,
                         "CROSS_COMPILE=" + board.cross_compile, "CC=" + cc, "modules"});
    if (!r.ok()) {
      std::string first = first_error_lines(join_output(r.out, r.err));
      if (first.empty()) first = last_lines(join_output(r.out, r.err), 6);
      throw std::runtime_error(fmt::format("lab: building {} for {} failed ({}):\n{}", ko_name,
                                           k.release, r.describe(), std::string(trim(first))));
    }
    fs::create_directories(ko.parent_path());
    fs::copy_file(work / "mod" / ko_name, ko, fs::copy_options::overwrite_existing);
    must_run(local, {"depmod", "-b", entry.string(), k.release}, "depmod");
    fs::remove_all(work);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(work, ec);
    throw;
  }
  log(fmt::format("lab: {} for {} built in {:.0f}s, kept in {}", ko_name, k.release,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  ko.string()));
}

}  // namespace schedlab::lab
