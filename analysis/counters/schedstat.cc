#include "analysis/counters/schedstat.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <unordered_set>

namespace schedlab::schedstat {
namespace {

constexpr std::string_view kCpuNames[kCpuFields] = {"yld_count",  "sched_count", "sched_goidle",
                                                    "ttwu_count", "ttwu_local",  "rq_cpu_time",
                                                    "run_delay",  "pcount"};
constexpr std::string_view kLbNames[kLbFields] = {
    "lb_count",          "lb_balanced",       "lb_failed",         "lb_imbalance",
    "lb_imbalance_load", "lb_imbalance_util", "lb_imbalance_task", "lb_imbalance_misfit",
    "lb_gained",         "lb_hot_gained",     "lb_nobusyq",        "lb_nobusyg"};
constexpr std::string_view kTailNames[kTailFields] = {
    "alb_count",    "alb_failed",       "alb_pushed",       "sbe_count",
    "sbe_balanced", "sbe_pushed",       "sbf_count",        "sbf_balanced",
    "sbf_pushed",   "ttwu_wake_remote", "ttwu_move_affine", "ttwu_move_balance"};
constexpr std::string_view kIdleNames[kIdleTypes] = {"busy", "idle", "newidle"};

// What each printed group holds, in print order, per layout.
using L = LbField;
constexpr LbField kLbPrinted36[] = {L::lb_count,  L::lb_balanced,   L::lb_failed,  L::lb_imbalance,
                                    L::lb_gained, L::lb_hot_gained, L::lb_nobusyq, L::lb_nobusyg};
constexpr LbField kLbPrinted45[] = {
    L::lb_count,          L::lb_balanced,       L::lb_failed,           L::lb_imbalance_load,
    L::lb_imbalance_util, L::lb_imbalance_task, L::lb_imbalance_misfit, L::lb_gained,
    L::lb_hot_gained,     L::lb_nobusyq,        L::lb_nobusyg};
// v15's enum cpu_idle_type was {idle, busy(not idle), newly idle}; v16
// reordered it to {busy, idle, newly idle}.
constexpr IdleType kGroupsV15[] = {IdleType::idle, IdleType::busy, IdleType::newidle};
constexpr IdleType kGroupsV16[] = {IdleType::busy, IdleType::idle, IdleType::newidle};

// printed counter position -> canonical domain field, for one layout.
template <std::size_t N>
std::array<std::uint8_t, N> printed_order(const IdleType (&groups)[3], const auto& lb) {
  std::array<std::uint8_t, N> out{};
  const std::size_t per = std::size(lb);
  std::size_t k = 0;
  for (IdleType g : groups)
    for (std::size_t j = 0; j < per; ++j)
      out[k++] = static_cast<std::uint8_t>(domain_index(g, lb[j]));
  for (std::size_t j = 0; j < kTailFields; ++j)
    out[k++] = static_cast<std::uint8_t>(domain_index(static_cast<TailField>(j)));
  return out;
}
const auto kOrderV15 = printed_order<36>(kGroupsV15, kLbPrinted36);
const auto kOrderV16 = printed_order<36>(kGroupsV16, kLbPrinted36);
const auto kOrderV17 = printed_order<45>(kGroupsV16, kLbPrinted45);

struct MaskInfo {
  int weight = 0;
  int lowest = -1, highest = -1;
};

// %*pb: 32-bit hex groups separated by commas, most significant first.
std::optional<MaskInfo> mask_info(std::string_view mask) {
  if (mask.empty()) return std::nullopt;
  MaskInfo m;
  int bit = 0;
  std::size_t end = mask.size();
  while (true) {
    const std::size_t comma = mask.rfind(',', end - 1);
    const std::size_t start = comma == std::string_view::npos ? 0 : comma + 1;
    const std::string_view group = mask.substr(start, end - start);
    if (group.empty() || group.size() > 8) return std::nullopt;
    std::uint32_t v = 0;
    const auto [p, ec] = std::from_chars(group.data(), group.data() + group.size(), v, 16);
    if (ec != std::errc() || p != group.data() + group.size()) return std::nullopt;
    if (v) {
      m.weight += std::popcount(v);
      if (m.lowest < 0) m.lowest = bit + std::countr_zero(v);
      m.highest = bit + 31 - std::countl_zero(v);
    }
    bit += 32;
    if (comma == std::string_view::npos) break;
    end = comma;
    if (end == 0) return std::nullopt;
  }
  return m;
}

// "cpu12" -> 12; "domain0" -> 0.
std::optional<int> numbered(std::string_view token, std::string_view prefix) {
  if (!token.starts_with(prefix) || token.size() == prefix.size()) return std::nullopt;
  std::uint64_t n = 0;
  if (!parse_u64(token.substr(prefix.size()), n) || n > 1'000'000) return std::nullopt;
  return static_cast<int>(n);
}

std::string_view header_value(std::string_view line, std::string_view key, std::size_t line_no) {
  const auto t = split_ws(line);
  if (t.size() != 2 || t[0] != key)
    throw CounterParseError(line_no, fmt::format("expected '{} <number>', found '{}'", key, line));
  return t[1];
}

}  // namespace

std::string_view cpu_field_name(std::size_t i) {
  return kCpuNames[i];
}

const std::string& domain_field_name(std::size_t i) {
  static const auto names = [] {
    std::array<std::string, kDomainFields> n;
    for (std::size_t t = 0; t < kIdleTypes; ++t)
      for (std::size_t f = 0; f < kLbFields; ++f)
        n[t * kLbFields + f] = fmt::format("{}_{}", kLbNames[f], kIdleNames[t]);
    for (std::size_t f = 0; f < kTailFields; ++f) n[kIdleTypes * kLbFields + f] = kTailNames[f];
    return n;
  }();
  return names[i];
}

std::string_view lb_field_name(std::size_t i) {
  return kLbNames[i];
}

std::string_view idle_type_name(IdleType t) {
  return kIdleNames[static_cast<std::size_t>(t)];
}

std::string_view layout_name(DomainLayout l) {
  switch (l) {
    case DomainLayout::none:
      return "none";
    case DomainLayout::v15:
      return "v15";
    case DomainLayout::v16:
      return "v16";
    case DomainLayout::v17:
      return "v17";
  }
  return "?";
}

bool available(DomainLayout l, std::size_t field) {
  if (l == DomainLayout::none) return false;
  if (field >= kIdleTypes * kLbFields) return true;
  const auto f = static_cast<LbField>(field % kLbFields);
  const bool split = f >= LbField::lb_imbalance_load && f <= LbField::lb_imbalance_misfit;
  if (f == LbField::lb_imbalance) return l != DomainLayout::v17;
  return split ? l == DomainLayout::v17 : true;
}

int cpumask_weight(std::string_view mask) {
  const auto m = mask_info(mask);
  return m ? m->weight : -1;
}

Snapshot parse(std::string_view text) {
  Snapshot s;
  const auto lines = split_lines(text);
  std::size_t i = 0;
  auto skip_blank = [&] {
    while (i < lines.size() && lines[i].find_first_not_of(" \t\r") == std::string_view::npos) ++i;
  };
  skip_blank();
  if (i == lines.size()) throw CounterParseError(0, "empty schedstat text: no 'version' line");
  const std::uint64_t version =
      parse_u64_or_throw(header_value(lines[i], "version", i + 1), i + 1, "version");
  if (version < 15 || version > 17)
    throw CounterParseError(
        i + 1, fmt::format("schedstat version {} is not supported (known: 15, 16, 17)", version));
  s.version = static_cast<int>(version);
  ++i;
  skip_blank();
  if (i == lines.size()) throw CounterParseError(0, "no 'timestamp' line after the version");
  s.timestamp = parse_u64_or_throw(header_value(lines[i], "timestamp", i + 1), i + 1, "timestamp");
  ++i;

  std::vector<std::string_view> t;
  std::unordered_set<int> seen;
  std::size_t layout_line = 0;  // the first domain line: the others must match its shape
  bool layout_named = false;
  for (; i < lines.size(); ++i) {
    const std::size_t line_no = i + 1;
    split_ws(lines[i], t);
    if (t.empty()) continue;
    if (auto n = numbered(t[0], "cpu")) {
      if (t.size() != 10)
        throw CounterParseError(
            line_no, fmt::format("cpu line has {} counters; expected 9 (more are out-of-tree "
                                 "additions, e.g. mmtests' select_idle_sibling counters)",
                                 t.size() - 1));
      if (!seen.insert(*n).second)
        throw CounterParseError(line_no, fmt::format("cpu{} appears twice", *n));
      Cpu& cpu = s.cpus.emplace_back();
      cpu.cpu = *n;
      cpu.domains.reserve(4);
      std::uint64_t ignored = 0;
      for (std::size_t k = 0, f = 0; k < 9; ++k) {
        if (!parse_u64(t[k + 1], k == 1 ? ignored : cpu.c.v[f]))
          throw CounterParseError(
              line_no, fmt::format("cpu field {}: '{}' is not a counter", k + 1, t[k + 1]));
        if (k != 1) ++f;
      }
      continue;
    }
    if (auto n = numbered(t[0], "domain")) {
      if (s.cpus.empty()) throw CounterParseError(line_no, "domain line before any cpu line");
      Cpu& cpu = s.cpus.back();
      if (*n != static_cast<int>(cpu.domains.size()))
        throw CounterParseError(line_no, fmt::format("expected domain{} of cpu{}, found {}",
                                                     cpu.domains.size(), cpu.cpu, t[0]));
      // Shape, not the version line, says whether a name is printed.
      const std::size_t counters = t.size() == 38 || t.size() == 39   ? 36
                                   : t.size() == 47 || t.size() == 48 ? 45
                                                                      : 0;
      const bool named = t.size() == 39 || t.size() == 48;
      // A name is never hex digits and commas (SMT, MC, PKG, NUMA, ...): one
      // that is, is a 37th or 46th counter after the mask.
      if (!counters ||
          (named && t[1].find_first_not_of("0123456789abcdef,") == std::string_view::npos))
        throw CounterParseError(
            line_no,
            fmt::format("domain line has {} fields; expected 'domainN [NAME] CPUMASK' then 36 "
                        "counters (v15/v16) or 45 (v17)",
                        t.size()));
      DomainLayout layout;
      if (counters == 45) {
        if (s.version != 17)
          throw CounterParseError(
              line_no, fmt::format("domain line has 45 counters (the v17 layout) but the file "
                                   "says version {}",
                                   s.version));
        layout = DomainLayout::v17;
      } else {
        if (s.version == 17)
          throw CounterParseError(line_no, "domain line has 36 counters but version 17 prints 45");
        layout = s.version == 15 ? DomainLayout::v15 : DomainLayout::v16;
      }
      if (s.layout == DomainLayout::none) {
        s.layout = layout;
        layout_line = line_no;
        layout_named = named;
      } else if (named != layout_named) {
        throw CounterParseError(
            line_no, fmt::format("domain line {} a name but line {} {}", named ? "has" : "lacks",
                                 layout_line, layout_named ? "had one" : "had none"));
      }
      Domain& d = cpu.domains.emplace_back();
      d.index = *n;
      if (named && !domain_name_ok(t[1]))
        throw CounterParseError(line_no, fmt::format("'{}' is not a domain name (ASCII letters, "
                                                     "digits and _, at most 16)",
                                                     line_excerpt(t[1])));
      if (named) d.name = t[1];
      d.cpumask = t[named ? 2 : 1];
      const auto m = mask_info(d.cpumask);
      if (!m || m->weight == 0)
        throw CounterParseError(line_no,
                                fmt::format("'{}' is not a cpumask (hex words separated by commas, "
                                            "with a bit set)",
                                            d.cpumask));
      d.span = m->weight;
      const std::uint8_t* order = counters == 45                ? kOrderV17.data()
                                  : layout == DomainLayout::v15 ? kOrderV15.data()
                                                                : kOrderV16.data();
      const std::size_t first = named ? 3 : 2;
      for (std::size_t k = 0; k < counters; ++k) {
        std::uint64_t v = 0;
        if (!parse_u64(t[first + k], v))
          throw CounterParseError(line_no, fmt::format("domain counter {}: '{}' is not a counter",
                                                       k + 1, t[first + k]));
        d.c.v[order[k]] = v;
      }
      continue;
    }
    throw CounterParseError(line_no, fmt::format("unknown line starting '{}'; expected cpuN or "
                                                 "domainN",
                                                 t[0]));
  }
  if (s.cpus.empty()) throw CounterParseError(0, "no cpu lines");
  name_levels(s);
  return s;
}

void name_levels(Snapshot& s) {
  for (Cpu& cpu : s.cpus) {
    std::size_t k = 0;
    const auto& ds = cpu.domains;
    if (ds.size() >= 2 && ds[0].name.empty() && ds[0].span >= 2 && ds[0].span <= 8) {
      const auto m = mask_info(ds[0].cpumask);
      if (m && m->highest - m->lowest + 1 != m->weight) {
        cpu.domains[0].level = "SMT";
        cpu.domains[0].level_inferred = true;
        k = 1;
      }
    }
    static constexpr std::string_view kAbove[] = {"MC", "PKG"};
    for (std::size_t j = k; j < ds.size(); ++j) {
      Domain& d = cpu.domains[j];
      if (!d.name.empty()) {
        d.level = d.name;
        d.level_inferred = false;
        continue;
      }
      d.level = j - k < std::size(kAbove) ? kAbove[j - k] : "NUMA";
      d.level_inferred = true;
    }
  }
}

bool domain_name_ok(std::string_view s) {
  return !s.empty() && s.size() <= 16 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

void set_level_names(Snapshot& s, const std::vector<std::string>& names) {
  for (Cpu& cpu : s.cpus)
    for (Domain& d : cpu.domains)
      if (static_cast<std::size_t>(d.index) < names.size() && !names[d.index].empty()) {
        d.level = names[d.index];
        d.level_inferred = false;
      }
}

std::string level_key(const Cpu& cpu, const Domain& d) {
  const auto same = std::count_if(cpu.domains.begin(), cpu.domains.end(),
                                  [&](const Domain& o) { return o.level == d.level; });
  return same > 1 ? fmt::format("{}@{}", d.level, d.index) : d.level;
}

}  // namespace schedlab::schedstat
