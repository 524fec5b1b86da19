// A host reached through another one (a lab guest through its SSH
// connection, a test's local host under another name): every call goes to
// the inner host, and a HostError it throws passes through failed() first,
// which may throw a better one (the guest is gone, with its last console
// lines). A subclass names itself and overrides what it does otherwise (a
// lab guest's ports are its forwards).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runner/hosts/host.h"

namespace schedlab {

class ForwardingHost : public Host {
 public:
  ExecResult run(const Command& cmd) override {
    return forward([&] { return inner().run(cmd); });
  }
  std::optional<std::string> find_program(const std::string& name) override {
    return forward([&] { return inner().find_program(name); });
  }
  std::optional<std::string> read_file(const std::string& path) override {
    return forward([&] { return inner().read_file(path); });
  }
  std::vector<FileRead> read_files(const std::vector<std::string>& paths) override {
    return forward([&] { return inner().read_files(paths); });
  }
  void write_file(const std::string& path, const std::string& content) override {
    forward([&] { inner().write_file(path, content); });
  }
  std::vector<std::string> list_dir(const std::string& path) override {
    return forward([&] { return inner().list_dir(path); });
  }
  BackgroundId start_background(const Command& cmd) override {
    return forward([&] { return inner().start_background(cmd); });
  }
  std::optional<ExecResult> poll_background(BackgroundId id) override {
    return forward([&] { return inner().poll_background(id); });
  }
  ExecResult stop_background(BackgroundId id) override {
    return forward([&] { return inner().stop_background(id); });
  }
  std::optional<int> background_pgid(BackgroundId id) override {
    return forward([&] { return inner().background_pgid(id); });
  }
  std::optional<std::string> background_output(BackgroundId id) override {
    return forward([&] { return inner().background_output(id); });
  }
  std::optional<double> reaped_cpu_seconds() override {
    return forward([&] { return inner().reaped_cpu_seconds(); });
  }
  bool port_accepts(int port) override {
    return forward([&] { return inner().port_accepts(port); });
  }
  int free_port() override {
    return forward([&] { return inner().free_port(); });
  }
  std::vector<int> free_ports(int n) override {
    return forward([&] { return inner().free_ports(n); });
  }

 protected:
  // The host every call goes to.
  virtual Host& inner() = 0;
  // Called while the inner host's HostError is being handled: throws a
  // better error, or returns and the original goes on (by default).
  virtual void failed(const HostError&) {}

 private:
  template <class F>
  auto forward(F&& f) -> decltype(f()) {
    try {
      return f();
    } catch (const HostError& e) {
      failed(e);
      throw;
    }
  }
};

}  // namespace schedlab
