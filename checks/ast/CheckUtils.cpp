//===- CheckUtils.cpp - small helpers the cuda-scope checks share ---------===//
#include "CheckUtils.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {

StringRef identifierOf(const NamedDecl *D) {
  return D && D->getDeclName().isIdentifier() ? D->getName() : StringRef();
}

/// "ns::Class::f" without inline or anonymous namespaces and without template
/// arguments, as users write it in options.
std::string plainQualifiedName(const NamedDecl *D) {
  SmallVector<StringRef, 4> Parts{identifierOf(D)};
  for (const DeclContext *C = D->getDeclContext(); C && !C->isTranslationUnit();
       C = C->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(C)) {
      if (!NS->isInline() && !NS->isAnonymousNamespace())
        Parts.push_back(NS->getName());
    } else if (const auto *RD = dyn_cast<RecordDecl>(C)) {
      Parts.push_back(identifierOf(RD));
    } else if (!isa<LinkageSpecDecl, ExportDecl>(C)) {
      break; // a local class: its functions are named from the class
    }
  }
  return join(reverse(Parts), "::");
}

/// "A::f", "f", or a prefix ending in '*' ("engine::launch*", "thrust::*")
/// against a declaration's name.
bool matchesFunctionName(const NamedDecl *D, StringRef Pattern) {
  bool Prefix = Pattern.consume_back("*");
  Pattern.consume_front("::");
  auto Same = [&](StringRef N) { return Prefix ? N.starts_with(Pattern) : N == Pattern; };
  if (!Pattern.contains("::"))
    return Same(identifierOf(D));
  return Same(plainQualifiedName(D));
}

bool isFunctionPattern(StringRef P) {
  static const Regex Name("^(::)?[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*(::)?\\*?$");
  return P != "*" && !P.ends_with("::") && Name.match(P);
}

// A boolean option read as text: a value that is none of these gets the
// check's own message (invalidOptionMessage), which names the check and what
// it expects, as every other option of ours does; OptionsView::get<bool>
// (exported by clang-tidy 22) would warn in clang-tidy's words and carry on.
std::optional<bool> parseBoolOption(StringRef Value) {
  if (Value.equals_insensitive("true") || Value == "1" || Value.equals_insensitive("on"))
    return true;
  if (Value.equals_insensitive("false") || Value == "0" || Value.equals_insensitive("off"))
    return false;
  return std::nullopt;
}

std::string invalidOptionMessage(StringRef Option, StringRef Expected) {
  return ("invalid value '%0' for option '" + Option + "' of check '%1': expected " + Expected).str();
}

std::vector<std::string> splitList(StringRef Value) {
  SmallVector<StringRef, 8> Parts;
  Value.split(Parts, ';', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim().str());
  return Out;
}

std::vector<std::pair<std::string, unsigned>> parseNameIndexList(StringRef Value,
                                                                 std::vector<std::string> &Bad) {
  std::vector<std::pair<std::string, unsigned>> Out;
  for (const std::string &Item : splitList(Value)) {
    auto [Name, Index] = StringRef(Item).rsplit(':'); // names may be qualified: A::post:0
    unsigned N;
    if (Name.trim().empty() || Index.trim().getAsInteger(10, N))
      Bad.push_back(Item);
    else
      Out.emplace_back(Name.trim().str(), N);
  }
  return Out;
}

std::optional<int64_t> constantInt(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    E = D->getExpr();
  if (!E || E->isValueDependent() || E->isTypeDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || R.Val.getInt().getSignificantBits() > 64)
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

std::optional<bool> foldedCondition(const Expr *Cond, const ASTContext &Ctx) {
  if (!Cond || Cond->isValueDependent() || Cond->isTypeDependent())
    return std::nullopt;
  bool Value = false;
  if (Cond->HasSideEffects(Ctx) || !Cond->EvaluateAsBooleanCondition(Value, Ctx))
    return std::nullopt;
  return Value;
}

const Expr *stripWrappers(const Expr *E) {
  for (unsigned Step = 0; E && Step < 16; ++Step) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(Next))
      Next = C->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

const Expr *sameMemory(const Expr *E) {
  for (unsigned Step = 0; E && Step < 16; ++Step) {
    E = E->IgnoreParenImpCasts();
    const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
    if (!Cast || !Cast->isGLValue() || (Cast->getCastKind() != CK_LValueBitCast && Cast->getCastKind() != CK_NoOp))
      return E;
    E = Cast->getSubExpr();
  }
  return E;
}

} // namespace cuda_scope
