#include "runner/config/hosts_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <set>

#include "base/text.h"
#include "runner/hosts/ssh_host.h"
#include "runner/lab/lab_config_yaml.h"

namespace schedlab {
namespace {

const std::vector<std::string> kPairKeys = {"name", "sut", "loadgen", "sut_address"};
const std::vector<std::string> kHostKeys = {"sut", "loadgen", "sut_address"};
const std::vector<std::string> kSshKeys = {"identity", "known_hosts", "host_key_policy",
                                           "connect_timeout"};

// How the loadgen reaches the SUT (netperf -H ADDRESS, tbench's server
// argument): a host name or an IP address, never an option ('-' first)
// nor a second word or line.
std::string parse_sut_address(const YamlReader& r, const YAML::Node& n, const std::string& key) {
  const std::string s = r.scalar(n, key);
  static const boost::regex re(R"(^[A-Za-z0-9_.:%\[\]][A-Za-z0-9_.:%\[\]-]*$)");
  if (!boost::regex_match(s, re))
    r.fail(n, key,
           fmt::format("'{}' is not a host name or IP address (letters, digits, . _ - : % [ ], not "
                       "starting with '-')",
                       s));
  return s;
}

// The machine a SUT URL names, for "one pair per SUT": ssh://x,
// ssh://root@X and ssh://x:22 are one machine (another port may be
// another machine: a VM's forwarded port).
std::string sut_machine(const std::string& sut) {
  const auto t = parse_ssh_url(sut);
  if (!t) return sut;
  return fmt::format("{}:{}", ascii_lower(t->host), t->port);
}

}  // namespace

std::string parse_host(const YamlReader& r, const YAML::Node& n, const std::string& key) {
  const std::string s = r.scalar(n, key);
  if (s != "local" && !parse_ssh_url(s))
    r.fail(n, key,
           fmt::format("'{}' is not a host: use local or ssh://[user@]host[:port]{}", s,
                       ssh_url_option_note(s)));
  return s;
}

std::vector<PairConfig> parse_pairs(const YamlReader& r, const YAML::Node& n) {
  if (!n.IsSequence() || n.size() == 0)
    r.fail(n, "pairs", "expected a list of pairs, e.g. '- {sut: ssh://root@sut1, loadgen: local}'");
  std::vector<PairConfig> out;
  std::set<std::string> names, suts;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const YAML::Node e = n[i];
    const std::string key = fmt::format("pairs[{}]", i);
    r.expect_map(e, key);
    r.check_keys(e, key, kPairKeys);
    PairConfig pc;
    pc.line = r.line_of(e);
    const auto sut = e["sut"];
    if (!sut) r.fail(e, key, "missing 'sut': local or ssh://[user@]host[:port]");
    if (sut.IsMap())
      r.fail(sut, key + ".sut",
             "a lab SUT cannot be one of several pairs; run it on its own with hosts.sut");
    pc.sut = parse_host(r, sut, key + ".sut");
    if (e["loadgen"]) pc.loadgen = parse_host(r, e["loadgen"], key + ".loadgen");
    if (e["sut_address"])
      pc.sut_address = parse_sut_address(r, e["sut_address"], key + ".sut_address");
    if (pc.sut == "local" && pc.loadgen != "local" && pc.sut_address.empty())
      r.fail(e, key + ".sut_address",
             "the SUT is local and the loadgen remote; say how the loadgen reaches the SUT");
    if (const auto nm = e["name"]) {
      pc.name = r.scalar(nm, key + ".name");
      static const boost::regex name_re(R"(^[A-Za-z0-9][A-Za-z0-9_-]*$)");
      if (!boost::regex_match(pc.name, name_re))
        r.fail(nm, key + ".name", "a pair name uses letters, digits, _ and - only");
    } else {
      // The SUT's host name when it makes a valid name, else pairN.
      const auto target = parse_ssh_url(pc.sut);
      std::string derived = target ? target->host : "";
      std::replace(derived.begin(), derived.end(), '.', '-');
      std::replace(derived.begin(), derived.end(), ':', '-');
      static const boost::regex ok_re(R"(^[A-Za-z0-9][A-Za-z0-9_-]*$)");
      pc.name = boost::regex_match(derived, ok_re) ? derived : fmt::format("pair{}", i + 1);
    }
    if (!names.insert(pc.name).second)
      r.fail(e["name"] ? e["name"] : e, key + ".name",
             fmt::format("pair name '{}' is used twice; give each pair its own name", pc.name));
    // Two pairs on one SUT would flip each other's knobs.
    if (!suts.insert(sut_machine(pc.sut)).second)
      r.fail(sut, key + ".sut", fmt::format("SUT {} is already in another pair", pc.sut));
    out.push_back(std::move(pc));
  }
  return out;
}

SshConfig parse_ssh(const YamlReader& r, const YAML::Node& n) {
  SshConfig c;
  r.expect_map(n, "ssh");
  r.check_keys(n, "ssh", kSshKeys);
  if (n["identity"]) c.identity = r.scalar(n["identity"], "ssh.identity");
  if (n["known_hosts"]) c.known_hosts = r.scalar(n["known_hosts"], "ssh.known_hosts");
  if (const auto p = n["host_key_policy"])
    c.host_key_policy = r.one_of(p, "ssh.host_key_policy", {"strict", "accept-new"});
  if (const auto t = n["connect_timeout"]) {
    c.connect_timeout = std::chrono::duration_cast<std::chrono::seconds>(
        r.duration(t, "ssh.connect_timeout", std::chrono::seconds(1)));
  }
  return c;
}

void parse_hosts(const YamlReader& r, const YAML::Node& h, Config& c) {
  r.expect_map(h, "hosts");
  r.check_keys(h, "hosts", kHostKeys);
  if (h["sut"] && h["sut"].IsMap()) {
    c.sut_lab = parse_lab_config(h["sut"], r.path());
    c.sut = "lab";
  } else if (h["sut"]) {
    c.sut = parse_host(r, h["sut"], "hosts.sut");
  }
  if (h["loadgen"]) c.loadgen = parse_host(r, h["loadgen"], "hosts.loadgen");
  if (h["sut_address"]) c.sut_address = parse_sut_address(r, h["sut_address"], "hosts.sut_address");
}

}  // namespace schedlab
