// CILKPP_* environment parsing and the statistics report format.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "config.h"
#include "stats.h"

namespace {

using namespace cilkpp::rt;

ConfigResult parse(std::vector<std::string> entries, unsigned cpus = 8) {
  std::vector<const char *> envp;
  for (const std::string &e : entries) envp.push_back(e.c_str());
  envp.push_back(nullptr);
  return parse_config(envp.data(), cpus);
}

TEST(Config, DefaultsWithoutVariables) {
  ConfigResult r = parse({"PATH=/bin", "HOME=/root"}, 6);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.config.nworkers, 6u);
  EXPECT_FALSE(r.config.stats);
}

TEST(Config, DefaultWorkerCountIsAtLeastOne) {
  EXPECT_EQ(parse({}, 0).config.nworkers, 1u);
  EXPECT_EQ(parse({}, 5000).config.nworkers, 1024u);
}

TEST(Config, ValidValues) {
  ConfigResult r = parse({"CILKPP_NWORKERS=3", "CILKPP_STATS=1"});
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.config.nworkers, 3u);
  EXPECT_TRUE(r.config.stats);
  EXPECT_EQ(parse({"CILKPP_NWORKERS=1"}).config.nworkers, 1u);
  EXPECT_EQ(parse({"CILKPP_NWORKERS=1024"}).config.nworkers, 1024u);
  EXPECT_FALSE(parse({"CILKPP_STATS=0"}).config.stats);
}

TEST(Config, BadWorkerCounts) {
  for (const char *v : {"abc", "", " 4", "4 ", "4x", "0", "1025", "-1", "+4", "99999999999999999999", "0x10", "4.0"}) {
    ConfigResult r = parse({std::string("CILKPP_NWORKERS=") + v});
    EXPECT_EQ(r.error, std::string("cilkpp: error: CILKPP_NWORKERS='") + v +
                           "' is not an integer between 1 and 1024")
        << "value '" << v << "'";
  }
}

TEST(Config, OpenCilkWorkerCountCountsWhereCilkppWorkerCountIsUnset) {
  EXPECT_EQ(parse({"CILK_NWORKERS=3"}).config.nworkers, 3u);
  EXPECT_EQ(parse({"CILK_NWORKERS=3", "CILKPP_NWORKERS=5"}).config.nworkers, 5u);
  EXPECT_EQ(parse({"CILKPP_NWORKERS=5", "CILK_NWORKERS=3"}).config.nworkers, 5u);
  EXPECT_EQ(parse({"CILK_NWORKERS=0"}).error, "cilkpp: error: CILK_NWORKERS='0' is not an integer between 1 and 1024");
  // (Not one of ours: no unknown-variable warning.)
  EXPECT_TRUE(parse({"CILK_NWORKERS=2"}).warnings.empty());
  // A bad value of a variable that does not count is not an error.
  EXPECT_EQ(parse({"CILK_NWORKERS=x", "CILKPP_NWORKERS=2"}).error, "");
}

TEST(Config, SchedulerDefaultsAreEcsWithBetaTwoAndFullSpeed) {
  ConfigResult r = parse({});
  EXPECT_EQ(r.config.policy, Policy::ecs);
  EXPECT_EQ(r.config.beta, 2.0);
  EXPECT_TRUE(r.config.speeds.empty());
}

TEST(Config, PolicyBetaAndSpeeds) {
  ConfigResult r = parse({"CILKPP_POLICY=cilk", "CILKPP_BETA=1.5", "CILKPP_SPEEDS=1,0.25,alt:50ms:0.1-0.5"});
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.config.policy, Policy::cilk);
  EXPECT_EQ(r.config.beta, 1.5);
  ASSERT_EQ(r.config.speeds.size(), 3u);
  EXPECT_TRUE(r.config.speeds[0].full_speed());
  EXPECT_EQ(r.config.speeds[1].fraction, 0.25);
  EXPECT_FALSE(r.config.speeds[1].alternating());
  EXPECT_TRUE(r.config.speeds[2].alternating());
  EXPECT_EQ(r.config.speeds[2].mean_ms, 50.0);
  EXPECT_EQ(r.config.speeds[2].low, 0.1);
  EXPECT_EQ(r.config.speeds[2].high, 0.5);
  EXPECT_EQ(parse({"CILKPP_POLICY=ecs"}).config.policy, Policy::ecs);
  EXPECT_EQ(parse({"CILKPP_BETA=1e3"}).config.beta, 1000.0);
  EXPECT_EQ(parse({"CILKPP_BETA=1e9"}).config.beta, 1e9);  // never mugs, in effect
}

