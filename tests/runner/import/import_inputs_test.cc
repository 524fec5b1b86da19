// import's inputs, from real hackbench outputs (the fixtures) copied under
// names of our own: variants in command-line order, points from the names
// (--param-from-name) and from each output's own statement, rows in
// natural order, and the whole message of each bad input.
#include "runner/import/import_inputs.h"

#include <catch2/catch.hpp>
#include <stdexcept>

#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;

namespace {

const Workload& hackbench() {
  return *find_workload("hackbench");
}

// A real output (FIXTURE: 4 groups, 1000 loops by default) under NAME in DIR.
std::string copy_output(const test::TempDir& dir, const std::string& name,
                        const std::string& fixture = "process-pipes-g4-l1000.txt") {
  const std::string path = dir.file(name);
  test::write_text(path, test::read_text(test::fixture("hackbench/" + fixture)));
  return path;
}

std::string error_of(const ImportFiles& files) {
  try {
    read_import_files(hackbench(), files);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE(
    "import inputs: variants in order, points from names and outputs, rows in natural order") {
  test::TempDir dir;
  const auto a4 = copy_output(dir, "hb-4.txt");
  const auto a2 = copy_output(dir, "hb-2.txt", "process-pipes-g2-l200.run1.txt");
  const auto b = copy_output(dir, "other.txt");
  const auto inputs = read_import_files(
      hackbench(),
      {.ordered = {{false, "base=" + a4}, {false, a2}, {true, "patched"}, {false, b}}});
  REQUIRE(inputs.size() == 3);
  CHECK(inputs[0].variant == "base");
  CHECK(inputs[1].variant == "base");
  CHECK(inputs[2].variant == "patched");
  CHECK(inputs[0].row == "4");  // as the outputs state them
  CHECK(inputs[1].row == "2");
  CHECK(inputs[1].row_order < inputs[0].row_order);  // 2 before 4, whatever the order given
  CHECK(inputs[0].file == a4);
  CHECK_FALSE(inputs[0].text);  // read again when stored, never held
  // The name's groups must agree with what the output states.
  const auto a16 = copy_output(dir, "hb-16.txt");
  CHECK(error_of({.ordered = {{false, "x=" + a16}}, .param_from_name = "hb-(?<groups>[0-9]+)"}) ==
        a16 + ": the output states groups=4, not --param groups=16");
  // (The file is named twice in this one today: file_params and its caller both prefix it.)
  CHECK(error_of({.ordered = {{false, "x=" + b}}, .param_from_name = "hb-(?<groups>[0-9]+)"})
            .ends_with(b + ": its name 'other.txt' does not match --param-from-name "
                           "'hb-(?<groups>[0-9]+)'"));
}

TEST_CASE("import inputs: each bad input is named, and nothing is read past it") {
  test::TempDir dir;
  const auto f = copy_output(dir, "hb-4.txt");
  CHECK(error_of({.ordered = {{false, f}}}) ==
        "'" + f + "': which variant? give VARIANT=FILE, or --variant NAME before the files");
  CHECK(error_of({.ordered = {{true, "a"}, {true, "b"}, {false, f}}}) ==
        "variant 'a' has no files (a glob that matched nothing?); nothing imported");
  CHECK(error_of({.ordered = {}}) == "no files to import: give VARIANT=FILE [FILE...]");
  CHECK(error_of({.ordered = {{false, "=" + f}}}) == "'=" + f + "': expected VARIANT=FILE");
  CHECK(error_of({.ordered = {{false, "a=" + f}}, .param_from_name = "hb-[0-9]+"}) ==
        "--param-from-name 'hb-[0-9]+' has no named group: write (?<NAME>...) for each parameter");
  CHECK(error_of({.ordered = {{false, "a=" + f}},
                  .params = {"groups=4"},
                  .param_from_name = "hb-(?<groups>[0-9]+)"}) ==
        "parameter 'groups' is given by --param and by --param-from-name");
  CHECK(error_of({.ordered = {{false, "a=" + dir.file("missing.txt")}}})
            .starts_with(dir.file("missing.txt") + ": "));
}

TEST_CASE("import inputs: a run name a RUN argument would read as an id is refused") {
  CHECK_NOTHROW(check_import_run_name("patch-v2"));
  CHECK_THROWS_WITH(check_import_run_name("42"),
                    Catch::Matchers::StartsWith("run name '42': ") &&
                        Catch::Matchers::EndsWith("; nothing imported"));
}
