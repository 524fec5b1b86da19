// The helpers every YAML loader shares (experiment files, nightly files, a
// lab SUT's mapping): values read from nodes, each problem a ConfigError
// naming the file, the line and the key. A loader holds one YamlReader (or
// derives from it) and adds its own sections.
#pragma once

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace schedlab {

// One value a key with a fixed set of choices takes, by its name.
template <typename T>
struct Choice {
  const char* name;
  T value;
};

// The largest config file read: configs are a page or two; a bigger file
// (or /dev/zero) is a mistake, refused before it is read.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;

// A config file's text; a ConfigError "PATH: cannot read the file: REASON"
// when it cannot be read, is no regular file (a directory, a device, a
// FIFO) or is over kMaxConfigBytes.
std::string read_config_text(const std::string& path);

class YamlReader {
 public:
  explicit YamlReader(std::string path) : path_(std::move(path)) {}
  const std::string& path() const { return path_; }

  // The text as a document; a syntax error is a ConfigError at its line, and
  // so are a second document ('---') and a key given twice in any mapping at
  // any depth (yaml-cpp keeps one silently), naming both lines, and a NUL,
  // raw or escaped.
  YAML::Node load(const std::string& text) const;

  // No mapping at any depth gives a key twice (see load), and no key or
  // scalar holds a NUL (a "\0" escape; load refuses a raw NUL byte).
  void check_unique_keys(const YAML::Node& root) const;

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key,
                         const std::string& msg) const;
  static int line_of(const YAML::Node& n);  // 1-based; 0 when unknown

  void expect_map(const YAML::Node& n, const std::string& key) const;
  // A mapping whose keys are all in `allowed`, each once (key_problem()).
  void check_keys(const YAML::Node& map, const std::string& where,
                  const std::vector<std::string>& allowed) const;

  std::string scalar(const YAML::Node& n, const std::string& key) const;
  // A scalar that is not empty.
  std::string word(const YAML::Node& n, const std::string& key) const;
  // Whole numbers from min to max (parse_integer's errors name the range).
  std::int64_t integer(const YAML::Node& n, const std::string& key, std::int64_t min,
                       std::int64_t max) const;
  int integer_in(const YAML::Node& n, const std::string& key, int min, int max) const;
  // A finite number in [lo, hi], or (lo, hi] when lo_open.
  double number(const YAML::Node& n, const std::string& key, double lo, double hi,
                bool lo_open) const;
  bool boolean(const YAML::Node& n, const std::string& key) const;  // true/yes/on, false/no/off
  // A scalar that is one of NAMES; any other is "expected a, b or c, got
  // 'x' (did you mean 'y'?)".
  std::string one_of(const YAML::Node& n, const std::string& key,
                     const std::vector<std::string>& names) const;
  // The value of the choice a scalar names (one_of's error for any other).
  template <typename T, std::size_t N>
  T choice(const YAML::Node& n, const std::string& key, const Choice<T> (&choices)[N]) const {
    std::vector<std::string> names;
    for (const auto& c : choices) names.emplace_back(c.name);
    const std::string name = one_of(n, key, names);
    for (const auto& c : choices)
      if (name == c.name) return c.value;
    return choices[0].value;  // one_of has thrown for any other name
  }
  // A duration such as 30m or 90s from min to kMaxDuration; the error names
  // the range.
  std::chrono::milliseconds duration(const YAML::Node& n, const std::string& key,
                                     std::chrono::milliseconds min = std::chrono::milliseconds(1)) const;

 protected:
  std::string path_;
};

}  // namespace schedlab
