#include "runner/cli/common.h"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

#include "base/file.h"
#include "workloads/registry.h"

namespace schedlab::cli {

std::string DbOption::resolve() const {
  if (!path.empty()) return path;
  if (const char* env = std::getenv("SCHEDLAB_DB"); env && *env) return env;
  return "schedlab.db";
}

void add_db_option(CLI::App& cmd, DbOption& db) {
  cmd.add_option("--db", db.path, "result database (default: $SCHEDLAB_DB or ./schedlab.db)");
}

const Workload& workload_arg(const std::string& name) {
  const Workload* w = find_workload(name);
  if (!w) throw std::invalid_argument(fmt::format("unknown workload '{}'", name));
  return *w;
}

std::string read_input_file(const std::string& path) {
  try {
    return read_file(path);
  } catch (const FileError& e) {
    throw std::invalid_argument(e.what());
  }
}

void add_format_option(CLI::App& cmd, std::string& format,
                       const std::vector<std::string>& choices) {
  std::string help = choices.front();
  for (std::size_t i = 1; i < choices.size(); ++i)
    help += (i + 1 == choices.size() ? " or " : ", ") + choices[i];
  cmd.add_option("--format", format, help)->check(CLI::IsMember(choices));
}

int guard(const OnError& on, const std::function<int()>& body,
          bool (*is_listed)(const std::exception&)) {
  try {
    return body();
  } catch (const std::exception& e) {
    const bool listed = is_listed(e);
    if (!listed && on.other == kPropagate) throw;
    fmt::print(stderr, "{}: {}\n{}", on.prefix, e.what(), on.hint.empty() ? "" : on.hint + "\n");
    return listed ? on.listed : on.other;
  }
}

}  // namespace schedlab::cli
