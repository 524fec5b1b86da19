// The helpers every YAML loader shares (experiment files, nightly files, a
// lab SUT's mapping): values read from nodes, each problem a ConfigError
// naming the file, the line and the key. A loader holds one YamlReader (or
// derives from it) and adds its own sections.
#pragma once

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace schedlab {

// A config file's text; a ConfigError "PATH: cannot read the file: REASON"
// when it cannot be read.
std::string read_config_text(const std::string& path);

class YamlReader {
 public:
  explicit YamlReader(std::string path) : path_(std::move(path)) {}
  const std::string& path() const { return path_; }

  // The text as a document; a syntax error is a ConfigError at its line.
  YAML::Node load(const std::string& text) const;

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
  // Whole numbers: at least min (parse_integer's errors), or from min to max.
  std::int64_t integer(const YAML::Node& n, const std::string& key, std::int64_t min) const;
  int integer_in(const YAML::Node& n, const std::string& key, int min, int max) const;
  // A finite number in [lo, hi], or (lo, hi] when lo_open.
  double number(const YAML::Node& n, const std::string& key, double lo, double hi,
                bool lo_open) const;
  bool boolean(const YAML::Node& n, const std::string& key) const;  // true/yes/on, false/no/off
  // A positive duration such as 30m or 90s.
  std::chrono::milliseconds duration(const YAML::Node& n, const std::string& key) const;

 protected:
  std::string path_;
};

}  // namespace schedlab
