// Hostile configs: 1 MiB strings in every string field, integers
// and durations past their types, duplicate keys, a second document,
// identical workloads, files that are no config.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "runner/config/config.h"
#include "tests/support/config_error.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using test::config_error_of;

namespace {

const std::string kLong(1 << 20, 'a');
const std::string kDigits(40000, '9');

}  // namespace

TEST_CASE("every config string field takes a 1 MiB value: an error or a config, never a crash", "[unit]") {
  // {} is where the long value goes; each template is valid with a short one.
  const std::vector<std::string> templates = {
      "workloads: [hackbench]\nvariants:\n  {}: {{}}\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    sysctl:\n      {}: 0\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    sysctl:\n      kernel.{}: 0\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    sysctl:\n      kernel.sched_autogroup_enabled: {}\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    sched_features: [{}]\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    sched_features: [NO_{}]\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    debugfs:\n      sched/{}: 1\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    debugfs:\n      sched/base_slice_ns: {}\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    policy: {}\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    nice: {}\n",
      "workloads: [hackbench]\nvariants:\n  v:\n    cpus: {}\n",
      "workloads: [{}]\n",
      "workloads:\n  - hackbench: {{modes: {}}}\n",
      "workloads:\n  - hackbench: {{groups: {}}}\n",
      "workloads:\n  - hackbench: {{timeout: {}}}\n",
      "workloads:\n  - tbench: {{loadfile: {}}}\n",
      "workloads:\n  - hammerdb: {{db: postgres, user: {}}}\n",
      "iterations: {}\nworkloads: [hackbench]\n",
      "description: {}\nworkloads: [hackbench]\n",
      "order: {}\nworkloads: [hackbench]\n",
      "sut: {}\nworkloads: [hackbench]\n",
      "sut: ssh://{}\nworkloads: [hackbench]\n",
      "sut: ssh://root@h:{}\nworkloads: [hackbench]\n",
      "monitors: [{}]\nworkloads: [hackbench]\n",
      "{}: 1\nworkloads: [hackbench]\n",
      "workloads:\n  - command: {{name: {}, argv: [x], metrics: {{m: {{regex: '(?<value>1)'}}}}}}\n",
      "workloads:\n  - command: {{name: c, argv: [{}], metrics: {{m: {{regex: '(?<value>1)'}}}}}}\n",
      "workloads:\n  - command: {{name: c, argv: [x], metrics: {{m: {{regex: '{}(?<value>1)'}}}}}}\n",
      "workloads:\n  - command: {{name: c, argv: [x], params: {{p: {}}}, metrics: {{m: {{regex: '(?<value>1)'}}}}}}\n",
      "workloads:\n  - command: {{name: c, argv: [x], error: '{}', metrics: {{m: {{regex: '(?<value>1)'}}}}}}\n",
  };
  int errors = 0, configs = 0;
  for (const auto& t : templates) {
    for (const auto& value : {kLong, kDigits, std::string(1 << 20, '9')}) {
      INFO(t);
      const std::string err = config_error_of(fmt::format(fmt::runtime(t), value));
      (err == "(no error)" ? configs : errors)++;
    }
  }
  CHECK(errors > 0);
}

