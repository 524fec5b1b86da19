// schedlab design through the real binary: the text (within 100 columns),
// the JSON's fields, a seeded simulation's figures, and bad options as one
// line and exit 2.
#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/terminal_run.h"

using namespace schedlab;
using test::schedlab_cmd;

TEST_CASE("design: the text names the fixed n, the looks and the average iterations", "[design]") {
  const auto r = schedlab_cmd({"design", "--cv", "4"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  // power.t.test(delta = 3, sd = 4, power = 0.8)$n = 28.90.
  CHECK(r.out.find("fixed n of equal power: 29 iterations a side (R's power.t.test n: 28.90)") !=
        std::string::npos);
  CHECK(r.out.find("spending obf (O'Brien-Fleming-type), 10 planned looks, min 3") !=
        std::string::npos);
  CHECK(r.out.find("average iterations a side") != std::string::npos);
  CHECK(r.out.find("simulated") == std::string::npos);
  // CV 4%: the first look (4 a side) has 6 degrees of freedom, so the
  // calibrated nominal level of the row of 4 (sequential_calibration.cc).
  CHECK(test::one_line(r.out).find("the first look has 6 degrees of freedom (fewer than 12): the "
                                   "bounds spend a nominal alpha of 0.0375 (alpha x 0.75) and "
                                   "plan power 0.845, calibrated by simulation: type I at most alpha, "
                                   "power at least power") !=
        std::string::npos);
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    INFO(line);
    CHECK(line.size() <= 100);
  }
}

TEST_CASE("design: JSON keeps its fields; a simulation is seeded and from the runner's test",
          "[design]") {
  const auto r =
      schedlab_cmd({"design", "--alpha", "0.05",      "--power",    "0.8",    "--min-effect",
                    "3",      "--cv",    "2",         "--spending", "pocock", "--min",
                    "5",      "--max",   "40",        "--simulate", "300",    "--seed",
                    "7",      "--dist",  "lognormal", "--format",   "json"});
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["fixed_n"] == 9);  // ceiling of power.t.test's 8.06
  const auto& looks = j["looks"];
  REQUIRE(looks.size() >= 2);
  CHECK(looks[0]["n"] == 5);
  CHECK(looks.back()["n"] == j["max_n"]);
  // CV 2%, min 5: not settled at the first look (8 degrees of freedom), so
  // all of the nominal alpha x 0.80, calibrated at alpha 0.05 and power 0.8
  // (the table has no short row).
  CHECK_THAT(looks.back()["alpha_spent"].get<double>(), Catch::Matchers::WithinAbs(0.04, 1e-12));
  CHECK_THAT(j["calibration"]["nominal_alpha"].get<double>(),
             Catch::Matchers::WithinAbs(0.04, 1e-12));
  CHECK(j["calibration"]["calibrated"] == true);
  CHECK(j["calibration"]["short"] == false);
  CHECK(looks[0].contains("n_over_needed_n"));
  const double h0 = j["asn"]["h0"], h1 = j["asn"]["h1"], h1x2 = j["asn"]["h1x2"];
  CHECK(h1x2 < h1);
  CHECK(h1 <= j["max_n"].get<double>());
  CHECK(h0 >= 5);
  const auto& s = j["simulated"];
  CHECK(s["trials"] == 300);
  for (const char* key : {"type1", "power", "mean_n_h0", "mean_n_h1", "mean_n_h1x2"})
    CHECK(s.contains(key));
  CHECK(s["power"].get<double>() > 0.6);
  CHECK(s["type1"].get<double>() < 0.15);
  CHECK(s["mean_n_h1x2"].get<double>() < s["mean_n_h1"].get<double>());
  // The same seed gives the same figures.
  const auto again =
      schedlab_cmd({"design", "--cv", "2", "--spending", "pocock", "--min", "5", "--max", "40",
                    "--simulate", "300", "--seed", "7", "--dist", "lognormal", "--format", "json"});
  REQUIRE(again.exit_code == 0);
  CHECK(again.out == r.out);
}

