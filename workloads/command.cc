#include "workloads/command.h"

#include <fmt/format.h>

#include <boost/regex.hpp>
#include <set>

#include "base/placeholders.h"
#include "base/sample_range.h"
#include "base/text.h"

namespace schedlab {
namespace {

// The runner's values a template may use besides the parameters.
const std::set<std::string> kContextNames = {"sut_address", "port", "workdir"};

// Python's (?P<name>...) (what people copy from Python scripts) becomes
// Boost's (?<name>...); an escaped "\\(" is left alone.
std::string perl_groups(const std::string& re) {
  std::string out;
  size_t backslashes = 0;
  for (size_t i = 0; i < re.size(); ++i) {
    if (backslashes % 2 == 0 && re.compare(i, 4, "(?P<") == 0) {
      out += "(?<";
      i += 3;
      backslashes = 0;
      continue;
    }
    backslashes = re[i] == '\\' ? backslashes + 1 : 0;
    out += re[i];
  }
  return out;
}

bool has_group(const std::string& re, const std::string& group) {
  return re.find("(?<" + group + ">") != std::string::npos ||
         re.find("(?'" + group + "'") != std::string::npos ||
         re.find("(?P<" + group + ">") != std::string::npos;
}

class Command final : public Workload {
 public:
  explicit Command(const CommandSpec& spec) : spec_(spec) {
    if (spec_.name.empty()) throw std::invalid_argument("a command workload needs a name");
    if (spec_.argv.empty()) throw std::invalid_argument(spec_.name + ": argv is empty");
    if (spec_.metrics.empty()) throw std::invalid_argument(spec_.name + ": no metrics");
    std::set<std::string> params;
    for (const auto& p : spec_.params) {
      if (kContextNames.contains(p.name))
        throw std::invalid_argument(
            fmt::format("{}: parameter '{}' is a name the runner provides", spec_.name, p.name));
      // {Threads} or {msg-size} would pass through the argv as it is.
      if (!is_placeholder_name(p.name))
        throw std::invalid_argument(fmt::format(
            "{}: parameter '{}': a name of a-z, 0-9 and _ (not starting with a digit), so that "
            "argv can say {{{}}}",
            spec_.name, p.name, p.name));
      if (!params.insert(p.name).second)
        throw std::invalid_argument(fmt::format("{}: parameter '{}' twice", spec_.name, p.name));
    }
    for (const auto& arg : spec_.argv)
      for (const auto& name : placeholder_names(arg))
        if (!params.contains(name) && !kContextNames.contains(name))
          throw std::invalid_argument(fmt::format(
              "{}: argv '{}' uses {{{}}}, which is not a parameter", spec_.name, arg, name));
    std::set<std::string> names;
    for (const auto& m : spec_.metrics) {
      if (!names.insert(m.name).second)
        throw std::invalid_argument(fmt::format("{}: metric '{}' twice", spec_.name, m.name));
      if (!has_group(m.regex, "value"))
        throw std::invalid_argument(fmt::format(
            "{}: metric '{}': the regex needs a named group (?<value>...)", spec_.name, m.name));
      try {
        regexes_.emplace_back(perl_groups(m.regex), boost::regex::perl);
      } catch (const boost::regex_error& e) {
        throw std::invalid_argument(
            fmt::format("{}: metric '{}': bad regex: {}", spec_.name, m.name, e.what()));
      }
      metrics_.push_back(MetricSpec{
          .name = m.name,
          .unit = m.unit,
          .direction = m.direction,
          .domain = m.domain,
          .centre = m.centre.value_or(m.direction == Direction::kHigherIsBetter ? Centre::kHmean
                                                                                : Centre::kAmean),
          .kind = m.kind,
          .help = m.help.empty() ? fmt::format("captured by /{}/", m.regex) : m.help});
    }
    if (!spec_.error_regex.empty()) {
      try {
        error_ = boost::regex(perl_groups(spec_.error_regex), boost::regex::perl);
      } catch (const boost::regex_error& e) {
        throw std::invalid_argument(fmt::format("{}: bad error regex: {}", spec_.name, e.what()));
      }
    }
  }

  std::string name() const override { return spec_.name; }
  std::string description() const override {
    return spec_.description.empty() ? "command: " + spec_.argv[0] : spec_.description;
  }
  const std::vector<ParamSpec>& params() const override { return spec_.params; }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return spec_.package; }

