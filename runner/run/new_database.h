// A database `run` created and stored no run in (refused at preflight, a
// host that could not be reached) is removed again: a refused run leaves
// nothing behind that was not there before.
#pragma once

#include <string>

namespace schedlab {

class NewDatabase {
 public:
  // Notes whether PATH exists now, before the run opens it.
  explicit NewDatabase(std::string path);
  // Removes PATH (and its -wal, -shm, -journal) when it did not exist
  // before and holds no run now. Call with the store closed.
  void remove_if_empty() const;

 private:
  std::string path_;
  bool existed_ = true;
};

}  // namespace schedlab
