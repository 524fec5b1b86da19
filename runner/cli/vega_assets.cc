#include "runner/cli/vega_assets.h"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "base/file.h"

namespace schedlab::cli {
namespace {

// The modules a View needs, each after its dependencies (their define()
// lists), with the name the others require it by.
constexpr std::pair<std::string_view, std::string_view> kModules[] = {
    {"vega-util", "vega-util"},
    {"vega-statistics", "vega-statistics"},
    {"vega-canvas", "vega-canvas"},
    {"vega-event-selector", "vega-event-selector"},
    {"vega-time", "vega-time"},
    {"vega-format", "vega-format"},
    {"vega-loader", "vega-loader"},
    {"vega-scale", "vega-scale"},
    {"vega-dataflow", "vega-dataflow"},
    {"vega-expression", "vega-expression"},
    {"vega-selection", "vega-selections"},  // Debian's file name; the package is vega-selections
    {"vega-scenegraph", "vega-scenegraph"},
    {"vega-functions", "vega-functions"},
    {"vega-runtime", "vega-runtime"},
    {"vega-encode", "vega-encode"},
    {"vega-transforms", "vega-transforms"},
    {"vega-view-transforms", "vega-view-transforms"},
    {"vega-parser", "vega-parser"},
    {"vega-view", "vega-view"},
};

// Modules whose exports are dataflow transforms, as in Vega's index.js.
constexpr std::string_view kTransformModules[] = {"vega-transforms", "vega-view-transforms",
                                                  "vega-encode"};

}  // namespace

std::string vega_dir() {
  const char* env = std::getenv("SCHEDLAB_VEGA_DIR");
  return env && *env ? env : "/usr/share/javascript/vega";
}

std::string vega_script() {
  const std::string dir = vega_dir();
  std::string out =
      "(function(){var modules={},name;\n"
      "function define(deps,factory){var ex={};factory.apply(null,deps.map(function(d){"
      "if(d==='exports')return ex;if(!modules[d])throw new Error('vega module '+d+' missing');"
      "return modules[d];}));modules[name]=ex;}\ndefine.amd=true;\n";
  for (const auto& [file, name] : kModules) {
    const std::string path = fmt::format("{}/{}.min.js", dir, file);
    std::string text;
    try {
      text = read_file(path);
    } catch (const std::exception&) {
      throw std::runtime_error(fmt::format(
          "{} is missing: install Debian's libjs-vega (scripts/install-deps.sh), or set "
          "SCHEDLAB_VEGA_DIR to a folder holding Vega 5's modules",
          path));
    }
    // A source map comment would make the browser look for the map.
    if (auto at = text.rfind("//# sourceMappingURL="); at != std::string::npos) text.resize(at);
    out += fmt::format("name='{}';\n{}\n", name, text);
  }
  out += "var vega={};for(var k in modules)Object.assign(vega,modules[k]);\n";
  for (auto m : kTransformModules)
    out += fmt::format("Object.assign(vega.transforms,modules['{}']);\n", m);
  return out + "window.vega=vega;})();\n";
}

}  // namespace schedlab::cli