TEST_CASE(
    "a key or name with a NUL, an ESC or 1 MiB is named escaped and whole or cut, never ended "
    "early", "[unit]") {
  // e.what() is a C string: an unescaped NUL ended the message there
  // ("unknown key 'gr"), the rest of the key and the line lost.
  // A NUL in a key is refused (see "an escaped NUL"), the key named whole.
  CHECK(config_error_of("workloads:\n  - hackbench: {groups: [1], \"gr\\0oups\": 2}\n") ==
        "exp.yaml:2: workloads[0].hackbench: the key 'gr\\x00oups' holds a NUL character (a YAML "
        "escape such as \"\\0\"): a config is text, and no key or value may hold one");
  CHECK_THAT(config_error_of("workloads: [hackbench]\n\"ho\\0sts\\e\": 1\n"),
             Catch::StartsWith("exp.yaml:2: the key 'ho\\x00sts\\x1b' holds a NUL"));
  CHECK_THAT(config_error_of("workloads: [hackbench]\n\"ho\\asts\\e\": 1\n"),
             Catch::StartsWith("exp.yaml:2: unknown key 'ho\\x07sts\\x1b'"));
  CHECK_THAT(
      config_error_of(
          "workloads: [hackbench]\nvariants:\n  v:\n    sysctl: {\"kernel.a\\eb\": 1}\n"),
      Catch::StartsWith(
          "exp.yaml:4: variants.v.sysctl.kernel.a\\x1bb: 'kernel.a\\x1bb' is not a sysctl name"));
  // A 1 MiB name is cut to an excerpt, in the key path and in the message.
  for (const auto& t :
       {"workloads: [hackbench]\nvariants:\n  v:\n    sched_features: [{}]\n",
        "workloads: [hackbench]\nvariants:\n  v:\n    sysctl:\n      ? kernel.{}\n      : 0\n",
        "workloads: [hackbench]\nvariants:\n  v:\n    debugfs:\n      ? sched/{}\n      : 1\n",
        "workloads: [hackbench]\nvariants:\n  ? {}\n  : {{sysctl: {{kernel.nope: 1}}}}\n"}) {
    INFO(t);
    const std::string err = config_error_of(fmt::format(fmt::runtime(t), kLong));
    CHECK_THAT(err, Catch::Contains("characters)"));
    CHECK(err.size() < 2000);
  }
}

TEST_CASE("integers are range-checked where the config is read: nothing wraps", "[unit]") {
  const auto iters = [](const std::string& v) {
    return config_error_of("iterations: " + v + "\nworkloads: [hackbench]\n");
  };
  CHECK(iters("4294967296") ==
        "exp.yaml:1: iterations: 4294967296 is out of range: expected a whole number from 1 to 1000000");
  CHECK_THAT(iters("4294967297"), Catch::Contains("from 1 to 1000000"));
  CHECK_THAT(iters("2147483648"), Catch::Contains("from 1 to 1000000"));
  CHECK_THAT(iters(kDigits), Catch::Contains("out of range: expected a whole number from 1 to 1000000"));
  CHECK_THAT(iters("-1"), Catch::Contains("from 1 to 1000000"));
  CHECK_THAT(iters("1e3"), Catch::Contains("expected a whole number from 1 to 1000000, got '1e3'"));
  CHECK(iters("1000000") == "(no error)");
  CHECK_THAT(config_error_of("workloads:\n  - hackbench: {iterations: 2147483648}\n"),
             Catch::Contains("exp.yaml:2: workloads[0].hackbench.iterations: 2147483648 is out of range"));
  CHECK_THAT(config_error_of("iterations: {min: 4294967297, max: 5, ci_width_pct: 2}\nworkloads: [hackbench]\n"),
             Catch::Contains("iterations.min: 4294967297 is out of range: expected a whole number from 2 to 1000000"));
  CHECK_THAT(config_error_of("iterations: {min: 3, max: 2147483648, ci_width_pct: 2}\nworkloads: [hackbench]\n"),
             Catch::Contains("iterations.max: 2147483648 is out of range"));
  // A workload's int parameter is read by the tool into a C int.
  CHECK_THAT(config_error_of("workloads:\n  - hackbench: {groups: 2147483648}\n"),
             Catch::Contains("expected a whole number from 1 to 2147483647"));
  CHECK_THAT(config_error_of("variants:\n  v: {nice: 4294967315}\nworkloads: [hackbench]\n"),
             Catch::Contains("v.nice: 4294967315 is out of range: expected a whole number from -20 to 19"));
}

TEST_CASE("durations are range-checked: a timeout cannot wrap a deadline", "[unit]") {
  CHECK_THAT(config_error_of("workloads:\n  - hackbench: {timeout: 9300000000s}\n"),
             Catch::Contains("exp.yaml:2: workloads[0].hackbench.timeout: expected a duration from 0s to 168h"));
  CHECK_THAT(config_error_of("workloads:\n  - hackbench: {timeout: 1e300s}\n"),
             Catch::Contains("to 168h"));
  CHECK(config_error_of("workloads:\n  - hackbench: {timeout: 168h}\n") == "(no error)");
  CHECK_THAT(config_error_of("workloads:\n  - command: {name: c, argv: [x], timeout: 9300000000s, "
                             "metrics: {m: {regex: '(?<value>1)', direction: higher}}}\n"),
             Catch::Contains("timeout: expected a duration from 0s to 168h"));
}

