#include "CodeGen/Naming.h"

#include "Analysis/FrameDescription.h"
#include "Support/Instantiations.h"
#include "Support/Nameable.h"
#include "Support/References.h"
#include "Support/SelfContainedMembers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

#include <optional>
#include <utility>

using namespace clang;

namespace cilkpp {
namespace {

PrintingPolicy policy(ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.SuppressUnwrittenScope = true;
  // Integer arguments with their type's suffix (`std::span<int,
  // 18446744073709551615UL>`): unsuffixed, a large one is a literal the host
  // compiler warns about, and one of an `auto` parameter names another
  // specialization.
  P.AlwaysIncludeTypeForTemplateArgument = true;
  return P;
}

// The printer writes the smallest long and long long template arguments as
// `-9223372036854775808L`: the negation of a literal too large for its type,
// which g++ warns is unsigned and clang++ rejects as narrowing. They are
// spelled as <climits> spells them.
void spellMinimumIntegers(std::string &Printed) {
  static const std::pair<StringRef, StringRef> Minimums[] = {
      {"-9223372036854775808LL", "(-9223372036854775807LL - 1)"},
      {"-9223372036854775808L", "(-9223372036854775807L - 1)"}};
  for (const auto &[Literal, Spelling] : Minimums)
    for (std::size_t At = Printed.find(Literal.str()); At != std::string::npos;
         At = Printed.find(Literal.str(), At + Spelling.size()))
      Printed.replace(At, Literal.size(), Spelling.str());
}

std::string print(ASTContext &Ctx, QualType T, StringRef Name) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  // `long (x)(3);` gives x's type a parenthesis, which g++ warns about
  // where the type is spelled again (-Wparentheses); the printer adds the
  // parentheses a declarator needs by itself.
  T = T.IgnoreParens();
  T.print(OS, policy(Ctx), Name);
  OS.flush();
  spellMinimumIntegers(Out);
  return Out;
}

// The classes enclosing a member function, outermost first.
std::vector<const CXXRecordDecl *> enclosingClasses(const FunctionDecl *FD) {
  std::vector<const CXXRecordDecl *> Classes;
  for (const DeclContext *DC = FD->getDeclContext(); isa<CXXRecordDecl>(DC); DC = DC->getParent())
    Classes.insert(Classes.begin(), cast<CXXRecordDecl>(DC));
  return Classes;
}

// Where a member's generated definitions go: after the outermost class for a
// definition written in the class, else beside the definition, whose own
// qualifier (`C::` in `int C::f()`) names the class there.
std::string memberScope(const FunctionDecl *FD) {
  ASTContext &Ctx = FD->getASTContext();
  // An instantiated class template's member: its definitions are explicit
  // specializations, `template <> ... Box<int>::__cilkpp_get_fast(...)`.
  // So is an instantiation of a member function template.
  if (!enclosingSpecializations(FD).empty() || isMemberTemplateInstance(FD)) {
    std::string Name = typeQualified(Ctx, Ctx.getRecordType(cast<CXXRecordDecl>(FD->getDeclContext())));
    return (StringRef(Name).starts_with("::") ? Name.substr(2) : Name) + "::";
  }
  if (FD->isOutOfLine() && FD->getQualifierLoc()) {
    CharSourceRange R = CharSourceRange::getTokenRange(FD->getQualifierLoc().getSourceRange());
    std::string Written = Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
    std::string Compact;
    for (char C : Written)
      if (!isspace(static_cast<unsigned char>(C))) Compact += C;
    return StringRef(Compact).starts_with("::") ? Compact.substr(2) : Compact;
  }
  std::string Scope;
  for (const CXXRecordDecl *RD : enclosingClasses(FD)) Scope += RD->getName().str() + "::";
  return Scope;
}

}  // namespace

std::string FreshNames::take(const std::string &Base) {
  std::string Name = Base;
  for (unsigned K = 2; FileText.contains(Name) || Used.contains(Name); ++K) Name = fmt::format("{}_{}", Base, K);
  Used.insert(Name);
  return Name;
}

std::string FreshNames::takeForThisFile(const std::string &Base) {
  return take(fmt::format("{}_{:08x}", Base, static_cast<std::uint32_t>(llvm::xxh3_64bits(FileText))));
}

unsigned memberTemplateOverloadIndex(const FunctionDecl *Pattern) {
  unsigned Index = 0;
  for (const Decl *D : cast<CXXRecordDecl>(Pattern->getDeclContext())->decls()) {
    const FunctionDecl *F = D->getAsFunction();
    if (!F || F->getDeclName() != Pattern->getDeclName()) continue;
    if (F->getCanonicalDecl() == Pattern->getCanonicalDecl()) return Index;
    ++Index;
  }
  return Index;
}

const CXXRecordDecl *thisClass(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return MD && MD->isInstance() ? MD->getParent() : nullptr;
}

