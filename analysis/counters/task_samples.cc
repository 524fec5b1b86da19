#include "analysis/counters/task_samples.h"

#include <fmt/format.h>

#include <utility>

#include "analysis/counters/proc_text.h"

namespace schedlab::tasks {
namespace {

constexpr std::string_view kHeader = "# schedlab-tasks ";

std::optional<std::uint64_t> counter(std::string_view token, std::size_t line,
                                     std::string_view what) {
  if (token == "-") return std::nullopt;
  return parse_u64_or_throw(token, line, what);
}

int small_int(std::string_view token, std::size_t line, std::string_view what) {
  const std::uint64_t v = parse_u64_or_throw(token, line, what);
  if (v > 1u << 30) throw CounterParseError(line, fmt::format("{}: {} is out of range", what, v));
  return static_cast<int>(v);
}

TaskSample task_line(std::string_view line, std::size_t n) {
  const auto t = split_ws(line);
  if (t.size() < 8)
    throw CounterParseError(
        n, fmt::format("expected 'tid starttime cpu migrations switches voluntary involuntary "
                       "comm', found '{}'",
                       line));
  TaskSample s;
  s.tid = small_int(t[0], n, "tid");
  s.starttime = parse_u64_or_throw(t[1], n, "starttime");
  s.cpu = small_int(t[2], n, "cpu");
  s.migrations = counter(t[3], n, "nr_migrations");
  s.switches = counter(t[4], n, "nr_switches");
  s.voluntary = counter(t[5], n, "nr_voluntary_switches");
  s.involuntary = counter(t[6], n, "nr_involuntary_switches");
  s.comm = std::string(line.substr(static_cast<std::size_t>(t[7].data() - line.data())));
  while (!s.comm.empty() && (s.comm.back() == ' ' || s.comm.back() == '\r')) s.comm.pop_back();
  return s;
}

// One task across the polls that saw it.
struct Track {
  std::size_t first_poll = 0;
  TaskSample first, last;
};

void add(std::optional<double>& sum, std::optional<std::uint64_t> first,
         std::optional<std::uint64_t> last, bool from_start, const Track& t, const char* what) {
  if (!last) return;
  double v = static_cast<double>(*last);
  if (from_start && first) {
    if (*last < *first)
      throw CounterMismatchError(fmt::format("task {} ({}): {} went from {} to {}", t.last.tid,
                                             t.last.comm, what, *first, *last));
    v = static_cast<double>(*last - *first);
  }
  sum = sum.value_or(0) + v;
}

void add_rows(std::vector<CounterRow>& rows, const std::string& prefix, const Totals& t) {
  rows.push_back({prefix + "tasks", static_cast<double>(t.tasks)});
  const std::pair<const char*, const std::optional<double>*> counters[] = {
      {"migrations", &t.migrations},
      {"switches", &t.switches},
      {"voluntary_switches", &t.voluntary},
      {"involuntary_switches", &t.involuntary}};
  for (const auto& [name, v] : counters)
    if (*v) rows.push_back({prefix + name, **v});
  rows.push_back({prefix + "samples", static_cast<double>(t.samples())});
  for (const auto& [cpu, hits] : t.cpu_hits)
    rows.push_back({fmt::format("{}cpu_hits.{}", prefix, cpu), static_cast<double>(hits)});
}

nlohmann::json totals_json(const Totals& t) {
  nlohmann::json j = {{"tasks", t.tasks}, {"samples", t.samples()}};
  auto opt = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json();
  };
  j["migrations"] = opt(t.migrations);
  j["switches"] = opt(t.switches);
  j["voluntary_switches"] = opt(t.voluntary);
  j["involuntary_switches"] = opt(t.involuntary);
  nlohmann::json hits = nlohmann::json::object();
  for (const auto& [cpu, n] : t.cpu_hits) hits[std::to_string(cpu)] = n;
  j["cpu_hits"] = std::move(hits);
  return j;
}

}  // namespace

