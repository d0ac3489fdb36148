#include "Support/Nameable.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace cilkpp {

const VarDecl *closureVariable(const CXXRecordDecl *Closure) {
  // A lambda outside functions belongs to the namespace around it. Frames
  // default-construct and assign what they hold, which a closure type
  // allows from C++20 on (it cannot capture there).
  const DeclContext *DC = Closure->getDeclContext();
  if (!DC->isFileContext() || !Closure->getASTContext().getLangOpts().CPlusPlus20) return nullptr;
  for (const Decl *D : DC->decls())
    if (const auto *V = dyn_cast<VarDecl>(D); V && !V->isTemplated() && V->getType()->getAsCXXRecordDecl() == Closure)
      return V;
  return nullptr;
}

// The class or enum T is made of, under its pointers, references and
// arrays; null for other types.
static const TagDecl *innermostTag(QualType T) {
  while (true) {
    T = T.getCanonicalType();
    if (const auto *PT = T->getAs<PointerType>()) { T = PT->getPointeeType(); continue; }
    if (const auto *RT = T->getAs<ReferenceType>()) { T = RT->getPointeeType(); continue; }
    if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr())) { T = AT->getElementType(); continue; }
    return T->getAsTagDecl();
  }
}

static bool isNameable(QualType T, bool InTemplateArgument) {
  const TagDecl *TD = innermostTag(T);
  if (!TD) return true;
  if (TD->getParentFunctionOrMethod()) return false;
  if (const auto *RD = dyn_cast<CXXRecordDecl>(TD); RD && RD->isLambda())
    return !InTemplateArgument && closureVariable(RD);
  // std::vector<Local> is as local as Local.
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(TD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type && !isNameable(Arg.getAsType(), true)) return false;
  return TD->getIdentifier() || TD->getTypedefNameForAnonDecl();
}

bool isNameableOutsideFunction(QualType T) { return isNameable(T, false); }

const EnumDecl *localEnumIn(QualType T) {
  const auto *ED = dyn_cast_or_null<EnumDecl>(innermostTag(T));
  return ED && ED->getParentFunctionOrMethod() ? ED : nullptr;
}

const CXXRecordDecl *localClassIn(QualType T) {
  const TagDecl *TD = innermostTag(T);
  const auto *RD = dyn_cast_or_null<CXXRecordDecl>(TD);
  if (!RD) return nullptr;
  if (RD->getParentFunctionOrMethod() || RD->isLambda()) return RD;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type)
        if (const CXXRecordDecl *Local = localClassIn(Arg.getAsType())) return Local;
  return nullptr;
}

// Whether Function is a member of Class, or of a class nested in it.
static bool isMemberOf(const FunctionDecl *Function, const CXXRecordDecl *Class) {
  for (const DeclContext *DC = Function->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *RD = dyn_cast<CXXRecordDecl>(DC); RD && RD->getCanonicalDecl() == Class->getCanonicalDecl())
      return true;
  return false;
}

// A member's access (a member template's specializations have the
// template's).
static AccessSpecifier accessOf(const Decl *D) {
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D)) return Spec->getSpecializedTemplate()->getAccess();
  return D->getAccess();
}

AccessSpecifier hiddenAccess(const TagDecl *Hidden) {
  for (const Decl *D = Hidden; D && isa<CXXRecordDecl>(D->getDeclContext()); D = cast<Decl>(D->getDeclContext()))
    if (const AccessSpecifier Access = accessOf(D); Access == AS_private || Access == AS_protected) return Access;
  return AS_public;
}

const TagDecl *hiddenMemberType(QualType T, const FunctionDecl *Function) {
  const TagDecl *TD = innermostTag(T);
  if (!TD) return nullptr;
  for (const Decl *D = TD; D; D = dyn_cast<Decl>(D->getDeclContext())) {
    const auto *Class = dyn_cast<CXXRecordDecl>(D->getDeclContext());
    if (!Class) break;
    const AccessSpecifier Access = accessOf(D);
    if ((Access == AS_private || Access == AS_protected) && !isMemberOf(Function, Class)) return TD;
  }
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(TD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type)
        if (const TagDecl *Hidden = hiddenMemberType(Arg.getAsType(), Function)) return Hidden;
  return nullptr;
}

