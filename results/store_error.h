// What the store throws: a database it cannot open, migrate or use, a row
// it refuses, a write SQLite refused. The message names the database file.
#pragma once

#include <stdexcept>

namespace schedlab {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace schedlab
