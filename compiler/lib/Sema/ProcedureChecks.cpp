#include "Sema/ProcedureChecks.h"

#include "Support/Diagnostics.h"
#include "Support/Instantiations.h"
#include "Support/Movable.h"
#include "Support/SelfContainedMembers.h"
#include "Support/SourceRanges.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cilkpp {
namespace {

// What in a variadic template's body the translation cannot expand yet, or
// null. Each instantiation's clones spell one expression per element where
// the body expands a pack in the arguments of a call or a constructor or in
// a braced list, one type per element in a template argument list
// (PackExpansions.h), and the pack's length for `sizeof...`.
const char *unsupportedPackUse(const FunctionDecl *Pattern) {
  if (!Pattern || !Pattern->getBody()) return nullptr;
  unsigned ParameterPacks = 0;
  for (const ParmVarDecl *P : Pattern->parameters()) ParameterPacks += P->isParameterPack();
  if (ParameterPacks > 1) return "two function parameter packs";
  struct Finder : RecursiveASTVisitor<Finder> {
    ParentMap PM;
    const char *Found = nullptr;
    unsigned LambdaDepth = 0;
    explicit Finder(Stmt *Body) : PM(Body) {}
    bool TraverseLambdaExpr(LambdaExpr *L) {
      ++LambdaDepth;
      bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
      --LambdaDepth;
      return Result;
    }
    // (A type's expression is not in the body's ParentMap.)
    unsigned DecltypeDepth = 0;
    bool TraverseDecltypeTypeLoc(DecltypeTypeLoc TL) {
      ++DecltypeDepth;
      bool Result = RecursiveASTVisitor::TraverseDecltypeTypeLoc(TL);
      --DecltypeDepth;
      return Result;
    }
    bool VisitCXXFoldExpr(CXXFoldExpr *) { return !(Found = "a fold expression"); }
    // A type pack expansion must be a whole template argument.
    unsigned TypeExpansions = 0, ArgumentExpansions = 0;
    bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &A) {
      if (const TypeSourceInfo *TSI =
              A.getArgument().getKind() == TemplateArgument::Type ? A.getTypeSourceInfo() : nullptr;
          TSI && TSI->getTypeLoc().getAs<PackExpansionTypeLoc>())
        ++ArgumentExpansions;
      return RecursiveASTVisitor::TraverseTemplateArgumentLoc(A);
    }
    bool VisitPackExpansionTypeLoc(PackExpansionTypeLoc) {
      if (LambdaDepth) return !(Found = "a pack expansion in a lambda");
      ++TypeExpansions;
      return true;
    }
    bool VisitPackExpansionExpr(PackExpansionExpr *E) {
      if (LambdaDepth) return !(Found = "a pack expansion in a lambda");
      if (DecltypeDepth)
        return !(Found = "a pack expansion in a decltype in its body (declare the variable 'auto', or name its type "
                         "with std::invoke_result_t)");
      const Stmt *Parent = PM.getParentIgnoreParenImpCasts(E);
      if (!isa_and_nonnull<CallExpr, CXXConstructExpr, InitListExpr, ParenListExpr>(Parent))
        return !(Found = "a pack expansion outside the arguments of a call or a braced list");
      return true;
    }
  } F(Pattern->getBody());
  F.TraverseStmt(Pattern->getBody());
  if (!F.Found && F.TypeExpansions > F.ArgumentExpansions) return "a pack expansion in a type other than a template argument";
  return F.Found;
}

// The reason, for a procedure described as Kind.
const char *packUseReason(const char *Kind, const char *Use) {
  static std::string Reason;
  Reason = std::string(Kind) + " with " + Use;
  return Reason.c_str();
}

