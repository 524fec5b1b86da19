#include "workloads/pgbench.h"

#include <fmt/format.h>

#include <boost/regex.hpp>
#include <filesystem>
#include <map>

#include "base/text.h"
#include "base/time.h"
#include "workloads/param_rows.h"

namespace schedlab {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr const char* kPgbenchDatabase = "schedlab";

// A prefix of `line` up to the next space, removed from it; empty when
// there is none.
std::string_view take_word(std::string_view& line) {
  const auto n = line.substr(0, std::min(line.find(' '), line.size()));
  line.remove_prefix(n.size());
  return n;
}

bool take(std::string_view& line, std::string_view literal) {
  if (!line.starts_with(literal)) return false;
  line.remove_prefix(literal.size());
  return true;
}

// "progress: T s, TPS tps, lat LAT ms stddev ...": read by hand, as a
// long run's log holds one such line per second. Its figures are words
// here: the caller reads each as a number, so that a line of this shape
// with nan, 1e200 or -5 in it is refused, not skipped (hostile16: each
// left a gap in the interval series, unsaid).
struct Progress {
  std::string_view t, tps, lat;
};
std::optional<Progress> progress_line(std::string_view line) {
  Progress p;
  if (!take(line, "progress: ") || (p.t = take_word(line)).empty() || !take(line, " s, ") ||
      (p.tps = take_word(line)).empty() || !take(line, " tps, lat ") ||
      (p.lat = take_word(line)).empty() || !take(line, " ms stddev "))
    return std::nullopt;
  return p;
}

}  // namespace

Pgbench::Pgbench() {
  using P = PgbenchParams;
  params_ = ParamTable<P>({
      {&P::builtin,
       {.name = "builtin",
        .axis = Axis::kBlock,
        .default_value = std::string("select-only"),
        .help = "pgbench's builtin script (-b); one table each; ignored when 'script' is set",
        .choices = {"select-only", "tpcb-like", "simple-update"}}},
      {&P::script,
       {.name = "script",
        .default_value = std::string(),
        .help = "a pgbench script file on the SUT (-f) instead of the builtin"}},
      {&P::clients,
       {.name = "clients",
        .axis = Axis::kRow,
        .default_value = std::int64_t{1},
        .help = "concurrent database sessions (-c); one row per value",
        .unit = "clients",
        .min = 1}},
      {&P::threads,
       {.name = "threads",
        .default_value = std::int64_t{0},
        .help = "pgbench worker threads (-j); 0 = one per client",
        .unit = "threads",
        .min = 0}},
      {&P::duration,
       duration_param("duration", seconds(60), "length of one measured run (-T, whole seconds)")},
      {&P::warmup,
       [] {
         // How schedlab reads the progress lines: chosen, not stated.
         ParamSpec warmup = duration_param(
             "warmup", milliseconds(0),
             "progress seconds at the start of each run left out of the interval samples");
         warmup.reading = true;
         return warmup;
       }()},
      {&P::scale,
       {.name = "scale",
        .default_value = std::int64_t{0},
        .help = "pgbench -i scale factor (~15 MiB each); 0 = 80% of shared buffers, as mmtests "
                "sizes its cache-hot read-only test",
        .unit = "scale",
        .min = 0}},
      {&P::shared_buffers,
       {.name = "shared_buffers",
        .default_value = std::int64_t{0},
        .help = "PostgreSQL shared_buffers in MiB; 0 = a fifth of the SUT's memory (PostgreSQL's "
                "default when unknown)",
        .unit = "MiB",
        .min = 0}},
      {&P::query_mode,
       {.name = "query_mode",
        .default_value = std::string("simple"),
        .help = "protocol for queries (-M)",
        .choices = {"simple", "extended", "prepared"}}},
      {&P::user,
       {.name = "user",
        .default_value = std::string("postgres"),
        .help = "OS user that runs initdb and the server when schedlab runs as root on the SUT "
                "(PostgreSQL refuses root); also the database superuser name"}},
      {&P::bindir,
       {.name = "bindir",
        .default_value = std::string(kDebianPgBinDir),
        .help = "where initdb, pg_ctl and postgres live on the SUT (Debian keeps them off PATH)"}},
      {&P::client,
       client_param(
           "where pgbench runs: on the SUT over the Unix socket (as mmtests does), or on the "
           "loadgen over TCP to the SUT's address (password auth with a per-run secret)")},
      {&P::keep,
       flag_param("keep", "keep the cluster directory after the run (it is stopped either way)")},
      {&P::init_timeout,
       duration_param("init_timeout", minutes(30),
                      "limit for creating and loading the database (pgbench -i)")},
      {&P::timeout, run_timeout_param()},
  });
  metrics_ = {
      rate_metric("tps", "tx/s", 2, "transactions per second without initial connection time"),
      cost_metric("latency", "ms", 3, "average transaction latency of the run"),
      rate_metric("interval_tps", "tx/s", 1,
                  "per-second progress (-P 1) after the warm-up: time slices of one run",
                  SampleKind::kInterval),
      cost_metric("interval_latency", "ms", 3,
                  "per-second average latency (-P 1) after the warm-up", SampleKind::kInterval),
  };
}

