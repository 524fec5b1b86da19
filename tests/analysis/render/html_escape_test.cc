// html_escape: the one helper every HTML cell, heading and note goes
// through (report, history, nightly, bisect status): markup and quotes as
// entities, terminal control and bidi characters shown as the page's title
// shows them (issue 44).
#include "analysis/render/html_escape.h"

#include <catch2/catch.hpp>

using namespace schedlab;

TEST_CASE("html_escape: markup as entities, controls and bidi overrides visible, newlines kept") {
  CHECK(html_escape("a<b>&\"c\"") == "a&lt;b&gt;&amp;&quot;c&quot;");
  CHECK(html_escape("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07");
  CHECK(html_escape("run\xe2\x80\xaetxt.exe") == "run\\u202etxt.exe");
  CHECK(html_escape("\xc2\x9b"
                    "31m") == "\\u009b31m");  // C1 CSI
  CHECK(html_escape("x\xff"
                    "y") == "x\\xffy");  // not UTF-8
  CHECK(html_escape(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(html_escape("line 1\nline 2") == "line 1\nline 2");  // <pre> blocks keep theirs
  CHECK(html_escape("caf\xc3\xa9 \xe6\x97\xa5") == "caf\xc3\xa9 \xe6\x97\xa5");
}
