// Reading a DAG from a file (docs/simulation.md, "DAG files").
//
// Text (any name but *.json): one declaration per line, '#' starts a comment.
//   node <name> <work>
//   edge <from> <to>
// JSON (*.json):
//   {"nodes": [{"id": "a", "work": 5}, ...], "edges": [["a", "b"], ...]}
// Names are any tokens (JSON: strings or integers); work is positive.
#pragma once

#include <string>

#include "llvm/Support/Error.h"

#include "Dag.h"

namespace cilkpp::sim {

// Errors carry "file:line: error: ..." (text) or "file: error: ..." (JSON).
llvm::Expected<Dag> readDagFile(const std::string &path);
llvm::Expected<Dag> parseDagText(const std::string &text,
                                 const std::string &name);
llvm::Expected<Dag> parseDagJson(const std::string &text,
                                 const std::string &name);

} // namespace cilkpp::sim