std::string identifierFor(const FunctionDecl *FD) {
  if (FD->getIdentifier()) return FD->getName().str();
  switch (FD->getOverloadedOperator()) {
#define OVERLOADED_OPERATOR(Name, Spelling, Token, Unary, Binary, MemberOnly) \
  case OO_##Name:                                                             \
    return "operator_" #Name;
#include "clang/Basic/OperatorKinds.def"
    default:
      break;
  }
  return "function";  // (procedures are only identifiers and operators)
}

ProcedureNames namesFor(const FunctionDecl *FD, unsigned OverloadIndex) {
  const std::string Name = identifierFor(FD);
  const std::string Unique = OverloadIndex ? Name + "_" + std::to_string(OverloadIndex) : Name;
  // Frame infos live at namespace scope even for members: `__cilkpp_C__m_info`.
  std::string InfoBase = "__cilkpp_" + Unique;
  std::string Scope;
  if (isa<CXXMethodDecl>(FD)) {
    std::string Path;
    for (const CXXRecordDecl *RD : enclosingClasses(FD)) Path += RD->getName().str() + "_";
    InfoBase = "__cilkpp_" + Path + "_" + Unique;
    Scope = memberScope(FD);
  }
  // Fast clones overload as the procedures do, except on a ref-qualifier
  // (both `m() &` and `m() &&` take the object as a pointer) and across an
  // anonymous namespace: a call qualified with the enclosing namespace would
  // not look into the anonymous one where the enclosing one has the name.
  const auto *Method = dyn_cast<CXXMethodDecl>(FD);
  const std::string Fast = "__cilkpp_" + Name + (Method && Method->getRefQualifier() == RQ_RValue ? "_rvalue" : "") +
                           (FD->isInAnonymousNamespace() ? "_internal" : "") + "_fast";
  if (isSelfContainedMember(FD)) {
    // (Each member's clones class is local to its own body: overloads need
    // no index there.)
    const std::string Clones = "__cilkpp_" + Name + "_clones";
    const std::string Tables = InfoBase + "_tables";
    const std::string Instance = fmt::format("{}<{}>::", Tables, Clones);
    return {"__cilkpp_" + Unique + "_frame", Instance + "info", Instance + "stack_info",
            "__cilkpp_" + Unique + "_resume", Fast, Clones + "::", Tables};
  }
  return {"__cilkpp_" + Unique + "_frame", InfoBase + "_info", InfoBase + "_stack_info",
          "__cilkpp_" + Unique + "_resume", Fast, Scope, ""};
}

std::string classInScope(ASTContext &Ctx, const CXXRecordDecl *RD) {
  // In a class template, or a class nested in one, the generated text that
  // names the class is inside it (its members' declarations and bodies),
  // where its injected name means the current instantiation; spelled out it
  // could name unnamed parameters.
  if (RD->isDependentContext()) return RD->getName().str();
  return typeQualified(Ctx, Ctx.getRecordType(RD));
}

std::string qualifiedFastName(const FunctionDecl *FD) {
  // (Named only from its own body.)
  if (isSelfContainedMember(FD)) return namesFor(FD, 0).Scope + namesFor(FD, 0).Fast;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return classInScope(FD->getASTContext(), MD->getParent()) + "::" + namesFor(FD, 0).Fast + templateArguments(FD);
  std::string Scope;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
      Scope = NS->getName().str() + "::" + Scope;
    if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) Scope = RD->getName().str() + "::" + Scope;
  }
  return "::" + Scope + namesFor(FD, 0).Fast + templateArguments(FD);
}

std::string templateNameQualified(ASTContext &Ctx, TemplateName Name) {
  const TemplateDecl *Template = Name.getAsTemplateDecl();
  if (!Template || isa<TemplateTemplateParmDecl>(Template)) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    Name.print(OS, policy(Ctx));
    return Out;
  }
  std::string Scope;
  for (const DeclContext *DC = Template->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
      Scope = NS->getName().str() + "::" + Scope;
    if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) Scope = typeQualified(Ctx, Ctx.getRecordType(RD)) + "::";
    if (isa<CXXRecordDecl>(DC)) break;
  }
  if (!StringRef(Scope).starts_with("::")) Scope = "::" + Scope;
  return Scope + Template->getName().str();
}

