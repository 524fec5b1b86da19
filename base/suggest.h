// "Did you mean" for every name schedlab rejects: config keys, workloads,
// variants, sysctls. One helper, used everywhere.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace schedlab {

// Levenshtein distance (insert, delete, substitute, adjacent swap).
std::size_t edit_distance(const std::string& a, const std::string& b);

// The closest candidate within a distance that still looks like a typo
// (a third of the word, at least 2), or nothing.
std::optional<std::string> suggest(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

// The names as a sentence lists them: "a", "a or b", "a, b or c".
std::string or_list(const std::vector<std::string>& names);

}  // namespace schedlab
