// What the lab says while a guest boots, built from what it found: the
// "up" line, the KVM fallback, and the errors that relay qemu's stderr and
// the serial console. Text read from elsewhere (a kernel release, qemu's
// messages, a guest's console, a kernel image's path) is terminal-safe here
// whatever prints it; the printer (print_line, an error's) wraps each line
// at 100 columns, a relayed block's lines under its two-space indent.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace schedlab::lab {

// What the "up" line states, each read in the guest or from the boot.
struct UpFacts {
  std::string release;
  std::string board, machine;  // board empty: the default board (x86 PC), not named
  bool emulated = true;        // TCG; false: KVM
  std::vector<int> cpus_online;
  std::string memory;
  double seconds = 0;  // qemu start to SSH connected
  int ssh_port = 0;
};

// "lab: 6.12.57+deb12-amd64 up (TCG, emulated, 2 CPUs online as asked
// (0-1), 1G; checked in the guest) in 41.3s, ssh on 127.0.0.1:40123".
std::string up_line(const UpFacts& f);

// Text relayed from qemu or a guest: escaped (terminal_safe, newlines kept),
// each line indented two spaces, no trailing blank line; `none` (indented)
// when there is nothing to show.
std::string relayed(std::string_view text, std::string_view none);
// The serial console's lines, relayed ("(no serial output)" when none).
std::string relayed_console(std::string_view console);

// The first line of qemu's stderr that says something, escaped ("" when none).
std::string first_qemu_line(std::string_view qemu_stderr);

// qemu ended before the guest was ready, for a reason of its own (a kernel
// image it cannot load, memory it cannot have): what it said, and the
// console's last lines.
std::string qemu_failed(std::string_view vmlinuz, std::string_view accel,
                        std::string_view qemu_stderr, std::string_view serial);

// KVM could not run the guest (`why`), so this boot and the next ones of
// this host boot are emulated.
std::string kvm_fallback_line(std::string_view why);

}  // namespace schedlab::lab