static std::string argumentText(ASTContext &Ctx, const TemplateArgument &Arg) {
  if (Arg.getKind() == TemplateArgument::Type) return typeQualified(Ctx, Arg.getAsType());
  if (Arg.getKind() == TemplateArgument::Template) return templateNameQualified(Ctx, Arg.getAsTemplate());
  if (Arg.getKind() == TemplateArgument::Pack) {
    std::vector<std::string> Elements;
    for (const TemplateArgument &Element : Arg.pack_elements()) Elements.push_back(argumentText(Ctx, Element));
    return fmt::format("{}", fmt::join(Elements, ", "));
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  Arg.print(policy(Ctx), OS, /*IncludeType=*/true);
  return Out;
}

std::string templateArguments(const FunctionDecl *FD) {
  std::vector<std::string> Args;
  if (const TemplateArgumentList *List = (FD->isTemplateInstantiation() || isExplicitSpecialization(FD)) &&
                                                 FD->getPrimaryTemplate()
                                             ? FD->getTemplateSpecializationArgs()
                                             : nullptr) {
    for (const TemplateArgument &Arg : List->asArray())
      if (Arg.getKind() != TemplateArgument::Pack || Arg.pack_size() > 0) Args.push_back(argumentText(FD->getASTContext(), Arg));
  } else if (const FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate()) {
    // The template's own parameters, up to an unnamed one (typically a
    // trailing `class = std::enable_if_t<...>`), which its default or
    // deduction supplies as it did for the template.
    for (const NamedDecl *P : *Template->getTemplateParameters()) {
      if (P->getName().empty()) break;
      Args.push_back(P->getName().str() + (P->isTemplateParameterPack() ? "..." : ""));
    }
  } else {
    return "";
  }
  return fmt::format("<{}>", fmt::join(Args, ", "));
}

bool isMemberTemplateInstance(const FunctionDecl *FD) {
  return isa<CXXMethodDecl>(FD) && FD->isTemplateInstantiation() && FD->getPrimaryTemplate();
}

std::string templateParameterAliases(const FunctionDecl *FD) {
  // The class template's parameters, then a member function template's own.
  std::vector<std::pair<const TemplateParameterList *, const TemplateArgumentList *>> Lists;
  for (const ClassTemplateSpecializationDecl *Spec : enclosingSpecializations(FD))
    Lists.push_back({Spec->getSpecializedTemplate()->getTemplateParameters(), &Spec->getTemplateArgs()});
  if (FD->isTemplateInstantiation() && FD->getPrimaryTemplate())
    Lists.push_back({FD->getPrimaryTemplate()->getTemplateParameters(), FD->getTemplateSpecializationArgs()});
  std::string Out;
  for (const auto &[Params, Args] : Lists)
    for (unsigned I = 0; I < Params->size() && I < Args->size(); ++I) {
      if (Params->getParam(I)->getName().empty()) continue;  // the body cannot name it
      // (A block scope cannot declare an alias template: the clones name
      // the argument where the body names the parameter.)
      if (isa<TemplateTemplateParmDecl>(Params->getParam(I))) continue;
      // (Nor a pack: a body that uses one is rejected.)
      if (Params->getParam(I)->isTemplateParameterPack()) continue;
      const std::string Value = argumentText(FD->getASTContext(), Args->get(I));
      Out += isa<TemplateTypeParmDecl>(Params->getParam(I))
                 ? fmt::format("using {} [[maybe_unused]] = {}; ", Params->getParam(I)->getName(), Value)
                 : fmt::format("[[maybe_unused]] constexpr auto {} = {}; ", Params->getParam(I)->getName(), Value);
    }
  return Out;
}

std::string liveFlagName(const FrameField &F) { return "__cilkpp_live_" + F.Name; }

std::string convertedResultName(unsigned Spawn) { return fmt::format("__cilkpp_result_{}", Spawn); }
std::string convertPendingName(unsigned Spawn) { return fmt::format("__cilkpp_convert_{}", Spawn); }

// getFullyQualifiedType loses its way in deduced types (`auto` results,
// init-captures: `::std::std::string`); their canonical type prints with
// every scope spelled out.
// `decltype(e)` or `typeof(e)` in a type, through pointers, references,
// arrays and parentheses: e names variables that may not exist where the
// type is printed again (a clone reads them from the frame).
static bool namesExpression(QualType T) {
  for (;;) {
    const Type *Ty = T.getTypePtr();
    if (isa<DecltypeType, TypeOfExprType>(Ty)) return true;
    if (const auto *P = dyn_cast<PointerType>(Ty)) T = P->getPointeeType();
    else if (const auto *R = dyn_cast<ReferenceType>(Ty)) T = R->getPointeeTypeAsWritten();
    else if (const auto *A = dyn_cast<ArrayType>(Ty)) T = A->getElementType();
    else if (const auto *E = dyn_cast<ElaboratedType>(Ty)) T = E->getNamedType();
    else if (const auto *Paren = dyn_cast<ParenType>(Ty)) T = Paren->getInnerType();
    else return false;
  }
}

// `Box<T>` with Box a template template parameter, anywhere in a type.
static bool namesTemplateTemplateParameter(QualType T) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitTemplateSpecializationType(TemplateSpecializationType *TST) {
      Found |= isa_and_nonnull<TemplateTemplateParmDecl>(TST->getTemplateName().getAsTemplateDecl());
      return !Found;
    }
  } F;
  F.TraverseType(T);
  return F.Found;
}

