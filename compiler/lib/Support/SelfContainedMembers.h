// Members whose class is defined in another file: the usual header/source
// split, `long Tree::count(int d) { ... }` in the .cilkpp file, `class Tree`
// in tree.h. The translator cannot declare the member's frame and clones in
// the class, so they are local classes in the member's own body, which
// share the member's access to the class; the frame's signature tables are
// a class template at namespace scope, instantiated with the local class
// (ProcedureEmitter's emitSelfContainedMember). Spawns of the member from
// other procedures call it as a plain function (its own spawns still run as
// a cilk procedure's, under a nested root call); its spawns of itself call
// its fast clone.
#pragma once

#include "clang/AST/Decl.h"

namespace cilkpp {

// Whether FD is a member function of a non-template class whose definition
// is not in the main file.
bool isSelfContainedMember(const clang::FunctionDecl *FD);

}  // namespace cilkpp
