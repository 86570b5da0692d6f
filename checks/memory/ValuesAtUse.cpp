//===- ValuesAtUse.cpp - a local's value where it is read -----------------===//
//
// A local changed later in its function still has its initializer's value
// where it is read before any change can have run: a worker's first item,
// read to build an object at its declaration, before the loop that draws
// the next ones (int row = blockIdx.x * warps + warp; Map m(&keys[row *
// size]); for (; row < n; row = next()) ...). The IR's SSA value at that
// read is the initializer's; without this the index is unknown and the
// object's warp-owned part is lost.
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"

#include "clang/AST/ParentMapContext.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

bool ScopedAccesses::Walker::readBeforeAnyChange(const DeclRefExpr *Use, const VarDecl *V) {
  const Modifications *Map = modificationsOf(V);
  auto It = Map ? Map->find(V) : Modifications::const_iterator();
  if (!Map || It == Map->end() || It->second.Sites.empty() || It->second.Sites.size() != It->second.Count)
    return false;
  SourceLocation At = SM.getExpansionLoc(Use->getBeginLoc());
  if (At.isInvalid() || SM.getFileID(At) != SM.getFileID(SM.getExpansionLoc(V->getLocation())))
    return false;
  for (SourceLocation Site : It->second.Sites) {
    SourceLocation S = SM.getExpansionLoc(Site);
    if (S.isInvalid() || SM.getFileID(S) != SM.getFileID(At) || !SM.isBeforeInTranslationUnit(At, S))
      return false;
  }
  // No loop around the read holds a change: a later iteration would read it.
  DynTypedNodeList Parents = Ctx.getParents(*Use);
  for (unsigned Steps = 0; !Parents.empty() && Steps < 64; ++Steps) {
    const DynTypedNode &P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return true;
    if (const auto *S = P.get<Stmt>(); S && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
      SourceRange R(SM.getExpansionLoc(S->getBeginLoc()), SM.getExpansionLoc(S->getEndLoc()));
      for (SourceLocation Site : It->second.Sites) {
        SourceLocation L = SM.getExpansionLoc(Site);
        if (!SM.isBeforeInTranslationUnit(L, R.getBegin()) && !SM.isBeforeInTranslationUnit(R.getEnd(), L))
          return false;
      }
    }
    Parents = Ctx.getParents(P);
  }
  return false;
}

} // namespace cuda_scope