GuestNeeds Pgbench::guest_needs() const {
  GuestNeeds needs = pg_guest_needs(kDebianPgBinDir, "postgres");
  needs.programs.push_back({std::string(kDebianPgBinDir) + "/pgbench", true});
  return needs;
}

std::string Pgbench::description() const {
  return "pgbench on a throw-away PostgreSQL cluster (tps, higher is better)";
}

std::string Pgbench::block_label(const Point& point) const {
  const auto p = params_.read(point);
  if (!p.known(&PgbenchParams::script)) return "pgbench-?";
  if (const auto& script = p.script; !script.empty())
    return "pgbench-" + std::filesystem::path(script).stem().string();
  return "pgbench-" + p.text(&PgbenchParams::builtin);
}

PgCluster Pgbench::server(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  if (ctx.workdir.empty()) throw std::invalid_argument("pgbench: the runner gave no work directory");
  PgCluster c;
  c.bin_dir = p.bindir;
  c.dir = ctx.workdir + "/pgbench-cluster";
  c.port = ctx.port > 0 ? ctx.port : 5432;
  c.os_user = p.user;
  c.db_user = p.user;
  c.as_root = ctx.sut_root;
  if (p.client == "loadgen") {
    c.listen_tcp = true;
    c.password = ctx.secret;
  }
  c.shared_buffers_mb = p.shared_buffers;
  if (c.shared_buffers_mb == 0 && ctx.sut_mem_bytes > 0)
    c.shared_buffers_mb = static_cast<std::int64_t>(ctx.sut_mem_bytes / 5 / (1024 * 1024));
  return c;
}

std::int64_t Pgbench::scale(const PgbenchParams& p, const StepContext& ctx) const {
  if (p.scale > 0) return p.scale;
  if (ctx.sut_mem_bytes == 0)
    throw std::invalid_argument(
        "pgbench: scale 0 is derived from the SUT's memory, which is unknown; set 'scale'");
  return pgbench_scale_for_memory(ctx.sut_mem_bytes);
}

std::vector<MmtestsFormat> Pgbench::mmtests_formats() const {
  // pgbench's own output: pgbench-<clients>.log (pgbench-raw-<clients> in
  // older trees, whose extractor read its 'tps = ([0-9.]+) \(including'
  // line). One sample a run, its tps line; -S or not is a config variable of
  // mmtests that the "transaction type:" line tells.
  return {
      {.test = "pgbench",
       .logs = {R"(pgbench-(?<clients>[0-9]{1,9})\.log)", "pgbench-raw-(?<clients>[0-9]{1,9})"},
       .lines = {{.pattern = R"(^tps = (?<value>[0-9.]*) \((?:including connections establishing|)"
                             R"(without initial connection time)\))",
                  .metric = "tps"}},
       .settings = {{"^transaction type: <builtin: select only>", "builtin=select-only"},
                    {R"(^transaction type: <builtin: TPC-B \(sort of\)>)", "builtin=tpcb-like"},
                    {"^transaction type: <builtin: simple update>", "builtin=simple-update"}},
       .unit = MmtestsFormat::Unit::kLine,
       .source =
           R"(ExtractPgbench.pm's fallback: the line matching '^tps = ([0-9.]+) \(including' )"
           "of pgbench-raw-<clients>; pgbench 14 and later say 'without initial connection time'"}};
}