TEST_CASE("a key given twice at any depth is refused with both lines", "[unit]") {
  // yaml-cpp keeps one of the two: the variant measured the baseline.
  CHECK(config_error_of("workloads: [hackbench]\nvariants:\n  v:\n    sysctl:\n"
                        "      kernel.sched_autogroup_enabled: 0\n"
                        "      kernel.sched_autogroup_enabled: 1\n") ==
        "exp.yaml:6: variants.v.sysctl: duplicate key 'kernel.sched_autogroup_enabled' (first at line 5)");
  CHECK(config_error_of("workloads:\n  - hackbench: {groups: [1], groups: [4]}\n") ==
        "exp.yaml:2: workloads[0].hackbench: duplicate key 'groups' (first at line 2)");
  CHECK(config_error_of("workloads: [hackbench]\nvariants:\n  v: {}\n  v: {nice: 5}\n") ==
        "exp.yaml:4: variants: duplicate key 'v' (first at line 3)");
  CHECK(config_error_of("workloads: [hackbench]\nworkloads: [tbench]\n") ==
        "exp.yaml:2: duplicate key 'workloads' (first at line 1)");
}

TEST_CASE("a second YAML document is refused, not ignored", "[unit]") {
  CHECK(config_error_of("workloads: [hackbench]\n---\nworkloads: [tbench]\n") ==
        "exp.yaml:3: a second YAML document ('---'): a config is one document; merge them or use "
        "two files");
  CHECK_THAT(config_error_of("workloads: [hackbench]\n---\n"), Catch::Contains("a second YAML document"));
  CHECK(config_error_of("---\nworkloads: [hackbench]\n") == "(no error)");
}

TEST_CASE("a stray comma is a syntax error, not yaml-cpp 0.7's endless LoadAll", "[unit]") {
  // fuzz/regressions/fuzz_config/yaml-cpp-loadall-comma-loop: YAML::LoadAll
  // allocated until the machine ran out of memory.
  CHECK(config_error_of(",#ves#  e") ==
        "exp.yaml:1: YAML syntax error: cannot read on from here (a stray ',' outside [ ] or { }?)");
  CHECK(config_error_of("workloads: [hackbench]\n,\n") ==
        "exp.yaml:2: YAML syntax error: end of map not found");
  CHECK_THAT(config_error_of(","), Catch::Contains("YAML syntax error"));
}

TEST_CASE("a NUL byte anywhere in a config is refused at its line, in plain words (issue 44)",
          "[unit]") {
  using namespace std::string_literals;
  // Hostile13 #21: a NUL in a quoted string read "unknown escape character".
  CHECK(config_error_of("workloads:\n  - hackbench:\n      groups: \"1\0\\n\"\n"s) ==
        "exp.yaml:3: a NUL byte at column 17: a config is text, and YAML allows no NUL anywhere");
  CHECK(config_error_of("\0workloads: [hackbench]\n"s) ==
        "exp.yaml:1: a NUL byte at column 1: a config is text, and YAML allows no NUL anywhere");
  CHECK(config_error_of("workloads: [hackbench]\n# a comment\0\n"s) ==
        "exp.yaml:2: a NUL byte at column 12: a config is text, and YAML allows no NUL anywhere");
  CHECK(config_error_of("workloads: [hackbench]\n\0"s) ==
        "exp.yaml:2: a NUL byte at column 1: a config is text, and YAML allows no NUL anywhere");
}

TEST_CASE("an escaped NUL (\"\\0\") in a value or key is refused at its line and key (hostile15)",
          "[unit]") {
  // Hostile15 #22: argv "a\0b" ran as "a"; a workload was stored as "ec\0ho".
  const std::string tail =
      ": a NUL character (a YAML escape such as \"\\0\"): a config is text, and no key or value "
      "may hold one";
  CHECK(config_error_of("workloads:\n  - command:\n      name: c\n      argv: [echo, \"a\\0b\"]\n"
                        "      metrics: {m: {regex: '(?<value>1)'}}\n") ==
        "exp.yaml:4: workloads[0].command.argv[1]" + tail);
  CHECK(config_error_of("workloads:\n  - command:\n      name: \"ec\\x00ho\"\n      argv: [echo]\n"
                        "      metrics: {m: {regex: '(?<value>1)'}}\n") ==
        "exp.yaml:3: workloads[0].command.name" + tail);
  CHECK(config_error_of(
            "workloads: [hackbench]\nvariants:\n  v: {sysctl: {kernel.x: \"90\\u0000\"}}\n") ==
        "exp.yaml:3: variants.v.sysctl.kernel.x" + tail);
  CHECK(config_error_of("workloads: [hackbench]\nvariants:\n  \"v\\0w\": {}\n") ==
        "exp.yaml:3: variants: the key 'v\\x00w' holds" + tail.substr(1));
  // The same value without the NUL is a config.
  CHECK(config_error_of("workloads:\n  - command:\n      name: c\n      argv: [echo, \"a\\tb\"]\n"
                        "      metrics: {m: {regex: '(?<value>1)', direction: lower}}\n") ==
        "(no error)");
}