// A class or enum declared private or protected in a class (or inside one),
// named by T or by a template argument inside it: the translation of an
// instantiation spells its arguments outside that class.
const TagDecl *hiddenMemberType(QualType T) {
  while (true) {
    T = T.getCanonicalType();
    if (const auto *PT = T->getAs<PointerType>()) T = PT->getPointeeType();
    else if (const auto *RT = T->getAs<ReferenceType>()) T = RT->getPointeeType();
    else if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr())) T = AT->getElementType();
    else break;
  }
  const TagDecl *TD = T->getAsTagDecl();
  if (!TD) return nullptr;
  for (const Decl *D = TD; isa<RecordDecl>(D->getDeclContext()); D = cast<Decl>(D->getDeclContext()))
    if (D->getAccess() == AS_private || D->getAccess() == AS_protected) return TD;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(TD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type)
        if (const TagDecl *Hidden = hiddenMemberType(Arg.getAsType())) return Hidden;
  return nullptr;
}

// The first such type among the template arguments of an instantiation (of
// a function template, or of the class templates around a member).
const TagDecl *hiddenTemplateArgument(const FunctionDecl *FD) {
  std::vector<const TemplateArgumentList *> Lists;
  if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs(); Args && FD->isTemplateInstantiation())
    Lists.push_back(Args);
  for (const ClassTemplateSpecializationDecl *Spec : enclosingSpecializations(FD))
    Lists.push_back(&Spec->getTemplateArgs());
  for (const TemplateArgumentList *Args : Lists)
    for (const TemplateArgument &Arg : Args->asArray())
      if (Arg.getKind() == TemplateArgument::Type)
        if (const TagDecl *Hidden = hiddenMemberType(Arg.getAsType())) return Hidden;
  return nullptr;
}

// A member function's generated clones are static members declared in its
// class and defined at namespace scope, so the class must be one the
// translator can add to and define members of outside it.
const char *unsupportedMemberKind(ASTContext &Ctx, const CXXMethodDecl *MD) {
  const SourceManager &SM = Ctx.getSourceManager();
  const CXXRecordDecl *RD = MD->getParent();
  if (RD->isLambda()) return "a lambda";
  if (RD->isUnion()) return "a member function of a union";
  if (RD->isLocalClass()) return "a member function of a local class";
  // (Its frame and clones are local classes of its body, which name nothing
  // at namespace scope.)
  if (isSelfContainedMember(MD)) return nullptr;
  // (The frame's tables, at namespace scope, name the class.)
  for (const CXXRecordDecl *Class = RD; Class; Class = dyn_cast<CXXRecordDecl>(Class->getDeclContext()))
    if (Class->getAccess() == AS_private || Class->getAccess() == AS_protected)
      return "a member function of a private or protected nested class (make the class public)";
  // A class template's members, and those of plain classes nested in one,
  // are translated per instantiation of the class.
  const std::vector<const ClassTemplateSpecializationDecl *> Specs = enclosingSpecializations(MD);
  for (const ClassTemplateSpecializationDecl *Spec : Specs) {
    if (Spec->getSpecializationKind() == TSK_ExplicitInstantiationDeclaration)
      return "a member function of a class template instantiated in another file ('extern template')";
    // (ExplicitInstantiations moves `template struct S<int>;` after the clones.)
    if (Spec->getSpecializationKind() != TSK_ImplicitInstantiation &&
        Spec->getSpecializationKind() != TSK_ExplicitInstantiationDefinition)
      return "a member function of a class template specialization";
    if (!Spec->getSpecializedTemplate()->getTemplateParameters()->hasParameterPack()) continue;
    if (const char *Use = unsupportedPackUse(MD->getTemplateInstantiationPattern()))
      return packUseReason(Spec == RD ? "a member function of a variadic class template"
                                      : "a member function of a class nested in a variadic class template",
                           Use);
  }
  if (Specs.empty() && RD->isDependentContext()) return "a member function of a class template";
  // (An explicitly instantiated class's braces are its template's.)
  const CXXRecordDecl *Written = RD->getTemplateInstantiationPattern() ? RD->getTemplateInstantiationPattern() : RD;
  if (!SM.isWrittenInMainFile(SM.getExpansionLoc(Written->getBraceRange().getEnd())))
    return Specs.empty() ? "a member function template of a class defined in another file"
                         : "a member function of a class template defined in another file";
  if (!MD->isOutOfLine() && semicolonAfterOutermostClass(Ctx, MD).isInvalid())
    return "a member function of a class whose definition also declares variables";
  return nullptr;
}

