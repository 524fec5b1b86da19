// Text made safe to put in HTML, in an element or a quoted attribute:
// & < > " written as entities, and what a title already shows visibly
// (terminal_safe, base/text.h: C0 and C1 controls, DEL, bytes that are not
// UTF-8, bidirectional overrides as \x1b, \u202e; newlines kept): a name
// from a crafted database must not reorder a cell of a report, a nightly
// or a bisect status page (issue 44). Its own file so that a renderer of
// one section (render_changed) uses it without including the page's
// renderer, which includes the section's.
#pragma once

#include <string>
#include <string_view>

namespace schedlab {

std::string html_escape(std::string_view s);

}  // namespace schedlab
