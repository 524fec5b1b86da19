// The lab's pure parts: cpio layout, module order, ldd parsing, the qemu
// argv, the init script, kernel names and the config form.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "runner/config/config.h"
#include "runner/config/host_specs.h"
#include "runner/hosts/local_host.h"
#include "runner/lab/apt.h"
#include "runner/lab/cache_listing.h"
#include "runner/lab/cpio.h"
#include "runner/lab/initramfs.h"
#include "runner/lab/kernel.h"
#include "runner/lab/kernel_build.h"
#include "runner/lab/lab_host.h"
#include "runner/lab/modules.h"
#include "runner/lab/monitor_needs.h"
#include "runner/lab/qemu.h"
#include "tests/support/config_error.h"
#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;
using namespace schedlab::lab;

namespace {

// The error of a config whose SUT is the lab host LAB (its flow mapping's
// inside), running hackbench.
std::string lab_error(const std::string& lab) {
  return test::config_error_of("hosts:\n  sut: {lab: {" + lab + "}}\nworkloads: [hackbench]\n",
                               "t.yaml");
}

}  // namespace

TEST_CASE("the initramfs copies the workloads' guest programs and the step prefixes") {
  // The workloads' guest programs (registry_test checks that list), then
  // what steps put before a measured program.
  std::vector<std::string> want = guest_programs();
  want.insert(want.end(), {"chrt", "nice", "taskset"});
  CHECK(InitramfsSpec{}.optional_programs == want);
  CHECK(std::ranges::count(want, "hackbench") == 1);
}

TEST_CASE("cpio newc: header fields, 4-byte padding, trailer") {
  const std::string a = cpio_newc({{CpioEntry::Kind::kDir, "etc", 0755, ""},
                                   {CpioEntry::Kind::kFile, "etc/x", 0600, "abcde"},
                                   {CpioEntry::Kind::kSymlink, "bin/sh", 0777, "busybox"}});
  CHECK(a.substr(0, 6) == "070701");
  CHECK(a.substr(14, 8) == "000041ED");  // S_IFDIR | 0755
  CHECK(a.size() % 4 == 0);
  CHECK(a.find("etc/x") != std::string::npos);
  CHECK(a.find("abcde") % 4 == 0);  // data starts aligned
  CHECK(a.find("TRAILER!!!") != std::string::npos);
  CHECK(cpio_newc({{CpioEntry::Kind::kFile, "a", 0644, "x"}}) == cpio_newc({{CpioEntry::Kind::kFile, "a", 0644, "x"}}));
  CHECK_THROWS(cpio_newc({{CpioEntry::Kind::kFile, "/abs", 0644, ""}}));
  const std::string gz = gzip_compress(a);
  CHECK(static_cast<unsigned char>(gz[0]) == 0x1f);
  CHECK(static_cast<unsigned char>(gz[1]) == 0x8b);
}

TEST_CASE("module load order follows modules.dep, skips built-ins, names the unknown") {
  const std::string dep =
      "kernel/drivers/net/virtio_net.ko.xz: kernel/drivers/net/net_failover.ko.xz kernel/net/core/failover.ko.xz\n"
      "kernel/drivers/net/net_failover.ko.xz: kernel/net/core/failover.ko.xz\n"
      "kernel/net/core/failover.ko.xz:\n";
  const std::string builtin = "kernel/drivers/virtio/virtio_pci.ko\n";
  CHECK(module_load_order({"virtio_pci", "virtio_net"}, dep, builtin) ==
        std::vector<std::string>{"kernel/net/core/failover.ko.xz", "kernel/drivers/net/net_failover.ko.xz",
                                 "kernel/drivers/net/virtio_net.ko.xz"});
  CHECK_THROWS_WITH(module_load_order({"virtio_blk"}, dep, builtin),
                    "kernel module virtio_blk is neither in modules.dep nor built in");
  CHECK(module_name("kernel/drivers/net/virtio-net.ko.xz") == "virtio_net");
}

TEST_CASE("ldd output: libraries and the loader, nothing for static binaries") {
  const std::string out =
      "\tlinux-vdso.so.1 (0x00007ffd)\n"
      "\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x00007f00)\n"
      "\t/lib64/ld-linux-x86-64.so.2 (0x00007f01)\n";
  CHECK(parse_ldd(out) == std::vector<std::string>{"/lib/x86_64-linux-gnu/libz.so.1", "/lib64/ld-linux-x86-64.so.2"});
  CHECK(parse_ldd("\tnot a dynamic executable\n").empty());
}