TEST(Config, BadSchedulerSettings) {
  for (const char *v : {"", "ECS", "classic", "ecs "}) {
    EXPECT_EQ(parse({std::string("CILKPP_POLICY=") + v}).error,
              std::string("cilkpp: error: CILKPP_POLICY='") + v + "' is not ecs or cilk");
  }
  for (const char *v : {"", "1", "0.5", "-2", "abc", "2x", " 2", "inf", "nan", "0x2", "1e400"}) {
    EXPECT_EQ(parse({std::string("CILKPP_BETA=") + v}).error,
              std::string("cilkpp: error: CILKPP_BETA='") + v + "' is not a number greater than 1")
        << "value '" << v << "'";
  }
  for (const char *v : {"", "0", "1.5", "-0.5", "1e-10", "0.0009", "1,,1", "1,", "0.5 ", "alt:50:0.1-0.5",
                        "alt:50ms:0.5-0.1", "alt:0ms:0.1-0.5", "alt:50ms:0.1", "alt:50ms:0-0.5", "fast"}) {
    EXPECT_EQ(parse({std::string("CILKPP_SPEEDS=") + v}).error,
              std::string("cilkpp: error: CILKPP_SPEEDS='") + v +
                  "' is not a comma-separated list of speeds, each a fraction in [0.001, 1] or alt:MEANms:LOW-HIGH")
        << "value '" << v << "'";
  }
}

TEST(Config, SlowestSpeedIsAThousandth) { EXPECT_EQ(parse({"CILKPP_SPEEDS=0.001"}).config.speeds[0].fraction, 0.001); }

TEST(Config, ErrorQuotesControlCharactersAsEscapes) {
  EXPECT_EQ(parse({"CILKPP_NWORKERS=2\n"}).error,
            "cilkpp: error: CILKPP_NWORKERS='2\\n' is not an integer between 1 and 1024");
  EXPECT_EQ(parse({"CILKPP_POLICY=\x01" "ecs"}).error, "cilkpp: error: CILKPP_POLICY='\\x01ecs' is not ecs or cilk");
}

TEST(Config, TraceFile) {
  EXPECT_EQ(parse({}).config.trace_path, "");
  EXPECT_EQ(parse({"CILKPP_TRACE=/tmp/t.txt"}).config.trace_path, "/tmp/t.txt");
  EXPECT_EQ(parse({"CILKPP_TRACE="}).error, "cilkpp: error: CILKPP_TRACE='' is not a file name");
}

TEST(Config, CanonicalCheckIsAFlag) {
  EXPECT_FALSE(parse({}).config.canonical_check);
  EXPECT_TRUE(parse({"CILKPP_CANONICAL_CHECK=1"}).config.canonical_check);
  EXPECT_FALSE(parse({"CILKPP_CANONICAL_CHECK=0"}).config.canonical_check);
  EXPECT_EQ(parse({"CILKPP_CANONICAL_CHECK=yes"}).error,
            "cilkpp: error: CILKPP_CANONICAL_CHECK='yes' is not 0 or 1");
}

TEST(Config, MoreSpeedsThanWorkersIsAnError) {
  EXPECT_EQ(parse({"CILKPP_NWORKERS=2", "CILKPP_SPEEDS=1,1,0.5"}).error,
            "cilkpp: error: CILKPP_SPEEDS gives 3 speeds for 2 workers");
  EXPECT_EQ(parse({"CILKPP_NWORKERS=1", "CILKPP_SPEEDS=0.3,1"}).error,
            "cilkpp: error: CILKPP_SPEEDS gives 2 speeds for 1 worker");
  EXPECT_EQ(parse({"CILKPP_NWORKERS=3", "CILKPP_SPEEDS=1,0.5"}).error, "");
}

TEST(Config, BadFlags) {
  for (const char *v : {"2", "", "yes", "true", " 1", "1 ", "01"}) {
    ConfigResult r = parse({std::string("CILKPP_STATS=") + v});
    EXPECT_EQ(r.error, std::string("cilkpp: error: CILKPP_STATS='") + v + "' is not 0 or 1") << "value '" << v << "'";
  }
}

TEST(Config, UnknownVariableWarnsAndIsIgnored) {
  ConfigResult r = parse({"CILKPP_FOO=1", "CILKPP_NWORKERS=2", "CILKPPX=1", "MY_CILKPP_BAR=1"});
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "cilkpp: warning: unknown environment variable CILKPP_FOO (ignored)");
  EXPECT_EQ(r.config.nworkers, 2u);
}

