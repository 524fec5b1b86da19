#include "base/message.h"

#include <fmt/format.h>

#include "base/text.h"

namespace schedlab {

void print_message(std::string_view text) {
  fmt::print(stderr, "{}", wrap_words(text));
}

void print_line(const std::string& line) {
  print_message(terminal_safe(line, true) + "\n");
}

void print_with_command(std::string_view sentence, std::string_view command) {
  fmt::print(stderr, "{}", with_command(sentence, command));
}

}  // namespace schedlab
