#include "analysis/compare/manifest_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "base/text.h"

#include "base/text.h"

namespace schedlab {
namespace {

using ManifestJson = nlohmann::json;
using Value = std::optional<std::string>;

// A scalar as text: strings as they are, numbers and booleans as JSON
// prints them, arrays joined by spaces; null is absent.
Value text(const ManifestJson& j) {
  if (j.is_null()) return std::nullopt;
  if (j.is_string()) return j.get<std::string>();
  if (j.is_array()) {
    std::string out;
    for (const auto& x : j) out += (out.empty() ? "" : " ") + text(x).value_or("null");
    return out;
  }
  return j.dump();
}

const ManifestJson& field(const ManifestJson& object, const char* key) {
  static const ManifestJson null;
  if (!object.is_object()) return null;
  auto it = object.find(key);
  return it == object.end() ? null : *it;
}

bool all_equal(const std::vector<Value>& v) {
  return std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) == v.end();
}

class Differ {
 public:
  // Adds a difference when the values of the given columns are not all
  // equal; the other columns show as absent.
  void add(const std::string& kind, const std::string& name, std::vector<Value> values,
           const std::vector<bool>& compared) {
    std::vector<Value> mine;
    for (std::size_t i = 0; i < values.size(); ++i)
      if (compared[i]) mine.push_back(values[i]);
      else values[i].reset();
    if (!all_equal(mine)) out_.push_back({kind, name, std::move(values)});
  }
  void push(const std::string& kind, const std::string& name, std::vector<Value> values) {
    out_.push_back({kind, name, std::move(values)});
  }
  std::vector<Difference> take() { return std::move(out_); }

 private:
  std::vector<Difference> out_;
};

// Flattens an object of objects into "key subkey" -> value.
std::map<std::string, Value> flatten(const ManifestJson& knobs) {
  std::map<std::string, Value> out;
  if (!knobs.is_object()) return out;
  for (const auto& [key, value] : knobs.items()) {
    if (value.is_object()) {
      for (const auto& [sub, v] : value.items()) out[key + " " + sub] = text(v);
    } else {
      out[key] = text(value);
    }
  }
  return out;
}

// A features list as base name -> token ("PLACE_LAG" or "NO_PLACE_LAG"),
// and the base names in the kernel's order.
void features(const ManifestJson& list, std::map<std::string, std::string>& tokens,
              std::vector<std::string>& order) {
  for (const auto& t : list) {
    if (!t.is_string()) continue;
    const std::string token = t.get<std::string>();
    const std::string base = token.starts_with("NO_") ? token.substr(3) : token;
    tokens[base] = token;
    if (std::find(order.begin(), order.end(), base) == order.end()) order.push_back(base);
  }
}

Value governors_text(const ManifestJson& g) {
  if (!g.is_object()) return std::nullopt;
  std::string out;
  for (const auto& [governor, cpus] : g.items())
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", governor, text(cpus).value_or(""));
  return out;
}

// The state parts of each column; `has` says which columns recorded one.
void state_diffs(Differ& d, const std::vector<ManifestJson>& states) {
  const std::size_t n = states.size();
  std::vector<bool> has(n);
  for (std::size_t i = 0; i < n; ++i) has[i] = states[i].is_object();

  // A part readable in some columns and not others: say so once, instead of
  // one row per feature or tunable.
  std::map<std::string, std::vector<bool>> usable;
  for (const char* part : {"sched_features", "debugfs_tunables", "cpufreq_governors"}) {
    std::vector<Value> v(n);
    std::vector<bool> ok(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!has[i]) continue;
      const ManifestJson& p = field(states[i], part);
      ok[i] = !p.is_null();
      const ManifestJson& why = field(field(states[i], "null_reasons"), part);
      v[i] = ok[i] ? "readable" : "unavailable" + (why.is_string() ? ": " + why.get<std::string>() : "");
    }
    std::vector<Value> mine;
    for (std::size_t i = 0; i < n; ++i)
      if (has[i]) mine.push_back(ok[i] ? "readable" : "unavailable");
    if (!all_equal(mine)) d.push("availability", part, v);
    usable[part] = ok;
  }

  // Features, in the kernel's order (first column that has a list first).
  std::vector<std::map<std::string, std::string>> tokens(n);
  std::vector<std::string> order;
  for (std::size_t i = 0; i < n; ++i)
    if (usable["sched_features"][i]) features(field(states[i], "sched_features"), tokens[i], order);
  for (const auto& base : order) {
    std::vector<Value> v(n);
    for (std::size_t i = 0; i < n; ++i)
      if (auto it = tokens[i].find(base); it != tokens[i].end()) v[i] = it->second;
    d.add("feature", base, v, usable["sched_features"]);
  }

