#include "runner/input/yaml_reader.h"

#include <yaml-cpp/eventhandler.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "base/file.h"
#include "base/text.h"
#include "runner/input/config_error.h"
#include "runner/input/param_values.h"
#include "base/suggest.h"
#include "runner/input/units.h"
#include "runner/input/yaml_keys.h"

namespace schedlab {

namespace {

// What a path is when it is no regular file, for the error.
std::string file_kind(const std::filesystem::file_status& s) {
  using std::filesystem::file_type;
  switch (s.type()) {
    case file_type::directory: return "a directory";
    case file_type::character: return "a character device";
    case file_type::block: return "a block device";
    case file_type::fifo: return "a FIFO";
    case file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

// Mappings are walked at most this many nodes deep and wide in all: a
// 1 MiB config has far fewer; only aliases nested into a "billion laughs"
// reach it, and the walk then stops instead of expanding them.
constexpr std::size_t kMaxNodesWalked = std::size_t{1} << 20;

// A NUL that reached a key or value through a YAML escape ("\0", "\x00",
// "\u0000"): load()'s byte check sees only raw ones, and a C string (an
// argv, a path) would end there ("a\0b" ran as "a").
constexpr const char* kNulEscaped =
    "a NUL character (a YAML escape such as \"\\0\"): a config is text, and no key or value "
    "may hold one";

}  // namespace

std::string read_config_text(const std::string& path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!ec && st.type() != std::filesystem::file_type::regular)
    throw ConfigError(path, 0, "", fmt::format("cannot read the file: it is {}, not a config file",
                                               file_kind(st)));
  try {
    return read_file(path, kMaxConfigBytes);
  } catch (const FileError& e) {
    throw ConfigError(path, 0, "", "cannot read the file: " + e.reason());
  }
}

namespace {

// Where each document of a stream starts and where its first node is, from
// parser events (no nodes built). Stands in for YAML::LoadAll, which in
// yaml-cpp 0.7 loops for ever, allocating, on a stray ',' (the parser
// returns an empty document without consuming the token; fixed upstream in
// jbeder/yaml-cpp#1319, found here by fuzz_config).
struct DocumentMarks : YAML::EventHandler {
  struct Doc {
    YAML::Mark start, first_node;
    bool has_node = false;
  };
  std::vector<Doc> docs;

