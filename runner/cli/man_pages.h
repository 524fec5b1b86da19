// Man pages made from the CLI11 option tables the commands register: one
// for schedlab(1) and one per command (schedlab-compare(1)), a command's
// own subcommands (schedstat show, diff) as sections of its page. Written at
// build time by the hidden `schedlab generate-docs` (cmd_generate_docs.cc),
// so a page cannot say other than --help.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace schedlab::cli {

struct ManPage {
  std::string file;  // "schedlab-compare.1"
  std::string roff;
};

// schedlab(1) first, then a page per visible command, in registration order.
std::vector<ManPage> man_pages(const CLI::App& root);

}  // namespace schedlab::cli
