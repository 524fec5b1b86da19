// The message a config text fails with, for tests of config errors.
#pragma once

#include <string>

#include "runner/config/config.h"

namespace schedlab::test {

// parse_config's ConfigError text, or "(no error)" when the text is valid.
inline std::string config_error_of(const std::string& yaml, const std::string& path = "exp.yaml") {
  try {
    parse_config(yaml, path);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace schedlab::test
