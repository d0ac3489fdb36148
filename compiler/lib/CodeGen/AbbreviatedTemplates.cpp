#include "CodeGen/AbbreviatedTemplates.h"

#include "CodeGen/OutlinedTemplates.h"
#include "Sema/ProcedureFinder.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <fmt/format.h>

#include <vector>

using namespace clang;

namespace cilkpp {
namespace {

bool isAbbreviated(const FunctionTemplateDecl *Template) {
  return llvm::any_of(*Template->getTemplateParameters(), [](const NamedDecl *P) { return P->isImplicit(); });
}

// Function templates of the main file with an invented parameter (not
// generic lambdas' call operators, which BodyOutlining handles).
class AbbreviatedTemplateFinder : public RecursiveASTVisitor<AbbreviatedTemplateFinder> {
 public:
  explicit AbbreviatedTemplateFinder(const SourceManager &SM) : SM(SM) {}
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *D) {
    const auto *Method = dyn_cast<CXXMethodDecl>(D->getTemplatedDecl());
    if (D->isCanonicalDecl() && isAbbreviated(D) && !(Method && Method->getParent()->isLambda()) &&
        SM.isWrittenInMainFile(SM.getExpansionLoc(D->getLocation())))
      Found.push_back(D);
    return true;
  }
  std::vector<const FunctionTemplateDecl *> Found;

 private:
  const SourceManager &SM;
};

struct Edit {
  CharSourceRange Range;  // empty: insert at its beginning
  std::string Text;
};

class HeadWriter {
 public:
  explicit HeadWriter(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  // The edits that name one declaration's invented parameters, or nullopt
  // where some `auto` or constraint is not the file's own text.
  std::optional<std::vector<Edit>> edits(const FunctionTemplateDecl *Declaration) const {
    const TemplateParameterList *List = Declaration->getTemplateParameters();
    const FunctionDecl *Function = Declaration->getTemplatedDecl();
    std::vector<Edit> Edits;
    std::vector<std::string> Head;
    unsigned Named = 0;
    for (const NamedDecl *P : *List) {
      if (!P->isImplicit()) continue;
      const auto *Invented = cast<TemplateTypeParmDecl>(P);
      std::string Kind = "class";
      if (Invented->hasTypeConstraint()) {
        const CharSourceRange Constraint = constraintRange(SM, Invented);
        if (Constraint.isInvalid()) return std::nullopt;
        Kind = Lexer::getSourceText(Constraint, SM, Ctx.getLangOpts()).str();
      }
      Head.push_back(fmt::format("{}{} {}", Kind, Invented->isParameterPack() ? "..." : "",
                                 inventedName(Invented->getIndex())));
    }
    for (const ParmVarDecl *P : Function->parameters()) {
      const TypeSourceInfo *Info = P->getTypeSourceInfo();
      if (!Info) return std::nullopt;
      for (TypeLoc TL = Info->getTypeLoc(); !TL.isNull(); TL = TL.getNextTypeLoc()) {
        const auto Parameter = TL.getAs<TemplateTypeParmTypeLoc>();
        if (!Parameter) continue;
        const TemplateTypeParmType *Type = Parameter.getTypePtr();
        if (Type->getDepth() != List->getDepth() || Type->getIndex() >= List->size()) continue;
        const auto *Invented = dyn_cast<TemplateTypeParmDecl>(List->getParam(Type->getIndex()));
        if (!Invented || !Invented->isImplicit()) continue;
        const SourceLocation Auto = Parameter.getNameLoc();
        if (!Auto.isFileID() || !SM.isWrittenInMainFile(Auto) ||
            Lexer::getSourceText(CharSourceRange::getTokenRange(Auto, Auto), SM, Ctx.getLangOpts()) != "auto")
          return std::nullopt;
        Edits.push_back({CharSourceRange::getTokenRange(Auto, Auto), inventedName(Invented->getIndex())});
        // `std::integral auto k`: the constraint moves into the head.
        if (const CharSourceRange Constraint = constraintRange(SM, Invented); Constraint.isValid())
          Edits.push_back({CharSourceRange::getCharRange(Constraint.getBegin(), Auto), ""});
        ++Named;
      }
    }
    if (Named != Head.size()) return std::nullopt;
    const std::string Parameters = fmt::format("{}", fmt::join(Head, ", "));
    if (List->getTemplateLoc().isValid()) {
      if (!List->getRAngleLoc().isFileID()) return std::nullopt;
      Edits.push_back({CharSourceRange::getCharRange(List->getRAngleLoc(), List->getRAngleLoc()),
                       (List->size() > Head.size() ? ", " : "") + Parameters});
      return Edits;
    }
    const SourceLocation Start = headPosition(Declaration);
    if (Start.isInvalid()) return std::nullopt;
    Edits.push_back({CharSourceRange::getCharRange(Start, Start), fmt::format("template <{}> ", Parameters)});
    return Edits;
  }

 private:
  // Before the declaration's specifiers and the attributes written before
  // them (`cilk` among them), after the heads of enclosing class templates
  // that an out-of-class definition repeats.
  SourceLocation headPosition(const FunctionTemplateDecl *Declaration) const {
    const FunctionDecl *Function = Declaration->getTemplatedDecl();
    SourceLocation Start = SM.getExpansionLoc(Function->getInnerLocStart());
    if (!Start.isValid() || !SM.isWrittenInMainFile(Start)) return {};
    // `friend long f(auto x);` -> `template <...> friend long f(...);`
    if (const auto *Class = dyn_cast<CXXRecordDecl>(Declaration->getLexicalDeclContext()))
      for (const FriendDecl *Friend : Class->friends())
        if (Friend->getFriendDecl() == Declaration && Friend->getFriendLoc().isFileID() &&
            SM.isBeforeInTranslationUnit(Friend->getFriendLoc(), Start))
          Start = Friend->getFriendLoc();
    for (const Attr *A : Function->attrs()) {
      if (A->isInherited() || A->isImplicit() || A->getLocation().isInvalid()) continue;
      const SourceLocation At = SM.getExpansionLoc(A->getRange().getBegin());
      if (SM.isBeforeInTranslationUnit(At, Start) && SM.getFileID(At) == SM.getFileID(Start)) Start = At;
    }
    // An attribute's range may start at its name, inside `[[...]]` or
    // `__attribute__((...))`: back up over what opens it.
    while (true) {
      const SourceLocation Previous = previousToken(Start);
      if (Previous.isInvalid()) break;
      const StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Previous, Previous), SM, Ctx.getLangOpts());
      if (Text != "[" && Text != "(" && Text != "__attribute__") break;
      Start = Previous;
    }
    return Start;
  }

