#include "analysis/counters/procfs_pressure.h"

#include <fmt/format.h>

namespace schedlab::procfs {

Pressure parse_pressure(std::string_view text) {
  Pressure p;
  const auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto t = split_ws(lines[i]);
    if (t.empty()) continue;
    auto bad = [&] {
      return CounterParseError(
          i + 1, fmt::format("expected 'some|full avg10=X avg60=X avg300=X total=N', found '{}'",
                             lines[i]));
    };
    if (t.size() != 5 || (t[0] != "some" && t[0] != "full")) throw bad();
    PressureLine l;
    double* avgs[] = {&l.avg10, &l.avg60, &l.avg300};
    constexpr std::string_view keys[] = {"avg10=", "avg60=", "avg300=", "total="};
    for (std::size_t k = 0; k < 4; ++k) {
      if (!t[k + 1].starts_with(keys[k])) throw bad();
      const auto value = t[k + 1].substr(keys[k].size());
      if (k < 3 ? !parse_double(value, *avgs[k]) : !parse_u64(value, l.total_us)) throw bad();
    }
    (t[0] == "some" ? p.some : p.full) = l;
  }
  if (!p.some) throw CounterParseError(0, "no 'some' line: not a /proc/pressure file");
  return p;
}

Pressure diff(const Pressure& before, const Pressure& after) {
  Pressure d = after;
  auto one = [](const std::optional<PressureLine>& b, std::optional<PressureLine>& a,
                std::string_view what) {
    if (b.has_value() != a.has_value())
      throw CounterMismatchError(fmt::format("pressure '{}' line appeared or disappeared", what));
    if (a)
      a->total_us =
          counter_delta(b->total_us, a->total_us, 64, fmt::format("pressure {} total", what));
  };
  one(before.some, d.some, "some");
  one(before.full, d.full, "full");
  return d;
}

}  // namespace schedlab::procfs
