#include "base/message.h"

#include <cstdio>

#include "base/text.h"

namespace schedlab {

namespace {

// A stderr that cannot be written (closed, a full disk) loses the message,
// nothing else: fmt::print threw there, and the error path's own message
// ended schedlab in std::terminate (SIGABRT, hostile13).
void put(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

}  // namespace

void print_message(std::string_view text) {
  put(wrap_words(text));
}

void print_line(const std::string& line) {
  print_message(terminal_safe(line, true) + "\n");
}

void print_with_command(std::string_view sentence, std::string_view command) {
  put(with_command(sentence, command));
}

}  // namespace schedlab
