// /proc/schedstat: the parsed model of one snapshot, versions 15, 16 and 17
// (format notes: ../shared/fixtures/schedstat/FORMAT.md).
//
// Every version is normalised into one canonical set of named counters. A
// field a layout does not print is "not available" (std::nullopt), never 0:
// v15/v16 have one combined lb_imbalance per idle type, v17 splits it into
// load/util/task/misfit. The v15 -> v16 swap of the idle and busy groups is
// undone here, so `lb_count_idle` means the same thing in every version.
//
// Lines are classified by their shape and counter count, not by the version
// line alone: a domain line is `domainN [NAME] MASK` + 36 or 45 counters,
// and a `version 16` file whose domain lines carry a name (a patched kernel
// seen in the wild) is read as such. Anything else is a CounterParseError
// naming the line and what was expected. The parser keeps no copy of the
// text: callers that store the raw snapshot keep the string they parsed.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/counters/proc_text.h"

namespace schedlab::schedstat {

// cpu<N> line, identical in v15-v17. The second printed field (always 0, a
// left-over of the O(1) scheduler) is checked to be a number and dropped.
enum class CpuField : std::uint8_t {
  yld_count,     // sched_yield() calls
  sched_count,   // schedule() calls
  sched_goidle,  // schedule() that picked the idle task
  ttwu_count,    // try_to_wake_up() calls
  ttwu_local,    // ... that woke a task on this CPU
  rq_cpu_time,   // ns tasks ran on this CPU (64-bit)
  run_delay,     // ns tasks waited on this runqueue (64-bit)
  pcount,        // timeslices run on this CPU (unsigned long)
};
inline constexpr std::size_t kCpuFields = 8;

// The load-balance counters repeated per idle type, in canonical order.
enum class LbField : std::uint8_t {
  lb_count,
  lb_balanced,
  lb_failed,
  lb_imbalance,         // v15/v16 only: the one combined imbalance sum
  lb_imbalance_load,    // v17 only
  lb_imbalance_util,    // v17 only
  lb_imbalance_task,    // v17 only
  lb_imbalance_misfit,  // v17 only
  lb_gained,
  lb_hot_gained,
  lb_nobusyq,
  lb_nobusyg,
};
inline constexpr std::size_t kLbFields = 12;

// The kernel's cpu_idle_type, named as in the counter names.
enum class IdleType : std::uint8_t { busy, idle, newidle };
inline constexpr std::size_t kIdleTypes = 3;

// The counters after the three load-balance groups (same in every version).
enum class TailField : std::uint8_t {
  alb_count,
  alb_failed,
  alb_pushed,
  sbe_count,
  sbe_balanced,
  sbe_pushed,
  sbf_count,
  sbf_balanced,
  sbf_pushed,
  ttwu_wake_remote,   // wakeups where the task last ran on another CPU of the domain
  ttwu_move_affine,   // affine wakeups: the task moved to the waking CPU
  ttwu_move_balance,  // wakeups that started passive balancing
};
inline constexpr std::size_t kTailFields = 12;

// Domain counters are indexed 0..kDomainFields-1: idle type * kLbFields +
// LbField, then kIdleTypes * kLbFields + TailField.
inline constexpr std::size_t kDomainFields = kIdleTypes * kLbFields + kTailFields;
constexpr std::size_t domain_index(IdleType t, LbField f) {
  return static_cast<std::size_t>(t) * kLbFields + static_cast<std::size_t>(f);
}
constexpr std::size_t domain_index(TailField f) {
  return kIdleTypes * kLbFields + static_cast<std::size_t>(f);
}

// Canonical names: "ttwu_count"; "lb_count_newidle", "alb_pushed", ...
std::string_view cpu_field_name(std::size_t i);
std::string_view lb_field_name(std::size_t i);  // without the idle type: "lb_count"
const std::string& domain_field_name(std::size_t i);
std::string_view idle_type_name(IdleType t);

// How domain lines were printed. Decides which canonical fields exist and
// in which order the idle-type groups came.
enum class DomainLayout : std::uint8_t {
  none,  // no domain lines at all (isolated CPUs, 1-CPU or !SMP kernels)
  v15,   // 36 counters; groups idle, busy, newidle
  v16,   // 36 counters; groups busy, idle, newidle
  v17,   // 45 counters; groups busy, idle, newidle, imbalance split in four
};
std::string_view layout_name(DomainLayout l);
// Whether a canonical domain field is printed in this layout.
bool available(DomainLayout l, std::size_t domain_field);

struct CpuCounters {
  std::array<std::uint64_t, kCpuFields> v{};
  std::uint64_t& operator[](CpuField f) { return v[static_cast<std::size_t>(f)]; }
  std::uint64_t operator[](CpuField f) const { return v[static_cast<std::size_t>(f)]; }
};

// Values of unavailable fields are 0 and must be read through get().
struct DomainCounters {
  std::array<std::uint64_t, kDomainFields> v{};
  std::uint64_t operator()(IdleType t, LbField f) const { return v[domain_index(t, f)]; }
  std::uint64_t operator()(TailField f) const { return v[domain_index(f)]; }
};

struct Domain {
  int index = 0;      // N of domainN: 0 is the smallest span
  std::string name;   // as the kernel printed it (v17), else empty
  std::string level;  // name, or inferred from the topology: SMT, MC, PKG, NUMA
  bool level_inferred = false;
  std::string cpumask;  // as printed, e.g. "00ff" or "00000000,00000011"
  int span = 0;         // CPUs in the mask
  DomainCounters c;
};

struct Cpu {
  int cpu = 0;
  CpuCounters c;
  std::vector<Domain> domains;  // in printed order (domain0 first)
};

struct Snapshot {
  int version = 0;
  std::uint64_t timestamp = 0;  // jiffies
  DomainLayout layout = DomainLayout::none;
  std::vector<Cpu> cpus;  // in printed order; numbers may have gaps

