// How schedlab reaches ssh:// hosts, as a config's `ssh:` gives it (shared by
// all of them); HostSet::connect turns it into an SshHost's options.
#pragma once

#include <chrono>
#include <string>

namespace schedlab {

struct SshConfig {
  std::string identity;     // private key file; empty: ssh's default
  std::string known_hosts;  // known_hosts file; empty: ssh's default
  std::string host_key_policy = "strict";  // strict | accept-new
  std::chrono::seconds connect_timeout{10};
};

}  // namespace schedlab
