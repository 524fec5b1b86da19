#include "runner/config/lab_boot.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "runner/config/config.h"
#include "runner/hosts/local_host.h"
#include "runner/lab/board.h"
#include "runner/lab/kernel_build.h"

namespace schedlab {

LabConfig lab_boot_config(const LabConfig& asked, std::chrono::seconds boot_timeout,
                          const std::string& config_file, const lab::Log& log) {
  LabConfig c = asked;
  if (!config_file.empty()) {
    const Config file = load_config_file(config_file);
    if (!file.sut_lab)
      throw LabBootError(
          fmt::format("{}: its SUT is no lab (hosts: sut: {{lab: ...}})", config_file));
    c = *file.sut_lab;
    c.kernel = asked.kernel;
    c.cmdline = asked.cmdline.empty() ? c.cmdline : asked.cmdline;
    c.programs.insert(c.programs.end(), asked.programs.begin(), asked.programs.end());
  } else if (lab::is_git_kernel(c.kernel)) {
    try {
      LocalHost local;
      const auto built = lab::cached_builds_of(c.kernel, lab::LabPaths::from_env(), local, c.board);
      const bool plain = std::any_of(built.begin(), built.end(), [](const lab::Kernel& k) {
        return k.requested_symbols.empty() && k.requested_fragments.empty();
      });
      if (!built.empty() && !plain) {
        c.config = built.front().requested_symbols;
        c.config_fragments = built.front().requested_fragments;
        std::vector<std::string> what;
        for (const auto& [k, v] : c.config) what.push_back(k + "=" + v);
        for (const auto& f : c.config_fragments) what.push_back(f);
        log(fmt::format(
            "schedlab lab: {} as a run built it ({}; cached {}); --config FILE boots it "
            "as that file's runs build it",
            c.kernel, fmt::join(what, ", "), built.front().key));
      }
    } catch (const lab::UnknownKernel&) {
      // build_kernel says what is wrong with the spec, when it is booted
    }
  }
  c.boot_timeout = boot_timeout;
  if (const lab::Board* b = lab::find_board(c.board)) {
    if (b->cpus && c.cpus == LabConfig{}.cpus) c.cpus = b->cpus;
    if (!b->memory.empty() && c.memory == LabConfig{}.memory) c.memory = b->memory;
  }
  if (const auto problems = board_problems(c); !problems.empty())
    throw LabBootError(fmt::format("--{}: {}", problems.front().first, problems.front().second));
  return c;
}

}  // namespace schedlab