// The classes that declare FD (or its template) a friend.
llvm::SmallPtrSet<const CXXRecordDecl *, 2> befriendingClasses(const FunctionDecl *FD) {
  llvm::SmallPtrSet<const CXXRecordDecl *, 2> Classes;
  auto Add = [&](const Decl *D) {
    if (D->getFriendObjectKind() == Decl::FOK_None) return;
    if (const auto *Class = dyn_cast<CXXRecordDecl>(D->getLexicalDeclContext())) Classes.insert(Class->getCanonicalDecl());
  };
  if (const FunctionTemplateDecl *Template = FD->getPrimaryTemplate())
    for (const RedeclarableTemplateDecl *D : Template->redecls()) Add(D);
  else
    for (const FunctionDecl *D : FD->redecls()) Add(D);
  return Classes;
}

// Whether the body names a private or protected member of one of Classes
// (or of the class template it was instantiated from).
bool usesNonPublicMemberOf(const FunctionDecl *FD, const llvm::SmallPtrSet<const CXXRecordDecl *, 2> &Classes) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const llvm::SmallPtrSet<const CXXRecordDecl *, 2> &Classes;
    bool Found = false;
    explicit Finder(const llvm::SmallPtrSet<const CXXRecordDecl *, 2> &Classes) : Classes(Classes) {}
    void check(const NamedDecl *D) {
      if (!D || (D->getAccess() != AS_private && D->getAccess() != AS_protected)) return;
      const auto *Class = dyn_cast<CXXRecordDecl>(D->getDeclContext());
      if (!Class) return;
      const CXXRecordDecl *Pattern = Class->getTemplateInstantiationPattern();
      Found |= Classes.contains(Class->getCanonicalDecl()) || (Pattern && Classes.contains(Pattern->getCanonicalDecl()));
    }
    bool VisitMemberExpr(MemberExpr *E) {
      check(E->getMemberDecl());
      return !Found;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      check(E->getDecl());
      return !Found;
    }
  } Walker(Classes);
  Walker.TraverseStmt(FD->getBody());
  return Walker.Found;
}

const char *unsupportedProcedureKind(ASTContext &Ctx, const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (const char *Kind = unsupportedMemberKind(Ctx, MD)) return Kind;
  // A template's clones are declared in the template and specialised per
  // instantiation, which needs the result type before the body: it is what
  // a serial copy of the template returns (CodeGen/DeducedResults.h), whose
  // name an operator does not have.
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
      Pattern && Pattern->getReturnType()->getContainedDeducedType() && !Pattern->getDeclName().isIdentifier())
    return "an operator template with a deduced return type";
  // The class befriends the procedure by name, and its clones, which hold
  // the body, are other functions.
  if (const llvm::SmallPtrSet<const CXXRecordDecl *, 2> Classes = befriendingClasses(FD);
      !Classes.empty() && usesNonPublicMemberOf(FD, Classes))
    return "a friend function that uses a private or protected member of a class that befriends it (the "
           "translated code of its body is not a friend of the class: make it a static member of the class, or "
           "the member public)";
  // The translation spells the template's head, and an `auto` parameter's
  // invented template parameter has no name to spell unless a round named
  // it (CodeGen/AbbreviatedTemplates.h).
  if (const FunctionTemplateDecl *Template = FD->getPrimaryTemplate() ? FD->getPrimaryTemplate()
                                                                     : FD->getDescribedFunctionTemplate())
    if (llvm::any_of(*Template->getTemplateParameters(), [](const NamedDecl *P) { return P->isImplicit(); }))
      return "an abbreviated function template with a declaration the translator cannot give a template head (an "
             "'auto' or constraint that a macro writes, or a declaration in another file): write 'template <class "
             "T>' instead";
  if (const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate(); Primary && FD->isTemplateInstantiation()) {
    // Each instantiation is translated on its own, under aliases for the
    // template's parameters.
    if (Primary->getTemplateParameters()->hasParameterPack())
      if (const char *Use = unsupportedPackUse(FD->getTemplateInstantiationPattern()))
        return packUseReason("a variadic template", Use);
  } else if (FD->getDescribedFunctionTemplate() || FD->isDependentContext()) {
    return isa<CXXMethodDecl>(FD) ? "a member function of a class template nested in a class"
                                  : "a function template";
  } else if (FD->getTemplateSpecializationKind() == TSK_ExplicitSpecialization) {
    // Its clones specialise the template's fast clone, declared before the
    // template (ProcedureEmitter.h).
    if (isa<CXXMethodDecl>(FD)) return "an explicit specialization of a member function template";
    if (!FD->getPrimaryTemplate() ||
        !firstDeclarationInMainFile(Ctx.getSourceManager(), FD->getPrimaryTemplate()))
      return "an explicit specialization of a function template declared in another file";
  }
  if (isa_and_nonnull<CXXTryStmt>(FD->getBody())) return "a function with a function-try-block";
  if (FD->isVariadic()) return "a variadic function";
  if (FD->isConstexpr()) return "a constexpr function";
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getName().empty() && P->getLocation().isMacroID())
      return "a function with an unnamed parameter declared by a macro";
  return nullptr;
}

