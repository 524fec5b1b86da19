#include "analysis/counters/schedstat_diff.h"

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <unordered_map>

namespace schedlab::schedstat {
namespace {

// cpu fields 1-6 are unsigned int in the kernel (struct rq: yld_count,
// sched_count, ...), printed with %u: they wrap at 2^32 on every kernel.
// Run time and run delay are u64. Timeslices (pcount) and the timestamp
// (jiffies) are unsigned long: 64 bits on a 64-bit kernel, where a backwards
// step is a reset (another boot) or snapshots out of order, never a wrap;
// 32 bits on a 32-bit one (the armhf lab board), whose jiffies wrap at 2^32
// five minutes after boot (INITIAL_JIFFIES), then every 49.7 days at
// HZ=1000. The file does not say which kernel wrote it: a step back from a
// value below 2^32 is taken as that wrap (a 32-bit kernel prints nothing
// above), and one from a value past 2^32 is refused (hostile12: a wrap
// taken for granted made a 64-bit pair out of order into an interval). A
// timestamp past 2^32 in either snapshot shows a 64-bit kernel: then pcount
// stepping back is refused however small it was (hostile15 #25). All
// domain counters are unsigned int.
constexpr int kUnsignedLong = 0;
constexpr int kCpuBits[kCpuFields] = {32, 32, 32, 32, 32, 64, 64, kUnsignedLong};

// counter_delta() with the error message built only on the slow path.
template <typename Name>
std::uint64_t delta_of(std::uint64_t before, std::uint64_t after, int bits, Name&& name) {
  if (after >= before) return after - before;
  if (bits == kUnsignedLong) bits = before >> 32 == 0 ? 32 : 64;
  return counter_delta(before, after, bits, name());
}

// sum += x, or std::overflow_error naming the counter: a sum of counters
// near 2^64 (a crafted or corrupt snapshot) must not wrap into a small,
// plausible number.
template <typename Name>
void add_checked(std::uint64_t& sum, std::uint64_t x, Name&& name) {
  if (__builtin_add_overflow(sum, x, &sum))
    throw std::overflow_error(
        fmt::format("the sum of {} overflows 64 bits (adding {})", name(), x));
}

std::optional<double> pct(double num, std::uint64_t den) {
  if (den == 0) return std::nullopt;
  return 100.0 * num / static_cast<double>(den);
}

std::vector<Ratio> level_ratios(const LevelSummary& l, const CpuCounters& total) {
  const DomainCounters& c = l.c;
  const auto wakeups = total[CpuField::ttwu_count];
  std::vector<Ratio> r;
  r.push_back({"wake_remote_pct",
               fmt::format("Wakeups of tasks last on another {} CPU (% of all wakeups)", l.key),
               pct(c(TailField::ttwu_wake_remote), wakeups)});
  r.push_back({"move_affine_pct",
               fmt::format("Affine wakeups on same {} (% of all wakeups)", l.key),
               pct(c(TailField::ttwu_move_affine), wakeups)});
  for (IdleType t : {IdleType::busy, IdleType::idle, IdleType::newidle}) {
    const double moved = static_cast<double>(c(t, LbField::lb_count)) -
                         static_cast<double>(c(t, LbField::lb_balanced)) -
                         static_cast<double>(c(t, LbField::lb_failed));
    r.push_back(
        {fmt::format("lb_success_pct_{}", idle_type_name(t)),
         fmt::format("load_balance() that moved tasks, CPU {} (% of calls)", idle_type_name(t)),
         pct(moved, c(t, LbField::lb_count))});
  }
  return r;
}

}  // namespace

void check_same_topology(const Snapshot& a, const Snapshot& b) {
  auto refuse = [](const std::string& what) {
    throw CounterMismatchError("schedstat topology changed between the snapshots (" + what +
                               "); a delta would mix unrelated counters");
  };
  if (a.version != b.version) refuse(fmt::format("version {} -> {}", a.version, b.version));
  if (a.layout != b.layout)
    refuse(fmt::format("domain layout {} -> {}", layout_name(a.layout), layout_name(b.layout)));
  if (a.cpus.size() != b.cpus.size())
    refuse(fmt::format("{} CPUs -> {}", a.cpus.size(), b.cpus.size()));
  for (std::size_t i = 0; i < a.cpus.size(); ++i) {
    const Cpu& x = a.cpus[i];
    const Cpu& y = b.cpus[i];
    if (x.cpu != y.cpu) refuse(fmt::format("CPU #{} is cpu{} then cpu{}", i, x.cpu, y.cpu));
    if (x.domains.size() != y.domains.size())
      refuse(fmt::format("cpu{} has {} domain levels, then {}", x.cpu, x.domains.size(),
                         y.domains.size()));
    for (std::size_t j = 0; j < x.domains.size(); ++j) {
      const Domain& p = x.domains[j];
      const Domain& q = y.domains[j];
      auto what = [](const Domain& d) {
        return d.name.empty() ? d.cpumask : d.name + " " + d.cpumask;
      };
      if (p.cpumask != q.cpumask || p.name != q.name)
        refuse(fmt::format("cpu{} domain{}: {} -> {}", x.cpu, j, what(p), what(q)));
    }
  }
}

Snapshot diff(const Snapshot& before, const Snapshot& after) {
  check_same_topology(before, after);
  Snapshot d = after;
  d.timestamp = delta_of(before.timestamp, after.timestamp, kUnsignedLong, [] {
    return std::string("timestamp (jiffies: past 2^32, a 64-bit kernel's, which does not wrap)");
  });
  const bool wide = (before.timestamp | after.timestamp) >> 32 != 0;  // a 64-bit kernel
  for (std::size_t i = 0; i < d.cpus.size(); ++i) {
    const Cpu& b = before.cpus[i];
    Cpu& c = d.cpus[i];
    for (std::size_t f = 0; f < kCpuFields; ++f) {
      const bool long64 = wide && kCpuBits[f] == kUnsignedLong;
      c.c.v[f] = delta_of(b.c.v[f], c.c.v[f], long64 ? 64 : kCpuBits[f], [&] {
        return fmt::format("cpu{} {}{}", c.cpu, cpu_field_name(f),
                           long64 ? " (unsigned long: the timestamp past 2^32 shows a 64-bit "
                                    "kernel's, which does not wrap)"
                                  : "");
      });
    }
    for (std::size_t j = 0; j < c.domains.size(); ++j) {
      auto& dv = c.domains[j].c.v;
      const auto& bv = b.domains[j].c.v;
      for (std::size_t f = 0; f < kDomainFields; ++f)
        dv[f] = delta_of(bv[f], dv[f], 32, [&] {
          return fmt::format("cpu{} domain{} {}", c.cpu, j, domain_field_name(f));
        });
    }
  }
  return d;
}

void accumulate(Snapshot& sum, const Snapshot& delta) {
  check_same_topology(sum, delta);
  add_checked(sum.timestamp, delta.timestamp, [] { return std::string("the timestamp"); });
  for (std::size_t i = 0; i < sum.cpus.size(); ++i) {
    Cpu& s = sum.cpus[i];
    const Cpu& d = delta.cpus[i];
    for (std::size_t f = 0; f < kCpuFields; ++f)
      add_checked(s.c.v[f], d.c.v[f], [&] {
        return fmt::format("cpu{} {} over iterations", s.cpu, cpu_field_name(f));
      });
    for (std::size_t j = 0; j < s.domains.size(); ++j)
      for (std::size_t f = 0; f < kDomainFields; ++f)
        add_checked(s.domains[j].c.v[f], d.domains[j].c.v[f], [&] {
          return fmt::format("cpu{} domain{} {} over iterations", s.cpu, j, domain_field_name(f));
        });
  }
}

Summary summarize(const Snapshot& s) {
  Summary out;
  out.version = s.version;
  out.layout = s.layout;
  out.jiffies = s.timestamp;
  out.cpus = static_cast<int>(s.cpus.size());
  std::unordered_map<std::string, std::size_t> by_key;
  for (const Cpu& cpu : s.cpus) {
    for (std::size_t f = 0; f < kCpuFields; ++f)
      add_checked(out.total.v[f], cpu.c.v[f], [&] {
        return fmt::format("{} over all CPUs (at cpu{})", cpu_field_name(f), cpu.cpu);
      });
    for (const Domain& d : cpu.domains) {
      std::string key = level_key(cpu, d);
      auto [it, added] = by_key.try_emplace(key, out.levels.size());
      if (added) {
        LevelSummary& l = out.levels.emplace_back();
        l.key = std::move(key);
        l.level = d.level;
        l.inferred = d.level_inferred;
        l.index = d.index;
      }
      LevelSummary& l = out.levels[it->second];
      ++l.cpus;
      for (std::size_t f = 0; f < kDomainFields; ++f)
        add_checked(l.c.v[f], d.c.v[f], [&] {
          return fmt::format("{} {} over its CPUs (at cpu{})", l.key, domain_field_name(f),
                             cpu.cpu);
        });
    }
  }
  const CpuCounters& t = out.total;
  out.ratios.push_back({"ttwu_local_pct", "try_to_wake_up() that woke the local CPU (%)",
                        pct(t[CpuField::ttwu_local], t[CpuField::ttwu_count])});
  out.ratios.push_back({"sched_goidle_pct", "schedule() that left the CPU idle (%)",
                        pct(t[CpuField::sched_goidle], t[CpuField::sched_count])});
  for (LevelSummary& l : out.levels) l.ratios = level_ratios(l, t);
  return out;
}

std::optional<std::uint64_t> level_counter(const Summary& s, const LevelSummary& l,
                                           std::size_t field) {
  if (!available(s.layout, field)) return std::nullopt;
  return l.c.v[field];
}

std::optional<double> pct_change(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *a == 0) return std::nullopt;
  return (*b - *a) / *a * 100.0;
}

