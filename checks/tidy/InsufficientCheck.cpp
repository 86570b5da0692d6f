//===- InsufficientCheck.cpp - one scope that cannot include every accessor ===//
//
// Over the TU's scoped accesses (ScopedAccesses), grouped by object per
// kernel: an object that other blocks (or host threads) also access, reached
// only through scopes too narrow for them; and a fence too narrow for the
// relaxed accesses it orders (unless it orders a message: data and a flag,
// which cuda-scope-release-acquire reports).
//
//===----------------------------------------------------------------------===//
#include "InsufficientCheck.h"
#include "Messages.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

InsufficientCheck::InsufficientCheck(StringRef Name, tidy::ClangTidyContext *Ctx) : ClangTidyCheck(Name, Ctx) {}

void InsufficientCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void InsufficientCheck::check(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<TranslationUnitDecl>("tu"))
    Accesses = ScopedAccesses::get(*Result.Context);
}

void InsufficientCheck::onEndOfTranslationUnit() {
  if (!Accesses)
    return;
  reportAccesses();
  reportFences();
  Accesses.reset();
}

void InsufficientCheck::reportAccesses() {
  std::set<std::pair<const Stmt *, std::string>> Reported;
  for (const AccessGroup &G : Accesses->groups(/*AcrossKernels=*/false)) {
    // With one access wide enough, the narrow ones are cuda-scope-mismatch's.
    if (any_of(G.Accesses, [&](const ScopedAccess *B) { return includes(B->S, G.Needed); }))
      continue;
    for (const ScopedAccess *A : G.Accesses) {
      if (!scopeTooNarrow(*A, G) || !Reported.insert({A->Site, A->Name}).second)
        continue;
      std::string Object = ScopedAccesses::describe(*A->Object);
      if (G.WithHost) {
        const ScopedAccess *Other = nullptr;
        for (const ScopedAccess *B : G.Accesses)
          if ((B->RootIs == ScopedAccess::Host) != (A->RootIs == ScopedAccess::Host)) {
            Other = B;
            break;
          }
        diag(A->Loc, "%0 is %1 with %2 here, and both host and device threads access it; %2 cannot "
                     "include them all; consider %3")
            << Object << accessVerb(A->What) << libcuName(A->S) << libcuName(Scope::System);
        if (Other)
          diag(Other->Loc, "%0 accesses %1 here", DiagnosticIDs::Note) << describeRoot(*Other) << Object;
        continue;
      }
      diag(A->Loc, "%0 is %1 with %2 by every block that runs %3; %2 cannot include the other blocks; "
                   "consider %4")
          << Object << accessVerb(A->What) << libcuName(A->S) << describeRoot(*A) << libcuName(G.Needed);
    }
  }
}

void InsufficientCheck::reportFences() {
  // A fence orders a relaxed access for the threads of its scope only: a
  // release fence before a relaxed store (or read-modify-write), an acquire
  // fence after a relaxed load, must include the threads on the other side.
  // A fence between the data and the flag of a message is
  // cuda-scope-release-acquire's: it knows which threads are on the other side.
  std::shared_ptr<Messages> Msgs = Messages::get(Accesses->context());
  ArrayRef<ScopedAccess> All = Accesses->accesses();
  // The relaxed accesses of each root, so that each fence looks at its own.
  DenseMap<const FunctionDecl *, SmallVector<const ScopedAccess *, 8>> Relaxed;
  for (const ScopedAccess &A : All)
    if (A.isMemoryAccess() && A.Ord == Order::Relaxed && A.Object && A.RootIs != ScopedAccess::Host)
      Relaxed[A.Root].push_back(&A);
  std::set<const Stmt *> Reported;
  for (const ScopedAccess &F : All) {
    if (F.What != AccessKind::Fence || F.S == Scope::Thread || F.RootIs == ScopedAccess::Host ||
        (!F.Before && !F.After) || Reported.count(F.Site) || Msgs->ordersMessage(F))
      continue;
    auto It = Relaxed.find(F.Root);
    if (It == Relaxed.end())
      continue;
    for (const ScopedAccess *Access : It->second) {
      const ScopedAccess &A = *Access;
      bool Release = A.What != AccessKind::Load && A.encloses(F.After);
      bool Acquire = A.What != AccessKind::Store && A.encloses(F.Before);
      if (!Release && !Acquire)
        continue;
      const AccessGroup *G = Accesses->groupOf(A);
      if (!G || includes(F.S, G->Needed))
        continue;
      std::string Object = ScopedAccesses::describe(*A.Object);
      std::string Who = G->WithHost ? "host threads access " + Object + " too"
                                    : "every block that runs " + describeRoot(A) + " accesses it";
      std::string Consider = libcuName(G->Needed).str();
      if (F.How == ScopedAccess::DeviceBuiltin)
        if (std::optional<std::string> Name = deviceBuiltinName("__threadfence", G->Needed))
          Consider = "'" + *Name + "'";
      diag(F.Loc, "'%0' orders the relaxed %1 of %2 with %3, but %4; a fence's scope must include the "
                  "threads it synchronizes with; consider %5")
          << F.Name << accessKindName(A.What) << Object << libcuName(F.S) << Who << Consider;
      diag(A.Loc, "the relaxed %0 is here", DiagnosticIDs::Note) << accessKindName(A.What);
      Reported.insert(F.Site);
      break;
    }
  }
}

} // namespace cuda_scope
