#include "runner/lab/cache_listing.h"

#include <fmt/format.h>

#include <filesystem>

#include "base/text.h"
#include "runner/lab/board.h"
#include "runner/lab/kernel.h"

namespace schedlab::lab {

// Every path and text here may come from a cache another hand filled (or
// SCHEDLAB_LAB_CACHE itself): escaped as a terminal shows it (hostile11).
std::string describe_cache(const LabPaths& paths) {
  std::string out = fmt::format("kernel cache: {}\n", terminal_safe(paths.kernels().string()));
  const auto kernels = cached_kernels(paths);
  if (kernels.empty()) out += "  (empty)\n";
  for (const auto& k : kernels)
    if (k.tree.empty())
      out += fmt::format(
          "  {:<28} {:<44} {}{}\n", terminal_safe(k.release),
          k.package.empty() ? "-" : terminal_safe(k.package), terminal_safe(k.package_version),
          k.board == default_board().name ? "" : " (board " + terminal_safe(k.board) + ")");
    else
      out +=
          fmt::format("  {:<28} built from {} {} ({}), config {}{}\n", terminal_safe(k.release),
                      terminal_safe(k.tree), terminal_safe(k.describe),
                      k.commit.empty() ? "no git" : terminal_safe(k.commit.substr(0, 12)),
                      terminal_safe(k.config_sha),
                      k.board == default_board().name ? "" : ", board " + terminal_safe(k.board));
  out += fmt::format("initramfs images: {}\n", terminal_safe(paths.initramfs().string()));
  int images = 0;
  if (std::filesystem::is_directory(paths.initramfs()))
    for (const auto& e : std::filesystem::directory_iterator(paths.initramfs()))
      if (e.path().extension() == ".gz") {
        out += fmt::format("  {} ({:.1f} MB)\n", terminal_safe(e.path().filename().string()),
                           static_cast<double>(e.file_size()) / 1e6);
        ++images;
      }
  if (!images) out += "  (none)\n";
  out += "kernel names:\n";
  for (const auto& s : kernel_series()) out += fmt::format("  {:<12} {}\n", s.name, s.help);
  out += "boards (board: in hosts.sut.lab, --board here):\n";
  for (const auto& b : boards()) out += fmt::format("  {:<12} {}\n", b.name, board_help(b));
  // 100 columns: a built kernel's long tree path or description goes on below.
  return wrap_words(out);
}

}  // namespace schedlab::lab