TEST_CASE("qemu argv: restricted user network on loopback, TCG or KVM, sockets") {
  QemuOptions o{.vmlinuz = "/k", .initrd = "/i", .cpus = 4, .sockets = 2, .memory = "1G", .accel = "tcg",
                .ssh_port = 2222, .forwards = {7003}, .serial_log = "/d/serial.log"};
  const auto a = qemu_argv(o);
  const auto has = [&](const std::string& s) { return std::find(a.begin(), a.end(), s) != a.end(); };
  CHECK(has("tcg,thread=single"));  // see qemu_argv: stale code after text patching
  CHECK(has("4,sockets=2,cores=2,threads=1"));
  // A forwarded port carries TCP and UDP (netperf's UDP tests); ssh TCP only.
  CHECK(has("user,restrict=on,hostfwd=tcp:127.0.0.1:2222-:22,hostfwd=tcp:127.0.0.1:7003-:7003,"
            "hostfwd=udp:127.0.0.1:7003-:7003,id=n0"));
  CHECK(a.front() == "qemu-system-x86_64");
  CHECK(has("file:/d/serial.log"));
  o.accel = "kvm";
  const auto k = qemu_argv(o);
  CHECK(std::find(k.begin(), k.end(), "host") != k.end());
  CHECK(accel_failure_in("KVM internal error. Suberror: 1\nemulation failure\n"));
  CHECK_FALSE(accel_failure_in("qemu-system-x86_64: terminating on signal 15\n"));
}

TEST_CASE("init script loads modules in order and prints the readiness line last") {
  const std::string s = init_script({"failover.ko", "virtio_net.ko"});
  CHECK(s.find("insmod /lib/modules/lab/failover.ko") < s.find("insmod /lib/modules/lab/virtio_net.ko"));
  CHECK(s.find("mount -t debugfs") != std::string::npos);
  CHECK(s.find("dropbear -r /etc/dropbear/host_key -s") < s.find(kReadyLine));
  // perf in the guest: tracepoints, kernel symbols and every event for root.
  CHECK(s.find("mount -t tracefs tracefs /sys/kernel/tracing") != std::string::npos);
  CHECK(s.find("echo 0 > /proc/sys/kernel/kptr_restrict") != std::string::npos);
  CHECK(s.find("echo -1 > /proc/sys/kernel/perf_event_paranoid") != std::string::npos);
}

TEST_CASE(
    "the perf monitors bring perf into a guest, and symbols and tracepoints into a built kernel") {
  CHECK(monitor_needs({"schedstat", "sched-debug"}).programs.empty());
  CHECK(monitor_needs({"perf-stat"}).programs == std::vector<std::string>{"perf"});
  // Tracepoints for its sched: events (tinyconfig has none).
  CHECK(monitor_needs({"perf-stat"}).kernel_config ==
        std::vector<std::pair<std::string, std::string>>{{"CONFIG_FTRACE", "y"},
                                                         {"CONFIG_ENABLE_DEFAULT_TRACERS", "y"},
                                                         {"CONFIG_UPROBE_EVENTS", "n"}});
  const auto profile = monitor_needs({"vmstat", "perf-profile"});
  CHECK(profile.programs == std::vector<std::string>{"perf"});
  CHECK(profile.kernel_config ==
        std::vector<std::pair<std::string, std::string>>{{"CONFIG_KALLSYMS", "y"}});
  // A config's workloads' monitors reach the lab SUT, and a built kernel's config.
  const auto c = parse_config(R"(hosts:
  sut: {lab: {kernel: "git:/nonexistent/linux", config: {CONFIG_X: y}}}
workloads:
  - hackbench: {monitors: [stat, perf-profile]}
  - tbench: {monitors: [perf-stat]}
)",
                              "t.yaml");
  const HostSpec hosts = hosts_of(c);
  REQUIRE(hosts.sut_lab);
  CHECK(hosts.sut_lab->monitors == std::vector<std::string>{"stat", "perf-profile", "perf-stat"});
  std::vector<std::string> said;
  const auto build = kernel_build_config(*hosts.sut_lab, &said);
  CHECK(build.symbols ==
        std::vector<std::pair<std::string, std::string>>{{"CONFIG_KALLSYMS", "y"},
                                                         {"CONFIG_FTRACE", "y"},
                                                         {"CONFIG_ENABLE_DEFAULT_TRACERS", "y"},
                                                         {"CONFIG_UPROBE_EVENTS", "n"},
                                                         {"CONFIG_X", "y"}});
  // Each symbol named with the monitor that needs it.
  CHECK(said ==
        std::vector<std::string>{"CONFIG_KALLSYMS=y (perf-profile)", "CONFIG_FTRACE=y (perf-stat)",
                                 "CONFIG_ENABLE_DEFAULT_TRACERS=y (perf-stat)",
                                 "CONFIG_UPROBE_EVENTS=n (perf-stat)", "CONFIG_X=y (config)"});
}

