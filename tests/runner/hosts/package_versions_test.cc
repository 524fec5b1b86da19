// Package versions for the run manifest: dpkg-query's answer read (installed
// packages only, the first architecture of a name), names that are no
// Debian package name never asked, and this machine's dpkg asked once for
// several packages.
#include "runner/hosts/package_versions.h"

#include <catch2/catch.hpp>

#include "runner/hosts/local_host.h"
#include "runner/run/manifest.h"
#include "tests/support/fake_host.h"

using namespace schedlab;

TEST_CASE("dpkg-query's answer: installed packages only, the first of a name") {
  const std::string out =
      "bash\tii \t5.2.15-2+b7\n"
      "libc6\tii \t2.36-9+deb12u14\n"
      "libc6\tii \t2.36-9+deb12u13\n"  // another architecture's
      "old-tool\trc \t1.0-1\n"         // removed, its configuration kept
      "half\tiU \t2.0-1\n"             // unpacked, not configured
      "held\thi \t3.0-1\n"             // installed, held
      "garbled line\n"
      "noversion\tii \t\n";
  const auto v = parse_dpkg_versions(out);
  CHECK(v == std::map<std::string, std::string>{
                 {"bash", "5.2.15-2+b7"}, {"held", "3.0-1"}, {"libc6", "2.36-9+deb12u14"}});
  CHECK(parse_dpkg_versions("").empty());
}

TEST_CASE("Debian package names: what dpkg-query is asked about") {
  for (const char* good : {"rt-tests", "libstdc++6", "g++-12", "python3.11", "0ad"})
    CHECK(is_debian_package_name(good));
  for (const char* bad : {"", "a", "Bash", "-W", "+x", ".x", "rt tests", "libc6:amd64", "rt-*",
                          "hammerdb (not in Debian; see workloads/README.md)"})
    CHECK_FALSE(is_debian_package_name(bad));
}

TEST_CASE("this machine's versions, one dpkg-query for all, the same as dpkg-query's own") {
  LocalHost local;
  if (!local.find_program("dpkg-query")) return;  // not a Debian machine: nothing to compare
  const auto asked = installed_versions(
      local, {"bash", "schedlab-no-such-package", "bash", "not a (package)", "coreutils"});
  for (const char* p : {"bash", "coreutils"}) {
    INFO(p);
    const auto r = local.run({.argv = {"dpkg-query", "-W", "-f", "${Version}", p}});
    REQUIRE(r.ok());
    CHECK(asked.at(p) == r.out);
  }
  CHECK(asked.size() == 2);
  CHECK(installed_versions(local, {"not a (package)"}).empty());
}

TEST_CASE("host facts that are not UTF-8 are kept escaped: the manifest stays JSON (hostile10)") {
  // A hostname or a package version with a stray byte made dump() throw
  // json's type_error.316: no run could start on such a host.
  test::FakeHost host("sut");
  host.files["/proc/sys/kernel/hostname"] = "h\xff\n";
  test::Reply dpkg;
  dpkg.out = "rnd\tii \t1.0\xff\n";
  host.on({"dpkg-query"}, {dpkg});
  const auto m = collect_manifest(host, {"rnd"});
  CHECK(m["hostname"] == "h\\xff");
  CHECK(m["tools"]["rnd"] == "1.0\\xff");
  CHECK_NOTHROW(m.dump());
}
