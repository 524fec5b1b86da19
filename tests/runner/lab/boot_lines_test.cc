// What the lab says while a guest boots (runner/lab/boot_lines.h), within
// 100 columns and terminal-safe (issue 48): the formatters with
// 71-character names, then real qemu failing at once, its own message
// relayed through schedlab's own path (the real binary, its stderr as a user
// sees it). qemu refuses a kernel image that is no kernel and memory it
// cannot have in well under a second, so these cases stay in the fast tier.
#include "runner/lab/boot_lines.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "base/text.h"
#include "runner/hosts/local_host.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace schedlab::lab;
namespace fs = std::filesystem;

namespace {

// A name as people give an investigation (71 characters).
const std::string kLong = "sync-wakeup-from-irq-investigation-patched-v2-6.12.0-rc3-20261205T01011";
const std::string kEsc = "\x1b[2J";  // clears the screen when a terminal receives it

// As print_line prints a line: escaped, then wrapped at 100 columns.
std::string printed(const std::string& line) {
  return wrap_words(terminal_safe(line, true) + "\n");
}

bool has_raw_esc(const std::string& text) {
  return text.find('\x1b') != std::string::npos;
}

}  // namespace

TEST_CASE("boot lines: the up line with a 71-character kernel release fits 100 columns") {
  REQUIRE(kLong.size() == 71);
  UpFacts f{.release = "6.12.0-" + kLong,
            .board = "exynos4210",
            .machine = "smdkc210",
            .emulated = true,
            .cpus_online = {0, 1},
            .memory = "1G",
            .seconds = 123.45,
            .ssh_port = 40123};
  const std::string line = up_line(f);
  CHECK(line == "lab: 6.12.0-" + kLong +
                    " up on exynos4210 (qemu smdkc210) (TCG, emulated, 2 CPUs online as asked "
                    "(0-1), 1G; checked in the guest) in 123.5s, ssh on 127.0.0.1:40123");
  const std::string text = printed(line);
  INFO(text);
  CHECK(test::wider_line(text).empty());
  CHECK(text.find('\n') < text.size() - 1);  // more than one line
  // The x86 PC is not named; KVM is not called emulated.
  f.board.clear();
  f.emulated = false;
  CHECK(test::one_line(printed(up_line(f))).find(" up (KVM, 2 CPUs online as asked (0-1), 1G;") !=
        std::string::npos);
  // A release from a tree's own config (CONFIG_LOCALVERSION) holding an ESC.
  f.release = "6.12.0" + kEsc;
  CHECK_FALSE(has_raw_esc(up_line(f)));
  CHECK(up_line(f).starts_with("lab: 6.12.0\\x1b[2J up ("));
}

TEST_CASE("boot lines: qemu's failure relays its stderr and the console escaped, under a heading") {
  const std::string vmlinuz = "/home/ana/" + kLong + kEsc + "/boot/vmlinuz-6.12.0";
  // qemu 7.2's own message for a bad -m, as qemu-system-x86_64 prints it,
  // with what a terminal would take for a command in the value it quotes.
  const std::string err = "qemu-system-x86_64: -m x1G" + kEsc +
                          ": Parameter 'size' expects a non-negative number below 2^64\n"
                          "Optional suffix k, M, G, T, P or E means kilo-, mega-, giga-, tera-, "
                          "peta-\nand exabytes, respectively.\n";
  const std::string serial = "[    0.000000] Linux version 6.12.0 " + kLong + kEsc + "\n";
  const std::string text = printed(qemu_failed(vmlinuz, "tcg", err, serial));
  INFO(text);
  CHECK(test::wider_line(text).empty());
  CHECK_FALSE(has_raw_esc(text));
  CHECK(text.starts_with("lab: qemu failed (tcg), booting\n  /home/ana/" + kLong +
                         "\\x1b[2J/boot/vmlinuz-6.12.0:\n"));
  // qemu's lines under the heading, each indented, none blank at the end.
  CHECK(text.find("\n  qemu-system-x86_64: -m x1G\\x1b[2J: Parameter 'size'") != std::string::npos);
  CHECK(text.find("\n  and exabytes, respectively.\nlast serial console lines:\n") !=
        std::string::npos);
  CHECK(text.ends_with(kLong + "\\x1b[2J\n"));
  // Nothing said: each part says so.
  CHECK(qemu_failed("/k", "kvm", "", "\n")
            .ends_with(":\n  (no stderr)\nlast serial console lines:\n  (no serial output)"));
}

