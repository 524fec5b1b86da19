// HammerDB TPROC-C (TPC-C derived) driven by `hammerdbcli auto SCRIPT` on
// the loadgen, against MariaDB/MySQL or PostgreSQL on the SUT. schedlab
// writes the Tcl script from the config; HammerDB is not packaged in Debian
// (see workloads/README.md for installing it on a loadgen).
#pragma once

#include <optional>
#include <utility>

#include "workloads/param_table.h"
#include "workloads/workload.h"

namespace schedlab {

// hammerdb's parameters, as its rows (hammerdb.cc) declare them.
struct HammerdbParams {
  std::string db;
  std::string server;
  std::string host;
  std::int64_t port;
  std::string user;
  std::string password;
  std::int64_t warehouses;
  std::int64_t build_virtual_users;
  std::int64_t virtual_users;
  std::chrono::milliseconds rampup;
  std::chrono::milliseconds duration;
  bool allwarehouse;
  bool timeprofile;
  std::string build;
  std::string hammerdbcli;
  bool keep;
  std::chrono::milliseconds build_timeout;
  std::chrono::milliseconds timeout;
};

class Hammerdb final : public Workload {
 public:
  enum class Script { kBuild, kRun };

  Hammerdb();
  std::string name() const override { return "hammerdb"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_.specs(); }
  bool keeps_workdir(const Point& p) const override { return params_.read(p).keep; }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return "hammerdb (not in Debian; see workloads/README.md)"; }
  std::vector<ProgramSpec> programs() const override {
    return {{.name = "hammerdbcli", .package = "not packaged: see workloads/README.md"}};
  }
  std::string block_label(const Point& p) const override;
  // Managed server: a throw-away database on the SUT for the whole run, and
  // the schema when build is 'run'.
  std::vector<Step> setup_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override;
  std::vector<Step> teardown_steps(const Point& p, const StepContext& ctx) const override;
  // The database server on the SUT (hammerdbcli runs on the loadgen).
  std::vector<std::string> task_names(const Point& p, const StepContext&) const override;
  // What the output states it ran with (Workload::stated_params).
  std::vector<std::string> stated_params(const Point& given, const std::string& out,
                                         const std::string& err) const override;
  std::vector<Sample> parse(const Point& p, const std::string& out,
                            const std::string& err) const override;
  // A bare hammerdbcli name (it must run in its own directory) and more
  // loaders than buildschema takes.
  std::string check_fixed(const Point& p) const override;

  // buildschema and vurun block until done from this version on.
  static constexpr std::pair<int, int> kMinVersion{4, 6};
  // buildschema refuses more virtual users loading the schema (4.x, 5.x).
  static constexpr std::int64_t kMaxLoaders = 1024;

  // The Tcl script hammerdbcli runs. Throws std::invalid_argument for a
  // value that cannot be passed safely (braces, quotes, newlines).
  std::string script(const Point& p, const StepContext& ctx, Script which) const;
  std::string script(const HammerdbParams& p, const StepContext& ctx, Script which) const;

 private:
  ParamTable<HammerdbParams> params_;
  std::vector<MetricSpec> metrics_;
};

// The version in hammerdbcli's banner ("HammerDB CLI v4.12"), if any.
std::optional<std::pair<int, int>> hammerdb_banner_version(const std::string& text);

}  // namespace schedlab
