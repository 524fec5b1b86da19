// The /proc/schedstat parser on every real snapshot in the shared fixtures,
// plus the shapes it must refuse.
#include "analysis/counters/schedstat.h"

#include <boost/regex.hpp>
#include <catch2/catch.hpp>

#include "tests/support/temp_dir.h"

namespace ss = schedlab::schedstat;
using schedlab::CounterParseError;
using schedlab::test::fixture;
using schedlab::test::fixture_files;
using schedlab::test::read_text;

namespace {

std::string v15_aws_before() {
  return read_text(
      fixture("schedstat/v15.aws-repro-collection-al2023-6.1.150-epyc9r14-16cpu.before.txt"));
}

std::string replace_first(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

std::string parse_error(const std::string& text) {
  try {
    ss::parse(text);
  } catch (const CounterParseError& e) {
    return e.what();
  }
  return "no error";
}

std::size_t field(ss::IdleType t, ss::LbField f) {
  return ss::domain_index(t, f);
}

}  // namespace

TEST_CASE("every schedstat and guest snapshot parses", "[schedstat]") {
  std::vector<std::filesystem::path> files;
  for (const auto& f : fixture_files("schedstat"))
    if (f.extension() == ".txt") files.push_back(f);
  for (const char* dir : {"guest/6.1", "guest/6.12"})
    for (const auto& f : fixture_files(dir))
      if (f.filename().string().starts_with("schedstat.")) files.push_back(f);
  REQUIRE(files.size() == 19);
  for (const auto& f : files) {
    INFO(f.string());
    const auto s = ss::parse(read_text(f));
    CHECK(s.version >= 15);
    CHECK(!s.cpus.empty());
    for (const auto& cpu : s.cpus)
      for (const auto& d : cpu.domains) {
        CHECK(d.span > 0);
        CHECK(!d.level.empty());
      }
  }
}

TEST_CASE("v15: groups are idle, busy, newidle", "[schedstat]") {
  const auto s = ss::parse(v15_aws_before());
  CHECK(s.version == 15);
  CHECK(s.timestamp == 4295241625ULL);
  CHECK(s.layout == ss::DomainLayout::v15);
  REQUIRE(s.cpus.size() == 16);
  const auto& cpu0 = s.cpus[0];
  CHECK(cpu0.c[ss::CpuField::yld_count] == 29);
  CHECK(cpu0.c[ss::CpuField::sched_count] == 712209);
  CHECK(cpu0.c[ss::CpuField::ttwu_local] == 8780);
  CHECK(cpu0.c[ss::CpuField::pcount] == 374120);
  REQUIRE(cpu0.domains.size() == 2);
  // domain0 00ff 142990 142977 10 13 3 0 0 142977 | 14 14 0 ... | 646 587 50 63 9 0 0 584 | ...
  const auto& d0 = cpu0.domains[0];
  CHECK(d0.cpumask == "00ff");
  CHECK(d0.span == 8);
  CHECK(d0.c(ss::IdleType::idle, ss::LbField::lb_count) == 142990);
  CHECK(d0.c(ss::IdleType::idle, ss::LbField::lb_nobusyg) == 142977);
  CHECK(d0.c(ss::IdleType::busy, ss::LbField::lb_count) == 14);
  CHECK(d0.c(ss::IdleType::newidle, ss::LbField::lb_count) == 646);
  CHECK(d0.c(ss::IdleType::newidle, ss::LbField::lb_imbalance) == 63);
  CHECK(d0.c(ss::IdleType::newidle, ss::LbField::lb_gained) == 9);
  CHECK(d0.c(ss::TailField::ttwu_wake_remote) == 2851);
  CHECK(d0.c(ss::TailField::ttwu_move_affine) == 355);
  // v15 has one combined imbalance; the v17 split is not available.
  CHECK(s.get(d0, field(ss::IdleType::newidle, ss::LbField::lb_imbalance)) == 63u);
  CHECK_FALSE(s.get(d0, field(ss::IdleType::newidle, ss::LbField::lb_imbalance_load)));
  CHECK(d0.level == "MC");
  CHECK(d0.level_inferred);
  CHECK(cpu0.domains[1].level == "PKG");
}

TEST_CASE("v16 swaps the idle and busy groups", "[schedstat]") {
  // guest 6.12: domain0 3 85 67 0 1829 94 0 0 67 | 83 80 0 51 50 0 0 79 | 34 ...
  const auto s = ss::parse(read_text(fixture("guest/6.12/schedstat.after-hackbench.txt")));
  CHECK(s.layout == ss::DomainLayout::v16);
  const auto& d0 = s.cpus[0].domains[0];
  CHECK(d0.c(ss::IdleType::busy, ss::LbField::lb_count) == 85);
  CHECK(d0.c(ss::IdleType::busy, ss::LbField::lb_imbalance) == 1829);
  CHECK(d0.c(ss::IdleType::idle, ss::LbField::lb_count) == 83);
  CHECK(d0.c(ss::IdleType::newidle, ss::LbField::lb_count) == 34);

  // The same v15 text relabelled as version 16 swaps the meaning only.
  const auto v15 = ss::parse(v15_aws_before());
  const auto v16 = ss::parse(replace_first(v15_aws_before(), "version 15", "version 16"));
  const auto& a = v15.cpus[0].domains[0].c;
  const auto& b = v16.cpus[0].domains[0].c;
  CHECK(a(ss::IdleType::idle, ss::LbField::lb_count) ==
        b(ss::IdleType::busy, ss::LbField::lb_count));
  CHECK(a(ss::IdleType::busy, ss::LbField::lb_count) ==
        b(ss::IdleType::idle, ss::LbField::lb_count));
  CHECK(a(ss::IdleType::newidle, ss::LbField::lb_count) ==
        b(ss::IdleType::newidle, ss::LbField::lb_count));
}

TEST_CASE("v17: domain names and 45 counters", "[schedstat]") {
  const auto s = ss::parse(
      read_text(fixture("schedstat/v17.aws-repro-collection-v6.19-epyc9r14-16cpu.after.txt")));
  CHECK(s.layout == ss::DomainLayout::v17);
  const auto& d = s.cpus[0].domains;
  REQUIRE(d.size() == 2);
  CHECK(d[0].name == "MC");
  CHECK(d[0].level == "MC");
  CHECK_FALSE(d[0].level_inferred);
  CHECK(d[1].name == "PKG");
  CHECK(d[1].cpumask == "ffff");
  CHECK(d[1].span == 16);
  CHECK_FALSE(s.get(d[0], field(ss::IdleType::idle, ss::LbField::lb_imbalance)));
  CHECK(s.get(d[0], field(ss::IdleType::idle, ss::LbField::lb_imbalance_task)));
}

TEST_CASE("a version 16 file whose domain lines carry a name", "[schedstat]") {
  // aws/repro-collection's patched 6.14: `version 16` + NAME + 36 counters.
  std::string text = replace_first(v15_aws_before(), "version 15", "version 16");
  text = boost::regex_replace(text, boost::regex("domain0 "), "domain0 MC ");
  text = boost::regex_replace(text, boost::regex("domain1 "), "domain1 PKG ");
  const auto s = ss::parse(text);
  CHECK(s.layout == ss::DomainLayout::v16);
  CHECK(s.cpus[5].domains[1].name == "PKG");
  CHECK(s.cpus[5].domains[1].cpumask == "ffff");
  CHECK_FALSE(s.cpus[5].domains[1].level_inferred);
  CHECK(s.cpus[0].domains[0].c(ss::IdleType::busy, ss::LbField::lb_count) == 142990);
}

TEST_CASE("levels are inferred from the cpumasks", "[schedstat]") {
  auto levels = [](const std::string& file, int cpu) {
    const auto s = ss::parse(read_text(fixture(file)));
    std::string out;
    for (const auto& c : s.cpus)
      if (c.cpu == cpu)
        for (const auto& d : c.domains) out += (out.empty() ? "" : ",") + d.level;
    return out;
  };
  // siblings cpu0+cpu4: SMT under an 8-CPU LLC
  CHECK(levels("schedstat/v15.openshift-cnto-8cpu-schedstats-off.txt", 1) == "SMT,MC");
  CHECK(levels("schedstat/v15.proc_sys_parser-6cpu-schedstats-off.txt", 0) == "MC");
  CHECK(levels("guest/6.1/schedstat.smp4-2sockets.after-hackbench.txt", 2) == "MC,PKG");
  CHECK(levels("schedstat/v15.lkml-power9-lpar-head.partial.txt", 0) == "SMT,MC,PKG,NUMA");
  // A 2-socket Xeon whose package level degenerated: the third level is
  // really NUMA; spans alone cannot tell (documented in schedstat.h).
  CHECK(levels("schedstat/v15.lkml-xeon-e5-2690v2-head.partial.txt", 0) == "SMT,MC,PKG");
  CHECK(levels("schedstat/v15.openshift-cnto-8cpu-cpu2-cpu6-isolated.txt", 2) == "");

  auto s = ss::parse(read_text(fixture("schedstat/v15.lkml-xeon-e5-2690v2-head.partial.txt")));
  ss::set_level_names(s, {"SMT", "MC", "NUMA"});
  CHECK(s.cpus[0].domains[2].level == "NUMA");
  CHECK_FALSE(s.cpus[0].domains[2].level_inferred);
}

TEST_CASE("cpumask weights", "[schedstat]") {
  CHECK(ss::cpumask_weight("3f") == 6);
  CHECK(ss::cpumask_weight("00,3ff003ff") == 20);
  CHECK(ss::cpumask_weight("ffffffff,ffffffff,ffffffff,ffffffff") == 128);
  CHECK(ss::cpumask_weight("00000000,00000011") == 2);
  CHECK(ss::cpumask_weight("xyz") == -1);
  CHECK(ss::cpumask_weight("1,,2") == -1);
  CHECK(ss::cpumask_weight("") == -1);
}

TEST_CASE("unknown layouts are errors naming the line and what was expected", "[schedstat]") {
  const std::string head = "version 15\ntimestamp 100\ncpu0 1 0 2 3 4 5 6 7 8\n";
  const std::string zeros36 =
      " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0";
  CHECK(parse_error(head + "domain0 3" + zeros36 + " 0\n") ==
        "line 4: domain line has 39 fields; expected 'domainN [NAME] CPUMASK' then 36 "
        "counters (v15/v16) or 45 (v17)");
  CHECK(parse_error(head + "domain0 3" + zeros36 + "\n") == "no error");
  CHECK(parse_error("version 14\ntimestamp 1\n") ==
        "line 1: schedstat version 14 is not supported (known: 15, 16, 17)");
  CHECK(parse_error("timestamp 1\n") == "line 1: expected 'version <number>', found 'timestamp 1'");
  CHECK(parse_error("") == "empty schedstat text: no 'version' line");
  CHECK(parse_error("version 15\ntimestamp 1\n") == "no cpu lines");
  CHECK(parse_error("version 15\ntimestamp 1\ncpu0 1 0 2 3 4 5 6 7 8 9 10 11 12\n") ==
        "line 3: cpu line has 13 counters; expected 9 (more are out-of-tree additions, e.g. "
        "mmtests' select_idle_sibling counters)");
  CHECK(parse_error("version 15\ntimestamp 1\ndomain0 3" + zeros36 + "\n") ==
        "line 3: domain line before any cpu line");
  CHECK(parse_error(head + "cpu0 1 0 2 3 4 5 6 7 8\n") == "line 4: cpu0 appears twice");
  CHECK(parse_error(head + "domain1 3" + zeros36 + "\n") ==
        "line 4: expected domain0 of cpu0, found domain1");
  CHECK(parse_error(head + "domain0 zz" + zeros36 + "\n") ==
        "line 4: 'zz' is not a cpumask (hex words separated by commas, with a bit set)");
  CHECK(parse_error("version 15\ntimestamp 1\ncpu0 1 0 2 3 x 5 6 7 8\n") ==
        "line 3: cpu field 5: 'x' is not a counter");
  CHECK(parse_error(head + "domain0 3" + zeros36.substr(0, zeros36.size() - 1) + "-\n") ==
        "line 4: domain counter 36: '-' is not a counter");
  CHECK(parse_error(head + "sched_clock 1\n") ==
        "line 4: unknown line starting 'sched_clock'; expected cpuN or domainN");
  CHECK(parse_error("version 17\ntimestamp 1\ncpu0 1 0 2 3 4 5 6 7 8\ndomain0 MC 3" + zeros36 +
                    "\n") == "line 4: domain line has 36 counters but version 17 prints 45");
  CHECK(parse_error(head + "domain0 MC 3" + zeros36 + " 0 0 0 0 0 0 0 0 0\n") ==
        "line 4: domain line has 45 counters (the v17 layout) but the file says version 15");
  CHECK(parse_error(head + "domain0 3" + zeros36 + "\ncpu1 1 0 2 3 4 5 6 7 8\ndomain0 MC 3" +
                    zeros36 + "\n") == "line 6: domain line has a name but line 4 had none");
}