Comparison compare(const Summary& a, const Summary& b, std::string label_a, std::string label_b) {
  Comparison c{std::move(label_a), std::move(label_b), a, b, {}};
  auto add = [&](const std::string& section, const std::string& name, const std::string& label,
                 bool ratio, std::optional<double> x, std::optional<double> y) {
    c.rows.push_back({section, name, label, ratio, x, y, pct_change(x, y)});
  };
  const std::string all = "all CPUs";
  for (std::size_t f = 0; f < kCpuFields; ++f) {
    const std::string name(cpu_field_name(f));
    add(all, name, name, false, static_cast<double>(a.total.v[f]),
        static_cast<double>(b.total.v[f]));
  }
  for (std::size_t r = 0; r < a.ratios.size(); ++r)
    add(all, a.ratios[r].name, a.ratios[r].label, true, a.ratios[r].pct, b.ratios[r].pct);

  auto find = [](const Summary& s, const std::string& key) -> const LevelSummary* {
    for (const auto& l : s.levels)
      if (l.key == key) return &l;
    return nullptr;
  };
  std::vector<std::string> keys;
  for (const auto& l : a.levels) keys.push_back(l.key);
  for (const auto& l : b.levels)
    if (!find(a, l.key)) keys.push_back(l.key);
  for (const auto& key : keys) {
    const LevelSummary* la = find(a, key);
    const LevelSummary* lb = find(b, key);
    auto counter = [](const Summary& s, const LevelSummary* l,
                      std::size_t f) -> std::optional<double> {
      if (!l) return std::nullopt;
      const auto v = level_counter(s, *l, f);
      return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
    };
    for (std::size_t f = 0; f < kDomainFields; ++f) {
      const auto x = counter(a, la, f);
      const auto y = counter(b, lb, f);
      if (!available(a.layout, f) && !available(b.layout, f)) continue;
      add(key, domain_field_name(f), domain_field_name(f), false, x, y);
    }
    const LevelSummary& any = la ? *la : *lb;
    for (std::size_t r = 0; r < any.ratios.size(); ++r)
      add(key, any.ratios[r].name, any.ratios[r].label, true, la ? la->ratios[r].pct : std::nullopt,
          lb ? lb->ratios[r].pct : std::nullopt);
  }
  return c;
}

}  // namespace schedlab::schedstat
