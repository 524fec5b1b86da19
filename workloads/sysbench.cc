#include "workloads/sysbench.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/regex.hpp>

#include "base/text.h"
#include "base/time.h"
#include "workloads/param_rows.h"

namespace schedlab {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr const char* kSysbenchDatabase = "sbtest";
constexpr const char* kDbUser = "sbtest";

// The secret reaches SQL in quotes; the runner's is [a-z0-9], anything
// else is refused rather than escaped.
const std::string& safe_secret(const std::string& s) {
  static const boost::regex ok("^[A-Za-z0-9]*$");  // empty: preflight builds steps without one
  if (!boost::regex_match(s, ok))
    throw std::invalid_argument("sysbench: the runner's secret must be letters and digits");
  return s;
}

}  // namespace

Sysbench::Sysbench() {
  using P = SysbenchParams;
  params_ = ParamTable<P>({
      {&P::test,
       {.name = "test",
        .axis = Axis::kBlock,
        .default_value = std::string("oltp_read_write"),
        .help = "sysbench's OLTP test; one table each",
        .choices = {"oltp_read_write", "oltp_read_only", "oltp_point_select", "oltp_write_only"}}},
      {&P::threads,
       {.name = "threads",
        .axis = Axis::kRow,
        .default_value = std::int64_t{1},
        .help = "client threads (--threads); one row per value",
        .unit = "threads",
        .min = 1}},
      {&P::duration, duration_param("duration", seconds(60),
                                    "length of one measured run (--time, whole seconds)")},
      {&P::warmup,
       [] {
         // How schedlab reads the report lines: chosen, not stated.
         ParamSpec warmup = duration_param(
             "warmup", milliseconds(0),
             "report seconds at the start of each run left out of the interval samples");
         warmup.reading = true;
         return warmup;
       }()},
      {&P::tables,
       {.name = "tables",
        .default_value = std::int64_t{8},
        .help = "tables prepared once per run (--tables)",
        .unit = "tables",
        .min = 1}},
      {&P::table_size,
       {.name = "table_size",
        .default_value = std::int64_t{10000},
        .help = "rows per table (--table-size; ~220 bytes a row)",
        .unit = "rows",
        .min = 1}},
      {&P::client,
       client_param(
           "where sysbench runs: on the SUT over the server's Unix socket, or on the loadgen "
           "over TCP to the SUT's address")},
      {&P::allow_errors,
       [] {
         // How schedlab judges an output: chosen, not stated.
         ParamSpec allow =
             flag_param("allow_errors",
                        "accept iterations whose run counted errors (deadlocks sysbench ignores by "
                        "default); otherwise errors > 0 fails the iteration");
         allow.reading = true;
         return allow;
       }()},
      {&P::user,
       {.name = "user",
        .default_value = std::string("mysql"),
        .help = "OS user the server runs as when schedlab runs as root on the SUT (mariadbd "
                "--user)"}},
      {&P::keep,
       flag_param("keep",
                  "keep the work directory with the database after the run (it is stopped either "
                  "way)")},
      {&P::prepare_timeout,
       duration_param("prepare_timeout", minutes(30),
                      "limit for creating the server and preparing the tables")},
      {&P::timeout, run_timeout_param()},
  });
  metrics_ = {
      rate_metric("tps", "tx/s", 2, "transactions per second of the run"),
      rate_metric("qps", "q/s", 2, "queries per second of the run"),
      cost_metric("latency", "ms", 3, "average transaction latency"),
      cost_metric("latency_p95", "ms", 3, "95th percentile transaction latency"),
      cost_metric("errors", "errors", 0,
                  "errors sysbench counted and ignored (deadlocks, lock wait timeouts)"),
      cost_metric("reconnects", "reconnects", 0, "reconnects during the run"),
      rate_metric("interval_tps", "tx/s", 1,
                  "per-second tps (--report-interval=1) after the warm-up", SampleKind::kInterval),
      rate_metric("interval_qps", "q/s", 1, "per-second qps after the warm-up",
                  SampleKind::kInterval),
      cost_metric("interval_latency_p95", "ms", 3,
                  "per-second 95th percentile latency after the warm-up", SampleKind::kInterval),
  };
}

