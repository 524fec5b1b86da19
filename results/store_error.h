// What the store throws: a database it cannot open, migrate or use, a row
// it refuses, a write SQLite refused. The message names the database file.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace schedlab {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  // A message ending in a path ("... already exists in PATH"): what() is
  // both, a space between; a printer that wraps keeps the path whole
  // (trailing_path), so one holding spaces is not broken across lines.
  StoreError(const std::string& sentence, std::string path)
      : std::runtime_error(sentence + " " + path), path_(std::move(path)) {}
  const std::string& trailing_path() const { return path_; }

 private:
  std::string path_;  // empty: none
};

// A database this user may not write (a 0444 file, a read-only folder or
// mount), found before anything is opened to write: nothing was written.
class ReadOnlyDatabase : public StoreError {
 public:
  ReadOnlyDatabase(const std::string& path, std::string reason)
      : StoreError(path + ": the database is read-only for this user (" + reason +
                   "); nothing was written to it"),
        reason_(std::move(reason)) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

}  // namespace schedlab
