// schedlab: benchmark orchestration for Linux scheduler work.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>

#include "base/own_executable.h"
#include "base/version.h"
#include "runner/cli/bash_completion.h"
#include "runner/cli/command_line.h"
#include "runner/cli/common.h"

namespace {

// schedlab's own benchmark programs (tools/: schedlab-seccomp-notify) sit
// next to its binary, in the build tree as installed. The local host looks
// there first (LocalHost::find_program); the directory also goes at the end
// of PATH for the programs schedlab starts (hooks, the command workload),
// which may call schedlab's programs by name.
void add_own_directory_to_path() {
  const auto self = schedlab::own_executable();
  if (!self) return;
  const char* path = std::getenv("PATH");
  const std::string dir = self->parent_path().string();
  std::string value = path && *path ? std::string(path) : "/usr/local/bin:/usr/bin:/bin";
  if ((":" + value + ":").find(":" + dir + ":") == std::string::npos) value += ":" + dir;
  ::setenv("PATH", value.c_str(), 1);
}

// A closed stdin or stderr (`2>&-`, a daemon's): /dev/null in its place, so
// no file schedlab opens (a lock, a report) becomes fd 2 and takes its
// messages. A closed stdout stays closed: what a command prints there is then
// an error (main's flush), not silently lost.
void fill_closed_fds() {
  for (const int fd : {0, 2}) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0 && null != fd) {
      ::dup2(null, fd);
      ::close(null);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace schedlab::cli;
  using schedlab::print_message;
  fill_closed_fds();
  add_own_directory_to_path();
  CLI::App app{"schedlab: run scheduler benchmarks, store every sample, compare like mmtests"};
  app.name("schedlab");
  app.formatter(help_formatter());  // before the commands, which copy it
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", "schedlab " + schedlab::schedlab_version());
  int exit_code = kOk;
  // One row per subcommand; each lives in cmd_<name>.cc.
  register_run(app, exit_code);
  register_list(app, exit_code);
  register_merge(app, exit_code);
  register_compare(app, exit_code);
  register_restore(app, exit_code);
  register_stats(app, exit_code);
  register_design(app, exit_code);
  register_schedstat(app, exit_code);
  register_lab(app, exit_code);
  register_doctor(app, exit_code);
  register_parse(app, exit_code);
  register_import(app, exit_code);
  register_workloads(app, exit_code);
  register_nightly(app, exit_code);
  register_history(app, exit_code);
  register_bisect(app, exit_code);
  register_report(app, exit_code);
  register_export(app, exit_code);
  register_slurm(app, exit_code);
  register_rm(app, exit_code);
  register_help(app, exit_code);
  register_generate_docs(app, exit_code);  // hidden: the build's man pages and completion
  register_complete_runs(app, exit_code);  // hidden: run names for the completion
  // A mistyped command is named, with the nearest one (git's habit);
  // CLI11 alone would say "A subcommand is required".
  if (const auto error = unknown_command(app, std::vector<std::string>(argv + 1, argv + argc))) {
    print_message(fmt::format("{}\n", *error));
    return kBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parse_error_exit(app, e);
  } catch (const std::exception& e) {
    // What a command's own handler let through (a stream that cannot be
    // written threw while it reported): an error, never std::terminate.
    print_message(fmt::format("schedlab: {}\n", e.what()));
    return kError;
  }
  // What a command printed with fmt::print is still buffered: a stdout
  // that cannot take it (a full disk) is an error, never exit 0 with an
  // empty file (hostile11: compare, list and stats > /dev/full).
  // A command that failed has said why (export's own "cannot write stdout").
  if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && exit_code == kOk) {
    print_message(fmt::format("schedlab: cannot write stdout: {}\n", std::strerror(errno)));
    return kError;
  }
  return exit_code;
}
