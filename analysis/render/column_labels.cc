#include "analysis/render/column_labels.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/text.h"

namespace schedlab {
namespace {

// A run, variant or pair name up to this long stays as it is.
constexpr std::size_t kPartWidth = 12;

struct Parts {
  std::string run, variant, pair;
};

// The parts a default or group label was made of: "run/variant@pair",
// "run", "variant" (compare.cc's default_columns, run_group's columns).
Parts split(const ColumnRef& col) {
  Parts p;
  std::string rest = col.label;
  if (col.pair && rest.ends_with("@" + *col.pair)) {
    p.pair = *col.pair;
    rest.resize(rest.size() - col.pair->size() - 1);
  }
  if (!col.variant.empty() && rest == col.variant) {
    p.variant = rest;
  } else if (!col.variant.empty() && rest.ends_with("/" + col.variant)) {
    p.variant = col.variant;
    p.run = rest.substr(0, rest.size() - col.variant.size() - 1);
  } else {
    p.run = rest;
  }
  return p;
}

// Short names for long values of one part, numbered in order of first use.
class Abbreviations {
 public:
  explicit Abbreviations(char prefix) : prefix_(prefix) {}
  std::string operator()(const std::string& value, std::vector<std::pair<std::string, std::string>>& key) {
    if (value.size() <= kPartWidth) return value;
    auto [it, added] = names_.try_emplace(value, fmt::format("{}{}", prefix_, names_.size() + 1));
    if (added) key.emplace_back(it->second, value);
    return it->second;
  }

 private:
  char prefix_;
  std::map<std::string, std::string> names_;
};

}  // namespace

void shorten_column_labels(Comparison& c, std::size_t max_width) {
  if (std::none_of(c.columns.begin(), c.columns.end(),
                   [&](const ColumnRef& col) { return col.label.size() > max_width; }))
    return;
  std::vector<std::pair<std::string, std::string>> key;
  std::vector<std::string> labels;
  Abbreviations variants('v'), pairs('p');
  std::set<std::int64_t> runs_keyed;
  for (const auto& col : c.columns) {
    const Parts p = split(col);
    std::string run = p.run;
    // A run is called by its id, which `compare` and `report` take.
    if (run.size() > kPartWidth) {
      run = fmt::format("r{}", col.run_id);
      if (runs_keyed.insert(col.run_id).second) key.emplace_back(run, p.run);
    }
    std::string label = run;
    if (!p.variant.empty()) label += (label.empty() ? "" : "/") + variants(p.variant, key);
    if (!p.pair.empty()) label += "@" + pairs(p.pair, key);
    labels.push_back(label);
  }
  const std::set<std::string> distinct(labels.begin(), labels.end());
  const bool fits = std::all_of(labels.begin(), labels.end(), [&](const auto& l) { return l.size() <= max_width; });
  if (distinct.size() != labels.size() || !fits) {
    key.clear();
    for (std::size_t i = 0; i < c.columns.size(); ++i) {
      labels[i] = fmt::format("c{}", i + 1);
      key.emplace_back(labels[i], c.columns[i].label);
    }
  }
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    c.columns[i].full_label = c.columns[i].label;
    c.columns[i].label = labels[i];
  }
  c.column_key = std::move(key);
  // compare --changed names the two columns as the table does.
  if (c.changed && c.columns.size() == 2) {
    c.changed->base_label = labels[0];
    c.changed->label = labels[1];
  }
}

std::string column_key_text(const Comparison& c, std::size_t width) {
  return key_text(c.column_key, "columns: ", width);
}

std::string key_text(const std::vector<std::pair<std::string, std::string>>& key,
                     std::string_view lead_text, std::size_t width) {
  if (key.empty()) return "";
  const std::string lead(lead_text), indent(lead.size(), ' ');
  std::string out, line = lead;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const std::string entry =
        fmt::format("{} = {}{}", key[i].first, key[i].second, i + 1 < key.size() ? ";" : "");
    if (line.size() > lead.size() && line.size() + 1 + entry.size() >= width) {
      out += line + "\n";
      line = indent;
    }
    line += (line.size() > lead.size() ? " " : "") + entry;
  }
  out += line + "\n";
  // An entry wider than the line by itself (a long name and its kernel)
  // goes on under its name, at spaces.
  std::string wrapped;
  for (const std::string_view l : split_lines(out)) {
    const std::size_t own = l.starts_with(indent) ? indent.size() : 0;
    wrapped += wrap_words(l, width, std::string(lead.size() + 5 - own, ' '));
  }
  return wrapped;
}

}  // namespace schedlab
