#include "runner/lab/initramfs.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>

#include "base/file.h"
#include "base/hash.h"
#include "runner/lab/modules.h"
#include "workloads/registry.h"

namespace schedlab::lab {
namespace fs = std::filesystem;
namespace {

// Programs the guest cannot do without: the SSH server, the shell for the
// port checks, util-linux's setsid (the wrapper tells "not found" by its
// message) and flock (the SUT lock, runner/hosts/locks.h; busybox has none).
struct Program {
  std::string name, dest_dir;
};
const Program kRequired[] = {{"dropbear", "usr/sbin"}, {"bash", "usr/bin"}, {"setsid", "usr/bin"},
                             {"flock", "usr/bin"}};

class Builder {
 public:
  // The kernel creates no missing parents: every directory comes first.
  void dir(const std::string& path, unsigned mode = 0755) {
    if (dirs_.count(path)) return;
    parents(path);
    if (dirs_.insert(path).second) entries_.push_back({CpioEntry::Kind::kDir, path, mode, ""});
  }
  void parents(const std::string& path) {
    for (auto pos = path.find('/'); pos != std::string::npos; pos = path.find('/', pos + 1)) dir(path.substr(0, pos));
  }
  void file(const std::string& path, std::string data, unsigned mode = 0644) {
    if (!files_.insert(path).second) return;
    parents(path);
    entries_.push_back({CpioEntry::Kind::kFile, path, mode, std::move(data)});
  }
  void symlink(const std::string& path, const std::string& target) {
    if (!files_.insert(path).second) return;
    parents(path);
    entries_.push_back({CpioEntry::Kind::kSymlink, path, 0777, target});
  }
  std::vector<CpioEntry>& entries() { return entries_; }

 private:
  std::vector<CpioEntry> entries_;
  std::set<std::string> dirs_, files_;
};

std::string rel(const std::string& abs) { return abs.substr(abs.find_first_not_of('/')); }

// e.g. kernel/drivers/dma/dmatest.ko.xz -> kernel/drivers/dma/dmatest.ko: the
// image holds modules uncompressed (busybox's modprobe reads plain .ko).
std::string plain_module_path(const std::string& path) {
  const auto ko = path.rfind(".ko");
  return ko == std::string::npos ? path : path.substr(0, ko + 3);
}

// modules.dep's lines for these modules, with plain names.
std::string modules_dep_of(const std::vector<std::string>& modules, const std::string& dep) {
  std::string out;
  std::istringstream in(dep);
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos ||
        std::find(modules.begin(), modules.end(), line.substr(0, colon)) == modules.end())
      continue;
    std::string plain = plain_module_path(line.substr(0, colon)) + ":";
    std::istringstream deps(line.substr(colon + 1));
    for (std::string d; deps >> d;) plain += " " + plain_module_path(d);
    out += plain + "\n";
  }
  return out;
}

// Copies a program and the libraries it needs.
void add_program(Builder& b, GuestUserland& userland, const std::string& path, const std::string& dest) {
  b.file(dest, schedlab::read_file(path), 0755);
  for (const auto& lib : userland.libraries(path)) b.file(lib.to, schedlab::read_file(lib.from), 0755);
}

// A file, or a directory's regular files (through symlinks), as they are.
void add_files(Builder& b, const fs::path& path) {
  if (fs::is_regular_file(path)) {
    b.file(rel(path.string()), schedlab::read_file(path), (fs::status(path).permissions() & fs::perms::owner_exec) != fs::perms::none ? 0755 : 0644);
    return;
  }
  for (const auto& e : fs::recursive_directory_iterator(path, fs::directory_options::follow_directory_symlink))
    if (e.is_regular_file()) add_files(b, e.path());
}

