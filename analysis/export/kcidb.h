// schedlab export --format kcidb: the runs as a KernelCI KCIDB report
// (kcidb-io's I/O schema v5.3, tests/export/kcidb-v5.3.schema.json): per run
// a checkout and a build (the kernel it measured, with what its manifest
// records of it, nothing more) and a test per cell.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "analysis/export/export_cells.h"

namespace schedlab {

// The schema version a report states (version.major, version.minor).
inline constexpr int kKcidbMajor = 5;
inline constexpr int kKcidbMinor = 3;

// The longest origin export takes (KernelCI's are words: maestro, syzbot).
inline constexpr std::size_t kKcidbOriginMax = 32;

// Why NAME cannot be a KCIDB origin (the schema's [a-z0-9_]+, at most
// kKcidbOriginMax characters), or nothing.
std::optional<std::string> kcidb_origin_problem(std::string_view name);

// One part of a test's path ("schedlab.BLOCK.METRIC.ROW"): each character
// outside the schema's [a-zA-Z0-9_-] becomes '_' ("hackbench-?" is
// "hackbench-_", "0.5" is "0_5"), an empty part "_". The names as stored
// are in the test's misc.
std::string kcidb_path_part(std::string_view s);

// The report: version, checkouts, builds, tests. Ids start "ORIGIN:"; a
// run is named by its name and start (patch-v2@20261206T085926Z), a
// test by its run, variant, block, metric and row, each with '%' and ':'
// written %25 and %3A, so no two cells share an id. A test's status is DONE
// for a cell with a sample (its number the centre, in the metric's unit),
// FAIL for one whose iterations all failed, SKIP for one the SUT cannot
// measure; its misc holds the samples, the interval of the centre, n, the
// failed iterations, the variant and the parameters (those an import did
// not state in unknown_params, with no value).
nlohmann::json kcidb_report(std::span<const ExportRun> runs, const std::string& origin);

}  // namespace schedlab
