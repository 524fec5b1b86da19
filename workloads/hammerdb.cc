#include "workloads/hammerdb.h"

#include <fmt/format.h>

#include <boost/regex.hpp>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "base/text.h"
#include "workloads/maria_server.h"
#include "workloads/pg_cluster.h"

namespace schedlab {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

bool is_postgres(const HammerdbParams& p) {
  return p.db == "postgres";
}

// The stored procedures HammerDB's time profile reports (TPROC-C), as its
// PROC lines name them in lower case.
constexpr std::pair<const char*, const char*> kProfiledProcs[] = {
    {"neword", "new order (NEWORD)"},
    {"payment", "payment (PAYMENT)"},
    {"delivery", "delivery (DELIVERY)"},
    {"slev", "stock level (SLEV)"},
    {"ostat", "order status (OSTAT)"}};

// HammerDB appends each run's time profile to this file in its temp
// directory (xtprof's findtempdir: $TMP first).
std::string profile_path(const StepContext& ctx);

// The last "SUMMARY OF N ACTIVE VIRTUAL USERS" block of a time profile
// (hdbxtprofile.log; the file is appended to, one report per run): each
// procedure's P50/P95/P99/AVG in ms. Nothing when the text has none.
std::vector<Sample> profile_summary(const std::string& text, std::int64_t virtual_users) {
  static const boost::regex summary(
      R"(^>>>>> SUMMARY OF (\d+) ACTIVE VIRTUAL USERS : MEDIAN ELAPSED TIME : [0-9.]+ms\s*$)");
  static const boost::regex proc(R"(^>>>>> PROC: (\w+)\s*$)");
  static const boost::regex field(R"((AVG|P99|P95|P50): ([0-9.]+)ms)");
  const auto lines = split_lines(text);
  std::size_t start = lines.size();
  std::int64_t users = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    boost::smatch m;
    const std::string line(lines[i]);
    if (boost::regex_match(line, m, summary)) {
      start = i;
      users = std::stoll(m[1].str().substr(0, 9));
    }
  }
  if (start == lines.size()) return {};
  const int at = static_cast<int>(start) + 1;
  if (users != virtual_users)
    throw ParseError("hammerdb", at,
                     fmt::format("line {}: the time profile's summary covers {} virtual users, the run had {} "
                                 "(HammerDB's 'Timing Data Incomplete')",
                                 at, users, virtual_users));
  std::map<std::string, std::map<std::string, double>> procs;
  std::map<std::string, int> proc_line;
  std::string current;
  for (std::size_t i = start + 1; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    const int lineno = static_cast<int>(i) + 1;
    boost::smatch m;
    if (line.starts_with("+-+-") || (line.starts_with(">>>>>") && !boost::regex_match(line, m, proc))) break;
    if (boost::regex_match(line, m, proc)) {
      current = m[1].str();
      for (auto& c : current) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      proc_line[current] = lineno;
      continue;
    }
    for (boost::sregex_iterator it(line.begin(), line.end(), field), end; it != end; ++it)
      if (!current.empty()) procs[current][(*it)[1].str()] = captured_number("hammerdb", lineno, (*it)[2].str());
  }
  std::vector<Sample> out;
  for (const auto& [name, what] : kProfiledProcs) {
    const auto p = procs.find(name);
    if (p == procs.end()) {
      if (std::string_view(name) == "neword")
        throw ParseError("hammerdb", at, fmt::format("line {}: the time profile's summary has no NEWORD", at));
      continue;
    }
    for (const auto& [key, stat] : {std::pair{"P50", "p50"}, {"P95", "p95"}, {"P99", "p99"}, {"AVG", "avg"}}) {
      const auto v = p->second.find(key);
      if (v == p->second.end())
        throw ParseError("hammerdb", proc_line[name],
                         fmt::format("line {}: the time profile's {} has no {}", proc_line[name], name, key));
      out.push_back({fmt::format("{}_{}", name, stat), v->second});
    }
  }
  return out;
}

