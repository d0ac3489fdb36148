// Names of generated entities and the printing of types and parameters.
#pragma once

#include "Support/Nameable.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace cilkpp {

struct FrameField;

// Names for declarations a rewriting round adds to the file: Base, else
// Base_2, Base_3, ..., whichever the file's text does not contain and this
// round has not given out.
class FreshNames {
 public:
  explicit FreshNames(llvm::StringRef FileText) : FileText(FileText) {}
  std::string take(const std::string &Base);
  // The same for a declaration that another file (linked into the same
  // program, or joined in one unity build) may declare from the same line:
  // Base with the file's hash appended (`__cilkpp_lambda_4_1f2e3d4c`).
  std::string takeForThisFile(const std::string &Base);

 private:
  llvm::StringRef FileText;
  llvm::StringSet<> Used;
};

struct ProcedureNames {
  std::string Frame;   // the frame struct
  std::string Info;    // its FrameInfo (the frame on the heap)
  std::string StackInfo;  // its FrameInfo while on a fast clone's C stack
  std::string Resume;  // the resume clone
  std::string Fast;    // the fast clone (overloaded like the procedure)
  // A member function's frame and clones are members of its class, defined
  // at namespace scope: the qualifier naming them there ("C::"); empty for
  // other procedures. A self-contained member's are members of a local class
  // in its body (Support/SelfContainedMembers.h): "__cilkpp_m_clones::".
  std::string Scope;
  // A self-contained member's signature tables: the class template that
  // holds them (Info and StackInfo name its members); empty for others.
  std::string Tables;
};

// The fast clone past its leading base cases, where it has a head that runs
// them (ProcedureEmitter.cpp).
inline std::string fastTailName(const ProcedureNames &Names) { return Names.Fast + "_tail"; }

// A procedure's name as part of generated names: its own, or for an
// operator its kind (`operator_Call` for `operator()`).
std::string identifierFor(const clang::FunctionDecl *FD);

// OverloadIndex distinguishes procedures of the same name in one namespace
// or class.
ProcedureNames namesFor(const clang::FunctionDecl *FD, unsigned OverloadIndex);

// A member of a class template is named after its place among the members
// of its name in the template (0 for the first), so that the declarations
// generated in the template and every instantiation's definitions agree,
// whichever overloads an instantiation uses.
unsigned memberTemplateOverloadIndex(const clang::FunctionDecl *Pattern);

// The class whose `this` a procedure has, or nullptr.
const clang::CXXRecordDecl *thisClass(const clang::FunctionDecl *FD);

// The fast clone's name as seen from anywhere: ::ns::__cilkpp_f_fast, with
// template arguments for a function template (`<T>`) or an instantiation
// (`<int>`).
std::string qualifiedFastName(const clang::FunctionDecl *FD);

// `::ns::Vec` for a template used as a template template argument.
std::string templateNameQualified(clang::ASTContext &Ctx, clang::TemplateName Name);

// "<int, 4>" for an instantiation or explicit specialization, "<T, N>" for a
// function template, else "".
std::string templateArguments(const clang::FunctionDecl *FD);

// `template <> double sum<double>(...)`: a free function's explicit
// specialization, whose clones specialise the fast clone's template.
bool isExplicitSpecialization(const clang::FunctionDecl *FD);

// The class as generated code inside it names it: its injected name in a
// class template, else its fully qualified name.
std::string classInScope(clang::ASTContext &Ctx, const clang::CXXRecordDecl *RD);

// An instantiation of a member function template (whose frame and clones
// are specializations of member templates).
bool isMemberTemplateInstance(const clang::FunctionDecl *FD);

// For an instantiation, aliases that give the template's parameters their
// arguments, so the template's text means the instantiation inside a clone:
// "using T = int; constexpr auto N = 4; " (marked maybe_unused).
std::string templateParameterAliases(const clang::FunctionDecl *FD);

// From here on, typeQualified and declareQualified spell S.Type, a private
// or protected member type, as `::std::decay_t<decltype(call)>` after
// S.Source, a call that returns it (hiddenTypeSources): `decltype(
// ::std::declval<const ::std::ranges::iota_view<int, int> &>().begin())`;
// or as S.Written.
void nameHiddenType(clang::ASTContext &Ctx, const HiddenTypeSource &S);

