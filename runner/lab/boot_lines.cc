#include "runner/lab/boot_lines.h"

#include <fmt/format.h>

#include <sstream>

#include "base/text.h"
#include "runner/input/units.h"

namespace schedlab::lab {

std::string up_line(const UpFacts& f) {
  return fmt::format(
      "lab: {} up{} ({}, {} CPUs online as asked ({}), {}; checked in the guest) in {:.1f}s, ssh "
      "on 127.0.0.1:{}",
      terminal_safe(f.release),
      f.board.empty() ? "" : fmt::format(" on {} (qemu {})", f.board, f.machine),
      f.emulated ? "TCG, emulated" : "KVM", f.cpus_online.size(), format_cpu_list(f.cpus_online),
      f.memory, f.seconds, f.ssh_port);
}

std::string relayed(std::string_view text, std::string_view none) {
  const std::string safe = terminal_safe(trim_end(text), true);
  if (trim(safe).empty()) return fmt::format("  {}", none);
  std::string out = "  ";
  for (const char c : safe) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

std::string relayed_console(std::string_view console) {
  return relayed(console, "(no serial output)");
}

std::string first_qemu_line(std::string_view qemu_stderr) {
  std::istringstream in{std::string(qemu_stderr)};
  for (std::string line; std::getline(in, line);)
    if (!trim(line).empty()) return terminal_safe(trim(line));
  return "";
}

std::string qemu_failed(std::string_view vmlinuz, std::string_view accel,
                        std::string_view qemu_stderr, std::string_view serial) {
  return fmt::format("lab: qemu failed ({1}), booting {0}:\n{2}\nlast serial console lines:\n{3}",
                     terminal_safe(vmlinuz), accel, relayed(qemu_stderr, "(no stderr)"),
                     relayed_console(serial));
}

std::string kvm_fallback_line(std::string_view why) {
  return fmt::format("lab: KVM does not work here ({}); falling back to TCG: numbers are emulated",
                     terminal_safe(why));
}

}  // namespace schedlab::lab
