# Precompiled headers, for build time. Every unity unit parsed the same
# standard, fmt and nlohmann/json headers again (measured with Boost.Math's
# distributions in the set too, a unit that includes only them: 9.3 s of
# GCC's CPU, 1.9 s with them precompiled; clang under ASan 7.5 s against
# 0.5 s), and every test unit Catch2's single header too.
# One PCH serves every target whose flags it matches (REUSE_FROM): GCC
# reads it at any -O above -O0 and parses the headers as text if it does
# not match; clang refuses a PCH whose sanitizers differ, so the sanitized
# build has one with libFuzzer's coverage hooks (the libraries and the fuzz
# targets) and one without (the tests and the programs).
# -DSCHEDLAB_PCH=OFF to build without them.
option(SCHEDLAB_PCH "precompile the headers every unit includes" ON)

set(SCHEDLAB_PCH_HEADERS
  <algorithm> <chrono> <cmath> <cstdint> <filesystem> <functional> <map> <memory> <optional>
  <set> <sstream> <stdexcept> <string> <string_view> <utility> <vector>
  <fmt/format.h> <fmt/ranges.h> <nlohmann/json.hpp>)

# schedlab_pch_target(NAME [HEADER...]): a target that only precompiles the
# headers above and HEADERs, with the flags of the directory it is made in.
function(schedlab_pch_target name)
  if(NOT SCHEDLAB_PCH)
    return()
  endif()
  add_library(${name} OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cc)
  # The definitions every unit has (FMT_SHARED) and the include folders.
  target_link_libraries(${name} PRIVATE fmt::fmt nlohmann_json::nlohmann_json)
  target_precompile_headers(${name} PRIVATE ${SCHEDLAB_PCH_HEADERS} ${ARGN})
endfunction()

# schedlab_use_pch(FROM TARGET...): each TARGET's units start with FROM's PCH.
function(schedlab_use_pch from)
  if(NOT SCHEDLAB_PCH)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    target_precompile_headers(${target} REUSE_FROM ${from})
  endforeach()
endfunction()
