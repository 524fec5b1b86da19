// Builds the SUT/loadgen pair a config names: `local`, ssh:// hosts or a
// lab guest. One host string named in both roles is one connection.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "runner/hosts/host.h"
#include "runner/hosts/pair.h"
#include "runner/hosts/ssh_config.h"
#include "runner/lab/lab_config.h"

namespace schedlab {

// One SUT/loadgen pair as a config names it (hosts:, or one of pairs:;
// runner/config/host_specs.h).
struct HostSpec {
  std::string sut = "local";         // local | ssh://... | lab
  std::optional<LabConfig> sut_lab;  // sut is "lab": the kernel it boots
  std::string loadgen = "local";
  std::string sut_address;  // the SUT as the loadgen sees it; empty: derived
  SshConfig ssh;
};

class HostSet {
 public:
  // Connects to every ssh host (HostError when one cannot be reached) and
  // boots a lab SUT.
  explicit HostSet(const HostSpec& spec);
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
