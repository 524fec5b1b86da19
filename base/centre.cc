#include "base/centre.h"

#include "base/word_table.h"

namespace schedlab {
namespace {

constexpr WordTable<Centre, 4> kCentreNames = {{
    {Centre::kAmean, "amean"},
    {Centre::kHmean, "hmean"},
    {Centre::kGmean, "gmean"},
    {Centre::kMedian, "median"},
}};

}  // namespace

std::string_view to_string(Centre c) {
  return word_of(kCentreNames, c);
}

std::optional<Centre> centre_from_string(std::string_view name) {
  return from_word(kCentreNames, name);
}

}  // namespace schedlab
