//===- WideScopeCheck.cpp - a scope wider than any thread that can see the memory ===//
//
// The engine's wide-scope rule (model/EngineScopes.cpp, wideScopeRule) over
// the TU's records: a fence in code whose memory is all its block's shared
// memory, or an acquire or release access of shared memory, at a scope wider
// than the block, in a kernel that reaches no other block's shared memory.
// Block scope orders the same for every thread that can see that memory, and
// costs less (model/Scopes.def: what an H100 took at each scope).
//
//===----------------------------------------------------------------------===//
#include "WideScopeCheck.h"
#include "ast/CheckUtils.h"
#include "model/Wording.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

WideScopeCheck::WideScopeCheck(StringRef Name, tidy::ClangTidyContext *Ctx)
    : DeviceRuleBase(Name, Ctx), FixIts(parseBoolOption(Options.get("FixIts", "true")).value_or(true)) {
  StringRef Value = Options.get("FixIts", "true");
  if (!parseBoolOption(Value))
    configurationDiag(invalidOptionMessage("FixIts", "'true' or 'false'"), DiagnosticIDs::Error) << Value << Name;
}

void WideScopeCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "FixIts", FixIts ? "true" : "false");
}

void WideScopeCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void WideScopeCheck::check(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<TranslationUnitDecl>("tu"))
    Records = AstRecords::get(*Result.Context);
}

void WideScopeCheck::onEndOfTranslationUnit() {
  if (!Records)
    return;
  // Most units have nothing the rule could report: no fence and no ordering
  // access wider than a block. Those skip the engine.
  if (none_of(Records->ops(), [](const MemOp &Op) {
        return Op.S && *Op.S > Scope::Block &&
               (Op.What == OpKind::Fence || (Op.isAccess() && (hasAcquire(Op.Ord) || hasRelease(Op.Ord)) &&
                                             Op.Home == ObjectHome::Shared));
      })) {
    Records.reset();
    return;
  }
  EngineOptions Opts;
  Opts.Rules = EngineOptions::Wide;
  std::vector<Finding> Found;
  for (const Finding &F : Records->findings(Opts))
    if (F.What == Finding::ScopeWider)
      Found.push_back(F);
  // A scope written once for several accesses (an alias of an atomic_ref
  // type) is narrowed by a fix only where every access it spells is found.
  DenseMap<SourceLocation, std::set<const Stmt *>> Spelled, Narrowed;
  for (unsigned I = 0; I < Records->ops().size(); ++I)
    if (const ScopedAccess *A = Records->access(static_cast<int>(I)); A && A->Widen != ScopedAccess::NoWiden)
      Spelled[A->ScopeSpelling.getBegin()].insert(A->Site);
  std::set<const Stmt *> Reported;
  std::vector<const ScopedAccess *> Unique;
  for (const Finding &F : Found) {
    const ScopedAccess &A = Records->accessAt(F.At);
    if (!Reported.insert(A.Site).second)
      continue;
    Unique.push_back(&A);
    if (A.Widen != ScopedAccess::NoWiden)
      Narrowed[A.ScopeSpelling.getBegin()].insert(A.Site);
  }
  std::set<SourceLocation> Fixed;
  for (const ScopedAccess *A : Unique) {
    const bool Fence = A->What == OpKind::Fence;
    const Scope Enough = Scope::Block;
    std::string Consider =
        Fence && A->How == ScopedAccess::DeviceBuiltin ? fenceFor(Enough) : libcuName(Enough).str();
    std::optional<FixItHint> Fix;
    SourceLocation At = A->ScopeSpelling.getBegin();
    if (FixIts && A->Widen != ScopedAccess::NoWiden && Spelled.lookup(At).size() == Narrowed.lookup(At).size()) {
      if (A->Widen == ScopedAccess::BuiltinName) {
        if (std::optional<std::string> Name = deviceBuiltinName(A->BuiltinOperation, Enough))
          Fix = FixItHint::CreateReplacement(CharSourceRange::getTokenRange(A->ScopeSpelling), *Name);
      } else {
        Fix = FixItHint::CreateReplacement(CharSourceRange::getTokenRange(A->ScopeSpelling), libcuName(Enough));
      }
    }
    auto D = diag(A->Loc, "'%0' %1 at %2, wider than needed: %3; consider %4")
             << A->Name << (Fence ? "orders memory" : "orders shared memory") << libcuName(A->S)
             << wideScopeReason(Fence, A->S, Enough) << Consider;
    if (Fix && Fixed.insert(At).second)
      D << *Fix;
  }
  Records.reset();
}

} // namespace cuda_scope
