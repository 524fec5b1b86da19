#include "runner/config/yaml_reader.h"

#include <fmt/format.h>

#include <boost/regex.hpp>

#include "base/file.h"
#include "runner/config/config.h"
#include "runner/config/param_values.h"
#include "runner/config/units.h"
#include "runner/config/yaml_keys.h"

namespace schedlab {

std::string read_config_text(const std::string& path) {
  try {
    return read_file(path);
  } catch (const FileError& e) {
    throw ConfigError(path, 0, "", "cannot read the file: " + e.reason());
  }
}

YAML::Node YamlReader::load(const std::string& text) const {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path_, e.mark.line >= 0 ? e.mark.line + 1 : 0, "",
                      "YAML syntax error: " + e.msg);
  }
}

void YamlReader::fail(const YAML::Node& at, const std::string& key, const std::string& msg) const {
  throw ConfigError(path_, line_of(at), key, msg);
}

int YamlReader::line_of(const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return m.line >= 0 ? m.line + 1 : 0;
}

void YamlReader::expect_map(const YAML::Node& n, const std::string& key) const {
  if (!n.IsMap()) fail(n, key, "expected a mapping of keys to values");
}

void YamlReader::check_keys(const YAML::Node& map, const std::string& where,
                            const std::vector<std::string>& allowed) const {
  expect_map(map, where);
  if (const auto p = key_problem(map, allowed)) fail(p->at, where, p->message);
}

std::string YamlReader::scalar(const YAML::Node& n, const std::string& key) const {
  if (!n.IsScalar()) fail(n, key, "expected a single value");
  return n.Scalar();
}

std::string YamlReader::word(const YAML::Node& n, const std::string& key) const {
  if (!n.IsScalar() || n.Scalar().empty()) fail(n, key, "expected a single, non-empty value");
  return n.Scalar();
}

std::int64_t YamlReader::integer(const YAML::Node& n, const std::string& key,
                                 std::int64_t min) const {
  try {
    return parse_integer(scalar(n, key), min);
  } catch (const ValueError& e) {
    fail(n, key, e.what());
  }
}

int YamlReader::integer_in(const YAML::Node& n, const std::string& key, int min, int max) const {
  const std::string s = scalar(n, key);
  if (!boost::regex_match(s, boost::regex("^[0-9]{1,4}$")) || std::stoi(s) < min || std::stoi(s) > max)
    fail(n, key, fmt::format("expected a whole number from {} to {}, got '{}'", min, max, s));
  return std::stoi(s);
}

double YamlReader::number(const YAML::Node& n, const std::string& key, double lo, double hi,
                          bool lo_open) const {
  const std::string s = word(n, key);
  const auto v = parse_number(s);
  if (!v || *v > hi || *v < lo || (lo_open && *v == lo))
    fail(n, key,
         fmt::format("expected a number in {}{}, {}], got '{}'", lo_open ? "(" : "[", lo, hi, s));
  return *v;
}

bool YamlReader::boolean(const YAML::Node& n, const std::string& key) const {
  try {
    return parse_bool(word(n, key));
  } catch (const ValueError& e) {
    fail(n, key, e.what());
  }
}

std::chrono::milliseconds YamlReader::duration(const YAML::Node& n, const std::string& key) const {
  const std::string s = word(n, key);
  const auto d = parse_duration(s);
  if (!d || d->count() <= 0)
    fail(n, key, fmt::format("expected a duration such as 30m or 90s, got '{}'", s));
  return *d;
}

}  // namespace schedlab
