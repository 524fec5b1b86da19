#include "base/placeholders.h"

namespace schedlab {
namespace {

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || c == '_';
}
bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

struct Piece {
  bool placeholder;
  std::string text;  // the name, or literal text
};

// One argument as literal pieces and placeholders; throws for an unmatched
// brace.
std::vector<Piece> pieces_of(std::string_view arg) {
  std::vector<Piece> pieces;
  const auto literal = [&](std::string_view text) {
    if (pieces.empty() || pieces.back().placeholder) pieces.push_back({false, {}});
    pieces.back().text += text;
  };
  int open = 0;  // literal '{' not closed yet
  std::size_t i = 0;
  while (i < arg.size()) {
    const char c = arg[i];
    if ((c == '{' || c == '}') && i + 1 < arg.size() && arg[i + 1] == c) {
      literal(arg.substr(i, 1));
      i += 2;
      continue;
    }
    if (c == '{' && i + 1 < arg.size() && ident_start(arg[i + 1])) {
      std::size_t j = i + 1;
      while (j < arg.size() && ident_char(arg[j])) ++j;
      if (j < arg.size() && arg[j] == '}') {
        pieces.push_back({true, std::string(arg.substr(i + 1, j - i - 1))});
        i = j + 1;
        continue;
      }
    }
    if (c == '{') ++open;
    if (c == '}' && open-- == 0)
      throw PlaceholderError("argv '" + std::string(arg) + "': '}' without '{'");
    literal(arg.substr(i, 1));
    ++i;
  }
  if (open > 0) throw PlaceholderError("argv '" + std::string(arg) + "': '{' without '}'");
  return pieces;
}

}  // namespace

bool is_placeholder_name(std::string_view name) {
  if (name.empty() || !ident_start(name.front())) return false;
  for (char c : name)
    if (!ident_char(c)) return false;
  return true;
}

std::vector<std::string> placeholder_names(std::string_view arg) {
  std::vector<std::string> names;
  for (auto& p : pieces_of(arg))
    if (p.placeholder) names.push_back(std::move(p.text));
  return names;
}

std::string expand_placeholders(std::string_view arg,
                                const std::function<std::string(const std::string&)>& value) {
  std::string out;
  for (const auto& p : pieces_of(arg)) out += p.placeholder ? value(p.text) : p.text;
  return out;
}

}  // namespace schedlab