// A function type inside a type (`long (const std::string &)`), looking
// through pointers, references, arrays and template arguments.
static bool containsFunctionType(QualType T) {
  const QualType C = T.getCanonicalType();
  if (C->isFunctionType()) return true;
  if (const auto *P = C->getAs<PointerType>()) return containsFunctionType(P->getPointeeType());
  if (const auto *R = C->getAs<ReferenceType>()) return containsFunctionType(R->getPointeeType());
  if (const auto *M = C->getAs<MemberPointerType>()) return containsFunctionType(M->getPointeeType());
  if (const auto *A = C->getAsArrayTypeUnsafe()) return containsFunctionType(A->getElementType());
  const auto *RT = C->getAs<RecordType>();
  const auto *Spec = RT ? dyn_cast<ClassTemplateSpecializationDecl>(RT->getDecl()) : nullptr;
  return Spec && llvm::any_of(Spec->getTemplateArgs().asArray(), [](const TemplateArgument &Arg) {
           return Arg.getKind() == TemplateArgument::Type && containsFunctionType(Arg.getAsType());
         });
}

// Template arguments getFullyQualifiedType leaves unqualified, anywhere in a
// type: those of a variadic class template's pack (`Bag<int, std::string>`)
// and those inside a function type (`std::function<long (const T &)>` with
// T = std::string).
static bool hasArgumentsLeftUnqualified(QualType T) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    void check(const TemplateArgument &Arg) {
      Found |= Arg.getKind() == TemplateArgument::Pack ||
               (Arg.getKind() == TemplateArgument::Type && containsFunctionType(Arg.getAsType()));
    }
    bool VisitRecordType(RecordType *RT) {
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RT->getDecl()))
        for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) check(Arg);
      return !Found;
    }
    bool VisitTemplateSpecializationType(TemplateSpecializationType *TST) {
      for (const TemplateArgument &Arg : TST->template_arguments()) check(Arg);
      if (!TST->isSugared()) return !Found;
      return !Found && TraverseType(TST->desugar());
    }
  } F;
  F.TraverseType(T);
  return F.Found;
}

// T with the sugar that only means something inside its function replaced by
// what it stands for: a local alias (`using Num = long;`), `decltype(x)` of a
// local. (Outer levels of pointers and references are looked through.)
static QualType withoutLocalSugar(ASTContext &Ctx, QualType T) {
  const Qualifiers Local = T.getLocalQualifiers();
  const Type *Ty = T.getTypePtr();
  QualType Inner;
  if (const auto *E = dyn_cast<ElaboratedType>(Ty)) {
    Inner = withoutLocalSugar(Ctx, E->getNamedType());
    if (Inner == E->getNamedType()) return T;
  } else if (const auto *Alias = dyn_cast<TypedefType>(Ty)) {
    if (!Alias->getDecl()->getDeclContext()->isFunctionOrMethod()) return T;
    Inner = withoutLocalSugar(Ctx, Alias->desugar());
  } else if (const auto *Decltype = dyn_cast<DecltypeType>(Ty)) {
    if (Decltype->isDependentType()) return T;
    Inner = withoutLocalSugar(Ctx, Decltype->getUnderlyingType());
  } else if (const auto *P = dyn_cast<PointerType>(Ty)) {
    const QualType Pointee = withoutLocalSugar(Ctx, P->getPointeeType());
    if (Pointee == P->getPointeeType()) return T;
    Inner = Ctx.getPointerType(Pointee);
  } else if (const auto *R = dyn_cast<ReferenceType>(Ty)) {
    const QualType Pointee = withoutLocalSugar(Ctx, R->getPointeeTypeAsWritten());
    if (Pointee == R->getPointeeTypeAsWritten()) return T;
    Inner = isa<LValueReferenceType>(R) ? Ctx.getLValueReferenceType(Pointee) : Ctx.getRValueReferenceType(Pointee);
  } else {
    return T;
  }
  return Ctx.getQualifiedType(Inner, Local);
}

// Such sugar anywhere in T (`std::unique_ptr<long, decltype(del)>`).
static bool hasLocalSugar(QualType T) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitDecltypeType(DecltypeType *) { return !(Found = true); }
    bool VisitTypedefType(TypedefType *Alias) {
      Found |= Alias->getDecl()->getDeclContext()->isFunctionOrMethod();
      return !Found;
    }
  } F;
  F.TraverseType(T);
  return F.Found;
}

// A member type of a class template's pattern (`value_type` in
// `Box<T>::sum(value_type n)`, `Tree<T>::count(const Node *n)`):
// getFullyQualifiedType would qualify it with whichever instantiation it
// finds first (`::Box<long>::value_type`), an incomplete class where such
// types are printed, inside the template.
static bool namesMemberOfClassTemplate(QualType T) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitTypedefType(TypedefType *Alias) {
      Found |= Alias->getDecl()->getDeclContext()->isDependentContext();
      return !Found;
    }
    bool VisitUsingType(UsingType *Alias) {
      Found |= Alias->getFoundDecl()->getDeclContext()->isDependentContext();
      return !Found;
    }
    // (A nested class or enum of the template: `struct Node` in Tree<T>.)
    bool VisitTagType(TagType *Tag) {
      Found |= Tag->getDecl()->getDeclContext()->isDependentContext();
      return !Found;
    }
  } F;
  F.TraverseType(T);
  return F.Found;
}