// HammerDB's dictionary prefix and `dbset db` name per database.
std::string prefix(const HammerdbParams& p) {
  const std::string& db = p.db;
  if (db == "postgres") return "pg";
  if (db == "mariadb") return "maria";
  return "mysql";
}

// HammerDB counts rampup and duration in whole minutes.
std::int64_t whole_minutes(milliseconds d) { return (d.count() + 59999) / 60000; }

// Values reach Tcl (braced words) and SQL (quoted strings); the safe set
// needs no escaping in either.
const std::string& safe(const std::string& key, const std::string& v) {
  static const boost::regex ok(R"(^[A-Za-z0-9_.:@%+=,/-]+$)");
  if (!boost::regex_match(v, ok))
    throw std::invalid_argument(fmt::format(
        "hammerdb: {} '{}' may use only letters, digits and _ . : @ % + = , / -", key, v));
  return v;
}

std::string host(const HammerdbParams& p, const StepContext& ctx) {
  if (!p.host.empty()) return p.host;
  return ctx.sut_address.empty() ? "127.0.0.1" : ctx.sut_address;
}

std::int64_t port(const HammerdbParams& p, const StepContext& ctx) {
  if (p.port > 0) return p.port;
  if (p.server == "managed" && ctx.port > 0) return ctx.port;
  return is_postgres(p) ? 5432 : 3306;
}

std::string server_dir(const StepContext& ctx) { return ctx.workdir + "/hammerdb-server"; }

PgCluster pg_cluster(const HammerdbParams& p, const StepContext& ctx) {
  PgCluster c;
  c.dir = server_dir(ctx);
  c.port = static_cast<int>(port(p, ctx));
  c.as_root = ctx.sut_root;
  c.listen_tcp = true;  // the loadgen connects over TCP
  c.password = safe("password", p.password);
  return c;
}

MariaServer maria(const HammerdbParams& p, const StepContext& ctx) {
  return MariaServer{
      .dir = server_dir(ctx), .port = static_cast<int>(port(p, ctx)), .as_root = ctx.sut_root};
}

// The host names HammerDB's MySQL and MariaDB drivers take for "this
// machine": with them and a socket other than null they connect through the
// Unix socket, not TCP (src/mysql/mysqloltp.tcl, src/mariadb/mariaoltp.tcl).
bool local_host(const std::string& h) {
  return h == "127.0.0.1" || h == "localhost";
}

// Each hammerdbcli call gets a TMP of its own under the work directory:
// HammerDB keeps every diset in SQLite files under $TMP, and keys left there
// by an earlier session would otherwise apply to this run.
std::string tmp_dir(const StepContext& ctx) {
  return ctx.workdir + "/hammerdb-tmp";
}

// hammerdbcli starts with `exec ./bin/tclsh8.6`: it must run in its own
// directory, whichever script it runs.
Step cli_step(const HammerdbParams& p, const StepContext& ctx, const std::string& script,
              bool measured, milliseconds timeout) {
  const std::string& cli = p.hammerdbcli;
  Step run{.role = Role::kLoadgen,
           .argv = {cli, "auto", script},
           .timeout = timeout,
           .measured = measured};
  run.cwd = std::filesystem::path(cli).parent_path().string();
  run.env["TMP"] = tmp_dir(ctx);
  return run;
}

Step loadgen_mkdirs(const StepContext& ctx) {
  return Step{.role = Role::kLoadgen,
              .argv = {"mkdir", "-p", ctx.workdir, tmp_dir(ctx)},
              .measured = false};
}

std::string profile_path(const StepContext& ctx) { return tmp_dir(ctx) + "/hdbxtprofile.log"; }

std::string script_path(const StepContext& ctx, Hammerdb::Script which) {
  return ctx.workdir + (which == Hammerdb::Script::kBuild ? "/hammerdb-build.tcl"
                                                          : "/hammerdb-run.tcl");
}

