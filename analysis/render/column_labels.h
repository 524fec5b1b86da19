// Column headers that fit a mail. Default run names are long
// ("demo-local-20261204T220811Z"), and a two-run table headed
// "demo-local-20261204T220811Z/default" is 150 columns wide. When a label
// would widen its column, each long part of it (run, variant, pair)
// becomes a short one (r3: run 3; v2: the second long variant name; p1)
// and the comparison's key says what each stands for; text and markdown
// print it under every table, HTML as a key above the page's tables and
// plot legends. `compare --wide` and JSON keep the full labels.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/compare/compare.h"

namespace schedlab {

// A label up to this long keeps the 23-column cell of the text table.
inline constexpr std::size_t kShortLabelWidth = 22;

// Shortens c's column labels (ColumnRef::label) when any is longer than
// max_width, and fills c.column_key; leaves both alone otherwise. Labels
// stay distinct: when the short forms would clash, every column becomes
// c1, c2, ... with its full label in the key. A "what changed" table
// (c.changed) takes the short labels too.
void shorten_column_labels(Comparison& c, std::size_t max_width = kShortLabelWidth);

// "columns: r3 = demo-local-20261204T220811Z; r4 = ...", wrapped before
// `width` characters (continuation lines indented), each line ending in a
// newline; empty when the key is.
std::string column_key_text(const Comparison& c, std::size_t width = 100);
// The same for any key: "LEAD" then "short = full" entries ("runs: r1 =
// ...; r2 = ..." under `list`).
std::string key_text(const std::vector<std::pair<std::string, std::string>>& key,
                     std::string_view lead, std::size_t width = 100);

}  // namespace schedlab
