// Subcommands defined in their own files (each declares its llvm::cl
// SubCommand and options there).
#pragma once

namespace cilkpp::sim {

// `cilkpp-sim firing-squad`: Bender–Phillips' ALL and LEVEL on shark-tooth
// graphs (FiringSquadCommand.cpp).
bool firingSquadSelected();
int runFiringSquadCommand();

} // namespace cilkpp::sim