// Whether code outside Function's class can name D (a member's enclosing
// classes public too).
static bool isPublic(const Decl *D) {
  for (; D && isa<CXXRecordDecl>(D->getDeclContext()); D = cast<Decl>(D->getDeclContext()))
    if (accessOf(D) != AS_public) return false;
  return D && !D->getParentFunctionOrMethod();
}

namespace {
// The canonical, unqualified, unreferenced type: what a spelling names.
const Type *spelledKey(QualType T) { return T.getNonReferenceType().getCanonicalType().getUnqualifiedType().getTypePtr(); }

// Whether code outside the function can name T: it is not hidden, or it
// has a spelling already.
bool namedOutside(QualType T, const FunctionDecl *Function, const llvm::DenseSet<const Type *> &Spelled) {
  if (!isNameableOutsideFunction(T)) return false;
  return !hiddenMemberType(T, Function) || Spelled.contains(spelledKey(T));
}

// V's source given the spellings found so far (hiddenTypeSources).
const CallExpr *sourceOf(const VarDecl *V, const FunctionDecl *Function, const llvm::DenseSet<const Type *> &Spelled) {
  const Expr *Init = V->getInit();
  if (!Init) return nullptr;
  ASTContext &Ctx = V->getASTContext();
  const QualType Type = V->getType().getNonReferenceType();
  // Through the copy or move of the call's result into V.
  Init = Init->IgnoreImplicit()->IgnoreParens();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init); Construct && Construct->getNumArgs() == 1 &&
                                                               Construct->getConstructor()->isCopyOrMoveConstructor())
    Init = Construct->getArg(0)->IgnoreImplicit()->IgnoreParens();
  // A copy of another such variable, or a reference to it (`auto last = it;`,
  // `auto &r = it;`): named as that one is.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Init))
    if (const auto *Other = dyn_cast<VarDecl>(Ref->getDecl());
        Other && Other != V && Ctx.hasSameUnqualifiedType(Other->getType().getNonReferenceType(), Type))
      return sourceOf(Other, Function, Spelled);
  const auto *Call = dyn_cast<CallExpr>(Init);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || Callee->isVariadic()) return nullptr;
  // A named function, or an iterator's `*it`.
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  if (Op ? Op->getOperator() != OO_Star || Op->getNumArgs() != 1 : !Callee->getIdentifier()) return nullptr;
  if (!Ctx.hasSameUnqualifiedType(Callee->getReturnType().getNonReferenceType(), Type)) return nullptr;
  // The object's class, the parameters and the template arguments are named
  // in the spelling; a member needs only be public in its class, which may
  // itself be named through a spelling.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee)) {
    if (Method->getAccess() != AS_public || !namedOutside(Ctx.getRecordType(Method->getParent()), Function, Spelled))
      return nullptr;
  } else if (!isPublic(Callee)) {
    return nullptr;
  }
  for (const ParmVarDecl *P : Callee->parameters())
    if (!namedOutside(P->getType(), Function, Spelled)) return nullptr;
  if (const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs())
    for (const TemplateArgument &Arg : Args->asArray())
      if (Arg.getKind() == TemplateArgument::Pack ||
          (Arg.getKind() == TemplateArgument::Type && !namedOutside(Arg.getAsType(), Function, Spelled)))
        return nullptr;
  return Call;
}
}  // namespace