// Write the script on the loadgen, then run it there.
std::vector<Step> script_steps(const Hammerdb& w, const HammerdbParams& p, const StepContext& ctx,
                               Hammerdb::Script which, bool measured, milliseconds timeout) {
  const std::string path = script_path(ctx, which);
  Step write{.role = Role::kLoadgen, .argv = {"tee", path}, .measured = false};
  write.stdin_data = w.script(p, ctx, which);
  return {loadgen_mkdirs(ctx), write, cli_step(p, ctx, path, measured, timeout)};
}

}  // namespace

Hammerdb::Hammerdb() {
  const auto str = [](const char* name, const char* def, const char* help,
                      std::vector<std::string> choices = {}) {
    return ParamSpec{.name = name, .type = ParamType::kString, .default_value = std::string(def),
                     .help = help, .choices = std::move(choices)};
  };
  using P = HammerdbParams;
  params_ = ParamTable<P>({
      {&P::db, str("db", "mariadb", "database on the SUT", {"mariadb", "mysql", "postgres"})},
      {&P::server,
       str("server", "managed",
           "managed: schedlab creates, starts, stops and removes a throw-away database on the "
           "SUT; external: one already runs there",
           {"managed", "external"})},
      {&P::host,
       str("host", "", "database address as the loadgen sees it; empty = the SUT's address")},
      {&P::port,
       {.name = "port",
        .default_value = std::int64_t{0},
        .help = "database TCP port; 0 = the port schedlab reserves (managed) or 3306/5432",
        .min = 0}},
      {&P::user,
       str("user", "hammerdb",
           "database user HammerDB connects as (MariaDB/MySQL), or the TPROC-C schema owner it "
           "creates (PostgreSQL; the superuser is postgres)")},
      {&P::password,
       str("password", "hammerdb", "that user's password (and the PostgreSQL superuser's)")},
      {&P::warehouses,
       {.name = "warehouses",
        .default_value = std::int64_t{8},
        .help = "TPROC-C warehouses in the schema (*_count_ware)",
        .unit = "warehouses",
        .min = 1}},
      {&P::build_virtual_users,
       {.name = "build_virtual_users",
        .default_value = std::int64_t{0},
        .help = "virtual users loading the schema (*_num_vu); 0 = one per warehouse",
        .unit = "users",
        .min = 0}},
      {&P::virtual_users,
       {.name = "virtual_users",
        .axis = Axis::kRow,
        .default_value = std::int64_t{1},
        .help = "active virtual users in the timed run (vuset vu); one row per value",
        .unit = "users",
        .min = 1}},
      {&P::rampup,
       {.name = "rampup",
        .default_value = milliseconds(minutes(2)),
        .help = "unmeasured ramp-up before the timed period (whole minutes)",
        .unit = "duration"}},
      {&P::duration,
       {.name = "duration",
        .default_value = milliseconds(minutes(5)),
        .help = "timed period (whole minutes)",
        .unit = "duration"}},
      {&P::allwarehouse,
       {.name = "allwarehouse",
        .default_value = false,
        .help = "every virtual user uses all warehouses (*_allwarehouse)"}},
      {&P::timeprofile,
       {.name = "timeprofile",
        .default_value = false,
        .help = "collect per-transaction response times (*_timeprofile): the "
                "<proc>_p50/p95/p99/avg metrics "
                "from hdbxtprofile.log in the run's TMP, its summary over the active virtual users "
                "(HammerDB's "
                "'SUMMARY OF N ACTIVE VIRTUAL USERS', not one user's); needs xt_unique_log_name 0, "
                "HammerDB's "
                "default"}},
      {&P::build,
       str("build", "run",
           "build the schema once per run (run), before every iteration (iteration), or never "
           "(none: it exists)",
           {"run", "iteration", "none"})},
      {&P::hammerdbcli,
       str("hammerdbcli", "/opt/HammerDB-4.12/hammerdbcli",
           "path of hammerdbcli in the HammerDB directory on the loadgen (4.6 or later); every "
           "call runs in that directory")},
      {&P::keep,
       {.name = "keep",
        .default_value = false,
        .help = "keep the managed database's directory after the run (it is stopped either way)"}},
      {&P::build_timeout,
       {.name = "build_timeout",
        .default_value = milliseconds(hours(2)),
        .help = "limit for one schema build",
        .unit = "duration"}},
      {&P::timeout,
       {.name = "timeout",
        .default_value = milliseconds(0),
        .help = "limit for one timed run; 0 = rampup + duration + 10m",
        .unit = "duration"}},
  });
  metrics_ = {
      rate_metric("nopm", "NOPM", 0, "new orders per minute (comparable across databases)"),
      rate_metric("tpm", "TPM", 0, "database transactions per minute as the database counts them"),
  };
  // The time profile's five stored procedures, each as HammerDB's summary
  // over the active virtual users reports it.
  for (const auto& [proc, what] : kProfiledProcs)
    for (const auto& [stat, label] : {std::pair{"p50", "median"}, {"p95", "95th percentile"},
                                      {"p99", "99th percentile"}, {"avg", "mean"}})
      metrics_.push_back(cost_metric(
          fmt::format("{}_{}", proc, stat), "ms", 3,
          fmt::format("with timeprofile: {} response time of {} over all active virtual users "
                      "(the time profile's summary)",
                      label, what)));
}

