#include "runner/hosts/package_versions.h"

#include <algorithm>
#include <chrono>

#include "base/text.h"

namespace schedlab {

bool is_debian_package_name(const std::string& name) {
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
  };
  return name.size() >= 2 && allowed(name.front()) && name.front() != '+' && name.front() != '-' &&
         name.front() != '.' && std::ranges::all_of(name, allowed);
}

std::map<std::string, std::string> parse_dpkg_versions(const std::string& out) {
  std::map<std::string, std::string> versions;
  for (const std::string_view line : split_lines(out)) {
    const auto tab1 = line.find('\t');
    const auto tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string_view::npos) continue;
    const std::string_view status = line.substr(tab1 + 1, tab2 - tab1 - 1);
    const std::string_view version = trim(line.substr(tab2 + 1));
    if (status.size() < 2 || status[1] != 'i' || version.empty()) continue;
    versions.emplace(std::string(line.substr(0, tab1)), std::string(version));
  }
  return versions;
}

std::map<std::string, std::string> installed_versions(Host& host,
                                                      const std::vector<std::string>& packages) {
  std::vector<std::string> argv = {"dpkg-query", "-W", "-f",
                                   "${Package}\\t${db:Status-Abbrev}\\t${Version}\\n", "--"};
  for (const auto& p : packages)
    if (is_debian_package_name(p) && std::ranges::find(argv, p) == argv.end()) argv.push_back(p);
  if (argv.back() == "--") return {};
  ExecResult r;
  try {
    r = host.run({.argv = argv, .timeout = std::chrono::seconds(10)});
  } catch (const HostError&) {
    return {};
  }
  // Exit 1 names a package not installed; the others are listed all the same.
  if (r.outcome != ExecResult::Outcome::kExited || r.exit_code > 1) return {};
  std::map<std::string, std::string> versions = parse_dpkg_versions(r.out);
  std::erase_if(versions, [&](const auto& kv) { return !std::ranges::count(packages, kv.first); });
  return versions;
}

}  // namespace schedlab
