#include "runner/lab/dtb.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/regex.hpp>

#include "base/file.h"
#include "base/text.h"

namespace schedlab::lab {
namespace fs = std::filesystem;

namespace {

std::string node_name(const std::string& path) {
  const std::string last = path.substr(path.rfind('/') + 1);
  return last.substr(0, last.find('@'));
}

// "a\0b" (dtc's form) or "a", "b": the strings of a string-list value.
std::vector<std::string> strings_of(const std::string& value) {
  std::vector<std::string> out;
  static const boost::regex quoted(R"re("((?:[^"\\]|\\.)*)")re");
  for (boost::sregex_iterator it(value.begin(), value.end(), quoted), end; it != end; ++it) {
    std::string s = (*it)[1].str();
    for (std::size_t at; (at = s.find("\\0")) != std::string::npos;) {
      out.push_back(s.substr(0, at));
      s = s.substr(at + 2);
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace

std::vector<DtsNode> dts_nodes(const std::string& dts) {
  std::vector<DtsNode> out;
  std::vector<std::size_t> open;  // indices into out of the enclosing nodes
  for (const auto raw : split_lines(dts)) {
    const std::string line(trim(raw));
    if (line.empty() || line.starts_with("/dts-v1/") || line.starts_with("/memreserve/")) continue;
    if (line.ends_with("{") && line.find('=') == std::string::npos) {
      std::string name(trim(line.substr(0, line.size() - 1)));
      if (const auto colon = name.find(": "); colon != std::string::npos)
        name = name.substr(colon + 2);  // label: name
      std::string path;
      if (name == "/")
        path = "/";
      else if (!open.empty())
        path = (out[open.back()].path == "/" ? "" : out[open.back()].path) + "/" + name;
      else
        path = "/" + name;
      out.push_back({path, {}});
      open.push_back(out.size() - 1);
      continue;
    }
    if (line == "};") {
      if (!open.empty()) open.pop_back();
      continue;
    }
    if (!open.empty() && line.starts_with("compatible ="))
      out[open.back()].compatible = strings_of(line);
  }
  return out;
}

std::string fixed_dts(const std::string& dts, const Board& board, const std::string& dtb_name) {
  const auto nodes = dts_nodes(dts);
  std::string out = dts + "\n/* schedlab: the " + board.name + " board's fixes */\n";
  for (const auto& fix : board.dtb_fixes) {
    std::string text = fix.dts;
    for (const auto& want : fix.nodes) {
      const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const DtsNode& n) {
        if (!want.compatible.empty())
          return std::find(n.compatible.begin(), n.compatible.end(), want.compatible) !=
                 n.compatible.end();
        return n.path != "/" && node_name(n.path) == want.name;
      });
      if (it == nodes.end())
        throw DtbFixError(
            fmt::format("lab: {}: no {} node, so the {} board's fix cannot apply ({})", dtb_name,
                        want.what, board.name, fix.why));
      for (std::size_t at; (at = text.find("{" + want.key + "}")) != std::string::npos;)
        text.replace(at, want.key.size() + 2, it->path);
    }
    out += "/* " + fix.why + " */\n" + text;
  }
  return out;
}

void fix_dtb(const Board& board, const fs::path& dtb, const fs::path& out, Host& local) {
  if (!local.find_program("dtc"))
    throw std::runtime_error(fmt::format(
        "lab: the {} board's DTB is fixed with dtc, which is not installed here (Debian package "
        "device-tree-compiler)",
        board.name));
  const auto dtc = [&](std::vector<std::string> args, const std::string& what) {
    args.insert(args.begin(), "dtc");
    const ExecResult r = local.run({.argv = args, .timeout = std::chrono::seconds(60)});
    if (!r.ok())
      throw std::runtime_error(fmt::format("lab: dtc {} failed ({}): {}", what, r.describe(),
                                           std::string(trim(last_lines(r.err, 3)))));
    return r;
  };
  const ExecResult source =
      dtc({"-q", "-I", "dtb", "-O", "dts", "--", dtb.string()}, "decompiling " + dtb.string());
  const fs::path dts = out.string() + ".dts";
  write_whole_file(dts, fixed_dts(source.out, board, dtb.filename().string()));
  dtc({"-q", "-I", "dts", "-O", "dtb", "-o", out.string(), "--", dts.string()},
      "compiling " + dts.string());
}

}  // namespace schedlab::lab