std::string Sysbench::description() const {
  return "sysbench OLTP on a throw-away MariaDB (tps, higher is better)";
}

GuestNeeds Sysbench::guest_needs() const {
  GuestNeeds needs = maria_guest_needs("mysql");
  needs.programs.push_back({"/usr/bin/sysbench", true});
  // sysbench's OLTP scripts are Lua, loaded from its share directory.
  needs.files.push_back("/usr/share/sysbench");
  return needs;
}

std::string Sysbench::block_label(const Point& point) const {
  const auto p = params_.read(point);
  return "sysbench-" + p.text(&SysbenchParams::test);
}

MariaServer Sysbench::server(const Point& point, const StepContext& ctx) const {
  return server(params_.read(point), ctx);
}

MariaServer Sysbench::server(const SysbenchParams& p, const StepContext& ctx) const {
  if (ctx.workdir.empty())
    throw std::invalid_argument("sysbench: the runner gave no work directory");
  return MariaServer{.dir = ctx.workdir + "/sysbench-mariadb",
                     .port = ctx.port > 0 ? ctx.port : 3306,
                     .as_root = ctx.sut_root,
                     .os_user = p.user};
}

std::vector<std::string> Sysbench::client_args(const SysbenchParams& p, const StepContext& ctx,
                                               Role role) const {
  const MariaServer s = server(p, ctx);
  // sysbench takes the password nowhere but its command line; it is a
  // per-run secret of a throw-away server.
  std::vector<std::string> args = {"--db-driver=mysql", std::string("--mysql-user=") + kDbUser,
                                   "--mysql-password=" + safe_secret(ctx.secret),
                                   std::string("--mysql-db=") + kSysbenchDatabase};
  if (role == Role::kSut) {
    args.push_back("--mysql-socket=" + s.socket());
  } else {
    args.push_back("--mysql-host=" + (ctx.sut_address.empty() ? "127.0.0.1" : ctx.sut_address));
    args.push_back("--mysql-port=" + std::to_string(s.port));
  }
  args.push_back("--tables=" + std::to_string(p.tables));
  args.push_back("--table-size=" + std::to_string(p.table_size));
  return args;
}

std::vector<Step> Sysbench::setup_steps(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  const MariaServer s = server(point, ctx);
  std::vector<Step> steps = s.create_steps();
  // Loading uses a short-lived server; the measured one starts per point.
  for (auto& st : s.start_steps()) steps.push_back(st);
  steps.push_back(s.sql_step(maria_create_user_sql(kDbUser, safe_secret(ctx.secret), kSysbenchDatabase)));
  // The four tests share oltp_common's schema: one prepare serves them all.
  std::vector<std::string> prepare = {"sysbench", "oltp_read_write"};
  for (const auto& a : client_args(p, ctx, Role::kSut)) prepare.push_back(a);
  prepare.push_back("--threads=" + std::to_string(std::min<std::int64_t>(p.tables, 4)));
  prepare.push_back("prepare");
  steps.push_back(Step{.role = Role::kSut,
                       .argv = prepare,
                       .timeout = p.prepare_timeout,
                       .measured = false,
                       .cwd = s.work_dir()});
  steps.push_back(stop_after_loading(s));
  return steps;
}

std::vector<Step> Sysbench::iteration_steps(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  const Role role = p.client == "loadgen" ? Role::kLoadgen : Role::kSut;
  const std::int64_t secs = whole_seconds(p.duration);
  std::vector<std::string> argv = {"sysbench", p.test};
  for (const auto& a : client_args(p, ctx, role)) argv.push_back(a);
  argv.insert(argv.end(),
              {"--threads=" + std::to_string(p.threads), "--time=" + std::to_string(secs),
               "--events=0", "--report-interval=1", "--percentile=95", "run"});
  milliseconds timeout = p.timeout;
  if (timeout.count() == 0) timeout = seconds(secs + 120);
  return {Step{.role = role, .argv = argv, .timeout = timeout, .measured = true}};
}

