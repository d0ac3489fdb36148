// Parsing of the CILKPP_* environment variables.
//
// Every setting is one row in kSettings; a row names the variable, the
// member of Config it sets and how to parse it, so adding a setting is one
// line here plus the member in Config.
#include "config.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>

extern char **environ;

namespace cilkpp::rt {
namespace {

// Parses value into cfg; false (and nothing changed) when it is malformed.
using ParseFn = bool (*)(std::string_view value, Config &cfg);

struct Setting {
  const char *name;
  ParseFn parse;
  const char *expected;  // completes "NAME='v' is not ..."
};

// An integer in [Lo, Hi] written as plain decimal digits: no sign, no
// spaces, nothing after it, so "4x", " 4" and "" are all rejected.
template <auto Member, long Lo, long Hi>
bool integer(std::string_view value, Config &cfg) {
  if (value.empty() || value.front() < '0' || value.front() > '9') return false;
  long v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < Lo || v > Hi) return false;
  cfg.*Member = static_cast<std::remove_reference_t<decltype(cfg.*Member)>>(v);
  return true;
}

template <auto Member>
bool flag(std::string_view value, Config &cfg) {
  if (value != "0" && value != "1") return false;
  cfg.*Member = value == "1";
  return true;
}

// A finite decimal number using all of text; false otherwise.
bool number(std::string_view text, double &out) {
  if (text.empty() || text.front() == ' ' || text.front() == '+') return false;
  const std::string copy(text);  // strtod needs a terminator
  char *end = nullptr;
  out = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && std::isfinite(out) &&
         copy.find_first_of("xXpP") == std::string::npos;  // no hex floats
}

bool policy(std::string_view value, Config &cfg) {
  if (value == "ecs") cfg.policy = Policy::ecs;
  else if (value == "cilk") cfg.policy = Policy::cilk;
  else return false;
  return true;
}

bool beta(std::string_view value, Config &cfg) {
  double b = 0;
  if (!number(value, b) || !(b > 1.0)) return false;
  cfg.beta = b;
  return true;
}

// Below a thousandth an emulated worker hardly runs at all (a worker at
// 1e-10 never finished its first frame).
constexpr double kSlowestSpeed = 0.001;
bool fraction(std::string_view text, double &out) { return number(text, out) && out >= kSlowestSpeed && out <= 1.0; }

// "0.25" or "alt:50ms:0.1-0.5".
bool speed_schedule(std::string_view item, SpeedSchedule &out) {
  constexpr std::string_view kAlt = "alt:";
  if (item.substr(0, kAlt.size()) != kAlt) return fraction(item, out.fraction);
  item.remove_prefix(kAlt.size());
  const auto colon = item.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view mean = item.substr(0, colon), range = item.substr(colon + 1);
  if (mean.size() < 3 || mean.substr(mean.size() - 2) != "ms") return false;
  const auto dash = range.find('-');
  if (dash == std::string_view::npos) return false;
  return number(mean.substr(0, mean.size() - 2), out.mean_ms) && out.mean_ms > 0 && out.mean_ms <= 1e7 &&
         fraction(range.substr(0, dash), out.low) && fraction(range.substr(dash + 1), out.high) &&
         out.low <= out.high;
}

bool speeds(std::string_view value, Config &cfg) {
  std::vector<SpeedSchedule> parsed;
  for (;;) {
    const auto comma = value.find(',');
    SpeedSchedule s;
    if (!speed_schedule(value.substr(0, comma), s)) return false;
    parsed.push_back(s);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  if (parsed.size() > 1024) return false;
  cfg.speeds = std::move(parsed);
  return true;
}

bool trace_path(std::string_view value, Config &cfg) {
  if (value.empty()) return false;
  cfg.trace_path = std::string(value);
  return true;
}

constexpr auto parse_nworkers = integer<&Config::nworkers, 1, 1024>;
constexpr const char *kNworkersExpected = "an integer between 1 and 1024";

constexpr Setting kSettings[] = {
    {"CILKPP_NWORKERS", parse_nworkers, kNworkersExpected},
    {"CILKPP_STATS", flag<&Config::stats>, "0 or 1"},
    {"CILKPP_POLICY", policy, "ecs or cilk"},
    {"CILKPP_BETA", beta, "a number greater than 1"},
    {"CILKPP_SPEEDS", speeds,
     "a comma-separated list of speeds, each a fraction in [0.001, 1] or alt:MEANms:LOW-HIGH"},
    {"CILKPP_TRACE", trace_path, "a file name"},
    {"CILKPP_CANONICAL_CHECK", flag<&Config::canonical_check>, "0 or 1"},
};

constexpr std::string_view kPrefix = "CILKPP_";

// OpenCilk's name for the worker count, read where CILKPP_NWORKERS is not
// set, so that scripts written for OpenCilk programs keep their setting.
constexpr std::string_view kOpenCilkWorkers = "CILK_NWORKERS";

// The value as an error message quotes it, on one line: control characters
// as C escapes (`CILKPP_NWORKERS=$'2\n'`).
std::string printable(std::string_view value) {
  std::string out;
  for (const char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (u < 0x20 || u == 0x7f) {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", u);
      out += escaped;
    } else out += c;
  }
  return out;
}

}  // namespace

ConfigResult parse_config(const char *const *envp, unsigned cpus) {
  ConfigResult result;
  result.config.nworkers = cpus == 0 ? 1 : (cpus > 1024 ? 1024 : cpus);
  bool nworkers_given = false;
  std::optional<std::string_view> opencilk_workers;
  for (; envp && *envp; ++envp) {
    std::string_view entry(*envp);
    const auto eq = entry.find('=');
    const std::string_view name = entry.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : entry.substr(eq + 1);
    if (name == kOpenCilkWorkers) opencilk_workers = value;
    if (entry.substr(0, kPrefix.size()) != kPrefix) continue;
    nworkers_given |= name == "CILKPP_NWORKERS";
    const Setting *setting = nullptr;
    for (const Setting &s : kSettings)
      if (name == s.name) setting = &s;
    if (!setting) {
      result.warnings.push_back("cilkpp: warning: unknown environment variable " + std::string(name) +
                                " (ignored)");
      continue;
    }
    if (!setting->parse(value, result.config) && result.error.empty())
      result.error = "cilkpp: error: " + std::string(name) + "='" + printable(value) + "' is not " +
                     setting->expected;
  }
  if (opencilk_workers && !nworkers_given &&
      !parse_nworkers(*opencilk_workers, result.config) && result.error.empty())
    result.error = "cilkpp: error: " + std::string(kOpenCilkWorkers) + "='" + printable(*opencilk_workers) +
                   "' is not " + kNworkersExpected;
  if (result.error.empty() && result.config.speeds.size() > result.config.nworkers)
    result.error = "cilkpp: error: CILKPP_SPEEDS gives " + std::to_string(result.config.speeds.size()) +
                   " speeds for " + std::to_string(result.config.nworkers) +
                   (result.config.nworkers == 1 ? " worker" : " workers");
  return result;
}

Config load_config_or_exit(unsigned cpus) {
  ConfigResult r = parse_config(environ, cpus);
  for (const std::string &w : r.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  if (!r.error.empty()) {
    std::fprintf(stderr, "%s\n", r.error.c_str());
    std::exit(2);
  }
  // The trace is written at exit; a run that could not keep it should not
  // start (a long benchmark would lose it at the end).
  if (!r.config.trace_path.empty()) {
    std::FILE *probe = std::fopen(r.config.trace_path.c_str(), "w");
    if (!probe) {
      std::fprintf(stderr, "cilkpp: error: CILKPP_TRACE='%s' cannot be written: %s\n", r.config.trace_path.c_str(),
                   std::strerror(errno));
      std::exit(2);
    }
    std::fclose(probe);
  }
  return r.config;
}

}  // namespace cilkpp::rt