TEST_CASE("config: hosts.sut as a lab, and its errors point into the file") {
  const auto c = parse_config(R"(hosts:
  sut: {lab: {kernel: debian:6.12, cpus: 4, sockets: 2, memory: 2G, accel: tcg}}
workloads: [hackbench]
)", "t.yaml");
  REQUIRE(c.sut_lab);
  CHECK(c.sut == "lab");
  CHECK(c.sut_lab->kernel == "debian:6.12");
  CHECK(c.sut_lab->cpus == 4);
  CHECK(c.sut_lab->sockets == 2);
  CHECK(c.sut_lab->memory == "2G");
  CHECK(c.sut_lab->accel == "tcg");
  CHECK(lab_error("kernel: debian:6.2") ==
        "t.yaml:2: hosts.sut.lab.kernel: unknown kernel 'debian:6.2' (did you mean 'debian:6.1'?); "
        "known: debian:6.1, debian:6.12, an exact package name (linux-image-...), a path to a "
        "vmlinuz, or "
        "git:PATH[@REF] (a kernel tree, built)");
  CHECK(lab_error("kernel: debian:6.1, cpu: 2") ==
        "t.yaml:2: hosts.sut.lab: unknown key 'cpu' (did you mean 'cpus'?)");
  // A key given twice is an error, as in every other section (else one of the two silently wins).
  CHECK_THROWS_WITH(
      parse_config("hosts:\n  sut:\n    lab:\n      kernel: debian:6.1\n      cpus: 2\n"
                   "      cpus: 4\nworkloads: [hackbench]\n",
                   "t.yaml"),
      "t.yaml:6: hosts.sut.lab: duplicate key 'cpus' (first at line 5)");
  CHECK(lab_error("kernel: debian:6.1, cpus: 3, sockets: 2") ==
        "t.yaml:2: hosts.sut.lab.sockets: 3 CPUs do not split evenly into 2 sockets");
  CHECK(lab_error("kernel: debian:6.1, memory: 1GB") ==
        "t.yaml:2: hosts.sut.lab.memory: expected a size such as 512M or 2G, got '1GB'");
  CHECK(lab_error("kernel: debian:6.1, accel: kmv") ==
        "t.yaml:2: hosts.sut.lab.accel: expected auto, kvm or tcg, got 'kmv' (did you mean 'kvm'?)");
}