  // The token before Loc, past whitespace (not past a comment).
  SourceLocation previousToken(SourceLocation Loc) const {
    const StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
    unsigned Offset = SM.getFileOffset(Loc);
    while (Offset > 0 && isWhitespace(Buffer[Offset - 1])) --Offset;
    if (Offset == 0) return {};
    return Lexer::GetBeginningOfToken(Loc.getLocWithOffset(int(Offset) - int(SM.getFileOffset(Loc)) - 1), SM,
                                      Ctx.getLangOpts());
  }

  ASTContext &Ctx;
  const SourceManager &SM;
};

}  // namespace

std::optional<std::string> nameInventedTemplateParameters(ASTContext &Ctx, ArrayRef<KeywordUse> Uses,
                                                          ArrayRef<GrainPragma> Pragmas) {
  const SourceManager &SM = Ctx.getSourceManager();
  AbbreviatedTemplateFinder Finder(SM);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (Finder.Found.empty()) return std::nullopt;
  SemaResult Sema;
  findCilkProcedures(Ctx, Uses, Pragmas, Sema);
  Rewriter Main(Ctx.getSourceManager(), Ctx.getLangOpts());
  const HeadWriter Writer(Ctx);
  bool Changed = false;
  for (const FunctionTemplateDecl *Template : Finder.Found) {
    const bool IsProcedure =
        Sema.CilkFunctions.contains(Template->getTemplatedDecl()) ||
        llvm::any_of(Template->specializations(), [&](const FunctionDecl *F) { return Sema.CilkFunctions.contains(F); });
    if (!IsProcedure) continue;
    // Every declaration or none, so that they still declare one template.
    std::vector<Edit> All;
    bool Complete = true;
    for (const RedeclarableTemplateDecl *Redeclaration : Template->redecls()) {
      const auto *Declaration = cast<FunctionTemplateDecl>(Redeclaration);
      std::optional<std::vector<Edit>> Edits = Writer.edits(Declaration);
      if (!Edits) Complete = false;
      else All.insert(All.end(), Edits->begin(), Edits->end());
    }
    if (!Complete) continue;
    for (const Edit &E : All) {
      if (E.Range.getBegin() == E.Range.getEnd() && E.Range.isCharRange())
        Main.InsertTextBefore(E.Range.getBegin(), E.Text);
      else
        Main.ReplaceText(E.Range, E.Text);
    }
    Changed = true;
  }
  if (!Changed) return std::nullopt;
  const RewriteBuffer *Edited = Main.getRewriteBufferFor(SM.getMainFileID());
  return std::string(Edited->begin(), Edited->end());
}

}  // namespace cilkpp
