#include "base/time.h"

#include <cctype>
#include <chrono>
#include <ctime>

namespace schedlab {

std::string utc_now_iso8601() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool is_utc_iso8601(std::string_view s) {
  // YYYY-MM-DDTHH:MM:SSZ
  static constexpr std::string_view kShape = "dddd-dd-ddTdd:dd:ddZ";
  if (s.size() != kShape.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (kShape[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(s[i])) : s[i] != kShape[i])
      return false;
  const auto at = [&](std::size_t i) { return (s[i] - '0') * 10 + (s[i + 1] - '0'); };
  const int month = at(5), day = at(8);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && at(11) < 24 && at(14) < 60 &&
         at(17) <= 60;
}

}  // namespace schedlab
