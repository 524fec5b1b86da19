#include "runner/cli/command_line.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

#include "base/text.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "base/suggest.h"

namespace schedlab::cli {
namespace {

std::vector<std::string> names(const std::vector<const CLI::App*>& apps) {
  std::vector<std::string> out;
  for (const auto* a : apps) out.push_back(a->get_name());
  return out;
}

const CLI::App* visible_command(const CLI::App& app, const std::string& name) {
  for (const auto* sub : visible_commands(app))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

// The word as a message may quote it: escaped, and a screenful at most.
std::string quoted(const std::string& word) { return terminal_safe(excerpt(word, 60)); }

std::string unknown(const CLI::App& parent, const std::string& word) {
  const auto known = names(visible_commands(parent));
  return fmt::format("{}: unknown command '{}'{}; {} lists them", command_path(parent), quoted(word),
                     did_you_mean(word, known), parent.get_parent() ? "schedlab help " + command_path(parent).substr(9)
                                                                    : std::string("schedlab help"));
}

// The first word CLI11 left over that reads as an option ("--wdie",
// "--wdie=3", "-x"), as the error that names it, with the nearest long
// option of the command for a long one (a one-letter typo has no nearest);
// none when the words left over are no options.
std::optional<std::string> unknown_option(const CLI::App& where,
                                          const std::vector<std::string>& extras) {
  for (const auto& word : extras) {
    if (word.size() < 2 || word[0] != '-' || to_number(word)) continue;
    if (!word.starts_with("--")) return fmt::format("unknown option '{}'", quoted(word));
    const std::string name = word.substr(0, word.find('='));
    std::vector<std::string> known;
    for (const CLI::Option* o : where.get_options())
      for (const auto& l : o->get_lnames()) known.push_back("--" + l);
    return fmt::format("unknown option '{}'{}", quoted(name), did_you_mean(name, known));
  }
  return std::nullopt;
}

// CLI11's column of descriptions (Formatter::column_width_'s default).
constexpr std::size_t kDescriptionColumn = 30;
constexpr std::size_t kHelpWidth = 100;

class WrappingFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    const std::string help = CLI::Formatter::make_help(app, std::move(name), mode);
    std::string out;
    for (const std::string_view line : split_lines(help)) {
      // "  --db TEXT      result database ...": the description's column.
      if (line.empty()) {
        out += '\n';
        continue;
      }
      const bool described = line.size() > kDescriptionColumn && line.starts_with("  ") &&
                             line[2] != ' ' && line[kDescriptionColumn - 1] == ' ' &&
                             line[kDescriptionColumn] != ' ';
      out +=
          wrap_words(line, kHelpWidth, described ? std::string(kDescriptionColumn - 2, ' ') : "");
    }
    return out;
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> help_formatter() {
  return std::make_shared<WrappingFormatter>();
}

std::vector<const CLI::App*> visible_commands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); });
}

std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* p = app.get_parent(); p; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
}

std::optional<std::string> unknown_command(const CLI::App& root, const std::vector<std::string>& args) {
  const CLI::App* current = &root;
  for (const auto& word : args) {
    // An option: CLI11 parses the rest (an option's value may be any word).
    if (word.starts_with('-')) return std::nullopt;
    if (visible_commands(*current).empty()) return std::nullopt;
    // Hidden commands (generate-docs) are typed by the build, not offered.
    const auto subs = current->get_subcommands([&](const CLI::App* a) { return a->check_name(word); });
    const CLI::App* sub = subs.empty() ? nullptr : subs.front();
    if (!sub) {
      // A command's own positional argument (compare RUN), unless the
      // command only takes subcommands.
      if (current != &root && current->get_require_subcommand_min() == 0) return std::nullopt;
      return unknown(*current, word);
    }
    current = sub;
  }
  return std::nullopt;
}

FoundCommand find_command(const CLI::App& root, const std::vector<std::string>& path) {
  const CLI::App* current = &root;
  for (const auto& word : path) {
    const CLI::App* sub = visible_command(*current, word);
    if (!sub) return {nullptr, unknown(*current, word)};
    current = sub;
  }
  return {current, ""};
}

int parse_error_exit(CLI::App& root, const CLI::ParseError& e) {
  if (e.get_exit_code() == 0) {
    root.exit(e);  // --help, --version: CLI11 prints them
    return kOk;
  }
  // The deepest command parsed so far is the one the error is about.
  const CLI::App* where = &root;
  for (auto subs = root.get_subcommands(); !subs.empty(); subs = subs.front()->get_subcommands())
    where = subs.front();
  std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e))
    if (const auto option = unknown_option(*where, root.remaining(true))) what = *option;
  if (dynamic_cast<const CLI::RequiredError*>(&e) && what == "A subcommand is required") {
    const auto known = names(visible_commands(*where));
    what = fmt::format("a command is required: {}", fmt::join(known, ", "));
  }
  const std::string path = command_path(*where);
  print_message(fmt::format("{}: {} (schedlab help{})\n", path, terminal_safe(what),
                            where == &root ? "" : path.substr(8)));
  return kBadInput;
}

void register_help(CLI::App& app, int& exit_code) {
  auto words = std::make_shared<std::vector<std::string>>();
  auto* cmd = add_command(
      app, "help", "the list of commands, or a command's options (help compare)",
      {"Prints the list of commands, or a command's options and examples, as --help does.",
       {{"schedlab help", "the commands"},
        {"schedlab help schedstat diff", "a subcommand's options"}}});
  cmd->add_option("command", *words, "the command, and its subcommand (help schedstat diff)");
  const CLI::App* root = &app;
  cmd->callback([root, words, &exit_code] {
    const FoundCommand found = find_command(*root, *words);
    if (!found.app) {
      print_message(fmt::format("{}\n", found.error));
      exit_code = kBadInput;
      return;
    }
    // The formatter itself: App::help would show the parsed `help` command.
    fmt::print("{}", found.app->get_formatter()->make_help(found.app, command_path(*found.app),
                                                           CLI::AppFormatMode::Normal));
    exit_code = kOk;
  });
}

}  // namespace schedlab::cli
