#include "runner/cli/bash_completion.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

#include "base/shell_quote.h"
#include "base/text.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/cli/command_line.h"
#include "runner/cli/common.h"
#include "workloads/registry.h"

namespace schedlab::cli {
namespace {

// The choices of an option checked by CLI::IsMember: its type name reads
// "TEXT:{text,json}".
std::vector<std::string> choices(const CLI::Option& o) {
  const std::string type = o.get_type_name();
  const auto open = type.find('{'), close = type.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return {};
  std::vector<std::string> out;
  std::string word;
  for (char c : type.substr(open + 1, close - open - 1)) {
    if (c == ',') {
      out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  out.push_back(word);
  return out;
}

bool numeric(const CLI::Option& o) {
  const std::string type = o.get_type_name();
  for (const char* t : {"INT", "UINT", "FLOAT", "NUMBER"})
    if (type.starts_with(t)) return true;
  return false;
}

// What completes an option's value or a positional argument: choices:a b,
// workload, run, command (help's), file or none.
std::string kind(const CLI::Option& o) {
  if (const auto c = choices(o); !c.empty()) return fmt::format("choices:{}", fmt::join(c, " "));
  const std::string name = o.get_positional() && !o.nonpositional() ? o.get_name(true)
                           : o.get_lnames().empty()                  ? ""
                                                                     : o.get_lnames().front();
  if (name == "workload") return "workload";
  if (name == "runs" || name == "resume") return "run";
  if (name == "command") return "command";  // help COMMAND
  // Words of the user's own (a name, a parameter, a pattern), and numbers.
  for (const char* word : {"name", "variant", "param", "param-from-name", "group", "metric",
                           "summary", "sut", "origin"})
    if (name == word) return "none";
  if (numeric(o)) return "none";
  return "file";
}

std::string key(const CLI::App& cmd, const std::string& rest = "") {
  return shell_word(rest.empty() ? command_path(cmd) : command_path(cmd) + " " + rest);
}

void tables(const CLI::App& cmd, std::string& commands, std::string& options, std::string& values,
            std::string& positionals) {
  std::vector<std::string> subs, opts, pos;
  for (const auto* sub : visible_commands(cmd)) subs.push_back(sub->get_name());
  for (const auto* o : cmd.get_options()) {
    if (o->get_positional() && !o->nonpositional()) {
      // Positionals by kind only (a choice list holds spaces).
      const std::string k = kind(*o).starts_with("choices:") ? "none" : kind(*o);
      pos.push_back(k + (o->get_expected_max() > 1 ? "..." : ""));
      continue;
    }
    for (const auto& s : o->get_snames()) opts.push_back("-" + s);
    for (const auto& l : o->get_lnames()) opts.push_back("--" + l);
    if (o->get_items_expected_max() == 0) continue;
    for (const auto& s : o->get_snames()) values += fmt::format("  [{}]={}\n", key(cmd, "-" + s), shell_word(kind(*o)));
    for (const auto& l : o->get_lnames())
      values += fmt::format("  [{}]={}\n", key(cmd, "--" + l), shell_word(kind(*o)));
  }
  if (!subs.empty()) commands += fmt::format("  [{}]={}\n", key(cmd), shell_word(fmt::format("{}", fmt::join(subs, " "))));
  options += fmt::format("  [{}]={}\n", key(cmd), shell_word(fmt::format("{}", fmt::join(opts, " "))));
  if (!pos.empty())
    positionals += fmt::format("  [{}]={}\n", key(cmd), shell_word(fmt::format("{}", fmt::join(pos, " "))));
  for (const auto* sub : visible_commands(cmd)) tables(*sub, commands, options, values, positionals);
}

// The function that reads the tables: which command the words so far
// name, then what the word under the cursor can be.
constexpr const char* kFunction = R"(
_schedlab() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="schedlab" word kind="" db="" npos=0 i=1
  COMPREPLY=()
  while (( i < COMP_CWORD )); do
    word="${COMP_WORDS[i]}"
    if [[ $word == -* ]]; then
      # An option with its value in the next word: skip the value.
      if [[ $word != *=* && -n "${_schedlab_values["$path $word"]+set}" ]]; then
        [[ $word == --db ]] && db="${COMP_WORDS[i+1]}"
        (( i++ ))
      fi
    elif (( npos == 0 )) && [[ " ${_schedlab_commands["$path"]} " == *" $word "* ]]; then
      path="$path $word"
    else
      (( npos++ ))
    fi
    (( i++ ))
  done
  (( COMP_CWORD > 1 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
  if [[ $prev == -* && $prev != *=* && -n "${_schedlab_values["$path $prev"]+set}" ]]; then
    kind="${_schedlab_values["$path $prev"]}"
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "${_schedlab_options["$path"]}" -- "$cur"))
    return 0
  elif (( npos == 0 )) && [[ -n "${_schedlab_commands["$path"]+set}" ]]; then
    COMPREPLY=($(compgen -W "${_schedlab_commands["$path"]}" -- "$cur"))
    return 0
  else
    local -a kinds=(${_schedlab_positionals["$path"]})
    if (( npos < ${#kinds[@]} )); then
      kind="${kinds[npos]}"
    elif (( ${#kinds[@]} > 0 )) && [[ ${kinds[-1]} == *... ]]; then
      kind="${kinds[-1]}"
    fi
    kind="${kind%...}"
  fi
  case "$kind" in
    choices:*) COMPREPLY=($(compgen -W "${kind#choices:}" -- "$cur")) ;;
    workload) COMPREPLY=($(compgen -W "$_schedlab_workloads" -- "$cur")) ;;
    command) COMPREPLY=($(compgen -W "${_schedlab_commands[schedlab]}" -- "$cur")) ;;
    run)
      # Matched here, not by compgen -W, which would expand a name's $(...)
      # or `...`: a run name from a database is never run as a command.
      local name
      while IFS= read -r name; do
        [[ $name == "$cur"* ]] && COMPREPLY+=("$name")
      done < <("${COMP_WORDS[0]}" complete-runs ${db:+--db "$db"} 2>/dev/null)
      ;;
    file) COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
  return 0
}
complete -o filenames -F _schedlab schedlab
)";

}  // namespace

std::string bash_completion(const CLI::App& root) {
  std::string commands, options, values, positionals;
  tables(root, commands, options, values, positionals);
  return fmt::format(
      "# bash completion for schedlab: generated from its option tables by `schedlab generate-docs`\n"
      "# at build time (runner/cli/bash_completion.cc); do not edit.\n"
      "declare -gA _schedlab_commands=(\n{})\n"
      "declare -gA _schedlab_options=(\n{})\n"
      "declare -gA _schedlab_values=(\n{})\n"
      "declare -gA _schedlab_positionals=(\n{})\n"
      "_schedlab_workloads={}\n{}",
      commands, options, values, positionals, shell_word(fmt::format("{}", fmt::join(workload_names(), " "))),
      kFunction);
}

void register_complete_runs(CLI::App& app, int& exit_code) {
  auto db = std::make_shared<DbOption>();
  auto* cmd = app.add_subcommand("complete-runs", "run names, a line each, for the bash completion");
  cmd->group("");  // hidden: the completion script calls it
  add_db_option(*cmd, *db);
  cmd->callback([db, &exit_code] {
    exit_code = kOk;
    try {
      const Store store(db->resolve(), Store::Access::kReadOnly);
      // A name a shell word cannot hold as typed (a control character, from
      // a merged database) is not offered.
      for (const auto& r : store.runs_table().run_labels())
        if (!name_problem(r.name)) fmt::print("{}\n", r.name);
    } catch (const std::exception&) {
      // No database here (yet): nothing to offer.
    }
  });
}

}  // namespace schedlab::cli
