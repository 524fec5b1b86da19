#include "analysis/export/kcidb.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/metric_vocabulary.h"
#include "results/status.h"

namespace schedlab {
namespace {

using Json = nlohmann::json;

// Text from a database as the schema takes it: no NUL in any string
// ("^[^\0]*$"); names are stored without control characters, so this
// only guards a database made elsewhere.
std::string text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    if (ch == '\0')
      out += "\\x00";
    else
      out += ch;
  }
  return out;
}

// One part of an id: '%' and ':' escaped, so the parts joined with ':'
// name one cell only.
std::string id_part(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    if (ch == '%')
      out += "%25";
    else if (ch == ':')
      out += "%3A";
    else
      out += ch;
  }
  return text(out);
}

bool is_hex(std::string_view s, std::size_t size) {
  return s.size() == size && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}
bool is_sha1(std::string_view s) {
  return is_hex(s, 40);
}
bool is_sha256(std::string_view s) {
  return is_hex(s, 64);
}

// ORIGIN:NAME@START, the start in ISO 8601's basic form (20261206T085926Z):
// a run's name is unique in a database, not across databases; with its
// start it names one run wherever it was exported from.
std::string run_id(const std::string& origin, const RunInfo& run) {
  std::string start = run.started_at;
  std::erase_if(start, [](char c) { return c == ':' || c == '-'; });
  return fmt::format("{}:{}@{}", origin, id_part(run.name), id_part(start));
}

// The checkout and build of a run, or of one kernel of a run of kernels
// as columns (ORIGIN:NAME@START:LABEL).
std::string build_id(const std::string& origin, const ExportRun& r) {
  const std::string id = run_id(origin, r.run);
  return r.kernel_column.empty() ? id : id + ":" + id_part(r.kernel_column);
}

Json checkout(const std::string& origin, const ExportRun& r) {
  Json j = {{"id", build_id(origin, r)}, {"origin", origin}};
  if (!r.kernel_release.empty()) j["comment"] = text("kernel " + r.kernel_release);
  if (is_sha1(r.commit)) j["git_commit_hash"] = r.commit;
  if (!r.describe.empty()) j["git_commit_name"] = text(r.describe);
  // @WORKTREE: the commit plus edits, KCIDB's patchset.
  if (is_sha256(r.edits_sha256)) j["patchset_hash"] = r.edits_sha256;
  return j;
}

// The kernel the run measured. Built from a tree by schedlab (lab.build):
// it built (PASS), in build_seconds; otherwise its build is not known here.
Json build(const std::string& origin, const ExportRun& r) {
  Json j = {{"id", build_id(origin, r)},
            {"origin", origin},
            {"checkout_id", build_id(origin, r)},
            {"misc",
             {{"run", text(r.run.name)},
              {"run_id", r.run.id},
              {"run_status", std::string(to_string(r.run.status))},
              {"started_at", text(r.run.started_at)}}}};
  if (!r.kernel_release.empty()) j["comment"] = text("kernel " + r.kernel_release);
  if (r.build_seconds) {
    j["status"] = "PASS";
    j["duration"] = *r.build_seconds;
  }
  if (!r.kernel_release.empty()) j["misc"]["kernel_release"] = text(r.kernel_release);
  if (!r.kernel_column.empty()) j["misc"]["kernel_column"] = text(r.kernel_column);
  return j;
}

std::string_view status(CellOutcome o) {
  switch (o) {
    case CellOutcome::kMeasured:
      return "DONE";
    case CellOutcome::kFailed:
      return "FAIL";
    case CellOutcome::kUnsupported:
      return "SKIP";
  }
  return "ERROR";
}

