#include "CodeGen/ProcedureEmitter.h"

#include "Analysis/ExceptionAnalysis.h"
#include "CodeGen/SourceText.h"

#include "clang/Basic/SourceManager.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

QualType fieldType(ASTContext &Ctx, QualType T) {
  if (T->isArrayType()) {
    Qualifiers Dropped;
    return Ctx.getUnqualifiedArrayType(T, Dropped);
  }
  return T.getUnqualifiedType();
}

// What a procedure that may throw keeps in its frame: its position among its
// parent's children, how many children it spawned, and which class-type
// fields are alive, so that unwinding destroys exactly those, latest first.
std::string exceptionState(const FrameDescription &Frame) {
  std::string Out = "  unsigned __cilkpp_seq;\n  unsigned __cilkpp_spawns = 0;\n";
  std::vector<const FrameField *> Managed;
  for (const FrameField &F : Frame.Fields)
    if (F.ManagedLifetime) Managed.push_back(&F);
  if (Managed.empty()) return Out;
  for (const FrameField *F : Managed) Out += fmt::format("  bool {} = false;\n", liveFlagName(*F));
  llvm::sort(Managed, [&](const FrameField *A, const FrameField *B) {
    return A->Var->getLocation() < B->Var->getLocation();
  });
  Out += "  void __cilkpp_destroy_live() noexcept {";
  for (auto It = Managed.rbegin(); It != Managed.rend(); ++It)
    Out += fmt::format(" if ({0}) {{ {0} = false; ::cilkpp::rt::destroy_field({1}); }}", liveFlagName(**It),
                       (*It)->Name);
  return Out + " }\n";
}

std::string frameDeclarations(ASTContext &Ctx, const FrameDescription &Frame, const ProcedureNames &Names) {
  const FunctionDecl *FD = Frame.Procedure->Definition;
  std::string Out = "namespace {\n";
  Out += fmt::format("struct {} final : ::cilkpp::rt::Frame {{\n", Names.Frame);
  bool Managed = false;
  for (const FrameField &F : Frame.Fields) {
    QualType T = F.IsReference ? Ctx.getPointerType(F.Var->getType().getNonReferenceType())
                               : fieldType(Ctx, F.Var->getType());
    std::string Field = declareQualified(Ctx, T, F.Name) + ";";
    // In an anonymous union the frame neither constructs nor destroys it;
    // the clones do, where the variable's scope begins and ends.
    Out += F.ManagedLifetime ? fmt::format("  union {{ {} }};\n", Field) : fmt::format("  {}\n", Field);
    Managed |= F.ManagedLifetime;
  }
  if (Frame.MayThrow) Out += exceptionState(Frame);
  if (Managed) Out += fmt::format("  {0}() noexcept {{}}\n  ~{0}() {{}}\n", Names.Frame);
  Out += "};\n";
  Out += fmt::format("void {}(::cilkpp::rt::Worker *, ::cilkpp::rt::Frame *) noexcept;\n", Names.Resume);
  const std::string Name = FD->getQualifiedNameAsString();
  Out += fmt::format("const ::cilkpp::rt::FrameInfo {}{{\"{}\", &{}, sizeof({}), nullptr}};\n", Names.Info, Name,
                     Names.Resume, Names.Frame);
  if (!Frame.EagerFrame)
    Out += fmt::format("const ::cilkpp::rt::FrameInfo {}{{\"{}\", &{}, sizeof({}), &{}}};\n", Names.StackInfo, Name,
                       Names.Resume, Names.Frame, Names.Info);
  return Out + "}  // namespace\n";
}

std::string publicEntryBody(ASTContext &Ctx, const FunctionDecl *FD) {
  std::string Args;
  // By-value parameters of class type move on to the fast clone: the public
  // entry's copy is not one the serial program makes.
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType();
    if (!T->isReferenceType() && !T.isTriviallyCopyableType(Ctx))
      Args += fmt::format(", static_cast<{} &&>({})", typeQualified(Ctx, T.getUnqualifiedType()), P->getName());
    else
      Args += fmt::format(", {}", P->getName());
  }
  return fmt::format(
      "{{\n"
      "  return ::cilkpp::rt::run_root<{0}>([&]({1}) {{\n"
      "    return {2}(__w, __parent, __slot, 0{3});\n"
      "  }});\n"
      "}}",
      typeQualified(Ctx, FD->getReturnType()), HiddenParameters, qualifiedFastName(FD), Args);
}

}  // namespace