TEST_CASE("a mapping or list as a key is refused at its line, at any depth", "[unit]") {
  // fuzz/regressions/fuzz_config/complex-key-bad-conversion: yaml-cpp's
  // "bad conversion" escaped the loader with no file or key.
  CHECK(config_error_of("hosts:\n  sut:\n  ? lab:\n      kernel: x\n  loadgen: local\n") ==
        "exp.yaml:3: hosts: a key must be a plain word, not a mapping or list ('?' key)");
  CHECK(config_error_of("? [a, b]\n: 1\n") ==
        "exp.yaml:1: a key must be a plain word, not a mapping or list ('?' key)");
  CHECK(config_error_of("workloads: [hackbench]\nvariants:\n  v:\n    sysctl: {? {a: 1}: 2}\n") ==
        "exp.yaml:4: variants.v.sysctl: a key must be a plain word, not a mapping or list ('?' key)");
}

TEST_CASE("a YAML alias bomb stops the key walk instead of expanding it", "[unit]") {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    const char p = static_cast<char>(c - 1);
    bomb += fmt::format("{0}: &{0} [*{1}, *{1}, *{1}, *{1}, *{1}, *{1}, *{1}, *{1}, *{1}, *{1}]\n", c, p);
  }
  bomb += "workloads: [hackbench]\n";
  CHECK_THAT(config_error_of(bomb), Catch::Contains("expands to more than"));
}

TEST_CASE("two workload entries that share a point are refused with both lines", "[unit]") {
  CHECK(config_error_of("workloads:\n  - hackbench: {groups: [1, 4]}\n  - hackbench: {groups: [4, 8]}\n") ==
        "exp.yaml:3: workloads[1]: runs hackbench points workloads[0] (line 2) already runs, e.g. "
        "backend=hackbench datasize=100 fds=20 groups=4 loops=1000 modes=process-pipes timeout=300s; "
        "they would be stored as one. Merge the two entries or change a parameter");
  CHECK_THAT(config_error_of("workloads: [hackbench, hackbench]\n"), Catch::Contains("workloads[1]: runs hackbench points"));
  CHECK(config_error_of("workloads:\n  - hackbench: {groups: [1]}\n  - hackbench: {groups: [4]}\n") ==
        "(no error)");
  CHECK(config_error_of("workloads: [hackbench, tbench]\n") == "(no error)");
}

TEST_CASE("a config path that is no regular file, or over 1 MiB, is refused before reading", "[unit]") {
  const auto load_error = [](const std::string& path) -> std::string {
    try {
      load_config_file(path);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "(no error)";
  };
  CHECK(load_error("/dev/zero") == "/dev/zero: cannot read the file: it is a character device, not a config file");
  test::TempDir dir;
  CHECK(load_error(dir.path().string()) ==
        dir.path().string() + ": cannot read the file: it is a directory, not a config file");
  const std::string big = dir.file("big.yaml");
  test::write_text(big, "workloads: [hackbench]\n# " + std::string(1 << 20, 'x') + "\n");
  CHECK(load_error(big) == big + ": cannot read the file: larger than 1048576 bytes");
}

TEST_CASE("a tbench duration under 2s is refused: tbench -t 1 measures nothing", "[unit]") {
  // Seen: `tbench -t 1 1` prints "Throughput 0 MB/sec" every time (its
  // warm-up takes the second), so every iteration would fail.
  const auto e = config_error_of("workloads:\n  - tbench: {duration: 1s}\n");
  CHECK(e.find("must be at least 2s, got 1s") != std::string::npos);
  CHECK(config_error_of("workloads:\n  - tbench: {duration: 2s}\n") == "(no error)");
}