// Results are delivered by assignment to a live object (abi.h), so a class
// type needs a default constructor and an assignment operator.
bool isSupportedReturnType(ASTContext &Ctx, QualType T) {
  if (T->isVoidType()) return true;
  if (T->isReferenceType()) return false;
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD->hasDefaultConstructor() && !RD->isAbstract() && isMoveAssignable(T);
  return T.isTriviallyCopyableType(Ctx);
}

// Constructs that do not survive being split into fast and resume clones.
class ForbiddenConstructFinder : public RecursiveASTVisitor<ForbiddenConstructFinder> {
 public:
  explicit ForbiddenConstructFinder(DiagnosticsEngine &Diags) : Diags(Diags) {}

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }

  bool VisitGotoStmt(GotoStmt *S) {
    Gotos.push_back(S);
    return true;
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) { return reject(S->getBeginLoc(), "a computed 'goto'"); }
  bool VisitCoroutineBodyStmt(CoroutineBodyStmt *S) { return reject(S->getBeginLoc(), "a coroutine"); }
  // (Clang builds no control-flow graph for it.)
  bool VisitIfStmt(IfStmt *S) {
    if (S->isConsteval()) return reject(S->getBeginLoc(), "'if consteval'");
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->getType()->isVariableArrayType()) return reject(V->getLocation(), "a variable-length array");
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F || !F->getIdentifier()) return true;
    StringRef Name = F->getName();
    if (Name == "alloca" || Name.starts_with("__builtin_alloca")) return reject(C->getBeginLoc(), "alloca");
    if (llvm::is_contained({"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "__builtin_setjmp"}, Name))
      return reject(C->getBeginLoc(), "setjmp");
    return true;
  }

  bool Failed = false;
  std::vector<const GotoStmt *> Gotos;

 private:
  bool reject(SourceLocation Loc, const char *What) {
    diag::report(Diags, Loc, diag::ConstructUnsupported) << What;
    Failed = true;
    return true;
  }
  DiagnosticsEngine &Diags;
};

}  // namespace

bool mayBeProcedure(ASTContext &Ctx, const FunctionDecl *FD) {
  return !unsupportedProcedureKind(Ctx, FD) && !hiddenTemplateArgument(FD) && isSupportedReturnType(Ctx, FD->getReturnType());
}