std::vector<Step> Pgbench::setup_steps(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  const PgCluster c = server(point, ctx);
  std::vector<Step> steps = c.create_steps();
  // Loading uses a short-lived server; the measured one starts per point.
  steps.push_back(c.start_step());
  auto createdb = std::vector<std::string>{"createdb"};
  for (const auto& a : c.client_args()) createdb.push_back(a);
  createdb.push_back(kPgbenchDatabase);
  steps.push_back(c.setup_step(createdb));
  std::vector<std::string> init = {"pgbench", "-i", "-s", std::to_string(scale(p, ctx))};
  for (const auto& a : c.client_args()) init.push_back(a);
  init.push_back(kPgbenchDatabase);
  steps.push_back(c.setup_step(init, p.init_timeout));
  steps.push_back(stop_after_loading(c));
  return steps;
}

std::vector<Step> Pgbench::iteration_steps(const Point& point, const StepContext& ctx) const {
  const auto p = params_.read(point);
  const PgCluster c = server(point, ctx);
  const std::int64_t clients = p.clients;
  std::int64_t threads = p.threads;
  if (threads == 0 || threads > clients) threads = clients;
  const std::int64_t secs = whole_seconds(p.duration);
  const bool remote = p.client == "loadgen";
  std::vector<std::string> argv = {"pgbench"};
  if (remote)
    argv.insert(argv.end(), {"-h", ctx.sut_address, "-p", std::to_string(c.port), "-U", c.db_user});
  else
    for (const auto& a : c.client_args()) argv.push_back(a);
  if (const auto& script = p.script; !script.empty())
    argv.insert(argv.end(), {"-f", script});
  else
    argv.insert(argv.end(), {"-b", p.builtin});
  argv.insert(argv.end(),
              {"-M", p.query_mode, "-c", std::to_string(clients), "-j", std::to_string(threads),
               "-T", std::to_string(secs), "-P", "1", kPgbenchDatabase});
  milliseconds timeout = p.timeout;
  if (timeout.count() == 0) timeout = seconds(secs + 120);
  Step step = sut_step(argv, timeout, true);
  if (remote) {
    step.role = Role::kLoadgen;
    // libpq reads it from the environment; it never appears in pgbench's argv.
    step.env["PGPASSWORD"] = ctx.secret;
  }
  return {step};
}

std::vector<Sample> Pgbench::parse(const Point& point, const std::string& out,
                                   const std::string& err) const {
  const auto p = params_.read(point);
  // The summary goes to stdout, progress and errors to stderr; a saved
  // combined log works the same, so the two are read as one text.
  static const boost::regex tps_line(
      R"(^tps = ([0-9.]+) \((?:without initial connection time|excluding connections establishing)\)\s*$)");
  static const boost::regex latency_line(R"(^latency average = ([0-9.]+) ms\s*$)");
  static const boost::regex clients_line(R"(^number of clients: (\d+)\s*$)");
  const double warmup_s = static_cast<double>(p.warmup.count()) / 1000.0;
  std::vector<Sample> samples;
  std::optional<double> tps;
  std::optional<double> first_progress, last_progress;
  const std::string text = err.empty() ? std::string() : join_output(out, err);
  const auto lines = split_lines(err.empty() ? std::string_view(out) : std::string_view(text));
  samples.reserve(2 * lines.size());  // a progress line is two samples
  for (size_t i = 0; i < lines.size(); ++i) {
    const int lineno = static_cast<int>(i) + 1;
    if (const auto pr = progress_line(lines[i])) {
      // A progress time, rate and latency are measurements (epoch seconds
      // under --progress-timestamp are far below kMaxSampleValue).
      const auto figure = [&](const char* what, std::string_view text) {
        const auto v = to_number(text);
        if (!v)
          throw ParseError(name(), lineno,
                           fmt::format("line {}: {} '{}' is not a number: {}", lineno, what,
                                       excerpt(text), excerpt(lines[i], 120)));
        return measured_value(name(), lineno, what, *v);
      };
      double t = figure("progress time", pr->t);
      const double tps = figure("progress tps", pr->tps);
      // pgbench prints a latency of NaN for an interval without a
      // transaction: no latency sample then.
      const bool no_latency = pr->lat == "nan" || pr->lat == "NaN" || pr->lat == "-nan";
      const double lat = no_latency ? 0 : figure("progress latency", pr->lat);
      // Each report after the one before: a time that goes back (a clock
      // stepped under --progress-timestamp, an edited log) fell below the
      // warm-up and its samples were dropped unsaid.
      if (last_progress && !(t > *last_progress))
        throw ParseError(name(), lineno,
                         fmt::format("line {}: progress time {} s is not after the line before's "
                                     "({} s): {}",
                                     lineno, pr->t, *last_progress, excerpt(lines[i], 120)));
      last_progress = t;
      // --progress-timestamp prints epoch seconds; the first report comes
      // one interval (-P 1) after the start.
      if (!first_progress) first_progress = t;
      if (*first_progress > 1e6) t = t - *first_progress + 1.0;
      if (t <= warmup_s) continue;
      samples.push_back({"interval_tps", tps, t});
      if (!no_latency) samples.push_back({"interval_latency", lat, t});
      continue;
    }
    const std::string line(lines[i]);
    boost::smatch m;
    if (line.starts_with("pgbench: error:") || line.starts_with("pgbench: fatal:"))
      throw ParseError(name(), lineno, fmt::format("line {}: tool error: {}", lineno, line));
    if (boost::regex_match(line, m, tps_line)) {
      if (tps)
        throw ParseError(name(), lineno, fmt::format("line {}: a second 'tps' line: {}", lineno, line));
      tps = captured_number(name(), lineno, m[1].str());
      samples.push_back({"tps", *tps});
    } else if (boost::regex_match(line, m, latency_line)) {
      samples.push_back({"latency", captured_number(name(), lineno, m[1].str())});
    } else if (boost::regex_match(line, m, clients_line)) {
      if (p.known(&PgbenchParams::clients) && std::stoll(m[1]) != p.clients)
        throw ParseError(name(), lineno,
                         fmt::format("line {}: ran {} clients, expected {}: {}", lineno, m[1].str(),
                                     p.clients, line));
    } else if (line.starts_with("tps = ") && line.find("including") == std::string::npos) {
      throw ParseError(name(), lineno, fmt::format("line {}: unrecognised tps line: {}", lineno, line));
    }
  }
  if (!tps)
    throw ParseError(name(), 0, "no 'tps = N (without initial connection time)' line in the output");
  return samples;
}

