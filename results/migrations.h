// The schema as numbered migrations: entry i brings a database from schema
// version i to i + 1 (PRAGMA user_version). Never edit a shipped one;
// append, and raise Database::kSchemaVersion.
#pragma once

#include <span>

namespace schedlab {

std::span<const char* const> migrations();

}  // namespace schedlab