TEST_CASE("git kernels: PATH@REF, labels, and the config form") {
  const auto g = parse_git_kernel("git:/src/linux@feature/x");
  CHECK(g.tree == "/src/linux");
  CHECK(g.ref == "feature/x");
  CHECK(parse_git_kernel("git:/src/linux").ref.empty());
  CHECK_THROWS_AS(parse_git_kernel("git:"), UnknownKernel);
  CHECK_THROWS_AS(parse_git_kernel("git:/src/linux@"), UnknownKernel);
  CHECK(kernel_label("git:~/linux@v6.1") == "v6.1");
  CHECK(kernel_label("git:~/linux@feature/x") == "feature-x");
  CHECK(kernel_label("git:/src/linux-next/") == "linux-next");
  const auto c = parse_config(R"(hosts:
  sut:
    lab:
      kernels: [git:/src/linux@v6.1, git:/src/linux@HEAD]
      config_fragments: [extra.config]
      config: {CONFIG_NO_HZ_FULL: y, CONFIG_HZ: 1000}
workloads: [hackbench]
)", "t.yaml");
  REQUIRE(c.sut_lab);
  CHECK(c.sut_lab->kernels == std::vector<std::string>{"git:/src/linux@v6.1", "git:/src/linux@HEAD"});
  CHECK(c.sut_lab->config_fragments == std::vector<std::string>{"extra.config"});
  CHECK(c.sut_lab->config == std::vector<std::pair<std::string, std::string>>{{"CONFIG_NO_HZ_FULL", "y"}, {"CONFIG_HZ", "1000"}});
  CHECK(lab_error("kernel: debian:6.1, config: {CONFIG_X: y}") ==
        "t.yaml:2: hosts.sut.lab.config: only a kernel built from source (git:PATH) takes config "
        "symbols");
  CHECK(lab_error("kernel: 'git:/l', config: {NO_HZ: y}") ==
        "t.yaml:2: hosts.sut.lab.config: expected a symbol such as CONFIG_NO_HZ_FULL, got 'NO_HZ'");
  // hostile7: a newline in a value wrote a second line into the fragment.
  CHECK(
      lab_error("kernel: 'git:/l', config: {CONFIG_X: \"y\\nCONFIG_EVIL=y\"}") ==
      "t.yaml:2: hosts.sut.lab.config.CONFIG_X: 'y\\x0aCONFIG_EVIL=y' holds a control character; a "
      "value is one line (y, m, n, a number or a \"string\")");
}

TEST_CASE("kernel config: requested symbols that olddefconfig did not keep are named") {
  const auto want = parse_fragment("CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=y\nCONFIG_D=\"x\"\nCONFIG_C=m\nnoise\n");
  CHECK(want == std::map<std::string, std::string>{{"CONFIG_A", "y"}, {"CONFIG_B", "n"}, {"CONFIG_C", "m"}, {"CONFIG_D", "\"x\""}});
  const std::string resolved = "CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\nCONFIG_D=\"x\"\n";
  CHECK(unmet_symbols(want, resolved) == std::vector<std::string>{"CONFIG_B=n (is y)", "CONFIG_C=m (is n)"});
  CHECK(unmet_symbols({{"CONFIG_E", "y"}, {"CONFIG_F", "n"}}, resolved) == std::vector<std::string>{"CONFIG_E=y (is absent)"});
  // schedlab's own fragment turns modules off and virtio-pci on (with its menu).
  const auto g = guest_config(default_board());
  const auto has = [&](const std::string& k, const std::string& v) {
    return std::find(g.begin(), g.end(), std::pair<std::string, std::string>{k, v}) != g.end();
  };
  CHECK(has("CONFIG_MODULES", "n"));
  CHECK(has("CONFIG_VIRTIO_MENU", "y"));
  CHECK(has("CONFIG_VIRTIO_PCI", "y"));
  CHECK(has("CONFIG_SCHED_DEBUG", "y"));
}

TEST_CASE("a failed build shows its first error lines") {
  const std::string log =
      "  CC      kernel/sched/core.o\n"
      "kernel/sched/fair.c:42:1: error: expected ';' before '}' token\n"
      "kernel/sched/fair.c:50:2: warning: unused\n"
      "make[3]: *** [scripts/Makefile.build:250: kernel/sched/fair.o] Error 1\n";
  CHECK(first_error_lines(log) ==
        "kernel/sched/fair.c:42:1: error: expected ';' before '}' token\n"
        "make[3]: *** [scripts/Makefile.build:250: kernel/sched/fair.o] Error 1\n");
  CHECK(first_error_lines(log, 1) == "kernel/sched/fair.c:42:1: error: expected ';' before '}' token\n");
  CHECK(first_error_lines("all good\n").empty());
}

TEST_CASE("crash report: from the first line of the last crash, a long trace cut in its middle") {
  CHECK_FALSE(crash_report("[    0.1] Linux version 6.12\n[    0.2] ok\n", 10));
  const std::string early = "[    0.1] Linux version 6.12\n[    0.9] BUG: kernel NULL pointer dereference\n";
  std::string trace;
  for (int i = 0; i < 30; ++i) trace += fmt::format("[    1.{}]  ? frame_{}+0x10/0x20\n", i, i);
  const std::string console = early + "[    1.0] Oops: 0000 [#1] PREEMPT SMP\n" + trace +
                              "[    1.9] Kernel panic - not syncing: Fatal exception\n";
  const auto whole = crash_report(console, 100);
  REQUIRE(whole);
  CHECK(whole->starts_with("[    0.9] BUG: kernel NULL pointer dereference\n"));
  CHECK(whole->ends_with("Fatal exception\n"));
  const auto cut = crash_report(console, 10);
  REQUIRE(cut);
  CHECK(cut->starts_with("[    0.9] BUG:"));
  CHECK(cut->find("\n...\n") != std::string::npos);
  CHECK(cut->find("frame_10+") == std::string::npos);
  CHECK(cut->find("Kernel panic - not syncing: Fatal exception") != std::string::npos);
}

