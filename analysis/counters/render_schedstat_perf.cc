#include "analysis/counters/render_schedstat_perf.h"

#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "analysis/counters/schedstat_diff.h"

namespace schedlab::schedstat {
namespace {

const std::string kSeparator(100, '-');

// perf's DOMAIN_CATEGORY: the name centred in 100 dashes.
std::string category(const std::string& name) {
  const std::size_t pre = (100 - name.size()) / 2;
  return std::string(pre, '-') + name + std::string(100 - name.size() - pre, '-') + "\n";
}

std::optional<double> ratio_pct(double x, double of) {
  if (of == 0) return std::nullopt;
  return x / of * 100;
}

std::optional<double> per(double x, double count) {
  if (count == 0) return std::nullopt;
  return x / count;
}

// PCT_CHNG, except that a change from a zero base is no number.
std::string pct_change(double a, double b) {
  if (a == 0)
    return b == 0 ? fmt::format("  | {:>8.2f}% |", 0.0) : fmt::format("  | {:>9} |", "n/a");
  return fmt::format("  | {:>8.2f}% |", (b - a) / a * 100);
}

std::string pct(const std::optional<double>& v) {
  return v ? fmt::format("{:>8.2f}%", *v) : fmt::format("{:>9}", "n/a");
}

std::string avg(const std::optional<double>& v) {
  return v ? fmt::format("{:>11.2f}", *v) : fmt::format("{:>11}", "n/a");
}

// ---- CPU fields (CPU_FIELD of schedstat-v15/16/17.h: the same in each) ----

struct CpuRow {
  const char* desc;
  std::optional<CpuField> field;  // none: the legacy array_exp, which the kernel prints as 0
  std::optional<CpuField> pct_of;
};
const CpuRow kCpuRows[] = {
    {"sched_yield() count", CpuField::yld_count, {}},
    {"Legacy counter can be ignored", {}, {}},
    {"schedule() called", CpuField::sched_count, {}},
    {"schedule() left the processor idle", CpuField::sched_goidle, CpuField::sched_count},
    {"try_to_wake_up() was called", CpuField::ttwu_count, {}},
    {"try_to_wake_up() was called to wake up the local cpu", CpuField::ttwu_local,
     CpuField::ttwu_count},
    {"total runtime by tasks on this processor (in jiffies)", CpuField::rq_cpu_time, {}},
    {"total waittime by tasks on this processor (in jiffies)", CpuField::run_delay,
     CpuField::rq_cpu_time},
    {"total timeslices run on this cpu", CpuField::pcount, {}},
};

double cpu_value(const CpuCounters& c, std::optional<CpuField> f) {
  return f ? static_cast<double>(c[*f]) : 0;
}

std::string cpu_table(const CpuCounters& a, const CpuCounters* b) {
  std::string out = fmt::format("{:<65} ", "DESC");
  out += b ? fmt::format("{:>12} {:>11} {:>12} {:>14} {:>10}", "COUNT1", "COUNT2", "PCT_CHANGE",
                         "PCT_CHANGE1", "PCT_CHANGE2")
           : fmt::format("{:>12} {:>12}", "COUNT", "PCT_CHANGE");
  out += "\n" + kSeparator + "\n";
  for (const CpuRow& r : kCpuRows) {
    const double x = cpu_value(a, r.field);
    out += fmt::format("{:<65}: {:>11}", r.desc, static_cast<std::uint64_t>(x));
    if (!b) {
      if (r.pct_of) out += fmt::format("  ( {} )", pct(ratio_pct(x, cpu_value(a, r.pct_of))));
    } else {
      const double y = cpu_value(*b, r.field);
      out += fmt::format(",{:>11}", static_cast<std::uint64_t>(y)) + pct_change(x, y);
      if (r.pct_of)
        out += fmt::format("  ( {},  {} )", pct(ratio_pct(x, cpu_value(a, r.pct_of))),
                           pct(ratio_pct(y, cpu_value(*b, r.pct_of))));
    }
    out += "\n";
  }
  return out;
}

// ---- domain fields (DOMAIN_FIELD, DERIVED_*_FIELD, DOMAIN_CATEGORY) ----

// The words of each LbField in perf's DESC, "%s" for "cpu busy" etc.; the
// load_balance() outcomes and the no-busier-queue/group counts carry
// AVG_JIFFIES (perf's _is_jiffies).
struct LbRow {
  LbField field;
  const char* desc;
  bool jiffies;
};
const LbRow kLbRows[] = {
    {LbField::lb_count, "load_balance() count on {}", true},
    {LbField::lb_balanced, "load_balance() found balanced on {}", true},
    {LbField::lb_failed, "load_balance() move task failed on {}", true},
    {LbField::lb_imbalance, "imbalance sum on {}", false},           // v15, v16
    {LbField::lb_imbalance_load, "imbalance in load on {}", false},  // v17
    {LbField::lb_imbalance_util, "imbalance in utilization on {}", false},
    {LbField::lb_imbalance_task, "imbalance in number of tasks on {}", false},
    {LbField::lb_imbalance_misfit, "imbalance in misfit tasks on {}", false},
    {LbField::lb_gained, "pull_task() count on {}", false},
    {LbField::lb_hot_gained, "pull_task() when target task was cache-hot on {}", false},
    {LbField::lb_nobusyq, "load_balance() failed to find busier queue on {}", true},
    {LbField::lb_nobusyg, "load_balance() failed to find busier group on {}", true},
};

struct TailCategory {
  const char* name;
  std::vector<std::pair<TailField, const char*>> rows;
};
const TailCategory kTail[] = {
    {" <Category active_load_balance()> ",
     {{TailField::alb_count, "active_load_balance() count"},
      {TailField::alb_failed, "active_load_balance() move task failed"},
      {TailField::alb_pushed, "active_load_balance() successfully moved a task"}}},
    {" <Category sched_balance_exec()> ",
     {{TailField::sbe_count, "sbe_count is not used"},
      {TailField::sbe_balanced, "sbe_balanced is not used"},
      {TailField::sbe_pushed, "sbe_pushed is not used"}}},
    {" <Category sched_balance_fork()> ",
     {{TailField::sbf_count, "sbf_count is not used"},
      {TailField::sbf_balanced, "sbf_balanced is not used"},
      {TailField::sbf_pushed, "sbf_pushed is not used"}}},
    {" <Wakeup Info> ",
     {{TailField::ttwu_wake_remote, "try_to_wake_up() awoke a task that last ran on a diff cpu"},
      {TailField::ttwu_move_affine, "try_to_wake_up() moved task because cache-cold on own cpu"},
      {TailField::ttwu_move_balance, "try_to_wake_up() started passive balancing"}}},
};

// perf's category order: v15 prints idle, busy, newidle; v16 and v17 busy, idle, newidle.
std::vector<IdleType> idle_order(DomainLayout l) {
  if (l == DomainLayout::v15) return {IdleType::idle, IdleType::busy, IdleType::newidle};
  return {IdleType::busy, IdleType::idle, IdleType::newidle};
}

const char* idle_words(IdleType t) {
  switch (t) {
    case IdleType::busy:
      return "cpu busy";
    case IdleType::idle:
      return "cpu idle";
    case IdleType::newidle:
      return "cpu newly idle";
  }
  return "";
}

struct Side {
  const DomainCounters* c;
  double jiffies;
};

std::string domain_table(DomainLayout layout, Side a, const Side* b) {
  std::string out = fmt::format("{:<65} ", "DESC");
  out += b ? fmt::format("{:>12} {:>11} {:>12} {:>16} {:>12}", "COUNT1", "COUNT2", "PCT_CHANGE",
                         "AVG_JIFFIES1", "AVG_JIFFIES2")
           : fmt::format("{:>12} {:>14}", "COUNT", "AVG_JIFFIES");
  out += "\n";
  auto field = [&](const std::string& desc, std::size_t index, bool jiffies) {
    const auto x = static_cast<double>(a.c->v[index]);
    out += fmt::format("{:<65}: {:>11}", desc, a.c->v[index]);
    if (!b) {
      if (jiffies) out += fmt::format("  $ {} $", avg(per(a.jiffies, x)));
    } else {
      const auto y = static_cast<double>(b->c->v[index]);
      out += fmt::format(",{:>11}", b->c->v[index]) + pct_change(x, y);
      if (jiffies)
        out += fmt::format("  $ {}, {} $", avg(per(a.jiffies, x)), avg(per(b->jiffies, y)));
    }
    out += "\n";
  };
  for (const IdleType t : idle_order(layout)) {
    out += category(fmt::format(" <Category {}> ", idle_type_name(t)));
    const std::string words = idle_words(t);
    for (const LbRow& r : kLbRows) {
      const std::size_t index = domain_index(t, r.field);
      if (available(layout, index))
        field(fmt::format(fmt::runtime(r.desc), words), index, r.jiffies);
    }
    // DERIVED_CNT_FIELD and DERIVED_AVG_FIELD.
    auto success = [&](const DomainCounters& c) {
      return static_cast<double>(c(t, LbField::lb_count)) -
             static_cast<double>(c(t, LbField::lb_balanced)) -
             static_cast<double>(c(t, LbField::lb_failed));
    };
    const double sa = success(*a.c);
    out += fmt::format("*{:<64}: {:>11}", fmt::format("load_balance() success count on {}", words),
                       static_cast<std::int64_t>(sa));
    if (b) {
      const double sb = success(*b->c);
      out += fmt::format(",{:>11}", static_cast<std::int64_t>(sb)) + pct_change(sa, sb);
    }
    out += "\n";
    const auto pa = per(static_cast<double>((*a.c)(t, LbField::lb_gained)), sa);
    out +=
        fmt::format("*{:<64}: {}",
                    fmt::format("avg task pulled per successful lb attempt ({})", words), avg(pa));
    if (b) {
      const auto pb = per(static_cast<double>((*b->c)(t, LbField::lb_gained)), success(*b->c));
      out += fmt::format(",{}", avg(pb));
      out += pa && pb ? pct_change(*pa, *pb) : fmt::format("  | {:>9} |", "n/a");
    }
    out += "\n";
  }
  for (const TailCategory& cat : kTail) {
    out += category(cat.name);
    for (const auto& [f, desc] : cat.rows) field(desc, domain_index(f), false);
  }
  return out;
}

// The CPUs of a %*pb cpumask ("00,3ff003ff": 32-bit words, most significant first).
std::string cpu_list(const std::string& mask) {
  std::vector<int> cpus;
  int bit = 0;
  for (auto i = mask.size(); i-- > 0;) {
    const char ch = mask[i];
    if (ch == ',') continue;
    const int nibble = ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10;
    for (int k = 0; k < 4; ++k, ++bit)
      if (nibble >> k & 1) cpus.push_back(bit);
  }
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") +
           (j == i ? std::to_string(cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]));
    i = j + 1;
  }
  return out;
}

