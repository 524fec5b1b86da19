// A board's DTB as the lab boots it: the kernel's own DTB (from its Debian
// package or built from its tree) with the board's fixes (board.h) applied
// by dtc: decompiled, the fixes' source appended, compiled again. A DTB the
// fixes cannot apply to (a node they need is missing) is an error naming
// that node.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "runner/hosts/host.h"
#include "runner/lab/board.h"

namespace schedlab::lab {

class DtbFixError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DtsNode {
  std::string path;                     // /soc/pinctrl@11000000/gpx0-gpio-bank
  std::vector<std::string> compatible;  // its compatible strings
};

// The nodes of dtc's decompiled source (-O dts), in order. Pure.
std::vector<DtsNode> dts_nodes(const std::string& dts);

// The source with the board's fixes appended; DtbFixError naming the first
// node a fix needs that the source lacks. `dtb_name` is for messages. Pure.
std::string fixed_dts(const std::string& dts, const Board& board, const std::string& dtb_name);

// Writes the fixed DTB to `out`. Throws DtbFixError (a missing node) and
// std::runtime_error (dtc missing or failing, naming its package).
void fix_dtb(const Board& board, const std::filesystem::path& dtb, const std::filesystem::path& out,
             Host& local);

}  // namespace schedlab::lab
