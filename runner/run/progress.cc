#include "runner/run/progress.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <string_view>

#include "base/text.h"
#include "runner/run/plan.h"

namespace schedlab {

ProgressStyle progress_style(std::optional<bool> asked, bool stderr_is_terminal, const char* term) {
  // A dumb terminal cannot erase a line (hyperfine's rule): nothing by
  // default, plain lines when asked for.
  const bool capable = stderr_is_terminal && !(term && std::string_view(term) == "dumb");
  if (asked && !*asked) return ProgressStyle::kNone;
  if (asked) return capable ? ProgressStyle::kLine : ProgressStyle::kPlain;
  return capable ? ProgressStyle::kLine : ProgressStyle::kNone;
}

ProgressStyle default_progress_style() {
  return progress_style(std::nullopt, ::isatty(2) != 0, std::getenv("TERM"));
}

std::size_t terminal_width(int fd) {
  struct winsize ws{};
  if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* columns = std::getenv("COLUMNS"); columns && *columns) {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (*end == '\0' && n > 0 && n < 100000) return static_cast<std::size_t>(n);
  }
  return 80;
}

std::string cut_to_width(const std::string& text, std::size_t columns) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    // A code point starts at every byte that is not a continuation byte.
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == columns) return text.substr(0, i);
  }
  return text;
}

std::string format_eta(double seconds) {
  const auto s = static_cast<long>(std::lround(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

Progress::Progress(ProgressStyle style, std::vector<Slot> slots, std::function<std::size_t()> width,
                   std::FILE* out)
    : style_(style), slots_(std::move(slots)), by_point_(slots_.size()), width_(std::move(width)), out_(out) {
  std::size_t workloads = 0;
  for (const auto& s : slots_) workloads = std::max(workloads, s.workload + 1);
  by_workload_.resize(workloads);
}

Progress::~Progress() {
  if (style_ == ProgressStyle::kLine && shown_) fmt::print(out_, "\r\033[K");
}

void Progress::already_done(std::size_t point, int iterations) {
  auto& slot = slots_.at(point);
  const int n = std::min(iterations, slot.remaining);
  slot.remaining -= n;
  done_ += static_cast<std::size_t>(n);
}

void Progress::measured(std::size_t point, double seconds) {
  auto& slot = slots_.at(point);
  if (slot.remaining > 0) --slot.remaining;
  ++done_;
  if (seconds <= 0) return;
  for (Timing* t : {&by_point_[point], &by_workload_[slot.workload]}) {
    ++t->n;
    t->seconds += seconds;
  }
}

void Progress::point_done(std::size_t point) { slots_.at(point).remaining = 0; }

std::optional<Progress::Eta> Progress::eta() const {
  Eta eta;
  bool any = false;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].remaining == 0) continue;
    auto per = by_point_[i].mean();
    if (!per) per = by_workload_[slots_[i].workload].mean();
    if (!per) {
      eta.lower_bound = true;  // a workload not timed yet: counted as nothing
      continue;
    }
    eta.seconds += *per * slots_[i].remaining;
    any = true;
  }
  if (!any) return std::nullopt;
  return eta;
}

std::string Progress::line(const std::string& what) const {
  const std::size_t remaining = std::accumulate(slots_.begin(), slots_.end(), std::size_t{0},
                                                [](std::size_t n, const Slot& s) { return n + s.remaining; });
  std::string out = fmt::format("[{}/{}] {}", done_ + 1, done_ + remaining, what);
  if (const auto e = eta()) out += fmt::format("  ETA {}{}", e->lower_bound ? ">" : "", format_eta(e->seconds));
  return out;
}

void Progress::show(const std::string& what) {
  if (style_ == ProgressStyle::kNone) return;
  const std::string text = line(what);
  if (style_ == ProgressStyle::kPlain) {
    fmt::print(out_, "{}", wrap_words(text));  // a log's line: 100 columns, as every message
  } else {
    // One column short of the width: a line that fills the last column
    // wraps on some terminals.
    const std::size_t width = width_ ? width_() : 80;
    fmt::print(out_, "\r\033[K{}", cut_to_width(text, width > 1 ? width - 1 : width));
  }
  std::fflush(out_);
  shown_ = true;
}

std::vector<Progress::Slot> progress_slots(const Plan& plan) {
  std::vector<Progress::Slot> slots;
  for (const auto& p : plan.points)
    slots.push_back({p.workload_index, p.iterations.max * static_cast<int>(plan.variants.size())});
  return slots;
}

}  // namespace schedlab