std::string Hammerdb::description() const {
  return "HammerDB TPROC-C against MariaDB/MySQL or PostgreSQL (NOPM, higher is better)";
}

std::string Hammerdb::block_label(const Point& point) const {
  const auto p = params_.read(point);
  return "hammerdb-" + p.text(&HammerdbParams::db) + "-tprocc";
}

std::string Hammerdb::script(const Point& point, const StepContext& ctx, Script which) const {
  return script(params_.read(point), ctx, which);
}

std::string Hammerdb::script(const HammerdbParams& p, const StepContext& ctx, Script which) const {
  const std::string x = prefix(p);
  std::string s = fmt::format("# Generated by schedlab: {} script\n",
                              which == Script::kBuild ? "schema build" : "timed run");
  const auto set = [&s](const char* dict, const std::string& key, const std::string& value) {
    s += fmt::format("diset {} {} {{{}}}\n", dict, key, value);
  };
  s += fmt::format("dbset db {}\ndbset bm TPC-C\n", x);
  set("connection", x + "_host", safe("host", host(p, ctx)));
  set("connection", x + "_port", std::to_string(port(p, ctx)));
  if (!is_postgres(p)) {
    // A local host means the socket to HammerDB: the managed server's own,
    // or none (TCP) for an external server.
    const bool own_socket = p.server == "managed" && local_host(host(p, ctx));
    set("connection", x + "_socket", own_socket ? safe("socket", maria(p, ctx).socket()) : "null");
  }
  const std::string& user = safe("user", p.user);
  const std::string& pass = safe("password", p.password);
  if (is_postgres(p)) {
    set("tpcc", "pg_superuser", "postgres");
    set("tpcc", "pg_superuserpass", pass);
    set("tpcc", "pg_defaultdbase", "postgres");
  }
  set("tpcc", x + "_user", user);
  set("tpcc", x + "_pass", pass);
  set("tpcc", x + "_dbase", "tpcc");
  const std::int64_t wh = p.warehouses;
  set("tpcc", x + "_count_ware", std::to_string(wh));
  if (which == Script::kBuild) {
    const std::int64_t loaders = p.build_virtual_users;
    set("tpcc", x + "_num_vu", std::to_string(loaders > 0 ? loaders : wh));
    s += "puts \"schedlab: schema build started\"\nbuildschema\n"
         "puts \"schedlab: schema build complete\"\n";
    return s;
  }
  set("tpcc", x + "_driver", "timed");
  set("tpcc", x + "_rampup", std::to_string(whole_minutes(p.rampup)));
  set("tpcc", x + "_duration", std::to_string(whole_minutes(p.duration)));
  set("tpcc", x + "_allwarehouse", p.allwarehouse ? "true" : "false");
  set("tpcc", x + "_timeprofile", p.timeprofile ? "true" : "false");
  s += fmt::format(
      "loadscript\nvuset vu {}\nvuset logtotemp 1\nvucreate\n"
      "puts \"schedlab: timed run started\"\nvurun\nvudestroy\n"
      "puts \"schedlab: timed run complete\"\n",
      p.virtual_users);
  return s;
}

