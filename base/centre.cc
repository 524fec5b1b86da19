#include "base/centre.h"

#include <utility>

namespace schedlab {
namespace {

constexpr std::pair<Centre, std::string_view> kCentreNames[] = {
    {Centre::kAmean, "amean"},
    {Centre::kHmean, "hmean"},
    {Centre::kGmean, "gmean"},
    {Centre::kMedian, "median"},
};

}  // namespace

std::string_view to_string(Centre c) {
  for (const auto& [k, n] : kCentreNames)
    if (k == c) return n;
  return "?";
}

std::optional<Centre> centre_from_string(std::string_view name) {
  for (const auto& [c, n] : kCentreNames)
    if (n == name) return c;
  return std::nullopt;
}

}  // namespace schedlab