std::vector<HiddenTypeSource> hiddenTypeSources(const FunctionDecl *Function) {
  struct Locals : RecursiveASTVisitor<Locals> {
    std::vector<const VarDecl *> Found;
    bool VisitVarDecl(VarDecl *V) {
      if (V->hasLocalStorage()) Found.push_back(V);
      return true;
    }
  } L;
  if (!Function->getBody()) return {};
  L.TraverseStmt(Function->getBody());
  std::vector<HiddenTypeSource> Sources;
  llvm::DenseSet<const Type *> Spelled;
  // Until nothing more can be named: a spelling may name one found before
  // (an iterator's through the container's).
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const VarDecl *V : L.Found) {
      const QualType T = V->getType().getNonReferenceType();
      if (Spelled.contains(spelledKey(T)) || !hiddenMemberType(T, Function)) continue;
      if (const CallExpr *Source = sourceOf(V, Function, Spelled)) {
        Sources.push_back({T, Source, ""});
        Spelled.insert(spelledKey(T));
        Grew = true;
      }
    }
  }
  for (const ParmVarDecl *P : Function->parameters()) {
    const QualType T = P->getType().getNonReferenceType();
    const TagDecl *Hidden = hiddenMemberType(T, Function);
    if (!Hidden || Spelled.contains(spelledKey(T)) || !P->getTypeSourceInfo()) continue;
    const SourceManager &SM = Function->getASTContext().getSourceManager();
    TypeLoc Written = P->getTypeSourceInfo()->getTypeLoc();
    if (const auto Reference = Written.getAs<ReferenceTypeLoc>()) Written = Reference.getPointeeLoc();
    Written = Written.getUnqualifiedLoc();
    const SourceRange Range = Written.getSourceRange();
    if (Range.isInvalid() || Range.getBegin().isMacroID() || Range.getEnd().isMacroID()) continue;
    const std::string Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Range), SM,
                                                  Function->getASTContext().getLangOpts())
                                 .str();
    if (Text.empty() || llvm::StringRef(Text).contains(Hidden->getName())) continue;
    Sources.push_back({T, nullptr, Text});
    Spelled.insert(spelledKey(T));
  }
  return Sources;
}

bool hasHiddenTypeSource(const VarDecl *V, const FunctionDecl *Function) {
  const Type *Key = spelledKey(V->getType());
  return llvm::any_of(hiddenTypeSources(Function),
                      [&](const HiddenTypeSource &S) { return spelledKey(S.Type) == Key; });
}

bool isNamedClosure(const CXXRecordDecl *Class) {
  return Class->getIdentifier() && Class->getName().starts_with(NamedClosurePrefix);
}

bool isPlainClosure(const ASTContext &Ctx, QualType T) {
  const CXXRecordDecl *Class = T->getAsCXXRecordDecl();
  return Class && (Class->isLambda() || isNamedClosure(Class)) && T.isTriviallyCopyableType(Ctx);
}

static bool declaredBefore(const SourceManager &SM, const Decl *D, SourceLocation Loc) {
  return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(D->getCanonicalDecl()->getLocation()), Loc);
}

bool declaredBefore(const SourceManager &SM, ArrayRef<TemplateArgument> Args, SourceLocation Loc) {
  return llvm::all_of(Args, [&](const TemplateArgument &Arg) {
    switch (Arg.getKind()) {
    case TemplateArgument::Type:
      return declaredBefore(SM, Arg.getAsType(), Loc);
    case TemplateArgument::Template: {
      const TemplateDecl *T = Arg.getAsTemplate().getAsTemplateDecl();
      return T && declaredBefore(SM, T, Loc);
    }
    case TemplateArgument::Pack:
      return declaredBefore(SM, Arg.getPackAsArray(), Loc);
    case TemplateArgument::Integral:
    case TemplateArgument::NullPtr:
      return true;
    default:
      return false;
    }
  });
}

bool declaredBefore(const SourceManager &SM, QualType T, SourceLocation Loc) {
  T = T.getCanonicalType();
  if (T->isBuiltinType()) return true;
  if (const auto *P = T->getAs<PointerType>()) return declaredBefore(SM, P->getPointeeType(), Loc);
  if (const auto *R = T->getAs<ReferenceType>()) return declaredBefore(SM, R->getPointeeType(), Loc);
  if (const auto *A = T->getAsArrayTypeUnsafe()) return declaredBefore(SM, A->getElementType(), Loc);
  if (const auto *F = T->getAs<FunctionProtoType>())
    return declaredBefore(SM, F->getReturnType(), Loc) &&
           llvm::all_of(F->getParamTypes(), [&](QualType P) { return declaredBefore(SM, P, Loc); });
  if (const auto *Tag = T->getAs<TagType>()) {
    const TagDecl *D = Tag->getDecl();
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D))
      return declaredBefore(SM, Spec->getSpecializedTemplate(), Loc) &&
             declaredBefore(SM, Spec->getTemplateArgs().asArray(), Loc);
    return declaredBefore(SM, D, Loc);
  }
  return false;
}

}  // namespace cilkpp
