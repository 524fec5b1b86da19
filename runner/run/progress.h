// The one status line a run keeps on stderr:
//   [19/30] tbench clients=4 variant=batch iter 3  ETA 2m36s
// The ETA counts the iterations each plan point may still run at that
// point's own measured time (its workload's, before the point has one), so
// a quick first workload does not make a slow second one look quick. The
// line is cut to the terminal's width, so it never wraps into a new line.
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace schedlab {

struct Plan;

// kLine: one line rewritten in place (a terminal); kPlain: a line per
// iteration without escape sequences (asked for where there is no
// terminal, or TERM=dumb); kNone.
enum class ProgressStyle { kNone, kLine, kPlain };

// `asked`: --progress (true), --no-progress (false), or neither: a line on
// a terminal whose TERM is not dumb, nothing elsewhere.
ProgressStyle progress_style(std::optional<bool> asked, bool stderr_is_terminal, const char* term);
// The default for stderr as it is now (isatty, $TERM).
ProgressStyle default_progress_style();

// Columns of the terminal on `fd` (TIOCGWINSZ), else $COLUMNS, else 80.
std::size_t terminal_width(int fd);

// The first `columns` characters (UTF-8 code points) of text.
std::string cut_to_width(const std::string& text, std::size_t columns);

class Progress {
 public:
  // One slot per plan point: its workload and the iterations it may run
  // (every variant's, at most).
  struct Slot {
    std::size_t workload = 0;
    int remaining = 0;
  };
  Progress(ProgressStyle style, std::vector<Slot> slots, std::function<std::size_t()> width,
           std::FILE* out = stderr);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Before the run: iterations a resumed run already has at the point.
  void already_done(std::size_t point, int iterations);
  // The iteration about to run, described ("tbench clients=4 ...").
  void show(const std::string& what);
  // An iteration stored at the point; seconds <= 0 when it was not timed
  // (a setup that failed stores its iterations at once).
  void measured(std::size_t point, double seconds);
  // The point runs no more (its stop rule said so, or it was complete).
  void point_done(std::size_t point);

  // Seconds left, and whether that is only a lower bound (some workload
  // still to run has no timed iteration yet); nothing before any timing.
  struct Eta {
    double seconds = 0;
    bool lower_bound = false;
  };
  std::optional<Eta> eta() const;
  // The status text, before it is cut to the width.
  std::string line(const std::string& what) const;

 private:
  struct Timing {
    int n = 0;
    double seconds = 0;
    std::optional<double> mean() const { return n ? std::optional(seconds / n) : std::nullopt; }
  };
  ProgressStyle style_;
  std::vector<Slot> slots_;
  std::vector<Timing> by_point_, by_workload_;
  std::function<std::size_t()> width_;
  std::FILE* out_;
  std::size_t done_ = 0;
  bool shown_ = false;
};

// One slot per plan point: every variant's iterations, at most.
std::vector<Progress::Slot> progress_slots(const Plan& plan);

// "2m36s", "45s", "1h05m".
std::string format_eta(double seconds);

}  // namespace schedlab