  // Sysctls and tunables: every name any column has, sorted.
  for (const auto& [part, kind] : {std::pair{"sysctls", "sysctl"}, {"debugfs_tunables", "tunable"}}) {
    const std::vector<bool> compared = std::string(part) == "sysctls" ? has : usable[part];
    std::set<std::string> names;
    for (std::size_t i = 0; i < n; ++i)
      if (compared[i] && field(states[i], part).is_object())
        for (const auto& [k, _] : field(states[i], part).items()) names.insert(k);
    for (const auto& name : names) {
      std::vector<Value> v(n);
      for (std::size_t i = 0; i < n; ++i)
        if (compared[i]) v[i] = text(field(field(states[i], part), name.c_str()));
      d.add(kind, name, v, compared);
    }
  }

  std::vector<Value> g(n);
  for (std::size_t i = 0; i < n; ++i)
    if (usable["cpufreq_governors"][i]) g[i] = governors_text(field(states[i], "cpufreq_governors"));
  d.add("governor", "", g, usable["cpufreq_governors"]);
}

// A stored patch (`git diff HEAD`) as its files with lines added and
// removed: "kernel/sched/fair.c +2 -0"; "(first N bytes)" when the manifest
// kept only its head.
Value edits_stat(const ManifestJson& build) {
  const ManifestJson& edits = field(build, "edits");
  if (!edits.is_string()) return std::nullopt;
  std::vector<std::tuple<std::string, int, int>> files;
  bool in_hunk = false;                                // past a file's "--- a/x" and "+++ b/x"
  const std::string patch = edits.get<std::string>();  // split_lines views it
  for (const auto line : split_lines(patch)) {
    if (line.starts_with("diff --git ")) {
      const auto b = line.rfind(" b/");
      files.emplace_back(
          std::string(b == std::string_view::npos ? line.substr(11) : line.substr(b + 3)), 0, 0);
      in_hunk = false;
    } else if (line.starts_with("@@")) {
      in_hunk = !files.empty();
    } else if (!in_hunk) {
      continue;
    } else if (line.starts_with('+')) {
      ++std::get<1>(files.back());
    } else if (line.starts_with('-')) {
      ++std::get<2>(files.back());
    }
  }
  if (files.empty()) return "none";
  std::string out;
  for (const auto& [name, added, removed] : files)
    out += fmt::format("{}{} +{} -{}", out.empty() ? "" : ", ", name, added, removed);
  if (field(build, "edits_truncated") == true)
    out += fmt::format(" (first {} bytes)", patch.size());
  return out;
}

}  // namespace

std::string Difference::what() const { return name.empty() ? kind : kind + " " + name; }

std::vector<Difference> manifest_differences(const std::vector<ManifestColumn>& columns) {
  const std::size_t n = columns.size();
  Differ d;
  const std::vector<bool> all(n, true);
  auto manifest_field = [&](const char* kind, auto get) {
    std::vector<Value> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = get(columns[i].manifest);
    d.add(kind, "", v, all);
  };
  // A manifest that is not JSON (a crafted number past a double, 1e999)
  // shows every field below as "-": say so, not let them read as absent.
  manifest_field("manifest", [](const ManifestJson& m) -> Value {
    if (m.is_discarded()) return "unreadable (not JSON)";
    return std::nullopt;
  });
  manifest_field("kernel", [](const ManifestJson& m) { return text(field(m, "kernel_release")); });
  // A kernel built from a tree: two builds of one release differ by what
  // was built (base and patched may both say 6.1.192+).
  const auto lab_build = [&](const char* kind, const char* name, auto get) {
    std::vector<Value> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = get(field(field(columns[i].manifest, "lab"), "build"));
    if (std::any_of(v.begin(), v.end(), [](const Value& x) { return x.has_value(); })) d.add(kind, name, v, all);
  };
  lab_build("kernel", "ref", [&](const ManifestJson& b) -> Value {
    return b.is_null() ? std::nullopt : text(field(b, "spec"));
  });
  lab_build("kernel", "commit", [](const ManifestJson& b) -> Value {
    const Value c = text(field(b, "commit"));
    return c ? std::optional(c->substr(0, 12)) : std::nullopt;
  });
  lab_build("kernel", "describe", [](const ManifestJson& b) { return text(field(b, "describe")); });
  lab_build("kernel", "config", [](const ManifestJson& b) -> Value {
    const Value c = text(field(b, "config_sha"));
    return c ? std::optional(c->substr(0, 12)) : std::nullopt;
  });
  // @WORKTREE: which edits were measured (the stored patch's sha256 and
  // what it touches); "-" on a column built at a commit.
  lab_build("kernel", "edits", [](const ManifestJson& b) -> Value {
    const Value sha = text(field(b, "edits_sha256"));
    if (!sha) return std::nullopt;
    return sha->empty() ? "none" : "sha256 " + sha->substr(0, 12);
  });
  lab_build("kernel", "edited files", edits_stat);
  lab_build("kernel", "config additions", [](const ManifestJson& b) { return text(field(b, "config_additions")); });
  manifest_field("cmdline", [](const ManifestJson& m) { return text(field(m, "cmdline")); });
  manifest_field("host", [](const ManifestJson& m) { return text(field(m, "hostname")); });
  manifest_field("cpu", [](const ManifestJson& m) -> Value {
    const ManifestJson& model = field(m, "cpu_model");
    const ManifestJson& count = field(m, "cpu_count");
    if (model.is_null() && count.is_null()) return std::nullopt;
    return fmt::format("{} x {}", text(count).value_or("?"), text(model).value_or("?"));
  });

  std::vector<std::map<std::string, Value>> knobs(n);
  std::set<std::string> names;
  for (std::size_t i = 0; i < n; ++i) {
    knobs[i] = flatten(columns[i].knobs);
    for (const auto& [k, _] : knobs[i]) names.insert(k);
  }
  for (const auto& name : names) {
    std::vector<Value> v(n);
    for (std::size_t i = 0; i < n; ++i)
      if (auto it = knobs[i].find(name); it != knobs[i].end()) v[i] = it->second;
    d.add("knob", name, v, all);
  }

  std::vector<ManifestJson> states(n);
  for (std::size_t i = 0; i < n; ++i) states[i] = field(columns[i].manifest, "state_before");
  state_diffs(d, states);
  return d.take();
}

