#include "analysis/counters/render_schedstat.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/text.h"

namespace schedlab::schedstat {
namespace {

constexpr int kFormatVersion = 1;

std::string pct_text(const std::optional<double>& v) {
  return v ? fmt::format("{:.2f}%", *v) : std::string("n/a");
}

nlohmann::json opt_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json ratios_json(const std::vector<Ratio>& rs) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& r : rs) j[r.name] = opt_json(r.pct);
  return j;
}

nlohmann::json cpu_counters_json(const CpuCounters& c) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t f = 0; f < kCpuFields; ++f) j[std::string(cpu_field_name(f))] = c.v[f];
  return j;
}

nlohmann::json domain_counters_json(DomainLayout layout, const DomainCounters& c) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t f = 0; f < kDomainFields; ++f)
    j[domain_field_name(f)] = available(layout, f) ? nlohmann::json(c.v[f]) : nlohmann::json();
  return j;
}

void append_ratios(std::string& out, const std::vector<Ratio>& rs) {
  for (const auto& r : rs) out += fmt::format("  {:<64} {:>10}\n", r.label, pct_text(r.pct));
}

std::string level_title(const LevelSummary& l) {
  return fmt::format("{} (domain{}, {} CPUs{})", l.key, l.index, l.cpus,
                     l.inferred ? "; level inferred from cpumasks" : "");
}

}  // namespace

std::string render_text(const Summary& s, const RenderOptions& o) {
  std::string out;
  if (!o.title.empty()) out += wrap_words(o.title, 100, "   ");  // file names, within 100 columns
  out += fmt::format("schedstat version {} (domain layout {}), {} CPUs, {} jiffies\n\n", s.version,
                     layout_name(s.layout), s.cpus, s.jiffies);
  out += "All CPUs\n";
  for (std::size_t f = 0; f < kCpuFields; ++f)
    out += fmt::format("  {:<64} {:>10}\n", cpu_field_name(f), s.total.v[f]);
  append_ratios(out, s.ratios);
  for (const LevelSummary& l : s.levels) {
    out += fmt::format("\n{}\n  {:<24}", level_title(l), "");
    for (std::size_t t = 0; t < kIdleTypes; ++t)
      out += fmt::format(" {:>14}", idle_type_name(static_cast<IdleType>(t)));
    out += "\n";
    for (std::size_t f = 0; f < kLbFields; ++f) {
      if (!available(s.layout, f)) continue;
      out += fmt::format("  {:<24}", lb_field_name(f));
      for (std::size_t t = 0; t < kIdleTypes; ++t)
        out += fmt::format(" {:>14}", l.c.v[t * kLbFields + f]);
      out += "\n";
    }
    for (std::size_t f = kIdleTypes * kLbFields; f < kDomainFields; ++f)
      out += fmt::format("  {:<64} {:>10}\n", domain_field_name(f), l.c.v[f]);
    append_ratios(out, l.ratios);
  }
  if (o.per_cpu) {
    // Each column as wide as its widest; more than 100 columns of them in
    // pieces, the cpu first in each.
    std::vector<std::size_t> widths(kCpuFields);
    for (std::size_t f = 0; f < kCpuFields; ++f) {
      widths[f] = cpu_field_name(f).size();
      for (const Cpu& cpu : o.per_cpu->cpus)
        widths[f] = std::max(widths[f], fmt::formatted_size("{}", cpu.c.v[f]));
      widths[f] = std::max<std::size_t>(widths[f], 10) + 1;
    }
    for (const auto& piece : table_pieces(6, widths, 100, false)) {
      out += fmt::format("\n{:>6}", "cpu");
      for (const std::size_t f : piece)
        out += fmt::format(" {:>{}}", cpu_field_name(f), widths[f] - 1);
      out += "\n";
      for (const Cpu& cpu : o.per_cpu->cpus) {
        out += fmt::format("{:>6}", cpu.cpu);
        for (const std::size_t f : piece) out += fmt::format(" {:>{}}", cpu.c.v[f], widths[f] - 1);
        out += "\n";
      }
    }
  }
  return out;
}

