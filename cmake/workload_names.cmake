# schedlab_workload_names(OUT): the names of the registry's workloads, read
# from each workload header's `std::string name() const override { return
# "NAME"; }` (workloads/*.h), sorted. CMake cannot run the registry (C++
# objects), so it reads their declarations; tests/workloads/registry_test.cc
# checks that this list is workload_names(), so a workload declared some
# other way fails a test instead of going missing from the fuzz targets.
function(schedlab_workload_names out)
  file(GLOB headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/workloads/*.h)
  # A header's edit (a renamed workload) configures again too.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${headers})
  set(names "")
  foreach(header ${headers})
    file(STRINGS ${header} lines
         REGEX "std::string name\\(\\) const override { return \"[a-z0-9-]+\"; }")
    foreach(line ${lines})
      string(REGEX MATCH "return \"([a-z0-9-]+)\"" unused "${line}")
      list(APPEND names ${CMAKE_MATCH_1})
    endforeach()
  endforeach()
  list(SORT names)
  set(${out} ${names} PARENT_SCOPE)
endfunction()
