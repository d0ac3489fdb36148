// Runtime settings read from CILKPP_* environment variables.
//
// The parser is a pure function over the environment entries so tests can
// drive it without touching the real environment or exiting the process.
#pragma once

#include <string>
#include <vector>

namespace cilkpp::rt {

struct Config {
  unsigned nworkers = 1;  // CILKPP_NWORKERS: worker threads including worker 0
  bool stats = false;     // CILKPP_STATS: print per-worker statistics at exit
};

struct ConfigResult {
  Config config;
  std::vector<std::string> warnings;  // complete lines, without newline
  std::string error;                  // empty when every setting parsed
};

// envp: "NAME=VALUE" entries terminated by nullptr (the shape of environ).
// hardware_threads: the default worker count (0 is taken as 1).
ConfigResult parse_config(const char *const *envp, unsigned hardware_threads);

// parse_config(environ, ...) with warnings printed; prints the error and
// exits with status 2 on a bad value.
Config load_config_or_exit();

}  // namespace cilkpp::rt
