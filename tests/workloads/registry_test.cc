#include "workloads/registry.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string_view>

using namespace schedlab;

TEST_CASE("every registered workload declares the programs it runs, and lab guests get the SUT's") {
  std::vector<std::string> declared;  // every `guest` program, in registry order
  for (const Workload* w : all_workloads()) {
    INFO(w->name());
    CHECK_FALSE(w->programs().empty());
    for (const auto& p : w->programs()) {
      CHECK_FALSE(p.name.empty());
      if (p.guest) declared.push_back(p.name);
    }
  }
  // Each workload's test says which of its programs a guest gets
  // (hackbench_test: hackbench); here, that the lab is given all of them.
  CHECK(guest_programs() == declared);
  CHECK(std::set<std::string>(declared.begin(), declared.end()).size() == declared.size());
  CHECK(std::find(declared.begin(), declared.end(), "hackbench") != declared.end());
  const auto pg = find_workload("pgbench")->programs();
  REQUIRE(pg.size() == 2);
  CHECK(pg[1].name == "initdb");
  CHECK(pg[1].versioned_dir == "/usr/lib/postgresql");
}

TEST_CASE("the workload names CMake reads from the declarations are the registry's") {
  // fuzz/CMakeLists.txt makes a parser fuzz target of each
  // (cmake/workload_names.cmake): a workload it misses goes unfuzzed.
  // A loop, not std::views::split: clang 14 cannot compile that view of
  // GCC 12's library (the sanitized build is clang's).
  std::vector<std::string> from_cmake;
  std::string_view names = SCHEDLAB_CMAKE_WORKLOAD_NAMES;
  for (std::size_t comma; (comma = names.find(',')) != std::string_view::npos;
       names.remove_prefix(comma + 1))
    from_cmake.emplace_back(names.substr(0, comma));
  from_cmake.emplace_back(names);
  std::vector<std::string> registry = workload_names();
  std::sort(registry.begin(), registry.end());
  CHECK(from_cmake == registry);
}
