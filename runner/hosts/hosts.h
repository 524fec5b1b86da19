// Builds the SUT/loadgen pair a config names: `local` or ssh:// hosts. One
// host string named in both roles is one connection.
#pragma once

#include <memory>
#include <string>

#include "runner/config/config.h"
#include "runner/run/step_runner.h"

namespace schedlab {

class HostSet {
 public:
  // Connects to every ssh host (HostError when one cannot be reached).
  explicit HostSet(const Config& config);
  // One host by its config string, with the given ssh options.
  static std::unique_ptr<Host> connect(const std::string& spec, const SshConfig& ssh);
  Pair pair() const { return Pair{*sut_, *loadgen_, sut_address_}; }
  const std::string& sut_address() const { return sut_address_; }

 private:
  std::unique_ptr<Host> sut_owned_, loadgen_owned_;
  Host* sut_ = nullptr;
  Host* loadgen_ = nullptr;
  std::string sut_address_;
};

}  // namespace schedlab