TEST(Config, NamesAreCaseSensitive) {
  ConfigResult r = parse({"CILKPP_nworkers=2"});
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.config.nworkers, 8u);
}

TEST(Config, FirstErrorIsReported) {
  ConfigResult r = parse({"CILKPP_STATS=x", "CILKPP_NWORKERS=y"});
  EXPECT_EQ(r.error, "cilkpp: error: CILKPP_STATS='x' is not 0 or 1");
}

TEST(ConfigDeathTest, BadValueExitsWithStatus2) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("CILKPP_NWORKERS", "abc", 1);
        load_config_or_exit(4);
      },
      ::testing::ExitedWithCode(2), "cilkpp: error: CILKPP_NWORKERS='abc' is not an integer between 1 and 1024");
}

TEST(Stats, HeaderSaysWhenThereAreMoreWorkersThanCpus) {
  EXPECT_EQ(format_stats({WorkerStats{}}, 1, true).substr(0, 31), "cilkpp stats: 1 worker on 1 CPU");
  const std::string report = format_stats({WorkerStats{}, WorkerStats{}, WorkerStats{}}, 2, true);
  EXPECT_EQ(report.substr(0, report.find('\n')),
            "cilkpp stats: 3 workers on 2 CPUs (oversubscribed: idle workers yield the CPU early)");
}

TEST(Stats, ReportHasOneRowPerWorkerAndATotal) {
  WorkerStats a, b;
  a.spawns = 40;
  a.exposures = 7;
  a.steals = 1;
  a.failed_steals = 5;
  a.moves = 2;
  a.ns_working = 2'500'000;
  a.muggings = 4;
  a.speed_measured = true;
  a.speed_min = 0.9;
  a.speed_avg = 0.97;
  a.speed_max = 1;
  b.spawns = 2;
  b.steals = 3;
  b.mugged = 4;
  b.ns_idle = 1'000'000;
  b.speed_measured = true;
  b.speed_min = 0.2;
  b.speed_avg = 0.25;
  b.speed_max = 0.31;
  const std::string report = format_stats({a, b}, 2, true);
  EXPECT_EQ(report,
            "cilkpp stats: 2 workers on 2 CPUs\n"
            "worker   spawns  exposed   steals   failed  moved  work_ms  steal_ms  idle_ms   mugs mugged spd_min spd_avg spd_max\n"
            "     0       40        7        1        5      2      2.5       0.0      0.0      4      0    0.90    0.97    1.00\n"
            "     1        2        0        3        0      0      0.0       0.0      1.0      0      4    0.20    0.25    0.31\n"
            " total       42        7        4        5      2      2.5       0.0      1.0      4      4       -       -       -\n");
}

TEST(Stats, SpawnsColumnIsADashWhereNoCodeCountsSpawns) {
  WorkerStats a;
  a.steals = 1;
  const std::string report = format_stats({a}, 1, false);
  EXPECT_EQ(report,
            "cilkpp stats: 1 worker on 1 CPU\n"
            "(spawns are counted in code built with cilkpp -fcilkpp-count-spawns)\n"
            "worker   spawns  exposed   steals   failed  moved  work_ms  steal_ms  idle_ms   mugs mugged spd_min spd_avg spd_max\n"
            "     0        -        0        1        0      0      0.0       0.0      0.0      0      0       -       -       -\n"
            " total        -        0        1        0      0      0.0       0.0      0.0      0      0       -       -       -\n");
}

TEST(Stats, ClockChargesTheActivityBeingLeft) {
  WorkerStats s;
  ActivityClock clock;
  auto let_time_pass = [] {
    const auto t0 = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() == t0) {
    }
  };
  let_time_pass();
  clock.enter(Activity::working, s);  // from none: nothing charged
  EXPECT_EQ(s.ns_working + s.ns_stealing + s.ns_idle, 0u);
  let_time_pass();
  clock.enter(Activity::stealing, s);
  EXPECT_GT(s.ns_working, 0u);
  EXPECT_EQ(s.ns_stealing, 0u);
  clock.enter(Activity::stealing, s);  // no change: nothing charged yet
  EXPECT_EQ(s.ns_stealing, 0u);
  let_time_pass();
  clock.enter(Activity::idle, s);
  EXPECT_GT(s.ns_stealing, 0u);
  let_time_pass();
  clock.enter(Activity::none, s);
  EXPECT_GT(s.ns_idle, 0u);
  EXPECT_EQ(clock.current(), Activity::none);
}

}  // namespace
