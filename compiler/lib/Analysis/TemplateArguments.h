// Types that instantiate templates that spawn but have no name outside their
// function. Each instantiation's translation is an explicit specialization
// that must spell its template arguments, so these are given names first: a
// lambda becomes a named closure class (BodyOutlining.h), a class declared
// in a function moves out of it (LocalTypeHoisting.h).
#pragma once

#include "Dialect/Keywords.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SetVector.h"

namespace cilkpp {

struct UnnamedTemplateArguments {
  llvm::SetVector<const clang::CXXRecordDecl *> Closures;  // closure types
  llvm::SetVector<const clang::TagDecl *> LocalTypes;      // classes and enums declared in functions
};

// Found among the template arguments, or inside them (`std::pair<int, L>`),
// of the instantiations (of function templates and of class templates whose
// members are instantiated) whose template's body holds a keyword.
UnnamedTemplateArguments unnamedTemplateArguments(clang::ASTContext &Ctx, llvm::ArrayRef<KeywordUse> Uses);

}  // namespace cilkpp