// A canonical type with every class, enum and template it names qualified
// from the global namespace, also a pack's elements and the parameters of a
// function type among template arguments, which getFullyQualifiedType leaves
// as they are: a class template's specialization becomes the template named
// with its arguments, a pack's elements among them (`std::tuple<::lib::W,
// long>` prints the same either way).
static QualType qualifiedCanonical(ASTContext &Ctx, QualType T) {
  const Qualifiers Quals = T.getLocalQualifiers();
  const Type *Ty = T.getTypePtr();
  const auto rebuilt = [&](QualType U) { return Ctx.getQualifiedType(U, Quals); };
  if (const auto *Pointer = dyn_cast<PointerType>(Ty))
    return rebuilt(Ctx.getPointerType(qualifiedCanonical(Ctx, Pointer->getPointeeType())));
  if (const auto *Ref = dyn_cast<LValueReferenceType>(Ty))
    return rebuilt(Ctx.getLValueReferenceType(qualifiedCanonical(Ctx, Ref->getPointeeType())));
  if (const auto *Ref = dyn_cast<RValueReferenceType>(Ty))
    return rebuilt(Ctx.getRValueReferenceType(qualifiedCanonical(Ctx, Ref->getPointeeType())));
  if (const auto *Array = dyn_cast<ConstantArrayType>(Ty))
    return rebuilt(Ctx.getConstantArrayType(qualifiedCanonical(Ctx, Array->getElementType()), Array->getSize(),
                                            nullptr, Array->getSizeModifier(), Array->getIndexTypeCVRQualifiers()));
  if (const auto *Function = dyn_cast<FunctionProtoType>(Ty)) {
    llvm::SmallVector<QualType, 4> Params;
    for (QualType P : Function->param_types()) Params.push_back(qualifiedCanonical(Ctx, P));
    return rebuilt(Ctx.getFunctionType(qualifiedCanonical(Ctx, Function->getReturnType()), Params,
                                       Function->getExtProtoInfo()));
  }
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Ty->getAsRecordDecl());
  if (!Spec || !isa<RecordType>(Ty)) return TypeName::getFullyQualifiedType(T, Ctx, /*WithGlobalNsPrefix=*/true);
  llvm::SmallVector<TemplateArgument, 4> Args;
  const auto add = [&](const TemplateArgument &Arg) {
    Args.push_back(Arg.getKind() == TemplateArgument::Type ? TemplateArgument(qualifiedCanonical(Ctx, Arg.getAsType()))
                                                           : Arg);
  };
  for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
    if (Arg.getKind() != TemplateArgument::Pack) {
      add(Arg);
      continue;
    }
    for (const TemplateArgument &Element : Arg.pack_elements()) add(Element);
  }
  const QualType Named =
      Ctx.getTemplateSpecializationType(TemplateName(Spec->getSpecializedTemplate()), Args, QualType(Ty, 0));
  return rebuilt(TypeName::getFullyQualifiedType(Named, Ctx, /*WithGlobalNsPrefix=*/true));
}

static QualType fullyQualified(ASTContext &Ctx, QualType T) {
  // (getFullyQualifiedType leaves an array's element type as written: `P
  // arr[2]` for a class moved out of its function.)
  if (const auto *Array = dyn_cast<ConstantArrayType>(T.getTypePtr()))
    return Ctx.getQualifiedType(Ctx.getConstantArrayType(fullyQualified(Ctx, Array->getElementType()),
                                                         Array->getSize(), nullptr, Array->getSizeModifier(),
                                                         Array->getIndexTypeCVRQualifiers()),
                                T.getLocalQualifiers());
  T = withoutLocalSugar(Ctx, T);
  // The canonical type, its classes named from the global namespace: printed
  // as it is, `lib::Widget` would find `app::lib` first inside `namespace app`.
  // (Not where getFullyQualifiedType would leave arguments unqualified: a
  // pack's, which the canonical type prints qualified, if not from `::`.)
  const auto canonical = [&] {
    const QualType Canonical = T.getCanonicalType();
    return T->isDependentType() ? Canonical : qualifiedCanonical(Ctx, Canonical);
  };
  if (!T->isDependentType() && hasLocalSugar(T)) return canonical();
  // (Also a type written with a local constant, `std::array<long, n>`: in
  // a frame or a clone `n` is no constant.)
  if (T->getContainedDeducedType() || (!T->isDependentType() && (namesExpression(T) || namesVariable(T))))
    return canonical();
  if (!T->isDependentType() && hasArgumentsLeftUnqualified(T)) return canonical();
  // getFullyQualifiedType would qualify a class template's parameter with
  // the class (`Summer<Vec>::Box<long>`); generated code names such types
  // only inside that class, where they need no qualification.
  if (T->isDependentType() && namesTemplateTemplateParameter(T)) return T;
  // (Where no template parameter is involved, the type itself: a member of
  // an instantiation reached through decltype, `decltype(v.size())`, has
  // only the pattern's unqualified `size_type` as its sugar.)
  if (namesMemberOfClassTemplate(T)) return T->isDependentType() ? T : T.getCanonicalType();
  return TypeName::getFullyQualifiedType(T, Ctx, /*WithGlobalNsPrefix=*/true);
}

