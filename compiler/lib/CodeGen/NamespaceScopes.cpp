#include "CodeGen/NamespaceScopes.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

#include <fmt/format.h>

#include <vector>

using namespace clang;

namespace cilkpp {
namespace {

// What opens Scope's namespaces (and linkage blocks) from global scope,
// innermost first.
std::vector<std::string> scopeOpeners(const DeclContext *Scope) {
  std::vector<std::string> Openers;
  for (const DeclContext *DC = Scope; !DC->isTranslationUnit(); DC = cast<Decl>(DC)->getLexicalDeclContext()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Openers.push_back(fmt::format("{}namespace {}{{", NS->isInline() ? "inline " : "",
                                    NS->isAnonymousNamespace() ? "" : NS->getName().str() + " "));
    else if (const auto *Linkage = dyn_cast<LinkageSpecDecl>(DC); Linkage && Linkage->hasBraces())
      Openers.push_back(Linkage->getLanguage() == LinkageSpecLanguageIDs::C ? "extern \"C\" {" : "extern \"C++\" {");
  }
  return Openers;
}

}  // namespace

std::string atGlobalScope(const DeclContext *Scope, const std::string &Text) {
  if (Text.empty()) return Text;
  const std::vector<std::string> Openers = scopeOpeners(Scope);
  std::string Out(Openers.size(), '}');
  Out += Openers.empty() ? Text : "\n" + Text;
  for (auto It = Openers.rbegin(); It != Openers.rend(); ++It) Out += *It;
  return Openers.empty() ? Out : Out + "\n";
}

std::string inScope(const DeclContext *Scope, const std::string &Text) {
  const std::vector<std::string> Openers = scopeOpeners(Scope);
  if (Openers.empty()) return Text;
  std::string Out;
  for (auto It = Openers.rbegin(); It != Openers.rend(); ++It) Out += *It;
  return Out + "\n" + Text + std::string(Openers.size(), '}') + "\n";
}

}  // namespace cilkpp
