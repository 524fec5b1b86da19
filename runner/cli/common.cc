#include "runner/cli/common.h"

#include <cstdlib>

namespace schedlab::cli {

std::string DbOption::resolve() const {
  if (!path.empty()) return path;
  if (const char* env = std::getenv("SCHEDLAB_DB"); env && *env) return env;
  return "schedlab.db";
}

void add_db_option(CLI::App& cmd, DbOption& db) {
  cmd.add_option("--db", db.path, "result database (default: $SCHEDLAB_DB or ./schedlab.db)");
}

}  // namespace schedlab::cli
