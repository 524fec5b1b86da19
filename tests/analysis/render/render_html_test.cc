// The page shell every HTML page shares (report, history, nightly, bisect):
// what a name may hold never opens or closes a <script> block.
#include "analysis/render/render_html.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <nlohmann/json.hpp>
#include <string>

using namespace schedlab;

namespace {

// How often NEEDLE (lower case) occurs in HAYSTACK, in any case.
std::size_t count_nocase(const std::string& haystack, const std::string& needle) {
  std::string lower = haystack;
  for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::size_t n = 0;
  for (auto at = lower.find(needle); at != std::string::npos; at = lower.find(needle, at + 1)) ++n;
  return n;
}

const char* const kHostile[] = {"<!--<script>",  "</script><script>alert(1)</script>",
                                "<!--<SCRIPT>x", "</ScRiPt >",
                                "a<!--b-->c",    "\\<script",
                                "<\\/script"};

}  // namespace

TEST_CASE("script_safe: no <!--, <script or </script in any case; JSON reads the text back") {
  for (const char* s : kHostile) {
    INFO(s);
    const nlohmann::json j = {{"label", s}, {"labels", {s, std::string(s) + s}}};
    const std::string safe = script_safe(j.dump());
    CHECK(count_nocase(safe, "<!--") == 0);
    CHECK(count_nocase(safe, "<script") == 0);
    CHECK(count_nocase(safe, "</script") == 0);
    CHECK(nlohmann::json::parse(safe) == j);
  }
  // Everything else is left as it is, other '<' included.
  CHECK(script_safe("a < b && c </b> <scrip <!- x") == "a < b && c </b> <scrip <!- x");
  CHECK(script_safe("'</script>'") == "'\\u003c/script>'");
}

TEST_CASE("html_page: hostile names in the plots leave exactly the page's three scripts") {
  nlohmann::ordered_json plots = nlohmann::ordered_json::array();
  for (const char* s : kHostile)
    plots.push_back(
        {{"id", "p0"}, {"kind", "scaling"}, {"spec", {{"data", {{"values", {{{"c", s}}}}}}}}});
  const std::string page = html_page("t<!--<script>", "window.vega={}; // '</script>' in a comment",
                                     "<p>body</p>", plots);
  CHECK(count_nocase(page, "<script") == 3);
  CHECK(count_nocase(page, "</script") == 3);
  CHECK(count_nocase(page, "<!--") == 0);
  // The plots' JSON, cut out as the browser would, parses to what went in.
  const std::string open = "<script type=\"application/json\" id=\"schedlab-plots\">";
  const auto from = page.find(open) + open.size();
  const auto to = page.find("</script>", from);
  CHECK(nlohmann::ordered_json::parse(page.substr(from, to - from)) == plots);
}