// The needs' programs and files found here (the others named in missing),
// and /etc/passwd and /etc/group with root and the needs' users.
void add_needs(Builder& b, GuestUserland& userland, const std::vector<GuestNeeds>& needs,
               std::vector<std::string>& missing) {
  std::string passwd = "root:x:0:0:root:/root:/usr/bin/bash\n";
  std::string group = "root:x:0:\n";
  std::set<std::string> users;
  for (const auto& n : needs) {
    // This machine's servers run only in a guest of its architecture.
    for (const auto& p : n.programs) {
      if (!fs::exists(p.host_path) || !userland.native()) {
        missing.push_back(p.host_path);
        continue;
      }
      add_program(b, userland, p.host_path,
                  p.on_path ? "usr/bin/" + fs::path(p.host_path).filename().string() : rel(p.host_path));
    }
    for (const auto& f : n.files) {
      if (fs::exists(f) && userland.native()) add_files(b, f);
      else missing.push_back(f);
    }
    for (const auto& u : n.users) {
      if (!users.insert(u).second) continue;
      const int id = 100 + static_cast<int>(users.size());
      passwd += fmt::format("{0}:x:{1}:{1}:{0}:/nonexistent:/bin/false\n", u, id);
      group += fmt::format("{}:x:{}:\n", u, id);
    }
  }
  b.file("etc/passwd", passwd);
  b.file("etc/group", group);
}

}  // namespace

std::vector<std::string> default_guest_programs() {
  std::vector<std::string> names = guest_programs();
  for (const char* name : {"chrt", "nice", "taskset"}) names.push_back(name);
  return names;
}

std::string init_script(const std::vector<std::string>& module_files, bool link_applets) {
  // A busybox that could not list its applets here links them now (it
  // never replaces a program the image has at that path).
  std::string applets = link_applets ? "/bin/busybox --install -s\n" : "";
  std::string insmods;
  for (const auto& m : module_files)
    insmods += fmt::format("insmod /lib/modules/lab/{0} || echo 'schedlab-lab: insmod {0} failed'\n", m);
  return fmt::format(R"sh(#!/bin/sh
# schedlab lab guest: run by busybox init at boot (sysinit).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
{}mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2> /dev/null
mkdir -p /dev/pts /dev/shm /run /tmp
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2> /dev/null
# perf in the guest (the lab owns it): kernel symbols and every event for root.
echo 0 > /proc/sys/kernel/kptr_restrict 2> /dev/null
echo -1 > /proc/sys/kernel/perf_event_paranoid 2> /dev/null
chmod 1777 /tmp
hostname schedlab-lab
{}ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2
dropbear -r /etc/dropbear/host_key -s -p 22 -P /run/dropbear.pid
echo '{} '"$(uname -r)"
)sh",
                     applets, insmods, kReadyLine);
}

std::string overlay_image(const std::string& dropbear_host_key, const std::string& authorized_key) {
  Builder b;
  b.dir("etc");
  b.dir("etc/dropbear", 0700);
  b.dir("root", 0700);
  b.dir("root/.ssh", 0700);
  b.file("etc/dropbear/host_key", dropbear_host_key, 0600);
  b.file("root/.ssh/authorized_keys", authorized_key, 0600);
  return gzip_compress(cpio_newc(b.entries()));
}

