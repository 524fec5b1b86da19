// Quoting for the remote POSIX shell. OpenSSH hands the remote side one
// string that the login shell parses, so every argv element is quoted here,
// explicitly; nothing from a config is ever pasted in unquoted.
#pragma once

#include <string>
#include <vector>

namespace schedlab {

// 'arg' with each ' written as '\'' : safe for any byte string, newlines,
// $, backticks, globs and ; included.
std::string shell_quote(const std::string& arg);
std::string shell_join(const std::vector<std::string>& argv);
// A command line for people to paste: arg as it is when the shell reads it
// as one literal word (letters, digits, _-./:=@%+,), else shell_quote(arg).
std::string shell_word(const std::string& arg);

}  // namespace schedlab