std::vector<Step> Hammerdb::setup_steps(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  std::vector<Step> steps;
  if (p.server == "managed") {
    if (ctx.workdir.empty()) throw std::invalid_argument("hammerdb: the runner gave no work directory");
    if (is_postgres(p)) {
      const PgCluster c = pg_cluster(p, ctx);
      steps = c.create_steps();
      steps.push_back(c.start_step());
    } else {
      const MariaServer m = maria(p, ctx);
      steps = m.create_steps();
      for (auto& st : m.start_steps()) steps.push_back(st);
      steps.push_back(
          m.sql_step(maria_create_user_sql(safe("user", p.user), safe("password", p.password))));
    }
  }
  if (p.build == "run") {
    auto build = script_steps(*this, p, ctx, Script::kBuild, false, p.build_timeout);
    steps.insert(steps.end(), build.begin(), build.end());
  }
  return steps;
}

std::vector<Step> Hammerdb::iteration_steps(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  std::vector<Step> steps;
  if (p.build == "iteration") {
    // A fresh schema each time: the previous one goes first.
    Step drop{.role = Role::kLoadgen, .argv = {"tee", ctx.workdir + "/hammerdb-drop.tcl"},
              .measured = false};
    std::string text = script(p, ctx, Script::kBuild);
    text = text.substr(0, text.find("puts \"schedlab: schema build started\""));
    drop.stdin_data = text + "deleteschema\n";
    Step run_drop = cli_step(p, ctx, ctx.workdir + "/hammerdb-drop.tcl", false, p.build_timeout);
    run_drop.ignore_failure = true;  // nothing to drop the first time
    steps = {loadgen_mkdirs(ctx), drop, run_drop};
    auto build = script_steps(*this, p, ctx, Script::kBuild, false, p.build_timeout);
    steps.insert(steps.end(), build.begin(), build.end());
  }
  milliseconds timeout = p.timeout;
  if (timeout.count() == 0) timeout = p.rampup + p.duration + minutes(10);
  auto run = script_steps(*this, p, ctx, Script::kRun, true, timeout);
  if (p.timeprofile) {
    // HammerDB appends to the file: this run's report is the only one read.
    run.insert(run.end() - 1, Step{.role = Role::kLoadgen, .argv = {"rm", "-f", "--", profile_path(ctx)},
                                   .measured = false});
    run.push_back(Step{.role = Role::kLoadgen, .argv = {"cat", "--", profile_path(ctx)}});
  }
  steps.insert(steps.end(), run.begin(), run.end());
  return steps;
}

std::vector<Step> Hammerdb::teardown_steps(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  if (p.server != "managed") return {};
  std::vector<Step> steps;
  if (is_postgres(p)) {
    const PgCluster c = pg_cluster(p, ctx);
    steps.push_back(c.stop_step());
    if (!p.keep) steps.push_back(c.remove_step());
  } else {
    const MariaServer m = maria(p, ctx);
    steps.push_back(m.stop_step());
    if (!p.keep) steps.push_back(m.remove_step());
  }
  return steps;
}

std::string Hammerdb::check_fixed(const Point& point) const {
  const auto p = params_.read(point);
  const std::string& cli = p.hammerdbcli;
  if (cli.find('/') == std::string::npos)
    return fmt::format(
        "hammerdbcli '{}': give its path in the HammerDB directory (it starts ./bin/tclsh8.6 "
        "relative to the current directory), e.g. /opt/HammerDB-4.12/hammerdbcli",
        cli);
  const std::int64_t loaders = p.build_virtual_users > 0 ? p.build_virtual_users : p.warehouses;
  if (loaders > kMaxLoaders)
    return fmt::format(
        "{} schema loaders (build_virtual_users, or one per warehouse when it is 0): HammerDB's "
        "buildschema refuses more than {}; set build_virtual_users",
        loaders, kMaxLoaders);
  return "";
}

