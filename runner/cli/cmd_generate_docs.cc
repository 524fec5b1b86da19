// schedlab generate-docs (hidden): the man pages and the bash completion,
// made from the option tables this binary registers. The build runs it
// after linking schedlab (runner/CMakeLists.txt); `cmake --install`
// installs what it wrote.
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "base/file.h"
#include "runner/cli/bash_completion.h"
#include "runner/cli/common.h"
#include "runner/cli/man_pages.h"

namespace schedlab::cli {
namespace {

struct GenerateDocsOptions {
  std::string man_dir;
  std::string completion;
};

}  // namespace

void register_generate_docs(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<GenerateDocsOptions>();
  auto* cmd = app.add_subcommand("generate-docs", "write the man pages and the bash completion (the build runs it)");
  cmd->group("");  // hidden: not a user's command
  cmd->add_option("--man-dir", o->man_dir, "directory for schedlab.1 and schedlab-COMMAND.1")->required();
  cmd->add_option("--bash-completion", o->completion, "file for the bash completion script")->required();
  const CLI::App* root = &app;
  cmd->callback([o, root, &exit_code] {
    exit_code = guarded({.prefix = "schedlab generate-docs"}, [&] {
      std::filesystem::create_directories(o->man_dir);
      const auto pages = man_pages(*root);
      for (const auto& page : pages) write_whole_file(o->man_dir + "/" + page.file, page.roff);
      const auto dir = std::filesystem::path(o->completion).parent_path();
      if (!dir.empty()) std::filesystem::create_directories(dir);
      write_whole_file(o->completion, bash_completion(*root));
      return kOk;
    });
  });
}

}  // namespace schedlab::cli
