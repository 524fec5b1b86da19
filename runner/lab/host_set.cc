#include "runner/lab/host_set.h"

#include <fmt/format.h>

#include "base/message.h"
#include "runner/hosts/local_host.h"
#include "runner/hosts/ssh_host.h"
#include "runner/lab/lab_host.h"

namespace schedlab {

std::unique_ptr<Host> HostSet::connect(const std::string& spec, const SshConfig& ssh) {
  if (spec == "local") return std::make_unique<LocalHost>();
  auto target = parse_ssh_url(spec);
  if (!target)
    throw HostError(fmt::format("'{}' is not a host: use local or ssh://[user@]host[:port]{}", spec,
                                ssh_url_option_note(spec)));
  return std::make_unique<SshHost>(*target, SshOptions{.identity_file = ssh.identity,
                                                       .known_hosts = ssh.known_hosts,
                                                       .host_key_policy = ssh.host_key_policy,
                                                       .connect_timeout = ssh.connect_timeout});
}

HostSet::HostSet(const HostSpec& spec) {
  if (spec.sut_lab) {
    // The guest's ports are forwarded to this machine's loopback only.
    if (spec.loadgen != "local")
      throw HostError("hosts.loadgen: a lab SUT is reached on this machine's loopback; the loadgen must be local");
    sut_owned_ = std::make_unique<lab::LabHost>(*spec.sut_lab, print_line);
  } else {
    sut_owned_ = connect(spec.sut, spec.ssh);
  }
  sut_ = sut_owned_.get();
  if (spec.loadgen == spec.sut) {
    loadgen_ = sut_;
  } else {
    loadgen_owned_ = connect(spec.loadgen, spec.ssh);
    loadgen_ = loadgen_owned_.get();
  }
  if (!spec.sut_address.empty()) {
    sut_address_ = spec.sut_address;
  } else if (spec.sut_lab) {
    sut_address_ = "127.0.0.1";
  } else if (spec.sut == "local") {
    if (spec.loadgen != "local")
      throw HostError("hosts.sut_address: the SUT is local and the loadgen remote; say how the "
                      "loadgen reaches the SUT");
    sut_address_ = "127.0.0.1";
  } else {
    // Same machine in both roles: its own loopback; else the SSH host name.
    sut_address_ = spec.loadgen == spec.sut ? "127.0.0.1" : parse_ssh_url(spec.sut)->host;
  }
}

}  // namespace schedlab
