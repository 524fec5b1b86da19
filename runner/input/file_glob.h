// A file argument that is a glob schedlab expands itself: the shell leaves
// `base=imp/base-*.txt` as it is (bash expands no word that starts with
// `NAME=`), so `import` expands what follows `VARIANT=` as git expands a
// pathspec: glob(3), in sorted order.
#pragma once

#include <string>
#include <vector>

namespace schedlab {

// Whether a word holds a glob's special characters (*, ? or [).
bool has_glob_characters(const std::string& word);

// The files WORD names: itself when it holds no glob character or is a
// file of that very name (a file may be called `run[1].txt`), else the
// paths its glob matches, sorted. A glob that matches nothing, or a
// directory glob(3) cannot read, is std::invalid_argument naming it.
std::vector<std::string> expand_file_argument(const std::string& word);

// A file named on the command line, read whole; one that cannot be read is
// bad input (std::invalid_argument, the CLI's kBadInput), like a bad value
// in it.
std::string read_input_file(const std::string& path);

}  // namespace schedlab