TEST_CASE("design: the spending fraction reads as n over the needed n, past 1 at the last look",
          "[design]") {
  // CV 1%: the needed n is 3.21 a side; the last look comes at 4, 4 / 3.21 = 1.2462 of it.
  const auto text = schedlab_cmd({"design", "--cv", "1"});
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("look iterations  n/needed  bound |z|") != std::string::npos);
  CHECK(text.out.find("   2          4    1.2462") != std::string::npos);
  CHECK(test::one_line(text.out).find(
            "n/needed: the spending fraction, the look's n over the needed n the look before "
            "planned (the first's: at most 1/10 of its own); past 1 when whole iterations pass "
            "it, and the last look spends all the alpha left") != std::string::npos);
  const auto json = schedlab_cmd({"design", "--cv", "1", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.out);
  const auto& last = j["looks"].back();
  CHECK(!last.contains("fraction"));
  CHECK_THAT(last["n_over_needed_n"].get<double>(), Catch::Matchers::WithinAbs(1.2462, 1e-4));
}

TEST_CASE("design: a level not calibrated at the design's alpha and power is said",
          "[design][simulation]") {
  struct Case {
    const char* option;
    const char* value;
    const char* nearest;  // "" when calibrated
  };
  for (const Case& c : {Case{"--alpha", "0.02", "alpha 0.01, power 0.8"},
                        Case{"--power", "0.85", "alpha 0.05, power 0.8"},
                        Case{"--alpha", "0.1", ""}, Case{"--power", "0.9", ""}}) {
    INFO(c.option << " " << c.value);
    const auto r = schedlab_cmd({"design", "--cv", "4", c.option, c.value});
    REQUIRE(r.exit_code == 0);
    const std::string text = test::one_line(r.out);
    if (*c.nearest != '\0')
      CHECK(text.find(std::string("not calibrated at this alpha and power: the level calibrated "
                                  "at ") +
                      c.nearest + " (type I and power here unmeasured)") != std::string::npos);
    else
      CHECK(text.find("calibrated by simulation: type I at most alpha") != std::string::npos);
    const auto j = schedlab_cmd({"design", "--cv", "4", c.option, c.value, "--format", "json"}).out;
    CHECK(nlohmann::json::parse(j)["calibration"]["calibrated"] == (*c.nearest == '\0'));
  }
}