// The fast clone's declarator. It throws what the procedure throws, so it is
// noexcept exactly when the procedure is declared so: every file that
// declares the procedure agrees on that.
static std::string fastSignature(ASTContext &Ctx, const FunctionDecl *FD, StringRef Name, bool WithDefaults) {
  std::string Params = parameterList(Ctx, FD, WithDefaults);
  return fmt::format("{}{} {}({}, {}{}{}){}", storagePrefix(FD), typeQualified(Ctx, FD->getReturnType()), Name,
                     HiddenParameters, FastCloneOrderParameter, Params.empty() ? "" : ", ", Params,
                     declaredNothrow(FD) ? " noexcept" : "");
}

std::string fastPrototype(ASTContext &Ctx, const FunctionDecl *FD, bool WithDefaults) {
  return fastSignature(Ctx, FD, namesFor(FD, 0).Fast, WithDefaults) + ";";
}

bool emitProcedure(ASTContext &Ctx, Rewriter &Main, const FrameDescription &Frame, const ProcedureNames &Names,
                   const FastCloneAvailable &IsCilkCallee, ArrayRef<SourceLocation> CilkSpecifiers,
                   bool PrototypeBefore, StringRef FileName) {
  const FunctionDecl *FD = Frame.Procedure->Definition;
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<std::string> FastBody = emitCloneBody(Ctx, Frame, Names, IsCilkCallee, CilkSpecifiers, CloneKind::Fast, FileName);
  // Without continuation points nothing can be stolen or suspended, so
  // nothing is ever resumed.
  std::optional<std::string> ResumeBody =
      Frame.Points.empty() ? std::optional<std::string>("{ __builtin_unreachable(); }")
                           : emitCloneBody(Ctx, Frame, Names, IsCilkCallee, CilkSpecifiers, CloneKind::Resume, FileName);
  if (!FastBody || !ResumeBody) return false;

  const auto *Body = cast<CompoundStmt>(FD->getBody());
  SourceLocation Begin = SM.getExpansionLoc(FD->getBeginLoc());
  SourceLocation LBrace = SM.getExpansionLoc(Body->getLBracLoc());
  SourceLocation RBrace = SM.getExpansionLoc(Body->getRBracLoc());
  const unsigned BeginLine = SM.getSpellingLineNumber(Begin), BeginColumn = SM.getSpellingColumnNumber(Begin);
  const unsigned BodyLine = SM.getSpellingLineNumber(LBrace);
  const unsigned EndLine = SM.getSpellingLineNumber(RBrace), EndColumn = SM.getSpellingColumnNumber(RBrace);

  // Before the definition; #line brings the user's text back to its place.
  std::string Before = BeginColumn > 1 ? "\n" : "";
  Before += lineDirective(BeginLine, FileName);
  if (!PrototypeBefore) Before += fastPrototype(Ctx, FD, /*WithDefaults=*/true) + "\n";
  Before += frameDeclarations(Ctx, Frame, Names);
  Before += lineDirective(BeginLine, FileName) + std::string(BeginColumn - 1, ' ');
  // Spawns call the fast clone, so an internal procedure that is only ever
  // spawned leaves its public entry unused.
  if (!FD->isExternallyVisible()) Before += "[[maybe_unused]] ";
  Main.InsertTextBefore(Begin, Before);

  Main.ReplaceText(fileRange(SM, Body->getSourceRange()), publicEntryBody(Ctx, FD));

  std::string After = fmt::format("\n{}", lineDirective(BodyLine, FileName));
  After += fmt::format("{} {}\n", fastSignature(Ctx, FD, Names.Fast, /*WithDefaults=*/false), *FastBody);
  After += lineDirective(BodyLine, FileName);
  After += fmt::format("namespace {{ void {}([[maybe_unused]] ::cilkpp::rt::Worker *__w, [[maybe_unused]] ::cilkpp::rt::Frame *__base) noexcept {} }}\n",
                       Names.Resume, *ResumeBody);
  After += lineDirective(EndLine, FileName) + std::string(EndColumn, ' ');
  Main.InsertTextAfterToken(RBrace, After);
  return true;
}

}  // namespace cilkpp
