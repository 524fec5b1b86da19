#include "analysis/render/html_escape.h"

#include "base/text.h"

namespace schedlab {

std::string html_escape(std::string_view s) {
  const std::string shown = terminal_safe(s, true);
  std::string out;
  out.reserve(shown.size());
  for (char ch : shown) switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  return out;
}

}  // namespace schedlab
