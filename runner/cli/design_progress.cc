#include "runner/cli/design_progress.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "runner/run/progress.h"

namespace schedlab::cli {

DesignSimulation simulate_with_progress(const DesignCost& cost, Noise noise, std::size_t trials,
                                        std::uint64_t seed) {
  if (default_progress_style() != ProgressStyle::kLine)
    return simulate_design(cost, noise, trials, seed);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto shown = start;
  bool any = false;
  const auto line = [&](std::size_t done, std::size_t total) {
    const auto now = Clock::now();
    // At most five lines a second: the terminal is not the work.
    if (done < total && any && now - shown < std::chrono::milliseconds(200)) return;
    const double spent = std::chrono::duration<double>(now - start).count();
    const double left = spent / static_cast<double>(done) * static_cast<double>(total - done);
    const std::string text =
        fmt::format("simulating: {}/{} trials  ETA {}", done, total, format_eta(left));
    fmt::print(stderr, "\r\033[K{}", cut_to_width(text, terminal_width(2)));
    std::fflush(stderr);
    shown = now;
    any = true;
  };
  DesignSimulation r = simulate_design(cost, noise, trials, seed, line);
  if (any) fmt::print(stderr, "\r\033[K");
  return r;
}

}  // namespace schedlab::cli
