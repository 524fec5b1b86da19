// sysbench OLTP for real: the schedlab binary starts a throw-away MariaDB
// (mariadb-server's mariadbd, datadir and socket in the run's work
// directory), prepares the tables, runs sysbench against it, stops it. The
// SSH variant (client on the loadgen over TCP) is in ssh_lab_test.cc.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/support/config_run.h"
#include "tests/support/run_processes.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

TEST_CASE("sysbench: OLTP against a managed MariaDB on this host, threads swept", "[heavy]") {
  test::TempDir dir;
  const auto [cfg, db, run, its] = test::run_config(
      dir, "sb",
      "iterations: 2\nworkloads:\n  - sysbench: {test: [oltp_read_only], threads: [1, 2], "
      "duration: 3s, tables: 2, table_size: 1000}\n",
      600s);
  const auto table = test::schedlab_cmd({"compare", "sb", "--db", db});
  CHECK(table.out.find("sysbench-oltp_read_only") != std::string::npos);
  REQUIRE(its.size() == 4);
  std::map<std::string, double> tps;
  for (const auto& it : its) {
    CHECK(to_string(it.status) == "ok");
    std::map<std::string, double> got;
    std::size_t intervals = 0;
    for (const auto& s : it.samples) {
      got[s.metric] = s.value;
      if (s.metric == "interval_tps") ++intervals;
    }
    REQUIRE(got.count("tps"));
    CHECK(got["tps"] > 0);
    CHECK(got["qps"] > got["tps"]);  // read-only: 14 queries per transaction
    CHECK(got["errors"] == 0);
    CHECK(intervals >= 2);  // --report-interval=1 over 3 s
    tps[it.row] += got["tps"] / 2;
  }
  WARN("sysbench oltp_read_only on this host, tps by threads: 1 -> " << tps["1"] << ", 2 -> " << tps["2"]);
  // The server is stopped and its work directory gone.
  const auto dirs = test::workdirs(db, run.id);
  REQUIRE(dirs.size() == 1);
  CHECK(test::processes_in(dirs).empty());
  CHECK_FALSE(std::filesystem::exists(dirs.front()));
}
