// TEST DOUBLE. The host kernel here does not let us write its debugfs
// sched files, so knob tests that flip scheduler features run against this
// in-memory Host, which mimics the kernel's file semantics:
//  - /sys/kernel/debug/sched/features reads as "PLACE_LAG NO_RUN_TO_PARITY ...\n";
//    writing "NO_X" turns X off, "X" turns it on, an unknown name fails with
//    EINVAL, as kernel/sched/debug.c does;
//  - other files read back what was written (trailing newline kept), and
//    writes to files that do not exist fail with ENOENT.
// Real kernels are exercised in the lab-SUT tests (qemu).
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "runner/hosts/host.h"

namespace schedlab::test {

class FakeKernelHost final : public Host {
 public:
  explicit FakeKernelHost(std::vector<std::pair<std::string, bool>> features)
      : features_(std::move(features)) {}

  std::map<std::string, std::string> files;  // path -> content
  std::vector<std::string> writes;           // "path=value", in order

  bool feature(const std::string& name) const {
    for (const auto& [n, on] : features_)
      if (n == name) return on;
    throw std::logic_error("no feature " + name);
  }

  std::string name() const override { return "fake-kernel"; }
  ExecResult run(const Command& cmd) override {
    ExecResult r;
    r.outcome = ExecResult::Outcome::kExited;
    r.exit_code = 0;
    r.out = "ran:";
    for (const auto& a : cmd.argv) r.out += " " + a;
    return r;
  }
  std::optional<std::string> find_program(const std::string& p) override { return "/usr/bin/" + p; }
  std::optional<std::string> read_file(const std::string& path) override {
    if (path == kFeatures) {
      std::string s;
      for (const auto& [n, on] : features_) s += (s.empty() ? "" : " ") + (on ? n : "NO_" + n);
      return s + " \n";  // the kernel prints a trailing blank
    }
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  }
  void write_file(const std::string& path, const std::string& content) override {
    writes.push_back(path + "=" + content);
    if (path == kFeatures) {
      std::string token = content;
      while (!token.empty() && (token.back() == '\n' || token.back() == ' ')) token.pop_back();
      const bool on = !token.starts_with("NO_");
      const std::string base = on ? token : token.substr(3);
      for (auto& [n, state] : features_)
        if (n == base) {
          state = on;
          return;
        }
      throw HostError(path + ": Invalid argument");
    }
    if (!files.count(path)) throw HostError(path + ": No such file or directory");
    if (content.find("banana") != std::string::npos) throw HostError(path + ": Invalid argument");
    files[path] = content;
  }
  std::vector<std::string> list_dir(const std::string& dir) override {
    std::vector<std::string> out;
    for (const auto& [p, c] : files)
      if (p.starts_with(dir + "/")) out.push_back(p.substr(dir.size() + 1));
    if (dir == "/sys/kernel/debug") out.push_back("sched");
    return out;
  }
  BackgroundId start_background(const Command&) override { return 1; }
  std::optional<ExecResult> poll_background(BackgroundId) override { return std::nullopt; }
  ExecResult stop_background(BackgroundId) override { return {}; }
  bool port_accepts(int) override { return false; }
  int free_port() override { return 40000; }

 private:
  static constexpr const char* kFeatures = "/sys/kernel/debug/sched/features";
  std::vector<std::pair<std::string, bool>> features_;
};

}  // namespace schedlab::test
