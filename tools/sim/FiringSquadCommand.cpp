// `cilkpp-sim firing-squad` (placeholder until the firing-squad schedulers land).
#include "Commands.h"

#include <iostream>

#include "llvm/Support/CommandLine.h"

namespace cilkpp::sim {
namespace {
llvm::cl::SubCommand FiringSquadCmd("firing-squad",
                                    "Bender-Phillips ALL vs LEVEL on shark-tooth graphs");
} // namespace

bool firingSquadSelected() { return bool(FiringSquadCmd); }

int runFiringSquadCommand() {
  std::cerr << "cilkpp-sim: error: firing-squad: not implemented yet\n";
  return 2;
}

} // namespace cilkpp::sim