// A namespace-scope lambda's closure type, possibly cv-qualified and
// referenced, spelled through its variable: `const decltype(::by_key) &f`.
static std::optional<std::string> namedClosure(ASTContext &Ctx, QualType T, StringRef Name) {
  std::string Reference;
  if (const auto *R = T->getAs<ReferenceType>()) {
    Reference = isa<RValueReferenceType>(R) ? "&&" : "&";
    T = R->getPointeeType();
  }
  const auto *RD = T->getAsCXXRecordDecl();
  const VarDecl *V = RD && RD->isLambda() ? closureVariable(RD) : nullptr;
  if (!V) return std::nullopt;
  std::string Scope;
  for (const DeclContext *DC = V->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
      Scope = NS->getName().str() + "::" + Scope;
  // (The variable may be const: `const auto by_key = [](...) {...};`.)
  std::string Named = fmt::format("decltype(::{}{})", Scope, V->getName());
  if (V->getType().hasQualifiers()) Named = fmt::format("::std::remove_cv_t<{}>", Named);
  std::string Out = fmt::format("{}{}{}", T.isConstQualified() ? "const " : "", T.isVolatileQualified() ? "volatile " : "",
                                Named);
  if (!Reference.empty()) Out = fmt::format("{} {}", Out, Reference);
  if (!Name.empty()) Out = fmt::format("{}{}{}", Out, Reference.empty() ? " " : "", Name);
  return Out;
}

namespace {
// The spellings nameHiddenType gave, for the AST they belong to.
struct HiddenTypeSpellings {
  const ASTContext *Ctx = nullptr;
  llvm::DenseMap<const Type *, std::string> Spelling;
};
HiddenTypeSpellings &hiddenTypeSpellings(const ASTContext &Ctx) {
  static HiddenTypeSpellings Spellings;
  if (Spellings.Ctx != &Ctx) {
    Spellings.Ctx = &Ctx;
    Spellings.Spelling.clear();
  }
  return Spellings;
}
}  // namespace

// How Callee's scope is named from the global one.
static std::string scopeQualifier(const FunctionDecl *Callee) {
  std::string Scope;
  for (const DeclContext *DC = Callee->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
      Scope = NS->getName().str() + "::" + Scope;
  return "::" + Scope;
}

void nameHiddenType(ASTContext &Ctx, const HiddenTypeSource &S) {
  const QualType T = S.Type;
  if (!S.Source) {
    hiddenTypeSpellings(Ctx).Spelling.try_emplace(T.getCanonicalType().getUnqualifiedType().getTypePtr(), S.Written);
    return;
  }
  const CallExpr *Source = S.Source;
  const FunctionDecl *Callee = Source->getDirectCallee();
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  std::string Expression;
  if (const auto *Star = dyn_cast<CXXOperatorCallExpr>(Source)) {
    // `*it` (hiddenTypeSources): through the object's type.
    const QualType Object =
        Method ? Method->getFunctionObjectParameterType() : Star->getArg(0)->getType().getNonReferenceType();
    Expression = fmt::format("*::std::declval<{} &>()", typeQualified(Ctx, Object));
  } else {
    // An argument of each parameter's type selects the callee among its
    // overloads and deduces its template arguments as the call did.
    std::vector<std::string> Arguments;
    for (const ParmVarDecl *P : Callee->parameters())
      Arguments.push_back(fmt::format("::std::declval<{}>()", typeQualified(Ctx, P->getType())));
    const std::string Name = Callee->getNameAsString() + templateArguments(Callee);
    std::string Call;
    if (Method && !Method->isStatic())
      Call = fmt::format("::std::declval<{} {}>().{}{}", typeQualified(Ctx, Method->getFunctionObjectParameterType()),
                         Method->getRefQualifier() == RQ_RValue ? "&&" : "&",
                         Method->getPrimaryTemplate() ? "template " : "", Name);
    else if (Method)
      Call = typeQualified(Ctx, Ctx.getRecordType(Method->getParent())) + "::" + Name;
    else if (Callee->getFriendObjectKind() != Decl::FOK_None)
      Call = Name;  // a friend defined in its class: found by argument-dependent lookup only
    else
      Call = scopeQualifier(Callee) + Name;
    Expression = fmt::format("{}({})", Call, fmt::join(Arguments, ", "));
  }
  hiddenTypeSpellings(Ctx).Spelling.try_emplace(T.getCanonicalType().getUnqualifiedType().getTypePtr(),
                                                fmt::format("::std::decay_t<decltype({})>", Expression));
}

// T through its pointers and references, with a registered spelling of
// what they lead to.
static std::optional<std::string> hiddenTypeSpelled(ASTContext &Ctx, QualType T) {
  const HiddenTypeSpellings &Spellings = hiddenTypeSpellings(Ctx);
  if (Spellings.Spelling.empty()) return std::nullopt;
  T = T.getCanonicalType();
  std::string Declarator;
  for (;;) {
    if (const auto *R = T->getAs<ReferenceType>()) {
      Declarator = (isa<RValueReferenceType>(R) ? " &&" : " &") + Declarator;
      T = R->getPointeeType();
    } else if (const auto *P = T->getAs<PointerType>()) {
      Declarator = (T.isConstQualified() ? " *const" : " *") + Declarator;
      T = P->getPointeeType();
    } else {
      break;
    }
  }
  const auto Found = Spellings.Spelling.find(T.getUnqualifiedType().getTypePtr());
  if (Found == Spellings.Spelling.end()) return std::nullopt;
  return fmt::format("{}{}{}{}", T.isConstQualified() ? "const " : "", T.isVolatileQualified() ? "volatile " : "",
                     Found->second, Declarator);
}

// A pointer to a data member whose type is a class or a name (or a
// reference to one): the printer would write `::S::B ::S::*`, which parses
// as one qualified name. An empty attribute list keeps the two apart
// (`::S::B [[]] ::S::*`) and needs no declaration, as the rounds before
// the runtime's header is included need.
static std::optional<std::string> memberPointerSpelled(ASTContext &Ctx, QualType T, StringRef Name) {
  std::string Reference;
  if (const auto *R = dyn_cast<ReferenceType>(T.getTypePtr())) {
    Reference = isa<RValueReferenceType>(R) ? "&&" : "&";
    T = R->getPointeeTypeAsWritten();
  }
  const auto *MP = dyn_cast<MemberPointerType>(T.getTypePtr());
  if (!MP || MP->isMemberFunctionPointer()) return std::nullopt;
  const std::string Pointee = typeQualified(Ctx, MP->getPointeeType());
  if (Pointee.empty() || !(isAsciiIdentifierContinue(Pointee.back()) || Pointee.back() == '>')) return std::nullopt;
  return fmt::format("{} [[]] {}::*{}{}{}{}{}", Pointee, typeQualified(Ctx, QualType(MP->getClass(), 0)),
                     T.isConstQualified() ? " const" : "", T.isVolatileQualified() ? " volatile" : "", Reference,
                     Name.empty() ? "" : " ", Name);
}

std::string typeQualified(ASTContext &Ctx, QualType T) { return declareQualified(Ctx, T, ""); }

std::string declareQualified(ASTContext &Ctx, QualType T, StringRef Name) {
  if (std::optional<std::string> Closure = namedClosure(Ctx, T, Name)) return *Closure;
  if (std::optional<std::string> Hidden = hiddenTypeSpelled(Ctx, T))
    return Name.empty() ? *Hidden : fmt::format("{} {}", *Hidden, Name);
  const QualType Qualified = fullyQualified(Ctx, T);
  if (std::optional<std::string> Spelled = memberPointerSpelled(Ctx, Qualified, Name)) return *Spelled;
  return print(Ctx, Qualified, Name);
}

std::string declareAsWritten(ASTContext &Ctx, QualType T, StringRef Name) { return print(Ctx, T, Name); }

bool declaratorWrapsName(ASTContext &Ctx, QualType T) {
  return declareQualified(Ctx, T, "__name") != typeQualified(Ctx, T) + " __name";
}

ResultSpelling resultSpelling(ASTContext &Ctx, QualType T) {
  if (declaratorWrapsName(Ctx, T)) return {"auto", " -> " + typeQualified(Ctx, T)};
  return {typeQualified(Ctx, T), ""};
}

std::string simpleTypeSpecifier(ASTContext &Ctx, QualType T) {
  const std::string Spelled = typeQualified(Ctx, T);
  return declaratorWrapsName(Ctx, T) ? "::cilkpp::rt::id<" + Spelled + ">" : Spelled;
}

bool passesByRvalueReference(ASTContext &Ctx, const ParmVarDecl *P) {
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!FD) return false;
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  if (!Pattern && FD->getPrimaryTemplate()) Pattern = FD->getPrimaryTemplate()->getTemplatedDecl();
  if (!Pattern) Pattern = FD->getInstantiatedFromMemberFunction();
  if (!Pattern) Pattern = FD;
  // (A pack shifts the instantiation's parameters against the pattern's.)
  if (Pattern->getNumParams() != FD->getNumParams() ||
      llvm::any_of(Pattern->parameters(), [](const ParmVarDecl *Q) { return Q->isParameterPack(); }))
    return false;
  const QualType Written = Pattern->getParamDecl(P->getFunctionScopeIndex())->getType();
  return !Written->isDependentType() && !Written->isReferenceType() && Written->isRecordType() &&
         !Written.isTriviallyCopyableType(Ctx);
}

std::string defaultArgumentText(ASTContext &Ctx, const ParmVarDecl *P) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(SM.getExpansionRange(P->getDefaultArgRange()).getAsRange());
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

// How often P is named in S (or in the declaration D).
static unsigned referencesTo(const ParmVarDecl *P, Stmt *S, Decl *D = nullptr) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const ParmVarDecl *Param = nullptr;
    unsigned Count = 0;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      Count += E->getDecl() == Param;
      return true;
    }
  } U;
  U.Param = P;
  if (S) U.TraverseStmt(S);
  if (D) U.TraverseDecl(D);
  return U.Count;
}

