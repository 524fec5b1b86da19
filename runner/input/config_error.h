// The error every reader of a user's file throws: it names the file, the
// line and the key ("configs/eevdf.yaml:14: workloads[0].hackbench: ...").
#pragma once

#include <stdexcept>
#include <string>

namespace schedlab {

class ConfigError : public std::runtime_error {
 public:
  // line is 1-based; 0 when the error is about the whole file.
  ConfigError(const std::string& file, int line, const std::string& key, const std::string& msg);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key() const { return key_; }

 private:
  std::string file_;
  int line_;
  std::string key_;
};

}  // namespace schedlab
