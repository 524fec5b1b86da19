#include "runner/cli/man_pages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "base/version.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/command_line.h"
#include "runner/cli/common.h"

namespace schedlab::cli {
namespace {

// Text as roff reads it: a backslash is \e, a hyphen \- (so it prints as
// one and can be searched for), and a line beginning with . or ' is not a
// request.
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string page_name(const CLI::App& cmd) {
  std::string name = command_path(cmd);
  std::replace(name.begin(), name.end(), ' ', '-');
  return name;
}

std::string header(const std::string& name, const std::string& what) {
  return fmt::format(".TH \"{}\" \"1\" \"\" \"schedlab {}\" \"schedlab manual\"\n.SH NAME\n{} \\- {}\n",
                     upper(name), roff(schedlab_version()), roff(name), roff(what));
}

bool takes_value(const CLI::Option& o) { return o.get_items_expected_max() > 0; }

// "--format TEXT:{text,json}" as --help shows it: the names, then the type.
std::string option_term(const CLI::Option& o) {
  std::string names;
  for (const auto& s : o.get_snames()) names += (names.empty() ? "" : ", ") + fmt::format("\\fB\\-{}\\fR", roff(s));
  for (const auto& l : o.get_lnames())
    names += (names.empty() ? "" : ", ") + fmt::format("\\fB\\-\\-{}\\fR", roff(l));
  if (takes_value(o)) names += fmt::format(" \\fI{}\\fR", roff(o.get_type_name()));
  return names;
}

std::string option_text(const CLI::Option& o) {
  std::string text = o.get_description();
  if (!o.get_default_str().empty()) text += fmt::format(" (default: {})", o.get_default_str());
  if (o.get_required()) text += " (required)";
  if (o.get_expected_max() > 1) text += " (repeatable)";
  return roff(text);
}

std::string positional_usage(const CLI::Option& o) {
  const std::string name = fmt::format("\\fI{}\\fR{}", roff(o.get_name(true)), o.get_expected_max() > 1 ? "..." : "");
  return o.get_required() ? name : "[" + name + "]";
}

std::vector<const CLI::Option*> positionals(const CLI::App& cmd) {
  return cmd.get_options([](const CLI::Option* o) { return o->get_positional() && !o->nonpositional(); });
}

std::vector<const CLI::Option*> named_options(const CLI::App& cmd) {
  return cmd.get_options([](const CLI::Option* o) { return o->nonpositional(); });
}

std::string synopsis_line(const CLI::App& cmd) {
  std::string line = fmt::format("\\fB{}\\fR", roff(command_path(cmd)));
  if (!named_options(cmd).empty()) line += " [\\fIOPTIONS\\fR]";
  if (!visible_commands(cmd).empty()) line += " \\fICOMMAND\\fR";
  for (const auto* p : positionals(cmd)) line += " " + positional_usage(*p);
  return line + "\n";
}

// The arguments and options of one command, as .TP paragraphs.
std::string arguments(const CLI::App& cmd) {
  std::string out;
  for (const auto* p : positionals(cmd))
    out += fmt::format(".TP\n\\fI{}\\fR\n{}\n", roff(p->get_name(true)), option_text(*p));
  for (const auto* o : named_options(cmd)) out += fmt::format(".TP\n{}\n{}\n", option_term(*o), option_text(*o));
  return out;
}

bool has_db_option(const CLI::App& cmd) {
  if (!cmd.get_options([](const CLI::Option* o) { return o->check_lname("db"); }).empty()) return true;
  for (const auto* sub : visible_commands(cmd))
    if (has_db_option(*sub)) return true;
  return false;
}

std::string exit_status() {
  std::string out = ".SH \"EXIT STATUS\"\n";
  for (const auto& row : kExitCodeRows) out += fmt::format(".TP\n\\fB{}\\fR\n{}\n", roff(row.code), roff(row.meaning));
  return out;
}

std::string command_page(const CLI::App& cmd) {
  const std::string name = page_name(cmd);
  std::string out = header(name, cmd.get_description());
  out += ".SH SYNOPSIS\n" + synopsis_line(cmd);
  for (const auto* sub : visible_commands(cmd)) out += ".br\n" + synopsis_line(*sub);
  const CommandDoc doc = command_doc(cmd);
  out += ".SH DESCRIPTION\n" +
         (doc.description.empty() ? roff(cmd.get_description()) + "." : roff(doc.description)) +
         "\n";
  if (const std::string a = arguments(cmd); !a.empty()) out += ".SH OPTIONS\n" + a;
  if (const auto subs = visible_commands(cmd); !subs.empty()) {
    out += ".SH COMMANDS\n";
    for (const auto* sub : subs) {
      out += fmt::format(".SS \"{}\"\n{}.\n", roff(command_path(*sub)), roff(sub->get_description()));
      out += arguments(*sub);
    }
  }
  if (!doc.examples.empty()) {
    out += ".SH EXAMPLES\n";
    for (const auto& [line, what] : doc.examples)
      out += fmt::format(".TP\n\\fB{}\\fR\n{}\n", roff(line), roff(what));
  }
  if (has_db_option(cmd))
    out += ".SH ENVIRONMENT\n.TP\n\\fBSCHEDLAB_DB\\fR\nthe result database when \\fB\\-\\-db\\fR is not given "
           "(else ./schedlab.db)\n";
  out += exit_status();
  out += ".SH \"SEE ALSO\"\n\\fBschedlab\\fR(1)\n";
  return out;
}

std::string root_page(const CLI::App& root) {
  std::string out = header("schedlab", root.get_description());
  out += ".SH SYNOPSIS\n\\fBschedlab\\fR [\\fB\\-h\\fR] [\\fB\\-V\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n";
  out += ".SH DESCRIPTION\n" + roff(root.get_description()) +
         ".\nEach command has its own page and its \\fB\\-\\-help\\fR; \\fBschedlab help\\fR \\fICOMMAND\\fR "
         "prints the same.\n";
  out += ".SH OPTIONS\n" + arguments(root);
  out += ".SH COMMANDS\n";
  for (const auto* sub : visible_commands(root))
    out += fmt::format(".TP\n\\fB{}\\fR(1)\n{}\n", roff(page_name(*sub)), roff(sub->get_description()));
  out += ".SH ENVIRONMENT\n";
  const std::pair<const char*, const char*> env[] = {
      {"SCHEDLAB_DB", "the result database when --db is not given (else ./schedlab.db)"},
      {"SCHEDLAB_VEGA_DIR",
       "where report finds vega.min.js (else /usr/share/javascript/vega, Debian's libjs-vega)"},
      {"SCHEDLAB_LAB_CACHE",
       "the lab's kernels, images and builds (else $XDG_CACHE_HOME/schedlab/lab or "
       "~/.cache/schedlab/lab); refused when it, or a folder above it, is another user's "
       "or writable by every user without the sticky bit"},
      {"SCHEDLAB_LAB_MIRROR",
       "the Debian mirror lab kernels are fetched from, one http(s):// or file:/ URL (else "
       "deb.debian.org)"},
      {"SCHEDLAB_LOCK_DIR",
       "where a run's SUT locks are kept (else /run/schedlab, or one of the user's own); "
       "refused as SCHEDLAB_LAB_CACHE is, and when its group may write it without the sticky "
       "bit"},
      {"TERM", "dumb: no progress line unless --progress asks for one (then plain lines)"}};
  for (const auto& [var, what] : env) out += fmt::format(".TP\n\\fB{}\\fR\n{}\n", var, roff(what));
  out += exit_status();
  out += ".SH \"SEE ALSO\"\n";
  std::string refs;
  for (const auto* sub : visible_commands(root))
    refs += fmt::format("{}\\fB{}\\fR(1)", refs.empty() ? "" : ",\n", roff(page_name(*sub)));
  return out + refs + "\n";
}

}  // namespace

std::vector<ManPage> man_pages(const CLI::App& root) {
  std::vector<ManPage> pages{{"schedlab.1", root_page(root)}};
  for (const auto* sub : visible_commands(root)) pages.push_back({page_name(*sub) + ".1", command_page(*sub)});
  return pages;
}

}  // namespace schedlab::cli