// Whether the parameter P may be unused in a fast clone although the
// program uses it: in an instantiation, the template names it (its
// discarded `if constexpr` branches may have); anywhere, the declaration
// names it outside the body (`noexcept(noexcept(f(n)))`, `-> decltype(n)`,
// a later default argument, a requires-clause), which the clones do not
// repeat. True where that cannot be told (a pack shifts the parameters).
static bool mayBeUnusedInClone(const FunctionDecl *FD, const ParmVarDecl *P) {
  auto *Declared = const_cast<FunctionDecl *>(FD);
  if (referencesTo(P, nullptr, Declared) > referencesTo(P, Declared->getBody())) return true;
  if (!FD->isTemplateInstantiation()) return false;
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  if (!Pattern || !Pattern->getBody() || Pattern->getNumParams() != FD->getNumParams() ||
      llvm::any_of(Pattern->parameters(), [](const ParmVarDecl *Q) { return Q->isParameterPack(); }))
    return true;
  return referencesTo(Pattern->getParamDecl(P->getFunctionScopeIndex()), nullptr, const_cast<FunctionDecl *>(Pattern)) != 0;
}

std::string parameterList(ASTContext &Ctx, const FunctionDecl *FD, bool WithDefaults, bool ForFastClone,
                          ArrayRef<const ParmVarDecl *> MaybeUnused) {
  std::string Out;
  for (const ParmVarDecl *P : FD->parameters()) {
    if (!Out.empty()) Out += ", ";
    // (Or the parameter says so itself.)
    if ((ForFastClone && (mayBeUnusedInClone(FD, P) || P->hasAttr<UnusedAttr>() || P->getName().empty())) ||
        llvm::is_contained(MaybeUnused, P))
      Out += "[[maybe_unused]] ";
    // (`Ts... xs` prints its pattern: `Ts xs...` would be a C variadic.)
    if (const auto *Pack = P->getType()->getAs<PackExpansionType>())
      Out += declareQualified(Ctx, Pack->getPattern(), "..." + declaredParameterName(P));
    else if (ForFastClone && passesByRvalueReference(Ctx, P))
      Out += declareQualified(Ctx, Ctx.getRValueReferenceType(P->getType()), parameterName(P));
    else
      Out += declareQualified(Ctx, P->getType(), parameterName(P));
    if (WithDefaults && P->hasDefaultArg() && !P->hasUninstantiatedDefaultArg())
      Out += " = " + defaultArgumentText(Ctx, P);
  }
  return Out;
}

