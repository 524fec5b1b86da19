// Runs the real schedlab binary built with the tests, as a user would.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "runner/hosts/local_host.h"

namespace schedlab::test {

// The variants of the e2e configs that compare the default policy with
// SCHED_BATCH: YAML, the end of a config.
inline const std::string kDefaultAndBatchVariants = R"(variants:
  default: {}
  sched-batch:
    policy: batch
)";

inline ExecResult schedlab_cmd(const std::vector<std::string>& args,
                               std::map<std::string, std::string> env = {},
                               std::chrono::seconds timeout = std::chrono::seconds(240)) {
  LocalHost host;
  Command cmd;
  cmd.argv = {SCHEDLAB_BINARY};
  cmd.argv.insert(cmd.argv.end(), args.begin(), args.end());
  cmd.env = std::move(env);
  cmd.timeout = timeout;
  return host.run(cmd);
}

// The real schedlab binary with ARGS forked, not waited for (the caller
// signals and reaps it): its stderr in ERR_PATH (truncated), stdout to
// /dev/null. Returns its PID (-1 when fork fails).
inline pid_t fork_schedlab(const std::vector<std::string>& args, const std::string& err_path) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::dup2(fd, 2);
  const int null = ::open("/dev/null", O_WRONLY);
  ::dup2(null, 1);
  std::vector<char*> argv = {const_cast<char*>(SCHEDLAB_BINARY)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(SCHEDLAB_BINARY, argv.data());
  ::_exit(127);
}

// Debian's python3 (/usr/bin/python3, which has the python3-* packages the
// tests use: websocket, markdown, jsonschema, dateparser; the python3 on
// PATH may be another) with ARGS, given two minutes.
inline ExecResult debian_python(const std::vector<std::string>& args) {
  LocalHost host;
  Command cmd;
  cmd.argv = {"/usr/bin/python3"};
  cmd.argv.insert(cmd.argv.end(), args.begin(), args.end());
  cmd.timeout = std::chrono::seconds(120);
  return host.run(cmd);
}

// A schedlab HTML page opened in headless Chromium by
// tests/browser/check_report.py: fails on a console error or a plot
// without marks, prints one line per plot, saves SCREENSHOT. EXTRA: more
// arguments (--dump FILE).
inline ExecResult check_page_in_chromium(const std::string& page, const std::string& screenshot,
                                         const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {SCHEDLAB_SOURCE_DIR "/tests/browser/check_report.py", page,
                                   screenshot};
  args.insert(args.end(), extra.begin(), extra.end());
  return debian_python(args);
}

}  // namespace schedlab::test
