#include "analysis/counters/perf_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

#include "base/base64.h"
#include "base/compression.h"

namespace schedlab::perf_profile {
namespace {

// A folded profile's text is refused above this when loaded (a few KB of
// gzip can claim gigabytes); a day-long profile folds to a few MB.
constexpr std::size_t kMaxFolded = std::size_t{256} << 20;
// One stack's line: perf keeps at most kernel.perf_event_max_stack frames
// (127 by default), a few KB even of C++ templates; a longer line is a
// crafted one (its copies would cost its size again in every map).
constexpr std::size_t kMaxStackLine = std::size_t{1} << 20;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string frame_name(std::string_view sym, std::string_view dso) {
  // perf script -F sym prints no offset; an older perf's "sym+0x1b" is cut.
  if (const auto plus = sym.rfind("+0x"); plus != std::string_view::npos && plus > 0)
    sym = sym.substr(0, plus);
  std::string name;
  if (sym.empty() || sym == "[unknown]") {
    const auto slash = dso.rfind('/');
    const std::string_view base = slash == std::string_view::npos ? dso : dso.substr(slash + 1);
    name = base.empty() || base == "[unknown]" ? "[unknown]" : fmt::format("[{}]", base);
  } else {
    name = std::string(sym);
  }
  std::replace(name.begin(), name.end(), ';', ':');
  return name;
}

}  // namespace

std::vector<std::string> record_args(const std::string& data_file, int hz) {
  return {"record", "-a", "-g", "-F", std::to_string(hz), "-o", data_file, "--quiet"};
}

std::vector<std::string> script_args(const std::string& data_file) {
  return {"script", "-F", "comm,tid,ip,sym,dso", "-i", data_file};
}

Folded fold(std::string_view perf_script) {
  Folded out;
  const auto lines = split_lines(perf_script);
  std::string comm;
  std::vector<std::string> frames;  // leaf first, as perf prints them
  bool in_sample = false;
  auto finish = [&] {
    if (!in_sample) return;
    std::string stack = comm;
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) stack += ";" + *it;
    ++out[stack];
    frames.clear();
    in_sample = false;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view raw = lines[i];
    const std::string_view line = trim(raw);
    if (line.empty()) {
      finish();
      continue;
    }
    if (raw.front() != ' ' && raw.front() != '\t') {
      // A sample's header: "COMM TID" (a comm may hold spaces). A sample
      // of a task that had exited by the time perf script read it (do_exit
      // on its stack) has no thread: perf names it ":-1" with TID -1.
      finish();
      const auto space = line.rfind(' ');
      std::uint64_t tid = 0;
      if (space == std::string_view::npos ||
          !(parse_u64(line.substr(space + 1), tid) || line.substr(space + 1) == "-1"))
        throw CounterParseError(
            i + 1,
            fmt::format("expected a sample header 'COMM TID', found '{}'", line_excerpt(line)));
      comm = std::string(trim(line.substr(0, space)));
      std::replace(comm.begin(), comm.end(), ';', ':');
      in_sample = true;
      continue;
    }
    if (!in_sample)
      throw CounterParseError(
          i + 1, fmt::format("a frame before any sample header: '{}'", line_excerpt(line)));
    // A frame: "ADDR SYM (DSO)"; SYM may hold spaces and parentheses.
    const auto space = line.find(' ');
    const auto open = line.rfind(" (");
    if (space == std::string_view::npos || open == std::string_view::npos || open < space ||
        !line.ends_with(')'))
      throw CounterParseError(
          i + 1, fmt::format("expected a frame 'ADDR SYM (DSO)', found '{}'", line_excerpt(line)));
    frames.push_back(frame_name(trim(line.substr(space + 1, open - space - 1)),
                                line.substr(open + 2, line.size() - open - 3)));
  }
  finish();
  return out;
}

std::string folded_text(const Folded& f) {
  std::string out;
  for (const auto& [stack, n] : f) out += fmt::format("{} {}\n", stack, n);
  return out;
}