bool checkProcedureSignature(ASTContext &Ctx, const FunctionDecl *FD) {
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  if (const char *Kind = unsupportedProcedureKind(Ctx, FD)) {
    diag::report(Diags, FD->getLocation(), diag::ProcedureKindUnsupported) << Kind;
    return false;
  }
  if (const TagDecl *Hidden = hiddenTemplateArgument(FD)) {
    diag::report(Diags, FD->getLocation(), diag::TemplateArgumentHidden) << Hidden->getQualifiedNameAsString();
    if (FD->getPointOfInstantiation().isValid())
      diag::report(Diags, FD->getPointOfInstantiation(), diag::NoteContinuationPoint) << "instantiated";
    return false;
  }
  if (!isSupportedReturnType(Ctx, FD->getReturnType())) {
    diag::report(Diags, FD->getLocation(), diag::ReturnTypeUnsupported)
        << FD->getReturnType()
        << (FD->getReturnType()->isReferenceType()
                ? "a reference: a child delivers its result into its parent's frame by value; return a value or a pointer"
                : "a class type needs a default constructor and an assignment operator");
    return false;
  }
  return true;
}

const char *unsupportedCalleeKind(ASTContext &Ctx, const CallExpr *Call) {
  // A function object or lambda called in place is a plain call of its
  // operator(); other operators are not calls a user would spawn.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call); Op && Op->getOperator() != OO_Call)
    return "an operator call";
  if (isa<UserDefinedLiteral, CUDAKernelCallExpr>(Call)) return "this kind of call";
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee) {
    // Through a pointer or reference to a function: a plain call. (Function
    // objects and lambdas are operator calls, handled above.)
    QualType T = Call->getCallee()->getType();
    if (const auto *Ptr = T->getAs<PointerType>()) T = Ptr->getPointeeType();
    if (!T.getNonReferenceType()->isFunctionProtoType()) return "a call through a pointer to a member function";
  } else if (Callee->getBuiltinID() &&
             llvm::all_of(Callee->redecls(), [](const FunctionDecl *D) { return D->isImplicit(); })) {
    // (A library function that Clang knows but a header declares, `memset`
    // or `sqrt`, is an ordinary function to call; `__builtin_expect`, which
    // nothing declares, is none.)
    return "a builtin function";
  }
  return nullptr;
}

bool checkSpawnTarget(ASTContext &Ctx, const SpawnSite &Site) {
  // The Declare form constructs its variable before the spawn and assigns
  // it the result when the child returns.
  if (const auto *RD = Site.Form == SpawnForm::Declare ? Site.Target->getType()->getAsCXXRecordDecl() : nullptr;
      RD && !RD->hasDefaultConstructor()) {
    diag::report(Ctx.getDiagnostics(), Site.KeywordLoc, diag::SpawnTargetUnsupported)
        << "a class-type variable declared by a spawn needs a default constructor; declare it first, then assign "
           "'x = spawn f(...)'";
    return false;
  }
  if (Site.Form == SpawnForm::Declare && !isMoveAssignable(Site.Target->getType())) {
    diag::report(Ctx.getDiagnostics(), Site.KeywordLoc, diag::SpawnTargetUnsupported)
        << "a class-type variable declared by a spawn needs a move or copy assignment operator (the child's result is "
           "assigned to it when the child returns)";
    return false;
  }
  // A function returning a reference delivers a copy of what it refers to
  // (cilk procedures return values only: checkProcedureSignature).
  QualType Result =
      Site.Call->getCallReturnType(Ctx).getNonReferenceType().getCanonicalType().getUnqualifiedType();
  QualType Declared = Site.Target ? Site.Target->getType() : Site.TargetLValue->getType();
  QualType Target = Declared.getCanonicalType().getUnqualifiedType();
  if (Ctx.hasSameType(Result, Target)) return true;
  // A target of another scalar type gets the result converted
  // (FrameDescription::ConvertedResults).
  if (Result->isScalarType() && Target->isScalarType()) return true;
  std::string Name = Site.Target ? "variable '" + Site.Target->getName().str() + "'" : std::string("an expression");
  diag::report(Ctx.getDiagnostics(), Site.KeywordLoc, diag::SpawnTargetTypeMismatch)
      << Site.Call->getCallReturnType(Ctx) << Name << Declared;
  return false;
}

