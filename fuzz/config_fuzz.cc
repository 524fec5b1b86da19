// libFuzzer target: the experiment config loader on arbitrary text. A
// ConfigError is fine; anything else (or a crash) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "runner/config/config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    schedlab::parse_config(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  } catch (const schedlab::ConfigError&) {
  }
  return 0;
}
