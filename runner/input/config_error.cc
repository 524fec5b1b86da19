#include "runner/input/config_error.h"

#include <fmt/format.h>

namespace schedlab {

ConfigError::ConfigError(const std::string& file, int line, const std::string& key,
                         const std::string& msg)
    : std::runtime_error(fmt::format("{}{}{}{}", file, line > 0 ? fmt::format(":{}", line) : "",
                                     key.empty() ? ": " : ": " + key + ": ", msg)),
      file_(file),
      line_(line),
      key_(key) {}

}  // namespace schedlab
