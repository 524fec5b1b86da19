#include "runner/input/config_error.h"

#include <fmt/format.h>

#include "base/text.h"

namespace schedlab {

ConfigError::ConfigError(const std::string& file, int line, const std::string& key,
                         const std::string& msg)
    // Escaped here, where every config error is made: a key or value from
    // the file may hold a NUL (what() would end there), an ESC, a
    // right-to-left override or a newline (a quoted 'x\n' would end the
    // error's line); terminal_safe again when printed changes nothing. A
    // key path naming a 1 MiB variant or sysctl is cut.
    : std::runtime_error(fmt::format(
          "{}{}{}{}", file, line > 0 ? fmt::format(":{}", line) : "",
          key.empty() ? ": " : ": " + terminal_safe(excerpt(key, 120)) + ": ", terminal_safe(msg))),
      file_(file),
      line_(line),
      key_(key) {}

}  // namespace schedlab
