#include "runner/lab/modules.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "base/compression.h"
#include "base/file.h"

namespace schedlab::lab {
namespace {

std::string normalise(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace

std::string module_name(const std::string& path) {
  std::string base = path.substr(path.rfind('/') + 1);
  return normalise(base.substr(0, base.find(".ko")));
}

std::vector<std::string> module_load_order(const std::vector<std::string>& wanted,
                                           const std::string& modules_dep,
                                           const std::string& modules_builtin) {
  std::map<std::string, std::string> path_of;                 // name -> path
  std::map<std::string, std::vector<std::string>> deps_of;    // path -> dep paths
  std::istringstream dep(modules_dep);
  for (std::string line; std::getline(dep, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string path = line.substr(0, colon);
    path_of[module_name(path)] = path;
    std::istringstream rest(line.substr(colon + 1));
    for (std::string d; rest >> d;) deps_of[path].push_back(d);
  }
  std::set<std::string> builtin;
  std::istringstream b(modules_builtin);
  for (std::string line; std::getline(b, line);)
    if (!line.empty()) builtin.insert(module_name(line));

  std::vector<std::string> order;
  std::set<std::string> done;
  std::function<void(const std::string&)> visit = [&](const std::string& path) {
    if (!done.insert(path).second) return;
    // modules.dep lists the whole closure, the deepest last: load in reverse.
    const auto& deps = deps_of[path];
    for (auto it = deps.rbegin(); it != deps.rend(); ++it) visit(*it);
    order.push_back(path);
  };
  for (const auto& w : wanted) {
    const std::string name = normalise(w);
    if (auto it = path_of.find(name); it != path_of.end()) {
      visit(it->second);
    } else if (!builtin.count(name)) {
      throw std::runtime_error(fmt::format("kernel module {} is neither in modules.dep nor built in", w));
    }
  }
  return order;
}

std::string read_module(const std::string& path) {
  if (path.ends_with(".ko")) return schedlab::read_file(path);
  if (path.ends_with(".ko.xz")) return schedlab::unxz(schedlab::read_file(path), path);
  throw std::runtime_error(fmt::format("{}: unsupported module compression (only .ko and .ko.xz)", path));
}

}  // namespace schedlab::lab
