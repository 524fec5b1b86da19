// The scripts report's flame graphs need, vendored in third_party/ (their
// licences and origin there) and compiled in (cmake/embed_text.cmake), so
// the page stays one offline file and nothing is fetched at build time.
#pragma once

#include <string_view>

namespace schedlab::flame_assets {

extern const std::string_view kD3;          // d3 v7 (ISC): third_party/d3/d3.min.js
extern const std::string_view kFlameGraph;  // d3-flame-graph (Apache-2.0), global `flamegraph`

}  // namespace schedlab::flame_assets
