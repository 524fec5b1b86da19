// The variants table: a run's variants with their knobs as configured.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace schedlab {

struct VariantInfo {
  std::int64_t id = 0;
  std::int64_t run_id = 0;
  std::string name;
  int position = 0;        // 0 is the baseline
  std::string knobs_json;  // the variant's knobs as configured
};

class VariantsTable {
 public:
  explicit VariantsTable(sqlite3* db) : db_(db) {}

  // A run's variants, in configuration order (position 0 is the baseline).
  std::int64_t add_variant(const VariantInfo& v);
  std::vector<VariantInfo> variants(std::int64_t run_id) const;
  // Every run's variants, in configuration order.
  std::map<std::int64_t, std::vector<VariantInfo>> variants_by_run() const;

 private:
  sqlite3* db_;
};

}  // namespace schedlab