bool isExplicitSpecialization(const FunctionDecl *FD) {
  return FD->getTemplateSpecializationKind() == TSK_ExplicitSpecialization && FD->getPrimaryTemplate();
}

std::string redeclarationName(const FunctionDecl *FD) {
  return FD->getNameAsString() + (isExplicitSpecialization(FD) ? templateArguments(FD) : "");
}

std::string storagePrefix(const FunctionDecl *FD) {
  if (isExplicitSpecialization(FD)) return FD->isInlineSpecified() ? "template <> inline " : "template <> ";
  std::string Out;
  // A weak procedure's clones are weak too: a strong definition elsewhere
  // replaces them along with the procedure, for its spawns as well.
  if (FD->hasAttr<WeakAttr>()) Out += "__attribute__((__weak__)) ";
  // So is its visibility: a shared library that exports the procedure
  // exports the fast clone that spawns of it call.
  if (const auto *Visibility = FD->getAttr<VisibilityAttr>())
    Out += fmt::format("__attribute__((__visibility__(\"{}\"))) ",
                       VisibilityAttr::ConvertVisibilityTypeToStr(Visibility->getVisibility()));
  if (FD->getStorageClass() == SC_Static) Out += "static ";
  if (FD->isInlineSpecified()) Out += "inline ";
  return Out;
}

std::string declareThis(ASTContext &Ctx, const FunctionDecl *FD) {
  const auto *MD = cast<CXXMethodDecl>(FD);
  if (MD->getParent()->isDependentContext())
    return fmt::format("{}{} *__this", MD->isConst() ? "const " : "", classInScope(Ctx, MD->getParent()));
  return declareQualified(Ctx, MD->getThisType(), "__this");
}

}  // namespace cilkpp
