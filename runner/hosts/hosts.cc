#include "runner/hosts/hosts.h"

#include <fmt/format.h>

#include "runner/hosts/lab/lab_host.h"
#include "runner/hosts/local_host.h"
#include "runner/hosts/ssh_host.h"

namespace schedlab {

std::unique_ptr<Host> HostSet::connect(const std::string& spec, const SshConfig& ssh) {
  if (spec == "local") return std::make_unique<LocalHost>();
  auto target = parse_ssh_url(spec);
  if (!target) throw HostError(fmt::format("'{}' is not a host: use local or ssh://[user@]host[:port]", spec));
  return std::make_unique<SshHost>(*target, SshOptions{.identity_file = ssh.identity,
                                                       .known_hosts = ssh.known_hosts,
                                                       .host_key_policy = ssh.host_key_policy,
                                                       .connect_timeout = ssh.connect_timeout});
}

HostSet::HostSet(const Config& config) {
  if (config.sut_lab) {
    // The guest's ports are forwarded to this machine's loopback only.
    if (config.loadgen != "local")
      throw HostError("hosts.loadgen: a lab SUT is reached on this machine's loopback; the loadgen must be local");
    sut_owned_ = std::make_unique<lab::LabHost>(*config.sut_lab, [](const std::string& line) { fmt::print(stderr, "{}\n", line); });
  } else {
    sut_owned_ = connect(config.sut, config.ssh);
  }
  sut_ = sut_owned_.get();
  if (config.loadgen == config.sut) {
    loadgen_ = sut_;
  } else {
    loadgen_owned_ = connect(config.loadgen, config.ssh);
    loadgen_ = loadgen_owned_.get();
  }
  if (!config.sut_address.empty()) {
    sut_address_ = config.sut_address;
  } else if (config.sut_lab) {
    sut_address_ = "127.0.0.1";
  } else if (config.sut == "local") {
    if (config.loadgen != "local")
      throw HostError("hosts.sut_address: the SUT is local and the loadgen remote; say how the "
                      "loadgen reaches the SUT");
    sut_address_ = "127.0.0.1";
  } else {
    // Same machine in both roles: its own loopback; else the SSH host name.
    sut_address_ = config.loadgen == config.sut ? "127.0.0.1" : parse_ssh_url(config.sut)->host;
  }
}

}  // namespace schedlab
