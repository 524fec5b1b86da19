// A throw-away MariaDB server described as steps: sysbench and hammerdb
// (mariadb/mysql) create one in the workload's work directory (datadir,
// socket, pid file and error log all there, its own port), start it, stop it
// and remove it. mariadbd refuses root unless told which user to become, so
// when the SUT runs steps as root the server runs as `os_user` (--user).
#pragma once

#include <string>
#include <vector>

#include "workloads/workload.h"

namespace schedlab {

struct MariaServer {
  std::string dir;  // server root: data/, the socket, pid file, error.log
  int port = 3306;
  bool as_root = false;           // StepContext::sut_root
  std::string os_user = "mysql";  // runs the server when the SUT runs steps as root
  std::string socket() const { return dir + "/mariadbd.sock"; }
  std::string data_dir() const { return dir + "/data"; }
  std::string log_file() const { return dir + "/error.log"; }
  // The directory the server's steps run in (the work directory, which
  // os_user can search; never the directory schedlab was started from).
  std::string work_dir() const;
  // The directory and the system tables (mariadb-install-db).
  std::vector<Step> create_steps() const;
  // A server that outlives its step (start-stop-daemon), then a step that
  // waits until its socket answers: for loading, or a server for the run.
  std::vector<Step> start_steps() const;
  // SQL run through the socket as the database superuser (root by socket
  // when the SUT runs as root, else the OS user mariadb-install-db made).
  Step sql_step(const std::string& sql) const;
  // The server as a background step the runner owns and stops on every
  // exit path, ready when `mariadb-admin ping` answers on its socket.
  Step server_step() const;
  Step stop_step() const;  // mariadb-admin shutdown; harmless when already down
  Step remove_step() const;
  // mariadbd's options (datadir, socket, port, pid file, log, user).
  std::vector<std::string> server_args() const;
};

// What a lab guest needs to run a MariaDB server: mariadbd at its path,
// mariadb-install-db (a shell script) and the tools it and the steps call,
// the share directory (system tables' SQL, messages, charsets), and the
// OS user.
GuestNeeds maria_guest_needs(const std::string& os_user);

// `CREATE USER` + `GRANT` for a benchmark user reached over TCP with a
// password and over the socket (both hosts: an anonymous ''@localhost would
// otherwise shadow a '%' account). Names and passwords must already be safe
// for a quoted SQL string.
std::string maria_create_user_sql(const std::string& user, const std::string& password,
                                  const std::string& database = "");

}  // namespace schedlab
