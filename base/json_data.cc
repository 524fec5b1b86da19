#include "base/json_data.h"

#include <fmt/format.h>

#include <stdexcept>

#include "base/text.h"

namespace schedlab {
namespace {

struct TooDeep {};

}  // namespace

nlohmann::json parse_json_data(std::string_view text) {
  try {
    return nlohmann::json::parse(
        text,
        [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
          if (depth > kMaxJsonDepth) throw TooDeep{};
          return true;
        },
        false);
  } catch (const TooDeep&) {
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
}

nlohmann::json require_json_data(std::string_view text, std::string_view what) {
  nlohmann::json j = parse_json_data(text);
  if (j.is_discarded())
    throw std::invalid_argument(
        fmt::format("{} is not JSON (or nests deeper than {} levels)", what, kMaxJsonDepth));
  return j;
}

std::string json_output(const nlohmann::json& j, int indent,
                        nlohmann::json::error_handler_t errors) {
  return unicode_escaped_controls(j.dump(indent, ' ', false, errors));
}

}  // namespace schedlab
