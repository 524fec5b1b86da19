// The perf-profile monitor: `perf record -a -g` over an iteration's measured
// steps, read back with `perf script -F comm,tid,ip,sym,dso` (kArgs below)
// and folded into stacks: one line per distinct stack, "comm;outer;...;leaf
// COUNT", the process name first, as Brendan Gregg's stackcollapse-perf.pl
// writes them (flame graph tools read this format). No Debian package
// ships a folder (there is no flamegraph or stackcollapse package), so this
// file folds; none of that GPL script's code is used.
//
// Frames: a symbol perf could not resolve is "[unknown]" in perf's output
// and becomes "[DSO]" (the library's file name, "[unknown]" when that is
// unknown too), so unresolved frames still say where they were. ';' in a
// symbol (none in C or C++) becomes ':' so the format stays one line per stack.
//
// Shares per symbol, in percent of all samples: self (samples whose leaf is
// the symbol) and children (samples with the symbol anywhere on the stack,
// counted once per sample: perf report's "Children"). The process name is
// not a symbol.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/counters/monitor_delta.h"
#include "analysis/counters/proc_text.h"

namespace schedlab::perf_profile {

inline constexpr std::string_view kMonitorName = "perf-profile";
// The snapshot path its folded stacks are stored under (gzip, then base64).
inline constexpr std::string_view kStoredPath = "perf script (folded stacks, gzip+base64)";
// Rows are written for symbols whose children share is at least this (in
// percent): a 30 s profile has thousands of symbols seen once or twice.
inline constexpr double kMinSharePct = 0.1;

// stack ("comm;outer;...;leaf") -> samples.
using Folded = std::map<std::string, std::uint64_t>;

// perf script's argv (after "perf") for a recorded file.
std::vector<std::string> script_args(const std::string& data_file);
// perf record's argv (after "perf"): system-wide, call graphs, `hz` samples a second.
std::vector<std::string> record_args(const std::string& data_file, int hz);

// `perf script -F comm,tid,ip,sym,dso` output folded. Throws CounterParseError
// (with the line) for a frame before any sample header or a malformed line.
Folded fold(std::string_view perf_script);

// The folded text (sorted by stack) and back. parse_folded throws
// CounterParseError for a line that is not "STACK COUNT".
std::string folded_text(const Folded& f);
Folded parse_folded(std::string_view text);

// The rows: self.SYMBOL and children.SYMBOL in percent of all samples
// (kMinSharePct and above). JSON: samples, and the top shares.
MonitorDelta shares(const Folded& f);

// Stored form: gzip, then base64 (the snapshots table holds text), and back.
// load() throws CounterParseError naming `what` (the iteration) for data
// that is not base64, not gzip, or not folded stacks.
std::string store(const Folded& f);
Folded load(const std::string& stored, std::string_view what);

}  // namespace schedlab::perf_profile
