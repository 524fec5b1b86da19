// A private apt configuration in the lab cache: its own sources.list (Debian
// bookworm, bookworm-security, bookworm-backports), lists and archive cache,
// so kernel packages are found and downloaded without touching the system's
// apt sources or state. One per Debian architecture (APT::Architecture):
// armhf kernels and userland for an ARM board come through their own lists,
// the system's dpkg architectures untouched. The mirror is
// $SCHEDLAB_LAB_MIRROR, else deb.debian.org.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/hosts/host.h"
#include "runner/lab/paths.h"

namespace schedlab::lab {

// Why MIRROR (SCHEDLAB_LAB_MIRROR) is no one http(s):// or file:/ URL
// sources.list may take as it is, or nothing when it is one.
std::optional<std::string> mirror_problem(std::string_view mirror);

// The package lists an `apt-get update` says it could not fetch (its
// "E: Failed to fetch URL  REASON" lines), each as "URL: REASON".
std::vector<std::string> unfetched_lists(std::string_view apt_stderr);

class PrivateApt {
 public:
  // arch: the Debian architecture whose packages it finds; empty: this
  // machine's (dpkg --print-architecture).
  PrivateApt(std::filesystem::path dir, Host& local, Log log, std::string arch = "");
  // The configuration for the Debian architecture `arch` in the lab cache
  // (this machine's keeps the folder apt/, another one apt-ARCH/).
  static PrivateApt for_arch(const LabPaths& paths, const std::string& arch, Host& local, Log log);
  // `apt-get update` when the lists are missing or older than max_age.
  // Returns false (after logging why) when it failed and lists remain: the
  // last update's, or the ones this one fetched when only some failed (a
  // mirror in mid-sync serves one suite's index older than its InRelease).
  bool refresh(std::chrono::hours max_age = std::chrono::hours(24), bool force = false);
  bool has_lists() const;
  // Package names matching an extended regex (apt-cache search --names-only).
  std::vector<std::string> search(const std::string& name_regex);
  // The candidate version, or empty when apt does not know the package.
  std::string candidate_version(const std::string& package);
  // Downloads the candidate .deb into dir; returns its path.
  std::filesystem::path download(const std::string& package, const std::filesystem::path& dir);

  // The -o options that make apt use this configuration (for tests).
  std::vector<std::string> options() const;

 private:
  // Some suite's Packages list is in the lists folder.
  bool has_some_list() const;
  ExecResult apt(const std::string& tool, std::vector<std::string> args, const std::string& cwd = "",
                 std::chrono::minutes timeout = std::chrono::minutes(5));
  std::filesystem::path dir_;
  std::string arch_;
  Host& local_;
  Log log_;
};

}  // namespace schedlab::lab