std::vector<std::string> Pgbench::stated_params(const Point& given_point, const std::string& out,
                                                const std::string& err) const {
  const auto given = params_.read(given_point);
  // PostgreSQL 15's summary (the fixtures' pgbench): "transaction type:
  // <builtin: select only>" or a script's path, "scaling factor: 1",
  // "query mode: simple", "number of clients: 2", "number of threads: 2",
  // "duration: 5 s" (-T; "-t" runs state transactions instead).
  static const std::map<std::string, std::string> builtins = {{"select only", "select-only"},
                                                              {"TPC-B (sort of)", "tpcb-like"},
                                                              {"simple update", "simple-update"}};
  const std::string text = join_output(out, err);
  std::vector<std::string> stated =
      stated_by_lines(text, {{R"(^transaction type: (.*\S)\s*$)", "builtin"},
                             {R"(^scaling factor: (\d{1,9})\s*$)", "scale"},
                             {R"(^query mode: (simple|extended|prepared)\s*$)", "query_mode"},
                             {R"(^number of clients: (\d{1,9})\s*$)", "clients"},
                             {R"(^number of threads: (\d{1,9})\s*$)", "threads"},
                             {R"(^duration: (\d{1,9}) s\s*$)", "duration", "{}s"}});
  std::vector<std::string> out_params;
  for (auto& s : stated) {
    if (s.starts_with("builtin=")) {
      const std::string type = s.substr(8);
      if (type.starts_with("<builtin: ") && type.ends_with(">")) {
        const auto b = builtins.find(type.substr(10, type.size() - 11));
        if (b != builtins.end())
          out_params.insert(out_params.end(), {"builtin=" + b->second, "script="});
      } else {
        out_params.push_back("script=" + type);  // -f PATH: the builtin is not used
      }
      continue;
    }
    // scale 0 (sized from memory) and threads 0 (one per client) are
    // schedlab's ways to ask for what the output then shows in numbers.
    if ((s.starts_with("scale=") && given.known(&PgbenchParams::scale) && given.scale == 0) ||
        (s.starts_with("threads=") && given.known(&PgbenchParams::threads) && given.threads == 0))
      continue;
    out_params.push_back(std::move(s));
  }
  return out_params;
}

}  // namespace schedlab
