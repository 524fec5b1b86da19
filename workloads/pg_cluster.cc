#include "workloads/pg_cluster.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace schedlab {
namespace {

using std::chrono::seconds;

// postgresql.conf string literal: single quotes, a quote doubled.
std::string conf_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("''") : std::string(1, c);
  return q + "'";
}

}  // namespace

Step PgCluster::setup_step(std::vector<std::string> argv, std::chrono::milliseconds timeout) const {
  // In the work directory: os_user may not read the directory schedlab was
  // started from, and initdb fails there.
  return Step{.role = Role::kSut,
              .argv = std::move(argv),
              .timeout = timeout,
              .measured = false,
              .cwd = work_dir()};
}

std::string PgCluster::work_dir() const {
  return std::filesystem::path(dir).parent_path().string();
}

std::vector<std::string> PgCluster::as_user(std::vector<std::string> argv) const {
  if (!as_root) return argv;
  // setpriv, not runuser: no PAM session, which a lab guest has no
  // configuration for.
  std::vector<std::string> wrapped = {"setpriv", "--reuid=" + os_user, "--regid=" + os_user, "--init-groups",
                                      "--"};
  wrapped.insert(wrapped.end(), argv.begin(), argv.end());
  return wrapped;
}

std::vector<Step> PgCluster::create_steps() const {
  std::vector<Step> steps;
  if (as_root) {
    // os_user must reach the cluster: the work directory only gains search
    // permission, never read.
    if (!work_dir().empty()) steps.push_back(setup_step({"chmod", "o+x", work_dir()}));
    steps.push_back(setup_step({"install", "-d", "-m", "0700", "-o", os_user, dir}));
  } else {
    steps.push_back(setup_step({"mkdir", "-p", "-m", "0700", dir}));
  }
  std::vector<std::string> initdb = {bin_dir + "/initdb", "-D", data_dir(), "-U", db_user,
                                     "-E", "UTF8", "--auth-local=trust"};
  if (listen_tcp) {
    // The password travels in a file, never on a command line.
    const std::string pwfile = dir + "/pwfile";
    Step pw = setup_step(as_user({"tee", pwfile}));
    pw.stdin_data = password + "\n";
    steps.push_back(pw);
    initdb.insert(initdb.end(), {"--auth-host=scram-sha-256", "--pwfile=" + pwfile});
  } else {
    initdb.push_back("--auth-host=reject");
  }
  steps.push_back(setup_step(as_user(initdb), seconds(120)));
  if (listen_tcp) steps.push_back(setup_step({"rm", "-f", "--", dir + "/pwfile"}));
  std::string conf = fmt::format("# schedlab\nport = {}\nunix_socket_directories = {}\n", port,
                                 conf_quote(dir));
  conf += fmt::format("listen_addresses = {}\n", listen_tcp ? "'*'" : "''");
  if (shared_buffers_mb > 0) conf += fmt::format("shared_buffers = {}MB\n", shared_buffers_mb);
  Step settings = setup_step(as_user({"tee", "-a", data_dir() + "/postgresql.conf"}));
  settings.stdin_data = conf;
  steps.push_back(settings);
  if (listen_tcp) {
    Step hba = setup_step(as_user({"tee", "-a", data_dir() + "/pg_hba.conf"}));
    hba.stdin_data = "host all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n";
    steps.push_back(hba);
  }
  return steps;
}

Step PgCluster::start_step() const {
  return setup_step(as_user({bin_dir + "/pg_ctl", "-D", data_dir(), "-l", log_file(), "-w", "-t",
                             "120", "start"}),
                    seconds(150));
}

Step PgCluster::stop_step() const {
  Step s = setup_step(as_user({bin_dir + "/pg_ctl", "-D", data_dir(), "-m", "fast", "-w", "stop"}),
                      seconds(120));
  s.ignore_failure = true;
  return s;
}

Step PgCluster::server_step() const {
  Step s = setup_step(as_user({bin_dir + "/postgres", "-D", data_dir()}));
  s.background = true;
  s.ready = ReadyCheck{
      .argv = {"pg_isready", "-q", "-h", dir, "-p", std::to_string(port), "-U", db_user},
      .timeout = seconds(120),
      .what = fmt::format("PostgreSQL (pg_isready) on socket {} port {}", dir, port)};
  return s;
}

Step PgCluster::remove_step() const { return setup_step({"rm", "-rf", "--", dir}); }

std::vector<std::string> PgCluster::client_args() const {
  return {"-h", dir, "-p", std::to_string(port), "-U", db_user};
}

GuestNeeds pg_guest_needs(const std::string& bin_dir, const std::string& os_user) {
  const std::filesystem::path bin(bin_dir);
  const std::filesystem::path root = bin.parent_path();  // /usr/lib/postgresql/15
  GuestNeeds needs;
  for (const char* p : {"initdb", "postgres", "pg_ctl"}) needs.programs.push_back({(bin / p).string()});
  for (const char* p : {"pg_isready", "createdb", "psql"}) needs.programs.push_back({(bin / p).string(), true});
  // as_user, and install -o (busybox-static has no install).
  for (const char* p : {"/usr/bin/setpriv", "/usr/bin/install"}) needs.programs.push_back({p, true});
  // initdb loads these two (plpgsql, the snowball dictionaries); the
  // others, and their libraries (LLVM for the JIT), stay out.
  for (const char* m : {"plpgsql.so", "dict_snowball.so"}) needs.files.push_back((root / "lib" / m).string());
  needs.files.push_back("/usr/share/postgresql/" + root.filename().string());
  // initdb picks the system's zone; with TZ unset in the guest that is UTC.
  for (const char* z : {"UTC", "Etc/UTC", "GMT", "Etc/GMT"}) needs.files.push_back(std::string("/usr/share/zoneinfo/") + z);
  needs.users.push_back(os_user);
  needs.kernel_config.push_back({"CONFIG_SYSVIPC", "y"});  // the server's interlock segment
  return needs;
}

std::int64_t pgbench_scale_for_memory(std::uint64_t mem_bytes) {
  constexpr std::int64_t kMiB = 1024 * 1024;
  const auto shared_buffers = static_cast<std::int64_t>(mem_bytes / 5);
  const std::int64_t target = shared_buffers * 4 / 5;
  return std::max<std::int64_t>(1, (target - 30 * kMiB) / (15 * kMiB));
}

}  // namespace schedlab
