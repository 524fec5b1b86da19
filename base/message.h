// What schedlab tells its user on stderr (errors, refusals, notes, progress
// lines), within a mail's 100 columns: the one printer of every layer, so a
// long run name, kernel or path wraps the same way wherever a message comes
// from (wrap_words: its continuation indented).
#pragma once

#include <string>
#include <string_view>

namespace schedlab {

// Text ending in a newline, each line longer than 100 columns broken at
// spaces (a path or another word wider than the line stays whole).
void print_message(std::string_view text);

// One line without its newline, as print_message prints it: the sink of
// progress lines and notes handed down as a callback (the lab's boot and
// build lines, a monitor's notes). Escaped first (terminal_safe, newlines
// kept): those lines quote what the layers below read (a kernel release, a
// tree's path, a guest's console), and no ESC of theirs reaches the terminal.
void print_line(const std::string& line);

// A sentence ending in a command to paste ("continue it with: schedlab run
// --resume ..."): the sentence wrapped, the command whole (with_command).
void print_with_command(std::string_view sentence, std::string_view command);

}  // namespace schedlab
