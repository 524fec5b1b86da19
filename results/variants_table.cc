#include "results/variants_table.h"

#include <fmt/format.h>

#include "results/sqlite_stmt.h"

namespace schedlab {
namespace {

constexpr const char* kVariantColumns = "id, run_id, name, position, knobs_json";

// A row selected as kVariantColumns.
VariantInfo read_variant(const sql::Stmt& s) {
  return {s.i64(0), s.i64(1), s.text(2), sql::int_column(s, 3, "variants", s.i64(0), "position"),
          s.text(4)};
}

}  // namespace

std::int64_t VariantsTable::add_variant(const VariantInfo& v) {
  sql::Stmt s(db_, "INSERT INTO variants (run_id, name, position, knobs_json) VALUES (?, ?, ?, ?)");
  s.bind(1, v.run_id).bind(2, v.name).bind(3, v.position).bind(4, v.knobs_json).run();
  return sqlite3_last_insert_rowid(db_);
}

std::vector<VariantInfo> VariantsTable::variants(std::int64_t run_id) const {
  return sql::rows(
      db_,
      fmt::format("SELECT {} FROM variants WHERE run_id = ? ORDER BY position", kVariantColumns),
      read_variant, run_id);
}

std::map<std::int64_t, std::vector<VariantInfo>> VariantsTable::variants_by_run() const {
  std::map<std::int64_t, std::vector<VariantInfo>> out;
  for (auto& v : sql::rows(
           db_, fmt::format("SELECT {} FROM variants ORDER BY run_id, position", kVariantColumns),
           read_variant))
    out[v.run_id].push_back(std::move(v));
  return out;
}

}  // namespace schedlab
