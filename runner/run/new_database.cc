#include "runner/run/new_database.h"

#include <exception>
#include <filesystem>
#include <utility>

#include "results/runs_table.h"
#include "results/store.h"

namespace schedlab {

NewDatabase::NewDatabase(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  existed_ = std::filesystem::exists(path_, ec) || ec;
}

void NewDatabase::remove_if_empty() const {
  if (existed_) return;
  try {
    if (!Store(path_, Store::Access::kReadOnly).runs_table().list_runs().empty()) return;
  } catch (const std::exception&) {
    return;
  }
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"})
    std::filesystem::remove(path_ + suffix, ec);
}

}  // namespace schedlab