  std::optional<std::uint64_t> get(const Domain& d, std::size_t field) const {
    if (!available(layout, field)) return std::nullopt;
    return d.c.v[field];
  }
};

// Parses one /proc/schedstat text. Throws CounterParseError (with the line)
// for an unknown version, an unknown line, a wrong counter count, a domain
// line before any cpu line, mixed domain layouts, or a duplicate CPU.
// Domain levels are named (name_levels) unless the kernel named them.
Snapshot parse(std::string_view text);

// Number of set bits in a %*pb cpumask ("00,3ff003ff"); -1 if malformed.
int cpumask_weight(std::string_view mask);

// Names unnamed domains by their place in the topology, per CPU, from the
// bottom: an SMT level is the lowest of several levels spanning 2-8 CPUs
// whose numbers are not consecutive (x86, EPYC and POWER number siblings
// apart); the next level is MC (the LLC), then PKG (called DIE before 6.9),
// and any level above is NUMA. Spans alone cannot tell PKG from NUMA on a
// machine whose package level degenerated away: prefer kernel names
// (set_level_names) when the runner can read
// /sys/kernel/debug/sched/domains/cpu0/domainN/name.
void name_levels(Snapshot& s);
// Overrides the level of domainN with names[N] for every CPU (names from the
// kernel's debugfs); clears level_inferred.
void set_level_names(Snapshot& s, const std::vector<std::string>& names);

// Whether s can be a domain level's name as the kernel gives them (SMT, MC,
// PKG, NUMA): 1 to 16 ASCII letters, digits or '_'. A file's or the
// command line's other names (a 5 KB one, a right-to-left override) are
// refused, never printed.
bool domain_name_ok(std::string_view s);

// The key a domain is grouped by in per-level tables: its level, or
// "<level>@<index>" when one CPU's chain has that level twice (NUMA levels).
std::string level_key(const Cpu& cpu, const Domain& d);

}  // namespace schedlab::schedstat