TEST_CASE("design: a cap before the needed n is said, with the power it leaves", "[design]") {
  const auto r = schedlab_cmd({"design", "--cv", "10", "--max", "60"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("note: the cap (60) comes before the needed n: power at min_effect falls to") !=
        std::string::npos);
}

TEST_CASE(
    "design: looks a --min or a cap sets have no rpact figure; averages stay within the looks",
    "[design]") {
  // hostile8 A1: rpact's figure is for the looks' proportions n_k / max_n at
  // its own maximum n (28.79 here, below the first look's 60): not these looks.
  const auto past = schedlab_cmd({"design", "--cv", "4", "--min", "60", "--max", "61"});
  REQUIRE(past.exit_code == 0);
  CHECK(past.out.find("(rpact: n/a; --min is past the needed n)") != std::string::npos);
  CHECK(test::one_line(past.out).find("note: the first look (60 iterations, --min) is past the "
                                      "needed n (31.84): it still spends as the first of 10 "
                                      "planned looks (n/needed 0.1), and the next look spends "
                                      "the rest") != std::string::npos);
  const auto capped = schedlab_cmd({"design", "--cv", "999", "--min-effect", "99.9"});
  REQUIRE(capped.exit_code == 0);
  CHECK(capped.out.find("(rpact: n/a; the cap comes before the needed n)") != std::string::npos);
  const auto planned = schedlab_cmd({"design", "--cv", "4"});
  CHECK(planned.out.find("(rpact: 22.98; efficacy only, same spending, same n_k / max_n)") !=
        std::string::npos);
  CHECK(planned.out.find("past the needed n") == std::string::npos);
  for (const std::string& out : {past.out, capped.out, planned.out})
    CHECK(test::wider_line(out).empty());
  // The normal-theory sum rounded to 51.0000185 over a maximum of 51, and
  // 3.0000011 over 3 at CV 0.6% with min 2: an average of the looks' n lies
  // between the first and the last.
  const std::vector<std::vector<std::string>> cases{{"--cv", "4", "--min", "50", "--max", "60"},
                                                    {"--cv", "0.6", "--min", "2"}};
  for (const auto& options : cases) {
    std::vector<std::string> args{"design", "--format", "json"};
    args.insert(args.end(), options.begin(), options.end());
    const auto r = schedlab_cmd(args);
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    const double first = j["looks"][0]["n"], last = j["max_n"];
    for (const char* key : {"h0", "h1", "h1x2"}) {
      INFO(options[1] << " " << key);
      CHECK(j["asn"][key].get<double>() >= first);
      CHECK(j["asn"][key].get<double>() <= last);
    }
  }
}

TEST_CASE("design: a fixed n past ten million is printed, not refused as none", "[design]") {
  // hostile9: a 0.01% effect at a CV of 999% printed "no fixed n reaches
  // that power" and exit 2; power.t.test's n is 1.57e11, and the design at
  // the default cap says what that cap leaves.
  const auto r = schedlab_cmd({"design", "--cv", "999", "--min-effect", "0.01"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("fixed n of equal power: 156663796477 iterations a side (R's power.t.test n: "
                   "156663796476.16)") != std::string::npos);
  CHECK(r.out.find("note: the cap (60) comes before the needed n") != std::string::npos);
  const auto j =
      schedlab_cmd({"design", "--cv", "999", "--min-effect", "0.01", "--format", "json"});
  REQUIRE(j.exit_code == 0);
  CHECK(nlohmann::json::parse(j.out)["fixed_n"] == 156663796477);
}

TEST_CASE("design: bad options are one line and exit 2", "[design]") {
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  const Case cases[] = {
      {{"design"}, "--cv is required"},
      {{"design", "--cv", "0"}, "must be a number in (0, 1000), not '0'"},
      {{"design", "--cv", "4", "--alpha", "0.7"}, "must be a number in (0, 0.5), not '0.7'"},
      {{"design", "--cv", "4", "--power", "x"}, "must be a number in (0.5, 1), not 'x'"},
      {{"design", "--cv", "4", "--spending", "kd(9)"},
       "unknown spending function 'kd(9)'; known: obf, pocock, kd(RHO) (RHO from 0.5 to 5)"},
      {{"design", "--cv", "4", "--min", "5", "--max", "4"}, "--max (4) is below --min (5)"},
      {{"design", "--cv", "4", "--seed", "3"}, "--seed requires --simulate"},
      {{"design", "--cv", "4", "--simulate", "10", "--dist", "cauchy"}, "cauchy"},
      {{"design", "--cv", "4", "--format", "csv"}, "unknown format 'csv'"},
      // Hostile9 D2, D3: a seed of -1 wrapped to 2^64 - 1; a subnormal CV
      // squared to 0 and printed "nan".
      {{"design", "--cv", "4", "--simulate", "10", "--seed", "-1"}, "--seed"},
      {{"design", "--cv", "0x1p-1074"}, "the CV must be from 1e-06 % to under 1000 %"},
      // Work past the stated bound is refused before it starts (issue 44:
      // ten million trials of a million iterations ran for ever).
      {{"design", "--cv", "4", "--simulate", "10000000", "--max", "1000000"},
       "--simulate takes --max up to 10000 (not 1000000): a trial's looks read every sample"},
      {{"design", "--cv", "4", "--simulate", "100000"},
       "--simulate 100000 with --max 60 is 6e+06 iterations a side a change; the bound is "
       "2000000 (trials x --max)"},
      // Issue 44: the margin the plan adds is no option of the user's.
      {{"design", "--cv", "4", "--power", "0.999999"},
       "power must be below 0.965 (the plan asks for 0.035 more, a margin for estimated "
       "variances, and that must stay below 1), not 0.999999"},
  };
  for (const auto& c : cases) {
    INFO(c.args.back());
    const auto r = schedlab_cmd(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.starts_with("schedlab design: "));
    CHECK(test::one_line(r.err).find(test::one_line(c.error)) != std::string::npos);
    CHECK(test::message_count(r.err) == 1);
  }
}

TEST_CASE(
    "design: a seed is an integer 0..2^64-1 in digits, else quoted escaped and cut (issue 44)",
    "[design]") {
  const std::string stated = "must be an integer from 0 to 18446744073709551615 written in digits";
  struct Case {
    std::string seed;
    std::string quoted;
  };
  // Hostile13 #14: "-1" printed a 310-digit bound; "1e23" became 2^64 - 1.
  const Case cases[] = {
      {"-1", "'-1'"},
      {"1e23", "'1e23'"},
      {"18446744073709551616", "'18446744073709551616'"},
      {"+5", "'+5'"},
      {"0x10", "'0x10'"},
      {"7.0", "'7.0'"},
      {"\x1b]0;pwned\x07", "'\\x1b]0;pwned\\x07'"},
      {std::string(100'000, '9'), "'" + std::string(40, '9') + "... (100000 characters)'"},
  };
  for (const auto& c : cases) {
    INFO(c.seed.substr(0, 40));
    const auto r = schedlab_cmd({"design", "--cv", "4", "--simulate", "10", "--seed", c.seed});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.starts_with("schedlab design: "));
    CHECK(r.err.find(stated) != std::string::npos);
    CHECK(r.err.find(c.quoted) != std::string::npos);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK(r.err.size() < 400);
    CHECK(test::message_count(r.err) == 1);
  }
  for (const std::string seed : {"0", "18446744073709551615"}) {
    INFO(seed);
    const auto r = schedlab_cmd({"design", "--cv", "4", "--simulate", "10", "--seed", seed});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
  }
}

TEST_CASE("design: --help states the simulation's bound and why", "[design]") {
  const auto r = schedlab_cmd({"design", "--help"});
  CHECK(r.exit_code == 0);
  CHECK(test::one_line(r.out).find("TRIALS x --max at most 2000000 and --max at most 10000: "
                                   "minutes at most, with progress on a terminal") !=
        std::string::npos);
}

TEST_CASE("design: --simulate shows its trials and an ETA on a terminal (hostile11/12)",
          "[design][simulation]") {
  // hostile11: 200 trials at --max 10000 ran ~13 minutes with nothing shown.
  // On a terminal the line shows, and Ctrl-C ends it.
  const auto r = test::schedlab_on_terminal(
      {"design", "--cv", "999", "--min", "2", "--max", "10000", "--simulate", "200"}, "ETA", "\x03",
      std::chrono::seconds(60));
  INFO(r.output);
  CHECK(r.answered);
  CHECK(r.output.find("simulating: 1/600 trials  ETA ") != std::string::npos);
  CHECK(r.exit_code != 0);
  // A short one erases its line and prints the design; off a terminal
  // (the other cases here) stderr stays empty.
  const auto done = test::schedlab_on_terminal(
      {"design", "--cv", "5", "--max", "20", "--simulate", "30"}, "never shown", "");
  INFO(done.output);
  CHECK(done.exit_code == 0);
  CHECK(done.output.find("simulating: 90/90 trials  ETA 0s\r\x1b[K") != std::string::npos);
  CHECK(done.output.find("simulated: 30 trials a change") != std::string::npos);
  const auto plain = schedlab_cmd({"design", "--cv", "5", "--max", "20", "--simulate", "30"});
  CHECK(plain.exit_code == 0);
  CHECK(plain.err.empty());
}

TEST_CASE("design: alpha near power (0.49, 0.51) gives a design, not a solver's exception",
          "[design]") {
  // Issue 44: the efficacy-only comparison's root lay below the solver's
  // bracket: "boost::math::tools::toms748_solve ... do not bracket the root".
  const auto r = schedlab_cmd({"design", "--cv", "4", "--alpha", "0.49", "--power", "0.51"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(
      r.out.find("design: alpha 0.49 (two-sided), power 0.51 at a change of 3% with a CV of 4%") !=
      std::string::npos);
  CHECK(r.out.find("efficacy only, same spending, same n_k / max_n") != std::string::npos);
}

// --plan-cv: the looks a config's plan_cv_pct takes, the same at any true
// CV, with the level calibrated at them; said in the text.
TEST_CASE("design: --plan-cv plans the looks from a stated CV, as plan_cv_pct does",
          "[design][simulation]") {
  const auto stated = schedlab_cmd({"design", "--cv", "4", "--plan-cv", "4", "--format", "json"});
  REQUIRE(stated.exit_code == 0);
  const auto j = nlohmann::json::parse(stated.out);
  CHECK(j["plan_cv_pct"] == 4);
  CHECK(j["calibration"]["calibrated"] == true);
  CHECK(j["calibration"]["settled"] == false);
  CHECK(j["calibration"]["paths"] == 40000);
  CHECK(j["calibration"]["alpha_ratio"].get<double>() <= 1);
  CHECK(j["calibration"]["paths_type1"].get<double>() <= 0.05);
  CHECK_THAT(j["looks"].back()["alpha_spent"].get<double>(),
             Catch::Matchers::WithinAbs(j["calibration"]["nominal_alpha"].get<double>(), 1e-12));
  // Without --plan-cv the looks follow the samples: no plan_cv_pct.
  const auto usual = schedlab_cmd({"design", "--cv", "4", "--format", "json"});
  CHECK_FALSE(nlohmann::json::parse(usual.out).contains("plan_cv_pct"));

  const auto text = schedlab_cmd({"design", "--cv", "8", "--plan-cv", "4"});
  REQUIRE(text.exit_code == 0);
  const std::string one = test::one_line(text.out);
  // The same looks at a true CV of 8%: planned from the stated 4%.
  CHECK(one.find("maximum n: " + j["max_n"].dump() + " iterations a side") != std::string::npos);
  CHECK(one.find("the looks are planned from a stated CV of 4% (plan_cv_pct), whatever the samples "
                 "say;") != std::string::npos);
  CHECK(one.find("calibrated at these looks by 40000 seeded paths under no change") !=
        std::string::npos);
  CHECK(one.find("power at min_effect holds only near a CV of 4%") != std::string::npos);
  std::istringstream lines(text.out);
  std::string line;
  while (std::getline(lines, line)) {
    INFO(line);
    CHECK(line.size() <= 100);
  }
  for (const auto& [args, error] :
       {std::pair{std::vector<std::string>{"design", "--cv", "10", "--plan-cv", "10"},
                  "a CV of 10% plans looks up to 194 iterations a side, past --max (60)"},
        {std::vector<std::string>{"design", "--cv", "4", "--plan-cv", "0.001"},
         "plan_cv_pct must be from 0.01 to under 1000 (% of the mean), not 0.001"},
        {std::vector<std::string>{"design", "--cv", "4", "--plan-cv", "x"},
         "must be a number in (0, 1000), not 'x'"}}) {
    const auto r = schedlab_cmd(args);
    CHECK(r.exit_code == 2);
    CHECK(test::one_line(r.err).find(error) != std::string::npos);
  }
}