Json test_misc(const ExportRun& r, const ExportCell& c) {
  // An unknown parameter (an import's output did not state it) is named as
  // such, never given a value.
  Json params = Json::object(), unknown = Json::array();
  for (const auto& [k, v] : c.params) {
    if (v == kUnknownParam)
      unknown.push_back(text(k));
    else
      params[text(k)] = text(v);
  }
  Json samples = Json::array();
  for (const double x : c.samples) samples.push_back(x);
  Json m = {{"run", text(r.run.name)},
            {"run_id", r.run.id},
            {"variant", text(c.variant)},
            {"workload", text(c.workload)},
            {"block", text(c.block)},
            {"row", text(c.row)},
            {"swept", text(c.swept)},
            {"metric", text(c.metric.name)},
            {"unit", text(c.metric.unit)},
            {"direction", std::string(to_string(c.metric.direction))},
            {"centre", text(c.metric.centre)},
            {"kind", std::string(to_string(c.metric.kind))},
            {"params", params},
            {"unknown_params", unknown},
            {"n", c.n},
            {"failed", c.failed},
            {"samples", samples}};
  if (!c.centre && !c.centre_reason.empty()) m["centre_reason"] = text(c.centre_reason);
  if (c.ci.ci)
    m["interval"] = {{"low", c.ci.ci->low},
                     {"high", c.ci.ci->high},
                     {"level", c.ci.level},
                     {"method", text(c.ci.method)},
                     {"cut_to_domain", static_cast<bool>(c.ci.cut)}};
  else if (!c.ci.reason.empty())
    m["interval_reason"] = text(c.ci.reason);
  if (!c.unsupported.empty()) m["unsupported"] = text(c.unsupported);
  return m;
}

// RUN_ID and BUILD_ID: run_id and build_id of r, made once for all its
// cells (a run's name may be long, and each id repeats it).
Json test(const std::string& origin, const std::string& run_id, const std::string& build_id,
          const ExportRun& r, const ExportCell& c) {
  const std::string id = fmt::format("{}:{}:{}:{}:{}", run_id, id_part(c.variant),
                                     id_part(c.block), id_part(c.metric.name), id_part(c.row));
  const std::string row = c.swept == "point" ? c.row : fmt::format("{} {}", c.swept, c.row);
  Json j = {
      {"id", id},
      {"origin", origin},
      {"build_id", build_id},
      {"path", fmt::format("schedlab.{}.{}.{}", kcidb_path_part(c.block),
                           kcidb_path_part(c.metric.name), kcidb_path_part(c.row))},
      {"status", std::string(status(outcome(c)))},
      {"comment", text(fmt::format("{} {}, variant {}: {}, {} is better", c.block, row, c.variant,
                                   metric_with_unit(c.metric), to_string(c.metric.direction)))},
      {"environment",
       {{"comment", text("schedlab variant " + c.variant)},
        {"misc", {{"variant", text(c.variant)}}}}},
      {"misc", test_misc(r, c)}};
  if (c.centre) {
    j["number"] = {{"value", *c.centre}};
    if (!c.metric.unit.empty()) j["number"]["unit"] = text(c.metric.unit);
  }
  return j;
}

}  // namespace

std::optional<std::string> kcidb_origin_problem(std::string_view name) {
  const bool ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
  if (!ok) return "a KCIDB origin is lower-case letters, digits and _ ([a-z0-9_]+)";
  // The schema sets no length; every id of the report starts with the
  // origin, so a 1 MB one would be copied into each test (issue 44).
  if (name.size() > kKcidbOriginMax)
    return fmt::format("a KCIDB origin names a CI system in at most {} characters, not {}",
                       kKcidbOriginMax, name.size());
  return std::nullopt;
}

std::string kcidb_path_part(std::string_view s) {
  if (s.empty()) return "_";
  std::string out;
  for (const char ch : s) {
    const bool ascii_word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                            (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
    out += ascii_word ? ch : '_';
  }
  return out;
}

Json kcidb_report(std::span<const ExportRun> runs, const std::string& origin) {
  Json checkouts = Json::array(), builds = Json::array(), tests = Json::array();
  for (const ExportRun& whole : runs)
    for (const ExportRun& r : kernel_column_runs(whole)) {
      checkouts.push_back(checkout(origin, r));
      builds.push_back(build(origin, r));
      const std::string rid = run_id(origin, r.run), bid = build_id(origin, r);
      for (const ExportCell& c : r.cells) tests.push_back(test(origin, rid, bid, r, c));
    }
  return {{"version", {{"major", kKcidbMajor}, {"minor", kKcidbMinor}}},
          {"checkouts", checkouts},
          {"builds", builds},
          {"tests", tests}};
}

}  // namespace schedlab