TEST_CASE("boot lines: the first line qemu said, and the KVM fallback that quotes it") {
  CHECK(first_qemu_line("\n  qemu: linux kernel too old to load a ram disk\nmore\n") ==
        "qemu: linux kernel too old to load a ram disk");
  CHECK(first_qemu_line("") == "");
  CHECK(first_qemu_line("qemu" + kEsc + "\n") == "qemu\\x1b[2J");
  const std::string line =
      kvm_fallback_line("qemu: failed to initialize kvm: " + kLong + kEsc + " " + kLong);
  const std::string text = printed(line);
  INFO(text);
  CHECK(test::wider_line(text).empty());
  CHECK_FALSE(has_raw_esc(line));
  CHECK(trim(test::one_line(text)).ends_with("); falling back to TCG: numbers are emulated"));
  CHECK(relayed("a\nb\n\n", "(none)") == "  a\n  b");
  CHECK(relayed(" \n", "(none)") == "  (none)");
}

namespace {

// Why qemu-system-x86_64 cannot run here, or empty.
std::string x86_qemu_problem() {
  LocalHost local;
  const auto r = local.run({.argv = {"qemu-system-x86_64", "--version"}});
  if (r.ok()) return "";
  return "qemu-system-x86_64 cannot start: " +
         (r.spawn_error.empty() ? r.describe() + " " + r.err : r.spawn_error);
}

bool kvm_opens() {
  const int fd = ::open("/dev/kvm", O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

// A "kernel" qemu refuses at once (64 KiB of zeros: no bzImage header, so
// too old a protocol to take an initrd), named vmlinuz-REL in a folder of a
// 71-character name holding an ESC, with an empty modules.dep and the
// modules the x86 board loads built in: schedlab builds its initramfs and
// starts qemu, which exits.
std::string bad_kernel(const fs::path& root, const std::string& release) {
  const fs::path dir = root / (kLong + kEsc);
  fs::create_directories(dir / "boot");
  fs::create_directories(dir / "lib/modules" / release);
  test::write_text(dir / "boot" / ("vmlinuz-" + release), std::string(65536, '\0'));
  test::write_text(dir / "lib/modules" / release / "modules.dep", "");
  test::write_text(dir / "lib/modules" / release / "modules.builtin",
                   "kernel/drivers/virtio/virtio_pci.ko\nkernel/drivers/net/virtio_net.ko\n");
  return (dir / "boot" / ("vmlinuz-" + release)).string();
}

}  // namespace

TEST_CASE("boot lines: real qemu refusing a kernel image and memory, relayed within 100 columns",
          "[lab]") {
  if (const auto why = x86_qemu_problem(); !why.empty()) {
    SCHEDLAB_SKIP(why);
  }
  test::TempDir dir;
  const std::string cache = dir.file("cache");
  const std::map<std::string, std::string> env = {{"SCHEDLAB_LAB_CACHE", cache}};
  const std::string kernel = bad_kernel(dir.path(), "9.9" + kEsc);
  const std::string shown = terminal_safe(kernel);
  const auto check_relayed = [&](const ExecResult& r, const std::string& qemu_said) {
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(test::wider_line(r.err).empty());
    CHECK_FALSE(has_raw_esc(r.err));
    CHECK(r.err.find(" up ") == std::string::npos);
    const std::string flat = test::one_line(r.err);
    CHECK(flat.find("schedlab: lab: qemu failed (tcg), booting " + shown + ": " + qemu_said) !=
          std::string::npos);
    CHECK(flat.ends_with(" last serial console lines: (no serial output) "));
  };
  // Under TCG: qemu's word on the image, under the image's path escaped;
  // the initramfs line names the release escaped (print_line).
  auto r = test::schedlab_cmd({"lab", "boot", kernel, "--accel", "tcg"}, env);
  check_relayed(r, "qemu: linux kernel too old to load a ram disk");
  CHECK(test::one_line(r.err).find("lab: building the initramfs for 9.9\\x1b[2J (") !=
        std::string::npos);
  // auto: where KVM opens, qemu exits under it too, then under TCG as
  // above; KVM is not blamed for the image, nor remembered as broken for the
  // next boots. What qemu says under KVM is the host's: the image's refusal
  // where KVM works, or KVM's own (a nested layer: "failed to set MSR").
  r = test::schedlab_cmd({"lab", "boot", kernel}, env);
  check_relayed(r, "qemu: linux kernel too old to load a ram disk");
  const auto under_kvm = r.err.find("lab: qemu exited under KVM (");
  CHECK((under_kvm != std::string::npos) == kvm_opens());
  if (under_kvm != std::string::npos)
    CHECK(r.err.find("); trying TCG\n", under_kvm) != std::string::npos);
  CHECK(r.err.find("KVM does not work here") == std::string::npos);
  CHECK_FALSE(fs::exists(fs::path(cache) / "kvm-probe"));
  // Memory of the form -m takes, past what qemu's size holds (2^64 bytes).
  r = test::schedlab_cmd({"lab", "boot", kernel, "--accel", "tcg", "--memory", "99999999999G"},
                         env);
  check_relayed(r,
                "qemu-system-x86_64: -m 99999999999G: Value '99999999999G' is out of range "
                "for parameter 'size'");
}

TEST_CASE("boot lines: a multi-kernel run relays each kernel's qemu failure escaped", "[lab]") {
  if (const auto why = x86_qemu_problem(); !why.empty()) {
    SCHEDLAB_SKIP(why);
  }
  test::TempDir dir;
  const std::string one = bad_kernel(dir.path() / "a", "9.8"),
                    two = bad_kernel(dir.path() / "b", "9.9");
  const std::string cfg = dir.file("mk.yaml");
  // JSON strings in YAML: the ESC as \u001b.
  const auto quoted = [](const std::string& s) {
    std::string out = "\"";
    for (const char c : s) out += c == '\x1b' ? std::string("\\u001b") : std::string(1, c);
    return out + "\"";
  };
  test::write_text(cfg, "hosts:\n  sut: {lab: {kernels: [" + quoted(one) + ", " + quoted(two) +
                            "], accel: tcg}}\niterations: 1\nworkloads: [hackbench]\n");
  const auto r = test::schedlab_cmd({"run", cfg, "--name", kLong, "--db", dir.file("db")},
                                    {{"SCHEDLAB_LAB_CACHE", dir.file("cache")}});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK_FALSE(has_raw_esc(r.err));
  // Every line within 100 columns but the command to paste, whole by design.
  const auto command = r.err.find("run them again with:\n  schedlab run --resume " + kLong);
  REQUIRE(command != std::string::npos);
  CHECK(test::wider_line(r.err.substr(0, command)).empty());
  const std::string flat = test::one_line(r.err);
  for (const auto& k : {one, two}) {
    CHECK(flat.find(test::one_line("schedlab: " + terminal_safe(k) +
                                   ": lab: qemu failed (tcg), booting " + terminal_safe(k) +
                                   ": qemu: linux kernel too old to load a ram disk")) !=
          std::string::npos);
  }
  CHECK(flat.find("schedlab: kernel 2 of 2: " + terminal_safe(two) + " as run '" + kLong +
                  "@9.9'") != std::string::npos);
  CHECK(flat.find("2 of 2 kernels failed (above); run them again with:") != std::string::npos);
}

TEST_CASE("boot lines: lab boot refuses what qemu would, escaped, before anything boots") {
  auto r = test::schedlab_cmd({"lab", "boot", "debian:6.12", "--memory", "1G" + kEsc});
  CHECK(r.exit_code == 2);
  CHECK(r.err == "schedlab lab: --memory: expected a size such as 512M or 2G, got '1G\\x1b[2J'\n");
  r = test::schedlab_cmd({"lab", "boot", "debian:6.12", "--cpus", "3", "--sockets", "2"});
  CHECK(r.exit_code == 2);
  CHECK(r.err == "schedlab lab: --sockets: 3 CPUs do not split evenly into 2 sockets\n");
}
