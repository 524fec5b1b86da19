#include "runner/lab/lab_config_yaml.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <boost/regex.hpp>

#include "base/suggest.h"
#include "base/text.h"
#include "runner/input/units.h"
#include "runner/input/yaml_reader.h"
#include "runner/lab/board.h"
#include "runner/lab/kernel.h"
#include "runner/lab/kernel_build.h"

namespace schedlab {
namespace {

const std::vector<std::string> kLabKeys = {"kernel", "kernels", "modules", "board", "cpus", "sockets", "memory",
                                           "accel", "boot_timeout", "programs", "cmdline",
                                           "config_fragments", "config"};

// "expected a size such as 512M or 2G, got 'x'", or "" for a size qemu's -m
// takes as the lab writes it.
std::string memory_problem(const std::string& memory) {
  if (boost::regex_match(memory, boost::regex("^[1-9][0-9]*[MG]$"))) return "";
  return fmt::format("expected a size such as 512M or 2G, got '{}'", memory);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> board_problems(const LabConfig& c) {
  std::vector<std::pair<std::string, std::string>> out;
  // What qemu would refuse: memory not as its -m takes it, CPUs that do
  // not split into the sockets.
  if (const auto m = memory_problem(c.memory); !m.empty()) out.emplace_back("memory", m);
  if (c.sockets < 1 || c.cpus % c.sockets)
    out.emplace_back("sockets",
                     fmt::format("{} CPUs do not split evenly into {} sockets", c.cpus, c.sockets));
  const lab::Board* b = lab::find_board(c.board);
  if (!b) return {{"board", lab::unknown_board(c.board)}};
  if (b->cpus && c.cpus != b->cpus)
    out.emplace_back("cpus", fmt::format("the {} board has {} CPUs (qemu's {} takes no other count), not {}", b->name,
                                         b->cpus, b->machine, c.cpus));
  if (!b->sockets && c.sockets != 1)
    out.emplace_back("sockets", fmt::format("the {} board's CPUs are one socket", b->name));
  if (!b->memory.empty() && c.memory != b->memory)
    out.emplace_back("memory", fmt::format("the {} board has {} of memory whatever qemu is told, not {}", b->name,
                                           b->memory, c.memory));
  if (b->kvm_args.empty() && c.accel == "kvm")
    out.emplace_back("accel", fmt::format("the {} board is emulated ({}): TCG only", b->name, b->qemu));
  for (const auto& k : plan_kernels(c))
    if (k.starts_with("linux-image-") && !k.ends_with("-" + b->flavour) && !k.ends_with("-" + b->flavour + "-dbg"))
      out.emplace_back(c.kernels.empty() ? "kernel" : "kernels",
                       fmt::format("'{}' is no {} build: the {} board boots linux-image-*-{}", k,
                                   b->debian_arch, b->name, b->flavour));
  return out;
}

LabConfig parse_lab_config(const YAML::Node& sut, const std::string& file) {
  const YamlReader r(file);
  if (!sut.IsMap() || sut.size() != 1 || !sut["lab"])
    r.fail(sut, "hosts.sut",
           "expected local, ssh://[user@]host[:port], or {lab: {kernel: debian:6.12}}");
  const YAML::Node n = sut["lab"];
  const std::string key = "hosts.sut.lab";
  if (!n.IsMap())
    r.fail(n, key, "expected a mapping such as {kernel: debian:6.12, cpus: 2, memory: 1G}");
  r.check_keys(n, key, kLabKeys);
  LabConfig c;
  c.line = r.line_of(n);
  const auto kernel = [&](const YAML::Node& at, const std::string& k) {
    const std::string spec = r.scalar(at, k);
    if (lab::is_git_kernel(spec)) {
      try {
        lab::parse_git_kernel(spec);
      } catch (const std::exception& e) {
        r.fail(at, k, e.what());
      }
      return spec;
    }
    const bool named = spec.find('/') != std::string::npos || spec.starts_with("linux-image-");
    if (!named) {
      std::vector<std::string> names;
      for (const auto& s : lab::kernel_series()) names.push_back(s.name);
      if (std::find(names.begin(), names.end(), spec) == names.end())
        r.fail(
            at, k,
            fmt::format(
                "unknown kernel '{}'{}; known: {}, an exact package name (linux-image-...), a "
                "path to a vmlinuz, or git:PATH[@REF] (a kernel tree, built)",
                spec, did_you_mean(spec, names), fmt::join(names, ", ")));
    }
    return spec;
  };
  if (n["kernel"] && n["kernels"])
    r.fail(
        n["kernels"], key + ".kernels",
        "give either 'kernel' (one kernel) or 'kernels' (a list, each booted in turn), not both");
  if (const auto ks = n["kernels"]) {
    if (!ks.IsSequence() || ks.size() == 0)
      r.fail(ks, key + ".kernels", "expected a list of kernels such as [debian:6.1, debian:6.12]");
    std::vector<std::string> labels;
    for (const auto& e : ks) {
      const std::string spec = kernel(e, key + ".kernels");
      if (std::find(c.kernels.begin(), c.kernels.end(), spec) != c.kernels.end())
        r.fail(e, key + ".kernels", fmt::format("kernel '{}' is listed twice", spec));
      // Runs are named NAME@LABEL and columns LABEL/VARIANT: labels must differ.
      const std::string label = lab::kernel_label(spec);
      if (std::find(labels.begin(), labels.end(), label) != labels.end())
        r.fail(
            e, key + ".kernels",
            fmt::format("kernel '{}' has the same short name '{}' as an earlier one", spec, label));
      labels.push_back(label);
      c.kernels.push_back(spec);
    }
    c.kernel = c.kernels.front();
  } else if (n["kernel"]) {
    c.kernel = kernel(n["kernel"], key + ".kernel");
  } else {
    r.fail(n, key,
           "missing 'kernel': debian:6.1, debian:6.12, a package name or a vmlinuz path "
           "(or 'kernels' with a list of them)");
  }
  if (n["modules"]) c.modules = r.scalar(n["modules"], key + ".modules");
  if (n["board"]) {
    c.board = r.scalar(n["board"], key + ".board");
    if (!lab::find_board(c.board)) r.fail(n["board"], key + ".board", lab::unknown_board(c.board));
    // The board's own CPU count and memory unless the config says otherwise (then checked below).
    const lab::Board& b = lab::board_named(c.board);
    if (b.cpus) c.cpus = b.cpus;
    if (!b.memory.empty()) c.memory = b.memory;
  }
  if (n["cpus"]) c.cpus = r.integer_in(n["cpus"], key + ".cpus", 1, 64);
  if (n["sockets"]) c.sockets = r.integer_in(n["sockets"], key + ".sockets", 1, 8);
  if (n["memory"]) c.memory = r.scalar(n["memory"], key + ".memory");
  if (n["accel"]) c.accel = r.one_of(n["accel"], key + ".accel", {"auto", "kvm", "tcg"});
  if (n["boot_timeout"]) {
    c.boot_timeout = std::chrono::duration_cast<std::chrono::seconds>(
        r.duration(n["boot_timeout"], key + ".boot_timeout", std::chrono::seconds(5)));
  }
  if (const auto p = n["programs"]) {
    if (!p.IsSequence())
      r.fail(p, key + ".programs", "expected a list of programs to copy into the guest");
    for (const auto& e : p) c.programs.push_back(r.scalar(e, key + ".programs"));
  }
  if (n["cmdline"]) c.cmdline = r.scalar(n["cmdline"], key + ".cmdline");
  for (const auto& [k, message] : board_problems(c))
    r.fail(n[k] ? n[k] : n, key + "." + k, message);
  const auto all = plan_kernels(c);
  const bool built = std::any_of(all.begin(), all.end(), lab::is_git_kernel);
  if (const auto f = n["config_fragments"]) {
    if (!built)
      r.fail(f, key + ".config_fragments", "only a kernel built from source (git:PATH) takes config fragments");
    if (!f.IsSequence())
      r.fail(f, key + ".config_fragments", "expected a list of files of CONFIG_X=y lines");
    for (const auto& e : f) c.config_fragments.push_back(r.scalar(e, key + ".config_fragments"));
  }
  if (const auto m = n["config"]) {
    if (!built) r.fail(m, key + ".config", "only a kernel built from source (git:PATH) takes config symbols");
    if (!m.IsMap()) r.fail(m, key + ".config", "expected a mapping such as {CONFIG_NO_HZ_FULL: y}");
    for (const auto& e : m) {
      const std::string sym = e.first.as<std::string>();
      if (!boost::regex_match(sym, boost::regex("^CONFIG_[A-Za-z0-9_]+$")))
        r.fail(e.first, key + ".config", fmt::format("expected a symbol such as CONFIG_NO_HZ_FULL, got '{}'", sym));
      const std::string value = r.scalar(e.second, key + ".config." + sym);
      // A line of the fragment: a newline in the value would add a symbol
      // of its own ("y\nCONFIG_X=y") that the unmet-symbol check never asked for.
      if (std::any_of(value.begin(), value.end(),
                      [](unsigned char ch) { return ch < 0x20 || ch == 0x7f; }))
        r.fail(e.second, key + ".config." + sym,
               fmt::format("'{}' holds a control character; a value is one line (y, m, n, a "
                           "number or a \"string\")",
                           terminal_safe(value)));
      c.config.emplace_back(sym, value);
    }
  }
  return c;
}

std::vector<std::string> plan_kernels(const std::optional<LabConfig>& lab) {
  if (!lab) return {};
  if (!lab->kernels.empty()) return lab->kernels;
  return {lab->kernel};
}

std::vector<std::string> parse_variant_kernels(const YAML::Node& n, const std::string& key,
                                               const std::optional<LabConfig>& lab,
                                               const std::string& file) {
  const YamlReader r(file);
  if (!lab)
    r.fail(n, key,
           "only a lab SUT has kernels to choose from (hosts: {sut: {lab: {kernels: [...]}}})");
  const std::vector<std::string> known = plan_kernels(lab);
  if (!n.IsSequence() || n.size() == 0)
    r.fail(n, key, fmt::format("expected a list of the lab's kernels, e.g. [{}]", known.back()));
  std::vector<std::string> out;
  for (const auto& e : n) {
    if (!e.IsScalar()) r.fail(e, key, "expected a kernel such as debian:6.12");
    const std::string k = e.Scalar();
    if (std::find(known.begin(), known.end(), k) == known.end())
      r.fail(e, key,
             fmt::format("'{}' is not among the lab's kernels{} ({})", k, did_you_mean(k, known),
                         fmt::join(known, ", ")));
    if (std::find(out.begin(), out.end(), k) != out.end())
      r.fail(e, key, fmt::format("kernel '{}' is listed twice", k));
    out.push_back(k);
  }
  return out;
}

}  // namespace schedlab