std::vector<Difference> state_differences(const nlohmann::json& before, const nlohmann::json& after) {
  if (!before.is_object() || !after.is_object()) return {};
  Differ d;
  state_diffs(d, {before, after});
  return d.take();
}

nlohmann::json kernel_column_manifest(nlohmann::json manifest, const std::string& variant) {
  const ManifestJson& columns = field(manifest, "kernel_columns");
  if (!columns.is_array()) return manifest;
  for (const auto& c : columns)
    if (const Value label = text(field(c, "column"));
        label && variant.starts_with(*label + "/") && field(c, "lab").is_object()) {
      manifest["lab"] = c["lab"];
      if (const Value release = text(field(c["lab"], "release")))
        manifest["kernel_release"] = *release;
      break;
    }
  return manifest;
}

std::vector<std::pair<std::string, std::string>> column_kernels(const nlohmann::json& manifest) {
  std::vector<std::pair<std::string, std::string>> out;
  const ManifestJson& columns = field(manifest, "kernel_columns");
  if (!columns.is_array()) return out;
  for (const auto& c : columns)
    if (const ManifestJson& label = field(c, "column"); label.is_string()) {
      const ManifestJson& release = field(field(c, "lab"), "release");
      out.emplace_back(label.get<std::string>(),
                       release.is_string() ? release.get<std::string>() : "");
    }
  return out;
}

std::string labelled_kernels(const std::vector<std::pair<std::string, std::string>>& kernels) {
  std::string out;
  for (const auto& [label, what] : kernels)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", label, what.empty() ? "?" : what);
  return out;
}

std::string describe_change(const Difference& d) {
  auto v = [&](std::size_t i) { return i < d.values.size() ? d.values[i].value_or("-") : "-"; };
  return fmt::format("{}: {} -> {}", d.what(), v(0), v(1));
}

std::string render_differences_text(const std::vector<Difference>& differences,
                                    const std::vector<std::string>& labels) {
  if (differences.empty()) return "";
  std::size_t what_width = 0;
  std::vector<std::size_t> widths(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) widths[i] = labels[i].size();
  for (const auto& d : differences) {
    what_width = std::max(what_width, d.what().size());
    for (std::size_t i = 0; i < d.values.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], d.values[i].value_or("-").size());
  }
  // Many columns: in pieces within 100 columns, each with the first column.
  std::vector<std::size_t> spaced;
  for (const std::size_t w : widths) spaced.push_back(w + 2);
  std::string out = "What differs between the columns:\n";
  for (const auto& piece : table_pieces(2 + what_width, spaced)) {
    auto line = [&](const std::string& what, auto value) {
      std::string text = fmt::format("  {:<{}}", what, what_width);
      for (const std::size_t i : piece)
        text += fmt::format("  {:<{}}", value(i), i == piece.back() ? 0 : widths[i]);
      return text + "\n";
    };
    out += line("", [&](std::size_t i) { return labels[i]; });
    for (const auto& d : differences)
      out += line(d.what(), [&](std::size_t i) {
        return i < d.values.size() ? d.values[i].value_or("-") : std::string("-");
      });
  }
  return out;
}

}  // namespace schedlab