std::optional<std::pair<int, int>> hammerdb_banner_version(const std::string& text) {
  static const boost::regex banner(R"(HammerDB CLI v(\d+)\.(\d+))");
  boost::smatch m;
  if (!boost::regex_search(text, m, banner)) return std::nullopt;
  return std::pair{std::stoi(m[1]), std::stoi(m[2])};
}

std::vector<std::string> Hammerdb::task_names(const Point& p, const StepContext&) const {
  if (is_postgres(params_.read(p))) return {"postgres"};
  // Debian's MariaDB server is mariadbd; MySQL's (and older MariaDB's) mysqld.
  return {"mariadbd", "mysqld"};
}

std::vector<Sample> Hammerdb::parse(const Point& point, const std::string& out,
                                    const std::string& err) const {
  const auto p = params_.read(point);
  // Current order, and the pre-2020 one; the database name may hold spaces
  // ("SQL Server"). The jobs API repeats the line without "Vuser 1:".
  static const boost::regex nopm_first(
      R"(TEST RESULT : System achieved (\d+) NOPM from (\d+) (.+?) TPM)");
  static const boost::regex tpm_first(R"(TEST RESULT : System achieved (\d+) (.+?) TPM at (\d+) NOPM)");
  static const boost::regex configured(R"((\d+) Active Virtual Users configured)");
  static const boost::regex async_configured(R"((\d+) VU \* \d+ AC = \d+ Active Sessions configured)");
  struct Result {
    double nopm, tpm;
    std::optional<std::int64_t> vus;
    bool from_vuser;
    int line;
  };
  std::vector<Result> results;
  std::optional<std::int64_t> vus;
  const std::string text = join_output(out, err);
  // Before 4.6 buildschema and vurun return at once and the script's next
  // command cuts the run short: such a result is not a timed run.
  if (const auto v = hammerdb_banner_version(text); v && *v < kMinVersion)
    throw ParseError(name(), 0,
                     fmt::format("HammerDB CLI v{}.{}: buildschema and vurun wait for their "
                                 "virtual users only from v{}.{} on; install {}.{} or later",
                                 v->first, v->second, kMinVersion.first, kMinVersion.second,
                                 kMinVersion.first, kMinVersion.second));
  const auto lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    const int lineno = static_cast<int>(i) + 1;
    boost::smatch m;
    // hammerdbcli exits 0 when virtual users fail (its gencli.tcl prints
    // "Vuser N:FINISHED FAILED" and "Error in Virtual User N: ..."); a
    // result next to them counts only the users that survived.
    if (line.find(":FINISHED FAILED") != std::string::npos ||
        line.find("Error in Virtual User") != std::string::npos)
      throw ParseError(name(), lineno,
                       fmt::format("line {}: a virtual user failed: {}", lineno, excerpt(line, 200)));
    if (boost::regex_search(line, m, configured) || boost::regex_search(line, m, async_configured)) {
      vus = std::stoll(m[1]);
    } else if (boost::regex_search(line, m, nopm_first)) {
      results.push_back({captured_number(name(), lineno, m[1].str()), captured_number(name(), lineno, m[2].str()), vus, line.find("Vuser") != std::string::npos, lineno});
    } else if (boost::regex_search(line, m, tpm_first)) {
      results.push_back({captured_number(name(), lineno, m[3].str()), captured_number(name(), lineno, m[1].str()), vus, line.find("Vuser") != std::string::npos, lineno});
    } else if (line.find("TEST RESULT") != std::string::npos) {
      throw ParseError(name(), lineno, fmt::format("line {}: unrecognised TEST RESULT line: {}", lineno, line));
    }
  }
  // The monitor's own line wins over the JSON echo of the same result.
  const bool any_vuser = std::any_of(results.begin(), results.end(), [](const Result& r) { return r.from_vuser; });
  std::erase_if(results, [&](const Result& r) { return any_vuser && !r.from_vuser; });
  if (results.empty())
    throw ParseError(name(), 0,
                     "no 'TEST RESULT : System achieved N NOPM from M <DB> TPM' line in the output "
                     "(a non-timed driver prints none)");
  // One timed run per script; a console log with several runs (1, 2, 4 VUs)
  // yields the one matching the point.
  // An imported log's virtual users, when no one said them: its one
  // result's (stated_params states them; several runs need the --param).
  if (!p.known(&HammerdbParams::virtual_users) && results.size() > 1)
    throw ParseError(
        name(), results[1].line,
        fmt::format("line {}: {} results in the output: give the virtual users of the one "
                    "to read (--param virtual_users=N)",
                    results[1].line, results.size()));
  const std::int64_t want = p.known(&HammerdbParams::virtual_users) ? p.virtual_users
                            : results[0].vus                        ? *results[0].vus
                                                                    : 0;
  const Result* chosen = nullptr;
  if (results.size() == 1) {
    chosen = &results[0];
    if (p.known(&HammerdbParams::virtual_users) && chosen->vus && *chosen->vus != want)
      throw ParseError(name(), chosen->line,
                       fmt::format("line {}: ran {} virtual users, expected {}", chosen->line,
                                   *chosen->vus, want));
  } else {
    for (const auto& r : results)
      if (r.vus && *r.vus == want) {
        if (chosen)
          throw ParseError(name(), r.line,
                           fmt::format("line {}: a second result for {} virtual users", r.line, want));
        chosen = &r;
      }
    if (!chosen)
      throw ParseError(name(), 0,
                       fmt::format("{} results in the output, none for {} virtual users",
                                   results.size(), want));
  }
  std::vector<Sample> samples = {{"nopm", chosen->nopm}, {"tpm", chosen->tpm}};
  // The time profile (timeprofile: the file, printed after the console log).
  const auto profile = profile_summary(text, want);
  if (profile.empty() && p.known(&HammerdbParams::timeprofile) && p.timeprofile)
    throw ParseError(name(), 0,
                     "timeprofile is set but the output has no time profile summary ('>>>>> SUMMARY OF N ACTIVE "
                     "VIRTUAL USERS' from hdbxtprofile.log)");
  samples.insert(samples.end(), profile.begin(), profile.end());
  return samples;
}

