// The one {placeholder} grammar of hooks and command workload argvs.
#include "base/placeholders.h"

#include <catch2/catch.hpp>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace schedlab;
using Names = std::vector<std::string>;

namespace {

std::string expand(const std::string& arg, const std::map<std::string, std::string>& values) {
  return expand_placeholders(arg, [&](const std::string& name) {
    const auto it = values.find(name);
    if (it == values.end()) throw std::invalid_argument("unknown " + name);
    return it->second;
  });
}

}  // namespace

TEST_CASE("a placeholder is a lower-case identifier in braces") {
  const std::map<std::string, std::string> v{{"kernel", "6.1"}, {"t_2", "4"}};
  CHECK(expand("OUT=/b/{kernel}/x-{t_2}", v) == "OUT=/b/6.1/x-4");
  CHECK(expand("{kernel}{kernel}", v) == "6.16.1");
  CHECK(placeholder_names("--threads={threads} {port}{threads}") ==
        Names{"threads", "port", "threads"});
  CHECK_THROWS_WITH(expand("{sha}", v), "unknown sha");
}

TEST_CASE("doubled braces are literal, other pairs of braces pass through") {
  const std::map<std::string, std::string> v{{"kernel", "6.1"}};
  CHECK(expand("{{kernel}} {{literal}}", v) == "{kernel} {literal}");
  CHECK(expand("${HOME} {} {Kernel} {1} {a-b}", v) == "${HOME} {} {Kernel} {1} {a-b}");
  CHECK(expand("awk '{print $1}'", v) == "awk '{print $1}'");
  CHECK(expand("{{{kernel}}}", v) == "{6.1}");
  CHECK(expand("{{", v) == "{");
  CHECK(placeholder_names("${HOME} {} {Kernel} {1} {{x}}").empty());
}

TEST_CASE("an unmatched brace is an error: most likely a mistyped placeholder") {
  const std::map<std::string, std::string> v{{"kernel", "6.1"}};
  CHECK_THROWS_WITH(expand("{kernel", v), "argv '{kernel': '{' without '}'");
  CHECK_THROWS_WITH(expand("x}", v), "argv 'x}': '}' without '{'");
  CHECK_THROWS_WITH(expand("{kernel}}", v), "argv '{kernel}}': '}' without '{'");
  CHECK_THROWS_WITH(placeholder_names("--threads={threads"),
                    "argv '--threads={threads': '{' without '}'");
  CHECK_THROWS_AS(placeholder_names("{a {b}"), PlaceholderError);
  // Checked before any value is asked for.
  CHECK_THROWS_AS(expand("{sha} {", v), PlaceholderError);
}

TEST_CASE("placeholder names") {
  CHECK(is_placeholder_name("threads"));
  CHECK(is_placeholder_name("_x9"));
  CHECK_FALSE(is_placeholder_name(""));
  CHECK_FALSE(is_placeholder_name("Threads"));
  CHECK_FALSE(is_placeholder_name("9x"));
  CHECK_FALSE(is_placeholder_name("msg-size"));
}
