// Parsing of the CILKPP_* environment variables.
//
// Every setting is one row in kSettings; a row names the variable, the
// member of Config it sets and how to parse it, so adding a setting is one
// line here plus the member in Config.
#include "config.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>
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

constexpr Setting kSettings[] = {
    {"CILKPP_NWORKERS", integer<&Config::nworkers, 1, 1024>, "an integer between 1 and 1024"},
    {"CILKPP_STATS", flag<&Config::stats>, "0 or 1"},
};

constexpr std::string_view kPrefix = "CILKPP_";

}  // namespace

ConfigResult parse_config(const char *const *envp, unsigned hardware_threads) {
  ConfigResult result;
  result.config.nworkers = hardware_threads == 0 ? 1 : (hardware_threads > 1024 ? 1024 : hardware_threads);
  for (; envp && *envp; ++envp) {
    std::string_view entry(*envp);
    if (entry.substr(0, kPrefix.size()) != kPrefix) continue;
    const auto eq = entry.find('=');
    const std::string_view name = entry.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : entry.substr(eq + 1);
    const Setting *setting = nullptr;
    for (const Setting &s : kSettings)
      if (name == s.name) setting = &s;
    if (!setting) {
      result.warnings.push_back("cilkpp: warning: unknown environment variable " + std::string(name) +
                                " (ignored)");
      continue;
    }
    if (!setting->parse(value, result.config) && result.error.empty())
      result.error = "cilkpp: error: " + std::string(name) + "='" + std::string(value) + "' is not " +
                     setting->expected;
  }
  return result;
}

Config load_config_or_exit() {
  ConfigResult r = parse_config(environ, std::thread::hardware_concurrency());
  for (const std::string &w : r.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  if (!r.error.empty()) {
    std::fprintf(stderr, "%s\n", r.error.c_str());
    std::exit(2);
  }
  return r.config;
}

}  // namespace cilkpp::rt
