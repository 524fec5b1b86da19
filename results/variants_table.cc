#include "results/variants_table.h"

#include <fmt/format.h>

#include "results/sqlite_stmt.h"

namespace schedlab {

using sql::known;
using sql::opt_dbl;
using sql::Stmt;
using sql::word;

std::int64_t VariantsTable::add_variant(const VariantInfo& v) {
  Stmt s(db_, "INSERT INTO variants (run_id, name, position, knobs_json) VALUES (?, ?, ?, ?)");
  s.bind(1, v.run_id).bind(2, v.name).bind(3, v.position).bind(4, v.knobs_json).run();
  return sqlite3_last_insert_rowid(db_);
}

std::vector<VariantInfo> VariantsTable::variants(std::int64_t run_id) const {
  Stmt s(db_,
         "SELECT id, run_id, name, position, knobs_json FROM variants WHERE run_id = ? "
         "ORDER BY position");
  s.bind(1, run_id);
  std::vector<VariantInfo> out;
  while (s.step())
    out.push_back({s.i64(0), s.i64(1), s.text(2), static_cast<int>(s.i64(3)), s.text(4)});
  return out;
}

std::map<std::int64_t, std::vector<VariantInfo>> VariantsTable::variants_by_run() const {
  Stmt s(db_,
         "SELECT id, run_id, name, position, knobs_json FROM variants ORDER BY run_id, position");
  std::map<std::int64_t, std::vector<VariantInfo>> out;
  while (s.step())
    out[s.i64(1)].push_back({s.i64(0), s.i64(1), s.text(2), static_cast<int>(s.i64(3)), s.text(4)});
  return out;
}

}  // namespace schedlab