bool same_cpus(const Snapshot& a, const Snapshot& b) {
  if (a.cpus.size() != b.cpus.size()) return false;
  for (std::size_t i = 0; i < a.cpus.size(); ++i) {
    if (a.cpus[i].cpu != b.cpus[i].cpu || a.cpus[i].domains.size() != b.cpus[i].domains.size())
      return false;
    for (std::size_t d = 0; d < a.cpus[i].domains.size(); ++d)
      if (a.cpus[i].domains[d].cpumask != b.cpus[i].domains[d].cpumask) return false;
  }
  return true;
}

std::string section(const std::string& title) {
  return "\n" + kSeparator + "\n" + title + "\n" + kSeparator + "\n";
}

}  // namespace

std::string render_perf_text(const Snapshot& a, const Snapshot* b) {
  const bool v17a = a.layout == DomainLayout::v17;
  if (b && a.layout != DomainLayout::none && b->layout != DomainLayout::none &&
      v17a != (b->layout == DomainLayout::v17))
    throw std::invalid_argument(fmt::format(
        "--style perf: the sides' domain lines differ in layout ({} against {}): v17 splits the "
        "load-balance imbalance that v15 and v16 count as one, so perf's table cannot set them "
        "side by side",
        layout_name(a.layout), layout_name(b->layout)));
  const Summary sa = summarize(a);
  const std::optional<Summary> sb = b ? std::optional<Summary>(summarize(*b)) : std::nullopt;
  const auto ja = static_cast<double>(sa.jiffies);
  const double jb = sb ? static_cast<double>(sb->jiffies) : 0;

  std::string out = "Columns description\n" + kSeparator + "\n";
  out += "DESC\t\t\t-> Description of the field\n";
  out += "COUNT\t\t\t-> Value of the field\n";
  out += "PCT_CHANGE\t\t-> Percent change with corresponding base value\n";
  out += "AVG_JIFFIES\t\t-> Avg time in jiffies between two consecutive occurrence of event\n";
  out += kSeparator + "\n";
  out += fmt::format("{:<65}: {:>11}", "Time elapsed (in jiffies)", sa.jiffies);
  if (sb) out += fmt::format(",{:>11}", sb->jiffies);
  out += "\n" + kSeparator + "\n";

  // The all-CPU summary and its levels.
  out += section("CPU <ALL CPUS SUMMARY>");
  out += cpu_table(sa.total, sb ? &sb->total : nullptr) + kSeparator + "\n";
  const DomainLayout layout = a.layout == DomainLayout::none && b ? b->layout : a.layout;
  static const DomainCounters kZero{};
  for (const LevelSummary& l : sa.levels) {
    const LevelSummary* other = nullptr;
    if (sb)
      for (const auto& m : sb->levels)
        if (m.key == l.key) other = &m;
    const Side side_b{other ? &other->c : &kZero, jb};
    out += fmt::format("CPU <ALL CPUS SUMMARY>, DOMAIN {}\n", l.key) + kSeparator + "\n";
    out += domain_table(layout, {&l.c, ja}, sb ? &side_b : nullptr) + kSeparator + "\n";
  }
  if (sb)
    for (const auto& m : sb->levels) {
      bool in_a = false;
      for (const auto& l : sa.levels) in_a = in_a || l.key == m.key;
      if (in_a) continue;
      const Side side_b{&m.c, jb};
      out += fmt::format("CPU <ALL CPUS SUMMARY>, DOMAIN {}\n", m.key) + kSeparator + "\n";
      out += domain_table(layout, {&kZero, ja}, &side_b) + kSeparator + "\n";
    }

  // Each CPU and its domains.
  if (b && !same_cpus(a, *b))
    return out + "\n(per-CPU sections left out: the two sides' CPUs or domains differ)\n";
  for (std::size_t i = 0; i < a.cpus.size(); ++i) {
    const Cpu& ca = a.cpus[i];
    const Cpu* cb = b ? &b->cpus[i] : nullptr;
    out += section(fmt::format("CPU {}", ca.cpu));
    out += cpu_table(ca.c, cb ? &cb->c : nullptr) + kSeparator + "\n";
    for (std::size_t d = 0; d < ca.domains.size(); ++d) {
      const Domain& da = ca.domains[d];
      out +=
          fmt::format("CPU {}, DOMAIN {} CPUS {}\n", ca.cpu,
                      da.name.empty() ? std::to_string(da.index) : da.name, cpu_list(da.cpumask));
      out += kSeparator + "\n";
      const Side side_b{cb ? &cb->domains[d].c : &kZero, jb};
      out += domain_table(layout, {&da.c, ja}, cb ? &side_b : nullptr) + kSeparator + "\n";
    }
  }
  return out;
}

}  // namespace schedlab::schedstat
