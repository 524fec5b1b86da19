// A throw-away PostgreSQL cluster described as steps: pgbench and hammerdb
// (postgres) both create one in the workload's work directory, start it,
// stop it and remove it. PostgreSQL refuses to run as root, so when the SUT
// runs steps as root the server-side tools run as an unprivileged OS user.
#pragma once

#include <string>
#include <vector>

#include "workloads/workload.h"

namespace schedlab {

// Debian keeps initdb, pg_ctl and postgres off PATH, under the version.
inline constexpr const char* kDebianPgBinDir = "/usr/lib/postgresql/15/bin";

struct PgCluster {
  std::string bin_dir = kDebianPgBinDir;
  std::string dir;           // cluster root: data/, the socket and server.log
  int port = 5432;
  std::string os_user = "postgres";  // runs the server when the SUT runs steps as root
  std::string db_user = "postgres";  // the database superuser initdb creates
  bool as_root = false;              // StepContext::sut_root
  // Listen on every address with password (scram) authentication, for
  // clients on another host; otherwise the Unix socket only, trusted.
  bool listen_tcp = false;
  std::string password;               // the superuser's, with listen_tcp
  std::int64_t shared_buffers_mb = 0;  // 0 = PostgreSQL's default

  std::string data_dir() const { return dir + "/data"; }
  std::string log_file() const { return dir + "/server.log"; }
  // argv run as os_user when the SUT runs as root, as is otherwise.
  std::vector<std::string> as_user(std::vector<std::string> argv) const;
  // The cluster directory, initdb and the settings (port, socket, memory).
  std::vector<Step> create_steps() const;
  // A server that outlives the step (setup only: init, then stop_step).
  Step start_step() const;
  Step stop_step() const;  // pg_ctl stop -m fast; harmless when already down
  // The server as a background step the runner owns and stops on every exit
  // path, ready when pg_isready says so.
  Step server_step() const;
  Step remove_step() const;
  // Client connection options for pgbench, createdb, psql.
  std::vector<std::string> client_args() const;
  // The directory every step runs in: the work directory (dir's parent).
  std::string work_dir() const;
  // A setup step on the SUT, in work_dir().
  Step setup_step(std::vector<std::string> argv,
                  std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;
};

// What a lab guest needs to run a cluster's server from bin_dir: the server
// programs (at their paths: initdb finds postgres beside itself), the
// client tools the steps run from PATH (the real binaries: Debian's
// /usr/bin ones are a Perl wrapper), the modules initdb loads, the share
// directory, the UTC zone, and the OS user.
GuestNeeds pg_guest_needs(const std::string& bin_dir, const std::string& os_user);

// mmtests' sizing for a read-only cached pgbench: shared buffers are a fifth
// of memory and the data set 80% of them; scale 1 is ~30 MiB, each further
// unit ~15 MiB. Never below 1.
std::int64_t pgbench_scale_for_memory(std::uint64_t mem_bytes);

}  // namespace schedlab
