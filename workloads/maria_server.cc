#include "workloads/maria_server.h"

#include <fmt/format.h>

#include <filesystem>

namespace schedlab {
namespace {

using std::chrono::seconds;

}  // namespace

std::string MariaServer::work_dir() const {
  return std::filesystem::path(dir).parent_path().string();
}

Step MariaServer::sql_step(const std::string& sql) const {
  Step s{.role = Role::kSut,
         .argv = {"mariadb", "--no-defaults", "--socket=" + socket(), "--batch"},
         .timeout = seconds(120),
         .measured = false,
         .cwd = work_dir()};
  if (as_root) s.argv.insert(s.argv.end(), {"-u", "root"});
  s.stdin_data = sql;
  return s;
}

std::vector<std::string> MariaServer::server_args() const {
  std::vector<std::string> args = {"--no-defaults",
                                   "--datadir=" + data_dir(),
                                   "--socket=" + socket(),
                                   "--port=" + std::to_string(port),
                                   "--bind-address=0.0.0.0",
                                   "--pid-file=" + dir + "/mariadbd.pid",
                                   "--log-error=" + log_file()};
  if (as_root) args.push_back("--user=" + os_user);
  return args;
}

std::vector<Step> MariaServer::create_steps() const {
  const auto step = [this](std::vector<std::string> argv, seconds timeout = seconds(60)) {
    return Step{.role = Role::kSut,
                .argv = std::move(argv),
                .timeout = timeout,
                .measured = false,
                .cwd = work_dir()};
  };
  std::vector<Step> steps;
  if (as_root) {
    // os_user must reach the server's directory: the work directory only
    // gains search permission, never read.
    steps.push_back(step({"chmod", "o+x", work_dir()}));
    steps.push_back(step({"install", "-d", "-m", "0700", "-o", os_user, dir}));
  } else {
    steps.push_back(step({"mkdir", "-p", "-m", "0700", dir}));
  }
  std::vector<std::string> install = {"mariadb-install-db", "--no-defaults",
                                      "--datadir=" + data_dir(), "--skip-test-db",
                                      "--auth-root-authentication-method=socket"};
  if (as_root) install.push_back("--user=" + os_user);
  steps.push_back(step(install, seconds(300)));
  return steps;
}

std::vector<Step> MariaServer::start_steps() const {
  // start-stop-daemon returns at once; the wait step blocks until the
  // socket answers (or the server died: then its log says why).
  std::vector<std::string> argv = {
      "start-stop-daemon",   "--start", "--background",       "--pidfile",
      dir + "/mariadbd.pid", "--exec",  "/usr/sbin/mariadbd", "--"};
  for (const auto& a : server_args()) argv.push_back(a);
  Step start{.role = Role::kSut,
             .argv = argv,
             .timeout = seconds(60),
             .measured = false,
             .cwd = work_dir()};
  Step wait{.role = Role::kSut,
            .argv = {"mariadb-admin", "--no-defaults", "--socket=" + socket(), "--wait=120",
                     "--connect-timeout=2", "ping"},
            .timeout = seconds(150),
            .measured = false,
            .cwd = work_dir()};
  return {start, wait};
}

Step MariaServer::server_step() const {
  std::vector<std::string> argv = {"/usr/sbin/mariadbd"};
  for (const auto& a : server_args()) argv.push_back(a);
  Step s{.role = Role::kSut,
         .argv = argv,
         .timeout = seconds(60),
         .measured = false,
         .background = true,
         .cwd = work_dir()};
  s.ready = ReadyCheck{
      .argv = {"mariadb-admin", "--no-defaults", "--socket=" + socket(), "--connect-timeout=2",
               "ping"},
      .timeout = seconds(120),
      .what = fmt::format("MariaDB (mariadb-admin ping) on socket {} port {}; its log is {}",
                          socket(), port, log_file())};
  return s;
}

Step MariaServer::stop_step() const {
  Step s = sql_step("");
  s.argv = {"mariadb-admin", "--no-defaults", "--socket=" + socket(), "shutdown"};
  s.ignore_failure = true;
  return s;
}

Step MariaServer::remove_step() const {
  return Step{.role = Role::kSut,
              .argv = {"rm", "-rf", "--", dir},
              .timeout = seconds(120),
              .measured = false,
              .cwd = work_dir()};
}

GuestNeeds maria_guest_needs(const std::string& os_user) {
  GuestNeeds needs;
  needs.programs.push_back({"/usr/sbin/mariadbd"});
  for (const char* p : {"/usr/bin/mariadb-install-db", "/usr/bin/my_print_defaults", "/usr/bin/resolveip",
                        "/usr/bin/mariadb", "/usr/bin/mariadb-admin", "/usr/bin/install"})
    needs.programs.push_back({p, true});
  needs.files.push_back("/usr/share/mysql");
  needs.users.push_back(os_user);
  return needs;
}

std::string maria_create_user_sql(const std::string& user, const std::string& password,
                                  const std::string& database) {
  std::string sql;
  if (!database.empty()) sql += fmt::format("CREATE DATABASE IF NOT EXISTS `{}`;\n", database);
  for (const char* h : {"%", "localhost"})
    sql += fmt::format(
        "CREATE USER IF NOT EXISTS '{0}'@'{2}' IDENTIFIED BY '{1}';\n"
        "GRANT ALL PRIVILEGES ON *.* TO '{0}'@'{2}' WITH GRANT OPTION;\n",
        user, password, h);
  return sql;
}

}  // namespace schedlab
