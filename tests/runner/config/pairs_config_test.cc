// Config keys for SUT/loadgen pairs and where their processes run: `pairs:`
// and the `affinity` knob.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "runner/config/config.h"
#include "runner/config/host_specs.h"
#include "runner/knobs/knob_kind.h"
#include "runner/lab/host_set.h"
#include "tests/support/config_error.h"

using namespace schedlab;

namespace {
const char* kWorkload = "workloads:\n  - hackbench: {}\n";
}  // namespace

TEST_CASE("pairs list SUT and loadgen hosts, named or named for their SUT") {
  const Config c = parse_config(std::string(R"(pairs:
  - {sut: ssh://root@10.0.0.1, loadgen: ssh://root@10.0.0.2, sut_address: 10.0.0.1, name: rack1}
  - {sut: local, loadgen: local}
  - {sut: ssh://root@sut2.lab}
)") + kWorkload,
                                "exp.yaml");
  REQUIRE(c.pairs.size() == 3);
  CHECK(c.pairs[0].name == "rack1");
  CHECK(c.pairs[0].sut == "ssh://root@10.0.0.1");
  CHECK(c.pairs[0].loadgen == "ssh://root@10.0.0.2");
  CHECK(c.pairs[0].sut_address == "10.0.0.1");
  CHECK(c.pairs[0].line == 2);
  CHECK(c.pairs[1].name == "pair2");
  CHECK(c.pairs[2].name == "sut2-lab");
  CHECK(c.pairs[2].loadgen == "local");
  const HostSpec one = hosts_of(c, c.pairs[0]);
  CHECK(one.sut == "ssh://root@10.0.0.1");
  CHECK_FALSE(one.sut_lab);
  CHECK(one.loadgen == "ssh://root@10.0.0.2");
  CHECK(one.sut_address == "10.0.0.1");
}

TEST_CASE("bad pairs name the line and key") {
  auto err = [](const std::string& pairs) { return test::config_error_of(pairs + kWorkload); };
  CHECK(err("hosts: {sut: local}\npairs:\n  - {sut: local}\n") ==
        "exp.yaml:3: pairs: give either hosts: (one pair) or pairs: (several), not both");
  CHECK(err("pairs: []\n") ==
        "exp.yaml:1: pairs: expected a list of pairs, e.g. '- {sut: ssh://root@sut1, loadgen: "
        "local}'");
  CHECK(err("pairs:\n  - {loadgen: local}\n") ==
        "exp.yaml:2: pairs[0]: missing 'sut': local or ssh://[user@]host[:port]");
  CHECK(err("pairs:\n  - {sut: local, lodgen: local}\n") ==
        "exp.yaml:2: pairs[0]: unknown key 'lodgen' (did you mean 'loadgen'?)");
  CHECK(err("pairs:\n  - {sut: local}\n  - sut: ftp://x\n") ==
        "exp.yaml:3: pairs[1].sut: 'ftp://x' is not a host: use local or ssh://[user@]host[:port]");
  CHECK(err("pairs:\n  - sut: {lab: {kernel: debian:6.12}}\n") ==
        "exp.yaml:2: pairs[0].sut: a lab SUT cannot be one of several pairs; run it on its own "
        "with hosts.sut");
  CHECK(err("pairs:\n  - {sut: local, name: a}\n  - {sut: ssh://h, name: a}\n") ==
        "exp.yaml:3: pairs[1].name: pair name 'a' is used twice; give each pair its own name");
  CHECK(err("pairs:\n  - {sut: local, name: 'a b'}\n") ==
        "exp.yaml:2: pairs[0].name: a pair name uses letters, digits, _ and - only");
  CHECK(err("pairs:\n  - {sut: ssh://h, name: a}\n  - {sut: ssh://h, name: b}\n") ==
        "exp.yaml:3: pairs[1].sut: SUT ssh://h is already in another pair");
  CHECK(err("pairs:\n  - {sut: local, loadgen: ssh://lg}\n") ==
        "exp.yaml:2: pairs[0].sut_address: the SUT is local and the loadgen remote; say how the "
        "loadgen reaches the SUT");
  // hostile7: one machine spelt two ways was two pairs flipping each
  // other's knobs; an address starting with '-' or holding a newline went
  // to netperf -H and tbench as it was.
  CHECK(err("pairs:\n  - {sut: ssh://h, name: a}\n  - {sut: 'ssh://root@H:22', name: b}\n") ==
        "exp.yaml:3: pairs[1].sut: SUT ssh://root@H:22 is already in another pair");
  CHECK(err("pairs:\n  - {sut: ssh://h, name: a}\n  - {sut: 'ssh://h:2222', name: b}\n") ==
        "(no error)");
  for (const char* address : {"-oProxyCommand=x", "\"a b\\nc\""}) {
    INFO(address);
    CHECK_THAT(
        err(fmt::format("pairs:\n  - {{sut: local, loadgen: ssh://lg, sut_address: {}}}\n",
                        address)),
        Catch::StartsWith("exp.yaml:2: pairs[0].sut_address: '") &&
            Catch::EndsWith("is not a host name or IP address (letters, digits, . _ - : % [ ], not "
                            "starting with '-')"));
  }
  CHECK(err("pairs:\n  - {sut: local, loadgen: ssh://lg, sut_address: 'fe80::1%eth0'}\n") ==
        "(no error)");
}

TEST_CASE("affinity takes CPU lists for servers and clients") {
  const Config c = parse_config(std::string(kWorkload) + R"(variants:
  pinned:
    affinity: {server: "0", client: "1-3,8"}
  clients-only:
    affinity:
      client: "1"
)",
                                "exp.yaml");
  REQUIRE(c.variants.size() == 2);
  const ProcessKnobs pinned = process_knobs(c.variants[0].knobs);
  CHECK(pinned.server_cpus == std::vector<int>{0});
  CHECK(pinned.client_cpus == std::vector<int>{1, 2, 3, 8});
  REQUIRE(c.variants[0].knobs.find("affinity", "client"));
  CHECK(c.variants[0].knobs.find("affinity", "client")->line == 5);
  const ProcessKnobs clients = process_knobs(c.variants[1].knobs);
  CHECK(clients.server_cpus.empty());
  CHECK(clients.client_cpus == std::vector<int>{1});
  REQUIRE(c.variants[1].knobs.find("affinity", "client"));
  CHECK(c.variants[1].knobs.find("affinity", "client")->line == 8);
}

TEST_CASE("bad affinity names the line and key") {
  auto err = [](const std::string& variant) {
    return test::config_error_of(std::string(kWorkload) + "variants:\n  v:\n" + variant);
  };
  CHECK(err("    affinity: {server: 3-1}\n") ==
        "exp.yaml:5: variants.v.affinity.server: '3-1' is not a CPU list such as 0-3,8");
  CHECK(err("    affinity: {client: 'one'}\n") ==
        "exp.yaml:5: variants.v.affinity.client: 'one' is not a CPU list such as 0-3,8");
  CHECK(err("    affinity: {clients: '1'}\n") ==
        "exp.yaml:5: variants.v.affinity: unknown key 'clients' (did you mean 'client'?)");
  CHECK(err("    affinity: {}\n") ==
        "exp.yaml:5: variants.v.affinity: empty: give server, client or both, e.g. {server: \"0\", "
        "client: \"1-3\"}");
  CHECK(err("    affinity: 1\n") ==
        "exp.yaml:5: variants.v.affinity: expected a mapping of keys to values");
}
