// libFuzzer target: `schedlab stats` on arbitrary sample files. The input's
// text is split at its first form feed into two files, each parsed
// (analysis/stats/sample_file.h: an std::invalid_argument is fine), then
// summarised with every centre and compared with every test and interval,
// as `stats A B` does. Any other exception (Boost.Math's on overflowing
// numbers, issue 44), a statistic that is not finite, a crash or a hang is
// a bug.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "analysis/stats/sample_file.h"
#include "analysis/stats/significance.h"
#include "analysis/stats/summary.h"

using namespace schedlab;

namespace {

void finite_or_abort(const Stat& s) {
  if (s.value && !std::isfinite(*s.value)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t ff = text.find('\f');
  std::vector<double> a, b;
  try {
    a = parse_samples(text.substr(0, ff), "a");
    b = ff == std::string_view::npos ? a : parse_samples(text.substr(ff + 1), "b");
  } catch (const std::invalid_argument&) {
    return 0;
  }
  for (const Centre c : {Centre::kAmean, Centre::kHmean, Centre::kGmean, Centre::kMedian}) {
    const Summary s = summarize(a, c, 0.95);
    for (const Stat* st : {&s.min, &s.max, &s.median, &s.amean, &s.gmean, &s.hmean, &s.stddev,
                           &s.coefvar, &s.centre_value})
      finite_or_abort(*st);
    if (s.ci.ci && !(std::isfinite(s.ci.ci->low) && std::isfinite(s.ci.ci->high))) std::abort();
    const PctInterval pct = pct_interval(c, true, a, b, 0.95);
    if (pct.ci && !(std::isfinite(pct.ci->low) && std::isfinite(pct.ci->high))) std::abort();
  }
  for (const Test t : {Test::kWelch, Test::kMwu}) {
    const PValue p = p_value(t, a, b);
    if (p.p && !(*p.p >= 0 && *p.p <= 1)) std::abort();
  }
  return 0;
}
