#include "runner/import/mmtests_extract.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "base/sample_range.h"
#include "base/text.h"

namespace schedlab {
namespace {

using Match = boost::match_results<std::string_view::const_iterator>;

boost::regex compiled(const std::string& pattern, const std::string& workload) {
  try {
    return boost::regex(pattern);
  } catch (const boost::regex_error& e) {
    throw std::logic_error(
        fmt::format("{}: mmtests pattern '{}': {}", workload, pattern, e.what()));
  }
}

// "name=value" for each of the workload's parameters the match names.
std::vector<std::string> named_params(const Workload& w, const Match& m) {
  std::vector<std::string> out;
  for (const auto& p : w.params())
    if (m[p.name].matched) out.push_back(p.name + "=" + m[p.name].str());
  return out;
}

std::string_view name_of(std::string_view param) {
  return param.substr(0, param.find('='));
}

// Adds `param` to `params`, replacing one of the same name.
void set_param(std::vector<std::string>& params, const std::string& param) {
  std::erase_if(params, [&](const std::string& p) { return name_of(p) == name_of(param); });
  params.push_back(param);
}

}  // namespace

std::string without_compression(const std::string& name) {
  for (const char* ext : {".gz", ".xz"})
    if (name.ends_with(ext)) return name.substr(0, name.size() - 3);
  return name;
}

MmtestsExtractor::MmtestsExtractor(const Workload& w, MmtestsFormat format)
    : workload_(&w), format_(std::move(format)), test_(compiled(format_.test, w.name())) {
  for (const auto& l : format_.logs) logs_.push_back(compiled(l, w.name()));
  for (std::size_t i = 0; i < format_.lines.size(); ++i) {
    const auto& l = format_.lines[i];
    if (!w.find_metric(l.metric))
      throw std::logic_error(
          fmt::format("{}: mmtests line '{}' gives metric '{}', which it does not declare",
                      w.name(), l.pattern, l.metric));
    lines_.push_back({compiled(l.pattern, w.name()), i});
  }
  for (const auto& s : format_.settings)
    settings_.push_back({compiled(s.pattern, w.name()), s.param});
}

std::optional<std::vector<std::string>> MmtestsExtractor::test_params(
    const std::string& dir) const {
  Match m;
  const std::string_view name(dir);
  if (!boost::regex_match(name.begin(), name.end(), m, test_)) return std::nullopt;
  return named_params(*workload_, m);
}

std::optional<std::vector<std::string>> MmtestsExtractor::log_params(
    const std::string& file) const {
  const std::string name = without_compression(file);
  for (const auto& re : logs_) {
    Match m;
    if (boost::regex_match(std::string_view(name).begin(), std::string_view(name).end(), m, re))
      return named_params(*workload_, m);
  }
  return std::nullopt;
}

std::vector<MmtestsLogRun> MmtestsExtractor::extract(std::string_view text, std::size_t keep_bytes,
                                                     std::size_t max_lines) const {
  const bool per_line = format_.unit == MmtestsFormat::Unit::kLine;
  struct Found {
    std::size_t start = 0, end = 0;  // its text in the log
    MmtestsLogRun run;
  };
  std::vector<Found> found;  // per_line: one per sample line
  MmtestsLogRun whole;       // else: the log's one run
  std::size_t hits = 0;      // sample lines: each holds a run or a sample
  const auto count_hit = [&] {
    if (++hits > max_lines)
      throw MmtestsTooManyLines(fmt::format("more than {} sample lines", max_lines));
  };
  std::vector<std::string> settings;  // those in force
  std::size_t block_start = 0;
  int lineno = 0;
  const auto fail = [](MmtestsLogRun& run, int line, std::string why) {
    if (!run.error.empty()) return;  // the first reason is the one to fix
    run.error = std::move(why);
    run.error_line = line;
    run.samples.clear();
  };
  for (std::size_t at = 0; at < text.size();) {
    const auto nl = text.find('\n', at);
    const std::size_t next = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view line = text.substr(at, next - at);
    at = next;
    ++lineno;
    if (line.ends_with('\n')) line.remove_suffix(1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    Match m;
    try {
      for (const auto& s : settings_)
        if (boost::regex_search(line.begin(), line.end(), m, s.re)) set_param(settings, s.param);
      const Line* hit = nullptr;
      for (const auto& l : lines_)
        if (boost::regex_search(line.begin(), line.end(), m, l.re)) {
          hit = &l;
          break;
        }
      if (!hit) continue;
      count_hit();
      MmtestsLogRun* run = &whole;
      if (per_line) {
        found.push_back({.start = block_start, .end = next, .run = {.params = settings}});
        block_start = next;
        run = &found.back().run;
      }
      // What the line says (perf's "Total time") beats what an earlier
      // setting said; in a whole-log run, the first line to say it.
      for (const auto& p : format_.lines[hit->row].params)
        if (per_line ||
            std::none_of(run->params.begin(), run->params.end(),
                         [&](const std::string& q) { return name_of(q) == name_of(p); }))
          set_param(run->params, p);
      const std::string value = m["value"].str();
      const auto v = to_number(value);
      if (!v) {
        fail(*run, lineno,
             fmt::format("line {}: '{}' is not a number: {}", lineno, excerpt(value),
                         excerpt(line, 200)));
        continue;
      }
      if (const auto why = sample_out_of_range(*v)) {
        fail(*run, lineno,
             fmt::format("line {}: '{}' is no sample: {}: {}", lineno, excerpt(value), *why,
                         excerpt(line, 200)));
        continue;
      }
      Sample s{.metric = format_.lines[hit->row].metric, .value = *v};
      if (m["offset"].matched) s.offset_s = to_number(m["offset"].str());
      if (run->error.empty()) run->samples.push_back(std::move(s));
    } catch (const std::runtime_error& e) {  // Boost.Regex's complexity limit on a hostile line
      MmtestsLogRun& run =
          per_line ? found.emplace_back(Found{.start = block_start, .end = next}).run : whole;
      if (per_line) block_start = next;
      count_hit();
      fail(run, lineno, fmt::format("line {}: the line could not be read: {}", lineno, e.what()));
    }
  }
  std::vector<MmtestsLogRun> runs;
  if (hits == 0) {
    MmtestsLogRun none{.text = head_and_tail(text, keep_bytes)};
    fail(
        none, 0,
        fmt::format("no line of the log holds a sample (mmtests reads it so: {})", format_.source));
    runs.push_back(std::move(none));
    return runs;
  }
  if (!per_line) {
    for (const auto& p : settings)
      if (std::none_of(whole.params.begin(), whole.params.end(),
                       [&](const std::string& q) { return name_of(q) == name_of(p); }))
        whole.params.push_back(p);
    whole.text = head_and_tail(text, keep_bytes);
    runs.push_back(std::move(whole));
    return runs;
  }
  found.back().end = text.size();  // the last run keeps what follows it
  runs.reserve(found.size());
  for (auto& f : found) {
    f.run.text = head_and_tail(text.substr(f.start, f.end - f.start), keep_bytes);
    runs.push_back(std::move(f.run));
  }
  return runs;
}

}  // namespace schedlab
