#include "analysis/counters/perf_stat.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/sample_range.h"
#include "base/text.h"

namespace schedlab::perf_stat {
namespace {

std::vector<std::string_view> split_commas(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const auto comma = line.find(',', start);
    out.push_back(line.substr(start, comma == std::string_view::npos ? line.npos : comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

}  // namespace

const std::vector<std::string>& default_events() {
  static const std::vector<std::string> events = {"context-switches",
                                                  "cpu-migrations",
                                                  "task-clock",
                                                  "sched:sched_switch",
                                                  "sched:sched_wakeup",
                                                  "sched:sched_wakeup_new",
                                                  "sched:sched_migrate_task",
                                                  "cycles",
                                                  "instructions"};
  return events;
}

std::vector<Event> parse(std::string_view text) {
  std::vector<Event> out;
  const auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (line.empty() || line.starts_with('#')) continue;
    const auto f = split_commas(line);
    // value,unit,event,run time,pct[,metric value,metric unit]
    if (f.size() < 5)
      throw CounterParseError(
          i + 1, fmt::format("expected perf stat -x, CSV (value,unit,event,...), found '{}'",
                             line_excerpt(line)));
    const std::size_t event_end = f.size() >= 7 ? f.size() - 4 : 3;
    std::string name(f[2]);
    for (std::size_t k = 3; k < event_end; ++k) name += "," + std::string(f[k]);
    if (name.empty())
      throw CounterParseError(i + 1, fmt::format("no event name in '{}'", line_excerpt(line)));
    Event e{name, std::nullopt, std::string(f[1]), "counted"};
    if (f[0] == "<not supported>") {
      e.status = "not supported";
    } else if (f[0] == "<not counted>") {
      e.status = "not counted";
    } else {
      double v = 0;
      // A count the store would refuse (1e308, -294) is refused here, where
      // the raw output is still kept with the iteration.
      if (!parse_double(f[0], v))
        throw CounterParseError(
            i + 1, fmt::format("{}: '{}' is not a count", line_excerpt(name), line_excerpt(f[0])));
      if (const auto why = count_out_of_range(v))
        throw CounterParseError(i + 1, fmt::format("{}: '{}' is not a count: {}",
                                                   line_excerpt(name), line_excerpt(f[0]), *why));
      e.value = v;
    }
    for (const auto& seen : out)
      if (seen.name == e.name)
        throw CounterParseError(i + 1,
                                fmt::format("event '{}' is given twice", line_excerpt(e.name)));
    out.push_back(std::move(e));
  }
  if (out.empty()) throw CounterParseError(0, "no events: not perf stat -x, output");
  return out;
}

MonitorDelta delta(const std::vector<Event>& events) {
  MonitorDelta out;
  out.json["events"] = nlohmann::json::object();
  out.json["not_counted"] = nlohmann::json::object();
  for (const auto& e : events) {
    if (e.value) {
      out.rows.push_back({e.name, *e.value});
      out.json["events"][e.name] = {{"value", *e.value}, {"unit", e.unit}};
    } else {
      out.json["not_counted"][e.name] = e.status;
    }
  }
  return out;
}

std::vector<std::string> stat_args(const std::vector<std::string>& events) {
  return {"stat", "-a", "-x,", "-e", fmt::format("{}", fmt::join(events, ","))};
}

}  // namespace schedlab::perf_stat