nlohmann::json to_json(const Summary& s, const RenderOptions& o) {
  nlohmann::json j = {
      {"format_version", kFormatVersion},
      {"kind", "schedstat"},
      {"version", s.version},
      {"layout", std::string(layout_name(s.layout))},
      {"jiffies", s.jiffies},
      {"cpus", s.cpus},
      {"all_cpus", {{"counters", cpu_counters_json(s.total)}, {"ratios", ratios_json(s.ratios)}}}};
  nlohmann::json levels = nlohmann::json::array();
  for (const LevelSummary& l : s.levels)
    levels.push_back({{"key", l.key},
                      {"level", l.level},
                      {"inferred", l.inferred},
                      {"index", l.index},
                      {"cpus", l.cpus},
                      {"counters", domain_counters_json(s.layout, l.c)},
                      {"ratios", ratios_json(l.ratios)}});
  j["levels"] = std::move(levels);
  if (o.per_cpu) {
    nlohmann::json cpus = nlohmann::json::array();
    for (const Cpu& cpu : o.per_cpu->cpus) {
      nlohmann::json domains = nlohmann::json::array();
      for (const Domain& d : cpu.domains)
        domains.push_back({{"index", d.index},
                           {"name", d.name},
                           {"level", d.level},
                           {"key", level_key(cpu, d)},
                           {"cpumask", d.cpumask},
                           {"span", d.span},
                           {"counters", domain_counters_json(o.per_cpu->layout, d.c)}});
      cpus.push_back({{"cpu", cpu.cpu},
                      {"counters", cpu_counters_json(cpu.c)},
                      {"domains", std::move(domains)}});
    }
    j["per_cpu"] = std::move(cpus);
  }
  return j;
}

std::string render_text(const Comparison& c) {
  auto value = [](const CompareRow& r, const std::optional<double>& v) {
    if (!v) return std::string("-");
    return r.ratio ? fmt::format("{:.2f}%", *v) : fmt::format("{:.0f}", *v);
  };
  auto change = [](const CompareRow& r) {
    return r.change_pct ? fmt::format("{:+.2f}%", *r.change_pct) : std::string("n/a");
  };
  // Within a mail's 100 columns: the numbers as wide as the widest, the
  // names in what is left (at most 60), a longer one over two lines.
  std::size_t value_width = 1, change_width = 6;
  for (const CompareRow& r : c.rows) {
    value_width = std::max({value_width, value(r, r.a).size(), value(r, r.b).size()});
    change_width = std::max(change_width, change(r).size());
  }
  const std::size_t numbers = 3 + 2 * value_width + change_width;
  const std::size_t name_width =
      std::clamp<std::size_t>(100 - 2 - std::min<std::size_t>(numbers, 74), 24, 60);
  std::string out = wrap_words(fmt::format("A: {}", c.label_a), 100, "   ") +
                    wrap_words(fmt::format("B: {}", c.label_b), 100, "   ");
  out += wrap_words(fmt::format(
      "A: version {} ({}), {} CPUs, {} jiffies; B: version {} ({}), {} CPUs, {} jiffies",
      c.a.version, layout_name(c.a.layout), c.a.cpus, c.a.jiffies, c.b.version,
      layout_name(c.b.layout), c.b.cpus, c.b.jiffies));
  std::string section;
  for (const CompareRow& r : c.rows) {
    if (r.section != section) {
      section = r.section;
      out += fmt::format("\n{:<{}} {:>{}} {:>{}} {:>{}}\n", section, name_width + 2, "A",
                         value_width, "B", value_width, "change", change_width);
    }
    const std::string wrapped = wrap_words(r.ratio ? r.label : r.name, name_width, "  ");
    const auto name = split_lines(wrapped);
    for (std::size_t i = 0; i + 1 < name.size(); ++i) out += fmt::format("  {}\n", name[i]);
    out += fmt::format("  {:<{}} {:>{}} {:>{}} {:>{}}\n", name.back(), name_width, value(r, r.a),
                       value_width, value(r, r.b), value_width, change(r), change_width);
  }
  return out;
}

nlohmann::json to_json(const Comparison& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const CompareRow& r : c.rows)
    rows.push_back({{"section", r.section},
                    {"name", r.name},
                    {"label", r.label},
                    {"ratio", r.ratio},
                    {"a", opt_json(r.a)},
                    {"b", opt_json(r.b)},
                    {"change_pct", opt_json(r.change_pct)}});
  return {{"format_version", kFormatVersion},
          {"kind", "schedstat-compare"},
          {"a", {{"label", c.label_a}, {"summary", to_json(c.a)}}},
          {"b", {{"label", c.label_b}, {"summary", to_json(c.b)}}},
          {"rows", std::move(rows)}};
}

}  // namespace schedlab::schedstat
