// Runs the real schedlab binary with a pseudo-terminal as its stdin, stdout
// and stderr, typing an answer once a prompt shows: for what schedlab does
// only when a person at a terminal says so (restore --adopt-unidentified).
#pragma once

#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

namespace schedlab::test {

struct TerminalResult {
  int exit_code = -1;  // -1: killed (the timeout) or signalled
  std::string output;  // stdout and stderr as the terminal showed them (CR LF, the echoed answer)
  bool answered = false;
};

inline TerminalResult schedlab_on_terminal(
    const std::vector<std::string>& args, const std::string& prompt, const std::string& answer,
    std::chrono::seconds timeout = std::chrono::seconds(120)) {
  std::vector<char*> argv{const_cast<char*>(SCHEDLAB_BINARY)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) return {};
  if (pid == 0) {
    ::execv(SCHEDLAB_BINARY, argv.data());
    ::_exit(127);
  }
  TerminalResult r;
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < give_up) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      char buf[4096];
      const ssize_t n = ::read(master, buf, sizeof buf);
      if (n <= 0) break;  // EIO: the last holder of the terminal is gone
      r.output.append(buf, static_cast<std::size_t>(n));
    }
    if (!r.answered && r.output.find(prompt) != std::string::npos) {
      const std::string line = answer + "\n";
      r.answered = ::write(master, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    }
  }
  if (std::chrono::steady_clock::now() >= give_up) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

}  // namespace schedlab::test