BaseImage build_base_image(const Kernel& kernel, const InitramfsSpec& spec, GuestUserland& userland,
                           const LabPaths& paths, const Log& log) {
  const auto t0 = std::chrono::steady_clock::now();
  BaseImage image;
  Builder b;
  for (const char* d : {"bin", "sbin", "usr/bin", "usr/sbin", "etc", "proc", "sys", "dev", "run", "var", "tmp"}) b.dir(d);
  b.dir("root", 0700);
  b.dir("root/.ssh", 0700);

  // busybox: must be the static build (busybox-static), its applets as links.
  add_program(b, userland, userland.busybox(), "bin/busybox");
  const auto applets = userland.applets();
  if (applets) {
    for (const auto& a : *applets)
      if (a != "busybox") b.symlink("bin/" + a, "busybox");
  } else {
    b.symlink("bin/sh", "busybox");  // the init script's; the other applets are linked by it
  }
  b.symlink("init", "bin/busybox");
  b.symlink("sbin/init", "../bin/busybox");

  for (const auto& p : kRequired) {
    const auto path = userland.find_program(p.name);
    if (!path)
      throw std::runtime_error(fmt::format("lab: '{}' not found in {}; the guest needs it (see scripts/install-deps.sh)",
                                           p.name, userland.name()));
    add_program(b, userland, *path, p.dest_dir + "/" + p.name);
  }
  for (const auto& name : spec.optional_programs) {
    if (auto path = userland.find_program(name)) add_program(b, userland, *path, "usr/bin/" + name);
    else image.missing.push_back(name);
  }
  for (const auto& name : spec.extra_programs) {
    const auto path = name.find('/') != std::string::npos ? std::optional<std::string>(name) : userland.find_program(name);
    if (!path || !fs::exists(*path))
      throw std::runtime_error(fmt::format("lab: program '{}' to copy into the guest not found in {}", name, userland.name()));
    add_program(b, userland, *path, "usr/bin/" + fs::path(*path).filename().string());
  }

  // A kernel with no modules directory (built from source by schedlab) has
  // what the guest needs built in.
  const fs::path mdir = kernel.modules_dir;
  const auto order =
      mdir.empty() ? std::vector<std::string>{}
                   : module_load_order(spec.modules, schedlab::read_file(mdir / "modules.dep"),
                                       fs::exists(mdir / "modules.builtin")
                                           ? schedlab::read_file(mdir / "modules.builtin")
                                           : "");
  std::vector<std::string> files;
  for (const auto& m : order) {
    const std::string name = module_name(m) + ".ko";
    b.file("lib/modules/lab/" + name, read_module((mdir / m).string()));
    files.push_back(name);
  }
  // Modules a workload loads with modprobe (e.g. dmatest): in lib/modules/REL
  // with their dependencies and a modules.dep of their own, uncompressed.
  if (!spec.probe_modules.empty() && !mdir.empty()) {
    const std::string dep = schedlab::read_file(mdir / "modules.dep");
    const auto probe = module_load_order(spec.probe_modules, dep,
                                         fs::exists(mdir / "modules.builtin") ? schedlab::read_file(mdir / "modules.builtin") : "");
    const std::string dir = "lib/modules/" + kernel.release + "/";
    for (const auto& m : probe) b.file(dir + plain_module_path(m), read_module((mdir / m).string()));
    b.file(dir + "modules.dep", modules_dep_of(probe, dep));
  }

  // Remote commands run under bash (also as `sh`, found first on PATH): the
  // SSH host's wrapper relies on `kill -- -PGID`, which busybox ash rejects.
  // The init script stays on busybox's /bin/sh.
  b.symlink("usr/bin/sh", "bash");
  add_needs(b, userland, spec.needs, image.missing);
  // Name lookups of the guest's own name (e.g. mariadb-install-db checks it).
  b.file("etc/hosts", "127.0.0.1 localhost\n127.0.1.1 schedlab-lab\n");
  b.file("etc/nsswitch.conf", "passwd: files\ngroup: files\nhosts: files\n");
  b.file("etc/shells", "/bin/sh\n/usr/bin/bash\n");
  b.file("etc/inittab", "::sysinit:/etc/schedlab-init\n::ctrlaltdel:/bin/poweroff -f\n::shutdown:/bin/sync\n");
  b.file("etc/schedlab-init", init_script(files, !applets), 0755);

  const std::string archive = cpio_newc(b.entries());
  image.sha256 = sha256_hex(archive);
  fs::create_directories(paths.initramfs());
  image.path = paths.initramfs() / (image.sha256.substr(0, 16) + ".cpio.gz");
  image.cached = fs::exists(image.path);
  if (!image.cached) {
    log(fmt::format("lab: building the initramfs for {} ({:.1f} MB uncompressed)", kernel.release, archive.size() / 1e6));
    write_whole_file(image.path, gzip_compress(archive));
  }
  image.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return image;
}

}  // namespace schedlab::lab
