#include "base/own_executable.h"

namespace schedlab {

std::optional<std::filesystem::path> own_executable() {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  return self;
}

}  // namespace schedlab