std::vector<Sample> Sysbench::parse(const Point& point, const std::string& out,
                                    const std::string& err) const {
  const auto p = params_.read(point);
  static const boost::regex interval(
      R"(^\[ *(\d+)s \] thds: (\d+) tps: ([0-9.]+) qps: ([0-9.]+) \(r/w/o: [0-9./]+\) lat \(ms,95%\): ([0-9.]+) err/s: ([0-9.]+) reconn/s: ([0-9.]+)\s*$)");
  static const boost::regex threads_line(R"(^Number of threads: (\d+)\s*$)");
  // "    transactions:   431    (106.97 per sec.)"
  static const boost::regex counted(
      R"(^\s+(transactions|queries|ignored errors|reconnects):\s+(\d+)\s+\(([0-9.]+) per sec\.\)\s*$)");
  static const boost::regex latency(R"(^\s+(avg|95th percentile):\s+([0-9.]+)\s*$)");
  const double warmup_s = static_cast<double>(p.warmup.count()) / 1000.0;
  std::vector<Sample> samples;
  bool in_latency = false, tps = false;
  const std::string text = join_output(out, err);  // the lines point into it
  const auto lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    const int lineno = static_cast<int>(i) + 1;
    boost::smatch m;
    if (line.starts_with("FATAL:"))
      throw ParseError(name(), lineno, fmt::format("line {}: tool error: {}", lineno, line));
    if (boost::regex_match(line, m, interval)) {
      const double t = *to_number(m[1].str());
      if (t <= warmup_s) continue;
      samples.push_back({"interval_tps", *to_number(m[3].str()), t});
      samples.push_back({"interval_qps", *to_number(m[4].str()), t});
      samples.push_back({"interval_latency_p95", *to_number(m[5].str()), t});
    } else if (line.starts_with("[ ")) {
      throw ParseError(name(), lineno,
                       fmt::format("line {}: unrecognised report line: {}", lineno, line));
    } else if (boost::regex_match(line, m, threads_line)) {
      if (p.known(&SysbenchParams::threads) && std::stoll(m[1]) != p.threads)
        throw ParseError(
            name(), lineno,
            fmt::format("line {}: ran {} threads, expected {}", lineno, m[1].str(), p.threads));
    } else if (boost::regex_match(line, m, counted)) {
      const std::string what = m[1];
      if (what == "transactions") {
        if (tps) throw ParseError(name(), lineno, fmt::format("line {}: a second summary", lineno));
        tps = true;
        samples.push_back({"tps", *to_number(m[3].str())});
      } else if (what == "queries") {
        samples.push_back({"qps", *to_number(m[3].str())});
      } else {
        samples.push_back({what == "reconnects" ? "reconnects" : "errors", *to_number(m[2].str())});
      }
    } else if (line.starts_with("Latency (ms):")) {
      in_latency = true;
    } else if (in_latency && boost::regex_match(line, m, latency)) {
      samples.push_back({m[1] == "avg" ? "latency" : "latency_p95", *to_number(m[2].str())});
    } else if (!line.starts_with(" ")) {
      in_latency = false;
    }
  }
  if (!tps) throw ParseError(name(), 0, "no 'transactions: N (X per sec.)' line in the output");
  return samples;
}

std::string Sysbench::judge(const Point& point, const std::vector<Sample>& samples) const {
  const auto p = params_.read(point);
  if (p.allow_errors) return "";
  for (const auto& s : samples)
    if (s.metric == "errors" && s.value > 0)
      return fmt::format("sysbench counted {} errors (allow_errors: true accepts them)", s.value);
  return "";
}

std::vector<std::string> Sysbench::stated_params(const Point&, const std::string& out,
                                                 const std::string& err) const {
  // "Number of threads: 2"; the run's length ("total time: 5.0012s") is a
  // measurement, not the --time it ran with, and the test is not named.
  return stated_by_lines(join_output(out, err),
                         {{R"(^Number of threads: (\d{1,9})\s*$)", "threads"}});
}

}  // namespace schedlab