Samples parse(std::string_view text) {
  Samples out;
  std::optional<Poll> open;  // a poll whose end marker has not come yet
  std::vector<std::pair<std::size_t, std::string_view>> pending;  // its lines, unchecked
  std::size_t open_line = 0;
  // A poll's lines are checked once its end marker shows it was complete:
  // a poll cut by the sampler's stop may end mid-line.
  auto close = [&] {
    Poll p;
    const auto head = split_ws(pending.front().second);
    if (head.size() != 2 || !parse_double(head[1], p.uptime_s))
      throw CounterParseError(
          open_line, fmt::format("expected 'P UPTIME', found '{}'", pending.front().second));
    for (std::size_t i = 1; i < pending.size(); ++i)
      p.tasks.push_back(task_line(pending[i].second, pending[i].first));
    out.polls.push_back(std::move(p));
    pending.clear();
    open.reset();
  };
  const auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t n = i + 1;
    const std::string_view line = lines[i];
    if (line.empty()) continue;
    if (line.starts_with("#")) {
      if (line.starts_with(kHeader)) {
        if (line.substr(kHeader.size()) != std::to_string(kFormatVersion))
          throw CounterParseError(
              n, fmt::format("sampler output version '{}'; this schedlab reads version {}",
                             line.substr(kHeader.size()), kFormatVersion));
        if (open) {  // a new sampler started: the last one was cut mid-poll
          ++out.cut;
          pending.clear();
          open.reset();
        }
      }
      continue;
    }
    if (line.starts_with("P")) {
      if (open) ++out.cut;  // cut, then a new poll (the next sampler's)
      pending.clear();
      open.emplace();
      open_line = n;
      pending.emplace_back(n, line);
      continue;
    }
    if (!open)
      throw CounterParseError(n,
                              fmt::format("'{}' is outside a poll (no 'P' line before it)", line));
    if (line == "E") {
      close();
      continue;
    }
    pending.emplace_back(n, line);
  }
  if (open) ++out.cut;
  return out;
}

std::uint64_t Totals::samples() const {
  std::uint64_t n = 0;
  for (const auto& [cpu, hits] : cpu_hits) n += hits;
  return n;
}

Reduction reduce(const Samples& s) {
  Reduction r;
  r.polls = s.polls.size();
  r.cut = s.cut;
  std::map<std::pair<int, std::uint64_t>, Track> tracks;  // (tid, starttime), in tid order
  for (std::size_t p = 0; p < s.polls.size(); ++p)
    for (const TaskSample& t : s.polls[p].tasks) {
      auto [it, fresh] = tracks.try_emplace({t.tid, t.starttime}, Track{p, t, t});
      if (!fresh) it->second.last = t;
      r.all.cpu_hits[t.cpu] += 1;
      r.by_comm[t.comm].cpu_hits[t.cpu] += 1;
    }
  for (const auto& [key, t] : tracks) {
    // A task in the first poll was there before the iteration: count what
    // it did since; one that appeared later started during the iteration.
    const bool from_start = t.first_poll == 0;
    for (Totals* x : {&r.all, &r.by_comm[t.last.comm]}) {
      ++x->tasks;
      add(x->migrations, t.first.migrations, t.last.migrations, from_start, t, "nr_migrations");
      add(x->switches, t.first.switches, t.last.switches, from_start, t, "nr_switches");
      add(x->voluntary, t.first.voluntary, t.last.voluntary, from_start, t,
          "nr_voluntary_switches");
      add(x->involuntary, t.first.involuntary, t.last.involuntary, from_start, t,
          "nr_involuntary_switches");
    }
  }
  return r;
}

MonitorDelta delta(const Reduction& r) {
  MonitorDelta out;
  out.rows.push_back({"polls", static_cast<double>(r.polls)});
  add_rows(out.rows, "", r.all);
  for (const auto& [comm, t] : r.by_comm) add_rows(out.rows, "comm." + comm + ".", t);
  out.json = totals_json(r.all);
  out.json["polls"] = r.polls;
  out.json["cut_polls"] = r.cut;
  nlohmann::json by = nlohmann::json::object();
  for (const auto& [comm, t] : r.by_comm) by[comm] = totals_json(t);
  out.json["by_comm"] = std::move(by);
  return out;
}

std::string format_cpu_hits(const std::map<int, std::uint64_t>& hits) {
  std::string s;
  for (const auto& [cpu, n] : hits) s += fmt::format("{}#{}:{}", s.empty() ? "" : " ", cpu, n);
  return s;
}

}  // namespace schedlab::tasks
