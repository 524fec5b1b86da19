// Text made safe to put in HTML, in an element or a quoted attribute:
// & < > " written as entities. Its own file so that a renderer of one
// section (render_changed) uses it without including the page's renderer,
// which includes the section's.
#pragma once

#include <string>
#include <string_view>

namespace schedlab {

std::string html_escape(std::string_view s);

}  // namespace schedlab