  void OnDocumentStart(const YAML::Mark& m) override { docs.push_back({.start = m}); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                const std::string&) override {
    node(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& m) {
    if (!docs.empty() && !docs.back().has_node) {
      docs.back().first_node = m;
      docs.back().has_node = true;
    }
  }
};

}  // namespace

YAML::Node YamlReader::load(const std::string& text) const {
  // yaml-cpp reads a NUL as the end of its input, or misreads what follows
  // ("unknown escape character" in a quoted string): refused at its line.
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    const auto line_start = text.rfind('\n', nul);
    const std::size_t column = line_start == std::string::npos ? nul + 1 : nul - line_start;
    throw ConfigError(path_,
                      1 + static_cast<int>(std::count(text.begin(), text.begin() + nul, '\n')), "",
                      fmt::format("a NUL byte at column {}: a config is text, and YAML allows no "
                                  "NUL anywhere",
                                  column));
  }
  YAML::Node root;
  try {
    // At most two documents are read: one is the config, a second an error.
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentMarks marks;
    for (int i = 0; i < 2 && parser.HandleNextDocument(marks); ++i) {
    }
    if (marks.docs.size() > 1) {
      const auto& first = marks.docs[0];
      const auto& second = marks.docs[1];
      if (second.start.pos == first.start.pos)  // nothing consumed: the 0.7 loop
        throw ConfigError(path_, second.start.line + 1, "",
                          "YAML syntax error: cannot read on from here (a stray ',' outside "
                          "[ ] or { }?)");
      // An empty second document's first node is its separator's line + 1.
      const int line = second.has_node && second.first_node.line >= 0 ? second.first_node.line + 1
                                                                      : second.start.line + 1;
      throw ConfigError(path_, line, "",
                        "a second YAML document ('---'): a config is one document; merge them or "
                        "use two files");
    }
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path_, e.mark.line >= 0 ? e.mark.line + 1 : 0, "",
                      "YAML syntax error: " + e.msg);
  }
  check_unique_keys(root);
  return root;
}

void YamlReader::check_unique_keys(const YAML::Node& root) const {
  std::vector<std::pair<YAML::Node, std::string>> todo = {{root, ""}};
  std::size_t walked = 0;
  while (!todo.empty()) {
    const auto [n, where] = todo.back();
    todo.pop_back();
    if (++walked > kMaxNodesWalked)
      fail(n, where, fmt::format("the document expands to more than {} nodes (nested aliases?)",
                                 kMaxNodesWalked));
    if (n.IsScalar() && n.Scalar().find('\0') != std::string::npos) fail(n, where, kNulEscaped);
    if (n.IsSequence()) {
      for (std::size_t i = 0; i < n.size(); ++i)
        todo.push_back({n[i], fmt::format("{}[{}]", where, i)});
    } else if (n.IsMap()) {
      std::map<std::string, int> first_line;
      for (const auto& kv : n) {
        // Every reader takes keys as strings: a '?' complex key (a mapping
        // or list as key) or an empty one is refused here, once.
        if (!kv.first.IsScalar())
          fail(kv.first.IsNull() ? n : kv.first, where,
               kv.first.IsNull() ? std::string("a key is empty")
                                 : "a key must be a plain word, not a mapping or list ('?' key)");
        const std::string k = kv.first.Scalar();
        if (k.find('\0') != std::string::npos)
          fail(kv.first, where, fmt::format("the key '{}' holds {}", excerpt(k), kNulEscaped));
        if (const auto [it, fresh] = first_line.emplace(k, line_of(kv.first)); !fresh)
          fail(kv.first, where,
               fmt::format("duplicate key '{}' (first at line {})", excerpt(k), it->second));
        todo.push_back({kv.second, where.empty() ? k : where + "." + k});
      }
    }
  }
}

void YamlReader::fail(const YAML::Node& at, const std::string& key, const std::string& msg) const {
  throw ConfigError(path_, line_of(at), key, msg);
}

int YamlReader::line_of(const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return m.line >= 0 ? m.line + 1 : 0;
}

void YamlReader::expect_map(const YAML::Node& n, const std::string& key) const {
  if (!n.IsMap()) fail(n, key, "expected a mapping of keys to values");
}

void YamlReader::check_keys(const YAML::Node& map, const std::string& where,
                            const std::vector<std::string>& allowed) const {
  expect_map(map, where);
  if (const auto p = key_problem(map, allowed)) fail(p->at, where, p->message);
}

std::string YamlReader::scalar(const YAML::Node& n, const std::string& key) const {
  if (!n.IsScalar()) fail(n, key, "expected a single value");
  return n.Scalar();
}

std::string YamlReader::word(const YAML::Node& n, const std::string& key) const {
  if (!n.IsScalar() || n.Scalar().empty()) fail(n, key, "expected a single, non-empty value");
  return n.Scalar();
}

std::int64_t YamlReader::integer(const YAML::Node& n, const std::string& key, std::int64_t min,
                                 std::int64_t max) const {
  try {
    return parse_integer(scalar(n, key), min, max);
  } catch (const ValueError& e) {
    fail(n, key, e.what());
  }
}

int YamlReader::integer_in(const YAML::Node& n, const std::string& key, int min, int max) const {
  return static_cast<int>(integer(n, key, min, max));
}

double YamlReader::number(const YAML::Node& n, const std::string& key, double lo, double hi,
                          bool lo_open) const {
  const std::string s = word(n, key);
  const auto v = parse_number(s);
  if (!v || *v > hi || *v < lo || (lo_open && *v == lo))
    fail(n, key,
         fmt::format("expected a number in {}{}, {}], got '{}'", lo_open ? "(" : "[", lo, hi, s));
  return *v;
}

bool YamlReader::boolean(const YAML::Node& n, const std::string& key) const {
  try {
    return parse_bool(word(n, key));
  } catch (const ValueError& e) {
    fail(n, key, e.what());
  }
}

std::string YamlReader::one_of(const YAML::Node& n, const std::string& key,
                               const std::vector<std::string>& names) const {
  const std::string s = scalar(n, key);
  if (std::find(names.begin(), names.end(), s) == names.end())
    fail(n, key,
         fmt::format("expected {}, got '{}'{}", or_list(names), excerpt(s), did_you_mean(s, names)));
  return s;
}

std::chrono::milliseconds YamlReader::duration(const YAML::Node& n, const std::string& key,
                                               std::chrono::milliseconds min) const {
  const std::string s = word(n, key);
  const auto d = parse_duration(s);
  if (!d || *d < min)
    fail(n, key, fmt::format("expected a duration from {} to {}, such as 30m or 90s, got '{}'",
                             format_duration(min), format_duration(kMaxDuration), excerpt(s)));
  return *d;
}

}  // namespace schedlab