Folded parse_folded(std::string_view text) {
  Folded out;
  const auto lines = split_lines(text);
  // The samples in all, which every share divides by: past 2^64 they would
  // wrap and the shares print above 100%.
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    if (lines[i].size() > kMaxStackLine)
      throw CounterParseError(i + 1, fmt::format("a stack line of {} bytes: more than {}",
                                                 lines[i].size(), kMaxStackLine));
    const auto space = lines[i].rfind(' ');
    std::uint64_t n = 0;
    if (space == std::string_view::npos || space == 0 ||
        !parse_u64(lines[i].substr(space + 1), n) || n == 0)
      throw CounterParseError(
          i + 1, fmt::format("expected 'STACK COUNT', found '{}'", line_excerpt(lines[i])));
    if (n > std::numeric_limits<std::uint64_t>::max() - total)
      throw CounterParseError(i + 1, "the samples in all overflow a 64-bit count");
    total += n;
    const std::string stack(lines[i].substr(0, space));
    if (!out.emplace(stack, n).second) throw CounterParseError(i + 1, "a stack is given twice");
  }
  return out;
}

MonitorDelta shares(const Folded& f) {
  std::uint64_t total = 0;
  std::map<std::string, std::uint64_t> self, children;
  for (const auto& [stack, n] : f) {
    total += n;
    std::set<std::string_view> seen;
    std::string_view rest = stack;
    const auto first = rest.find(';');
    if (first == std::string_view::npos) continue;  // a sample without frames
    rest.remove_prefix(first + 1);
    std::string_view leaf;
    while (!rest.empty()) {
      const auto semi = rest.find(';');
      leaf = rest.substr(0, semi);
      if (seen.insert(leaf).second) children[std::string(leaf)] += n;
      if (semi == std::string_view::npos) break;
      rest.remove_prefix(semi + 1);
    }
    self[std::string(leaf)] += n;
  }
  MonitorDelta out;
  out.json["samples"] = total;
  out.json["unit"] = "percent of all samples";
  if (total == 0) return out;
  const double t = static_cast<double>(total);
  nlohmann::json top = nlohmann::json::array();
  for (const auto& [sym, n] : children) {
    const double c = 100.0 * static_cast<double>(n) / t;
    if (c < kMinSharePct) continue;
    const auto s = self.find(sym);
    const double sp = s == self.end() ? 0.0 : 100.0 * static_cast<double>(s->second) / t;
    out.rows.push_back({"children." + sym, c});
    if (sp > 0) out.rows.push_back({"self." + sym, sp});
  }
  std::vector<std::pair<double, std::string>> by_self;
  for (const auto& [sym, n] : self) by_self.emplace_back(static_cast<double>(n), sym);
  std::sort(by_self.rbegin(), by_self.rend());
  for (std::size_t i = 0; i < by_self.size() && i < 20; ++i)
    top.push_back({{"symbol", by_self[i].second}, {"self_pct", 100.0 * by_self[i].first / t}});
  out.json["top_self"] = std::move(top);
  return out;
}

std::string store(const Folded& f) {
  return base64_encode(gzip(folded_text(f)));
}

Folded load(const std::string& stored, std::string_view what) {
  const auto bytes = base64_decode(stored);
  if (!bytes) throw CounterParseError(0, fmt::format("{}: the stored profile is not base64", what));
  if (compression_of(*bytes) != Compression::kGzip)
    throw CounterParseError(0, fmt::format("{}: the stored profile is not gzip data", what));
  std::string text;
  try {
    text = gunzip(*bytes, std::string(what), kMaxFolded);
  } catch (const std::runtime_error& e) {
    throw CounterParseError(0, fmt::format("stored profile: {}", e.what()));
  }
  try {
    return parse_folded(text);
  } catch (const CounterParseError& e) {
    throw CounterParseError(e, fmt::format("{}: stored profile", what));
  }
}

}  // namespace schedlab::perf_profile