TEST_CASE(
    "SCHEDLAB_LAB_MIRROR is one URL: a line of its own in sources.list is refused (hostile11)") {
  // hostile11: a newline in the mirror wrote "deb [trusted=yes] URL" into
  // the private sources.list, three times: packages no key signed.
  const std::string injected =
      "http://127.0.0.1:9/debian bookworm main\ndeb [trusted=yes] http://127.0.0.1:9/evil bookworm "
      "main\n#";
  CHECK(mirror_problem(injected) ==
        "it holds ' ': a mirror is one URL, and sources.list takes text after a space, a newline, "
        "[ ] or # as more of its own lines and options");
  CHECK(mirror_problem("http://x/debian\ndeb") ==
        "it holds \\x0a: a mirror is one URL, and sources.list takes text after a space, a "
        "newline, [ ] or # as more of its own lines and options");
  CHECK(mirror_problem("[trusted=yes]http://x") == "not an http://, https:// or file:/ URL");
  CHECK_FALSE(mirror_problem("http://deb.debian.org/debian"));
  CHECK_FALSE(mirror_problem("https://mirror.example.org:8443/debian/"));
  CHECK_FALSE(mirror_problem("file:/srv/mirror/debian"));
  // The private configuration is not written with it.
  test::TempDir dir;
  ::setenv("SCHEDLAB_LAB_MIRROR", injected.c_str(), 1);
  LocalHost local;
  CHECK_THROWS_WITH(PrivateApt(dir.path() / "apt", local, nullptr, "amd64"),
                    Catch::StartsWith("lab: SCHEDLAB_LAB_MIRROR 'http://127.0.0.1:9/debian "
                                      "bookworm main\\x0adeb [trusted=yes]") &&
                        Catch::EndsWith("is refused: it holds ' ': a mirror is one URL, and "
                                        "sources.list takes text after a space, a newline, [ ] or "
                                        "# as more of its own lines and options"));
  ::unsetenv("SCHEDLAB_LAB_MIRROR");
  CHECK_FALSE(std::filesystem::exists(dir.path() / "apt" / "sources.list"));
}

TEST_CASE("lab list escapes the cache's paths and names (hostile11)") {
  // SCHEDLAB_LAB_CACHE=$'/tmp/c\e[2J' cleared the screen of `lab list`.
  test::TempDir dir;
  const LabPaths paths{dir.path() / "c\x1b[2J"};
  std::filesystem::create_directories(paths.initramfs());
  test::write_text(paths.initramfs() / "i\x1b]0;x\x07.gz", "");
  const std::string out = describe_cache(paths);
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(out.find("kernel cache: " + dir.file("c\\x1b[2J/kernels")) != std::string::npos);
  CHECK(out.find("  i\\x1b]0;x\\x07.gz (0.0 MB)\n") != std::string::npos);
}

TEST_CASE("apt-get update: the lists it could not fetch, from its real error output") {
  // A mirror in mid-sync: one suite's index older than its InRelease.
  const auto err = test::own_fixture("apt/update-mirror-sync.stderr");
  const auto missing = unfetched_lists(err);
  REQUIRE(missing.size() == 1);
  CHECK(missing[0] ==
        "http://deb.debian.org/debian-security/dists/bookworm-security/main/binary-armhf/Packages.xz: File has "
        "unexpected size (356624 != 356976). Mirror sync in progress? [IP: 203.0.113.80 80]");
  // The summary line names no list; warnings are not failures.
  CHECK(unfetched_lists("E: Some index files failed to download.\nW: Failed to fetch nothing\n").empty());
  CHECK(unfetched_lists("").empty());
  CHECK(unfetched_lists("E: Failed to fetch http://x/Packages\n") == std::vector<std::string>{"http://x/Packages"});
}