// `T Name` with T fully qualified, valid at namespace scope.
std::string declareQualified(clang::ASTContext &Ctx, clang::QualType T, llvm::StringRef Name);

// `const C *__this` for a const member of C: how a member procedure's frame
// and clones declare the object they run on.
std::string declareThis(clang::ASTContext &Ctx, const clang::FunctionDecl *FD);
// `T Name` with T as the user wrote it, valid where the variable was declared.
std::string declareAsWritten(clang::ASTContext &Ctx, clang::QualType T, llvm::StringRef Name);
std::string typeQualified(clang::ASTContext &Ctx, clang::QualType T);
// Whether a declaration of T wraps the declared name (`int (*f)(int)`,
// `int (*a)[4]`, `int (S::*m)() const`): a function returning T is then
// declared with a trailing result type.
bool declaratorWrapsName(clang::ASTContext &Ctx, clang::QualType T);
// A function's result T, before and after `name(params)`: {"T", ""}, or
// {"auto", " -> T"} where T's declarator would wrap the name.
struct ResultSpelling {
  std::string Before, After;
};
ResultSpelling resultSpelling(clang::ASTContext &Ctx, clang::QualType T);
// T where only a simple type specifier may stand (a new-type-id, in place of
// `decltype(x)`): `::cilkpp::rt::id<T>` where T's declarator wraps a name.
std::string simpleTypeSpecifier(clang::ASTContext &Ctx, clang::QualType T);

// The default argument as written.
std::string defaultArgumentText(clang::ASTContext &Ctx, const clang::ParmVarDecl *P);

// "int n, const char *s" for the procedure's parameters, optionally with
// their default arguments; a fast clone's list (ForFastClone) takes the
// by-value parameters that passesByRvalueReference names as `T &&`.
// MaybeUnused: parameters declared [[maybe_unused]] besides those the
// clones always mark so.
std::string parameterList(clang::ASTContext &Ctx, const clang::FunctionDecl *FD, bool WithDefaults,
                          bool ForFastClone = false, llvm::ArrayRef<const clang::ParmVarDecl *> MaybeUnused = {});

// A by-value parameter of a class type that is not trivially copyable, as
// the fast clone takes it: by rvalue reference to the object its caller
// made (the public entry's parameter, a spawn's evaluated argument), so that
// only a frame that keeps it across a continuation point moves it. A type
// written dependent on a template parameter stays by value, as every
// specialization must declare the template's signature.
bool passesByRvalueReference(clang::ASTContext &Ctx, const clang::ParmVarDecl *P);

// "static ", "inline " as the procedure was declared ("template <> " first
// for an explicit specialization, which has no storage class).
std::string storagePrefix(const clang::FunctionDecl *FD);

// The name that declares FD again at namespace scope: `sum<double>` for an
// explicit specialization, else its name.
std::string redeclarationName(const clang::FunctionDecl *FD);

// Procedures without spawns leave them unused; -Wextra must stay quiet.
// The frame member that says whether a class-type field is alive: unwinding
// destroys exactly those, and the signature table tells the runtime.
std::string liveFlagName(const FrameField &F);

// A converted spawn result's field in the frame, and its flag: the result
// arrives there and is still to be converted into the spawn's variable.
std::string convertedResultName(unsigned Spawn);
std::string convertPendingName(unsigned Spawn);

// A run_root callback's parameters; a fast clone has these plus
// FastCloneOrderParameter.
inline constexpr const char *HiddenParameters =
    "[[maybe_unused]] ::cilkpp::rt::Worker *__w, [[maybe_unused]] ::cilkpp::rt::Frame *__parent, "
    "[[maybe_unused]] void *__slot";
// The same for a generic lambda, whose body is instantiated only when called.
inline constexpr const char *GenericHiddenParameters =
    "[[maybe_unused]] auto *__w, [[maybe_unused]] ::cilkpp::rt::Frame *__parent, [[maybe_unused]] void *__slot";

// The call's position among its parent's children, in serial order; only
// procedures that may throw read it (exceptions.h).
inline constexpr const char *FastCloneOrderParameter = "[[maybe_unused]] unsigned __seq";

}  // namespace cilkpp