const char *unsupportedEnclosingConstruct(ParentMap &PM, const Stmt *S) {
  for (const Stmt *Child = S, *P = PM.getParent(const_cast<Stmt *>(S)); P;
       Child = P, P = PM.getParent(const_cast<Stmt *>(P))) {
    // Other handlers became procedures of their own (BodyOutlining.h).
    if (isa<CXXCatchStmt>(P))
      return "a catch handler that 'goto' can leave, that returns a reference or a value of a deduced type, or that "
             "uses a type or name local to its function";
    if (isa<StmtExpr>(P)) return "a statement expression";
    if (const auto *R = dyn_cast<CXXForRangeStmt>(P); R && R->getBody() == Child)
      return "a range-based for loop";
    if (const auto *If = dyn_cast<IfStmt>(P); If && (If->getConditionVariable() || If->getInit()))
      return "an if statement with a declaration in its condition";
    if (const auto *Sw = dyn_cast<SwitchStmt>(P); Sw && (Sw->getConditionVariable() || Sw->getInit()))
      return "a switch statement with a declaration in its condition";
    if (const auto *W = dyn_cast<WhileStmt>(P); W && W->getConditionVariable())
      return "a while loop with a declaration in its condition";
    if (const auto *F = dyn_cast<ForStmt>(P); F && F->getConditionVariable())
      return "a for loop with a declaration in its condition";
  }
  return nullptr;
}

// A goto whose jump passes over a continuation point: between the goto and
// its label in the text lies a spawn, a sync or the end of a cilk_scope
// (forward, it would skip the point; backward, it would make a loop the
// continuation analysis was not told about). Returns that point, or an
// invalid location.
static SourceLocation continuationPointJumpedOver(const SourceManager &SM, const CilkProcedure &Proc,
                                                  const GotoStmt *Goto) {
  SourceLocation From = SM.getExpansionLoc(Goto->getBeginLoc());
  SourceLocation To = SM.getExpansionLoc(Goto->getLabel()->getStmt()->getBeginLoc());
  if (SM.isBeforeInTranslationUnit(To, From)) std::swap(From, To);
  auto Between = [&](SourceLocation L) { return SM.isPointWithin(SM.getExpansionLoc(L), From, To); };
  for (const SpawnSite &S : Proc.Spawns)
    if (Between(S.KeywordLoc)) return S.KeywordLoc;
  for (const SyncSite &S : Proc.Syncs)
    if (Between(S.KeywordLoc)) return S.KeywordLoc;
  for (const ScopeSite &S : Proc.Scopes)
    if (Between(S.Block->getRBracLoc())) return S.KeywordLoc;
  return {};
}

bool checkProcedureBody(ASTContext &Ctx, const CilkProcedure &Proc) {
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  Stmt *Body = Proc.Definition->getBody();
  ForbiddenConstructFinder Finder(Diags);
  Finder.TraverseStmt(Body);
  bool Ok = !Finder.Failed;
  for (const GotoStmt *Goto : Finder.Gotos)
    if (SourceLocation Point = continuationPointJumpedOver(Ctx.getSourceManager(), Proc, Goto); Point.isValid()) {
      diag::report(Diags, Goto->getBeginLoc(), diag::GotoAcrossContinuation);
      diag::report(Diags, Point, diag::NoteContinuationPoint) << "continuation point";
      Ok = false;
    }
  ParentMap PM(Body);
  auto CheckPoint = [&](const Stmt *S, SourceLocation Loc) {
    if (const char *Construct = unsupportedEnclosingConstruct(PM, S)) {
      diag::report(Diags, Loc, diag::ContinuationInUnsupported) << Construct;
      Ok = false;
    }
  };
  for (const SpawnSite &S : Proc.Spawns) CheckPoint(S.Statement, S.KeywordLoc);
  for (const SyncSite &S : Proc.Syncs) CheckPoint(S.Marker, S.KeywordLoc);
  return Ok;
}

}  // namespace cilkpp
