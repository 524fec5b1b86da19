// Runs the real schedlab binary built with the tests, as a user would.
#pragma once

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
