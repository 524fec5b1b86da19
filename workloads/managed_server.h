// The lifecycle of a workload that measures a throw-away database server it
// makes itself (pgbench's PostgreSQL cluster, sysbench's MariaDB): created
// and loaded in setup, run per point as a background step the runner owns
// (so it runs under the variant's knobs and is stopped on every exit path),
// removed at the end unless the point keeps it. Server is PgCluster or
// MariaServer: server_step, stop_step, remove_step.
#pragma once

#include <vector>

#include "workloads/workload.h"

namespace schedlab {

template <class Server>
class ManagedServerWorkload : public Workload {
 public:
  // The point's server in the work directory ctx names.
  virtual Server server(const Point& p, const StepContext& ctx) const = 0;

  std::vector<Step> point_setup_steps(const Point& p, const StepContext& ctx) const override {
    return {server(p, ctx).server_step()};
  }
  std::vector<Step> point_teardown_steps(const Point& p, const StepContext& ctx) const override {
    // A clean shutdown; the runner then stops whatever is left of the group.
    return {server(p, ctx).stop_step()};
  }
  std::vector<Step> teardown_steps(const Point& p, const StepContext& ctx) const override {
    const Server s = server(p, ctx);
    std::vector<Step> steps = {s.stop_step()};  // setup may have died with its server up
    if (!this->keeps_workdir(p)) steps.push_back(s.remove_step());
    return steps;
  }

 protected:
  // Setup's last step: the server that loaded the data stops, and one that
  // will not stop must not go unnoticed.
  static Step stop_after_loading(const Server& s) {
    Step stop = s.stop_step();
    stop.ignore_failure = false;
    return stop;
  }
};

}  // namespace schedlab
