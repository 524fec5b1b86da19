// Workload tests only: runs one Step's argv here, with its stdin_data, cwd
// and env (over this process's environment), and returns exit status and output. Not the runner (no
// timeouts, no background steps, no knobs); it checks that the argv a workload builds does what it
// says against test doubles.
#pragma once

#include <boost/process.hpp>
#include <string>

#include "tests/support/temp_dir.h"
#include "workloads/workload.h"

namespace schedlab::test {

struct Ran {
  int rc = -1;
  std::string out;
  std::string err;
};

inline Ran exec_step(const Step& step) {
  namespace bp = boost::process;
  TempDir io;
  write_text(io.file("in"), step.stdin_data);
  const std::string& prog = step.argv.at(0);
  const boost::filesystem::path exe =
      prog.find('/') == std::string::npos ? bp::search_path(prog) : boost::filesystem::path(prog);
  std::vector<std::string> args(step.argv.begin() + 1, step.argv.end());
  bp::environment env = boost::this_process::environment();
  for (const auto& [k, v] : step.env) {
    env.erase(k);
    env.emplace(k, v);
  }
  bp::child c(exe, bp::args(args), bp::std_in<io.file("in"), bp::std_out> io.file("out"),
              bp::std_err > io.file("err"),
              bp::start_dir(step.cwd.empty() ? std::string(".") : step.cwd), env);
  c.wait();
  return Ran{c.exit_code(), read_text(io.file("out")), read_text(io.file("err"))};
}

}  // namespace schedlab::test