  std::vector<Step> iteration_steps(const Point& p, const StepContext& ctx) const override {
    std::vector<std::string> argv;
    for (const auto& arg : spec_.argv) {
      argv.push_back(expand_placeholders(arg, [&](const std::string& name) {
        if (name == "sut_address") return ctx.sut_address;
        if (name == "port") return std::to_string(ctx.port);
        if (name == "workdir") return ctx.workdir;
        return format_param(p.at(name));
      }));
    }
    return {Step{.role = spec_.role, .argv = argv, .timeout = spec_.timeout}};
  }

  std::vector<Sample> parse(const Point&, const std::string& out,
                            const std::string& err) const override {
    const auto out_lines = split_lines(out);
    const auto err_lines = split_lines(err);
    if (!spec_.error_regex.empty())
      for (const auto* lines : {&out_lines, &err_lines})
        for (size_t i = 0; i < lines->size(); ++i)
          if (boost::regex_search((*lines)[i].begin(), (*lines)[i].end(), *error_))
            throw ParseError(name(), static_cast<int>(i) + 1,
                             fmt::format("line {}: tool error: {}", i + 1, (*lines)[i]));
    std::vector<Sample> samples;
    for (size_t k = 0; k < spec_.metrics.size(); ++k) parse_metric(k, out_lines, err_lines, samples);
    return samples;
  }

 private:
  void parse_metric(size_t k, const std::vector<std::string_view>& out_lines,
                    const std::vector<std::string_view>& err_lines,
                    std::vector<Sample>& samples) const {
    const CommandMetric& m = spec_.metrics[k];
    auto match = m.match;
    if (match == CommandMetric::Match::kDefault)
      match = m.kind == SampleKind::kInterval ? CommandMetric::Match::kEach
                                              : CommandMetric::Match::kOne;
    std::vector<Sample> found;
    std::vector<int> found_lines;
    const auto scan = [&](const std::vector<std::string_view>& lines) {
      for (size_t i = 0; i < lines.size(); ++i) {
        boost::match_results<std::string_view::const_iterator> mm;
        if (!boost::regex_search(lines[i].begin(), lines[i].end(), mm, regexes_[k])) continue;
        const int lineno = static_cast<int>(i) + 1;
        const auto v = to_number(mm["value"].str());
        if (!v)
          throw ParseError(name(), lineno,
                           fmt::format("line {}: metric {}: '{}' is not a number: {}", lineno,
                                       m.name, mm["value"].str(), lines[i]));
        // Out of range, the store refused it and the whole run failed
        // (hostile16): here it is this iteration's parse error.
        if (const auto why = sample_out_of_range(*v))
          throw ParseError(
              name(), lineno,
              fmt::format("line {}: metric {}: {}: {}", lineno, m.name, *why, lines[i]));
        if (m.domain == ValueDomain::kNonNegative && *v < 0)
          throw ParseError(name(), lineno,
                           fmt::format("line {}: metric {}: {} is below 0, outside its domain "
                                       "(nonnegative): {}",
                                       lineno, m.name, mm["value"].str(), lines[i]));
        Sample s{.metric = m.name, .value = *v};
        if (m.kind == SampleKind::kInterval && has_group(m.regex, "offset"))
          s.offset_s = to_number(mm["offset"].str());
        found.push_back(s);
        found_lines.push_back(lineno);
      }
    };
    if (m.stream != CommandMetric::Stream::kStderr) scan(out_lines);
    if (m.stream != CommandMetric::Stream::kStdout) scan(err_lines);
    if (found.empty())
      throw ParseError(name(), 0,
                       fmt::format("metric {}: no line matches /{}/", m.name, m.regex));
    if (match == CommandMetric::Match::kOne && found.size() > 1)
      throw ParseError(name(), found_lines[1],
                       fmt::format("line {}: metric {}: a second line matches /{}/ (expected one; "
                                   "make the regex narrower or use match: last or each)",
                                   found_lines[1], m.name, m.regex));
    if (match == CommandMetric::Match::kLast) found.erase(found.begin(), found.end() - 1);
    samples.insert(samples.end(), found.begin(), found.end());
  }

  CommandSpec spec_;
  std::vector<MetricSpec> metrics_;
  std::vector<boost::regex> regexes_;
  std::optional<boost::regex> error_;
};

}  // namespace

std::unique_ptr<Workload> make_command_workload(const CommandSpec& spec) {
  return std::make_unique<Command>(spec);
}

}  // namespace schedlab