std::vector<std::string> Hammerdb::stated_params(const Point&, const std::string& out,
                                                 const std::string& err) const {
  // "24 Active Virtual Users configured" (or "5 VU * 10 AC = 50 Active
  // Sessions configured") before the result, when one run's; the database
  // its result line names ("... NOPM from 399 PostgreSQL TPM"), when
  // schedlab drives it; a time profile's summary (timeprofile).
  static const std::map<std::string, std::string> dbs = {
      {"MariaDB", "mariadb"}, {"MySQL", "mysql"}, {"PostgreSQL", "postgres"}};
  const std::string text = join_output(out, err);
  std::vector<std::string> lines = stated_by_lines(
      text, {{R"(^.*?(\d{1,9}) Active Virtual Users configured.*$)", "virtual_users"},
             {R"(^.*?(\d{1,9}) VU \* \d+ AC = \d+ Active Sessions configured.*$)", "virtual_users"},
             {R"(^.*TEST RESULT : System achieved \d+ NOPM from \d+ (.+?) TPM.*$)", "db"},
             {R"(^.*TEST RESULT : System achieved \d+ (.+?) TPM at \d+ NOPM.*$)", "db"}});
  std::set<std::string> vus, names;
  for (const auto& l : lines)
    (l.starts_with("db=") ? names : vus).insert(l.substr(l.find('=') + 1));
  std::vector<std::string> stated;
  if (vus.size() == 1) stated.push_back("virtual_users=" + *vus.begin());
  if (names.size() == 1)
    if (const auto db = dbs.find(*names.begin()); db != dbs.end())
      stated.push_back("db=" + db->second);
  if (text.find(">>>>> SUMMARY OF ") != std::string::npos) stated.push_back("timeprofile=true");
  return stated;
}

}  // namespace schedlab
