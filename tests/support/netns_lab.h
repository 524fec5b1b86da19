// The two-host SSH lab of tests/support/netns (two network namespaces, a
// Debian sshd in each) as a test fixture: up in the constructor, down in
// the destructor, whatever happens in between. With kSlurm, the Slurm
// cluster of tests/support/slurm on top of it (nodes n1 and n2 are the two
// namespaces; env("SLURM_CONF") for the clients).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace schedlab::test {

class NetnsLab {
 public:
  // Brings the lab up; when this machine cannot host it (not root, no
  // network namespaces, no sshd), skip_reason() says why.
  enum class Kind { kSsh, kSlurm };
  explicit NetnsLab(Kind kind = Kind::kSsh);
  ~NetnsLab();
  NetnsLab(const NetnsLab&) = delete;
  NetnsLab& operator=(const NetnsLab&) = delete;

  const std::optional<std::string>& skip_reason() const { return skip_; }
  const std::string& dir() const { return dir_; }
  // SUT, LOADGEN, KEY, KNOWN_HOSTS, SUT_ADDR, ... as lab.sh prints them.
  std::string env(const std::string& key) const { return env_.at(key); }
  std::string sut_url() const { return "ssh://" + env("SUT"); }
  std::string loadgen_url() const { return "ssh://" + env("LOADGEN"); }
  // A config's ssh section with the lab's key and known hosts.
  std::string ssh_yaml() const {
    return "ssh:\n  identity: " + env("KEY") + "\n  known_hosts: " + env("KNOWN_HOSTS") + "\n";
  }
  // A config's hosts (the lab's SUT and loadgen) and ssh sections.
  std::string pair_yaml() const {
    return "hosts:\n  sut: " + sut_url() + "\n  loadgen: " + loadgen_url() + "\n" + ssh_yaml();
  }

 private:
  std::string script_;
  std::string dir_;
  std::map<std::string, std::string> env_;
  std::optional<std::string> skip_;
};

}  // namespace schedlab::test
