// The running schedlab binary's own path, from /proc/self/exe: where its own
// programs (schedlab-*) sit, and what Slurm tasks exec.
#pragma once

#include <filesystem>
#include <optional>

namespace schedlab {

// nullopt when /proc/self/exe cannot be read (no /proc).
std::optional<std::filesystem::path> own_executable();

}  // namespace schedlab
