//===- IrRows.cpp - the row of an offsets array an index lies in, from IR --===//
//
// The IR's reading of the rows rule (model: rowOf, rowCursor), as the AST
// front end's IndexRows.cpp reads the source: an array the function loads at
// an owner's item v and at v + 1 (one element past, which -O2 writes as a
// byte offset from X[v]'s address) delimits v's row; an index made of one of
// its bounds and of columns, or a phi web that starts in the row and steps by
// columns (a partition's cursors), or a lane's index the warp shuffles, lies
// in it.
//
//===----------------------------------------------------------------------===//
#include "IrAddresses.h"
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace cuda_scope {
namespace ir {

namespace {
constexpr unsigned MaxRowDepth = 6;
/// Terms one indexRow reads at most: webs of phis can fan out.
constexpr unsigned MaxRowTerms = 2000;
unsigned RowTerms = 0;

const Value *throughCasts(const Value *V) {
  while (const auto *C = dyn_cast<CastInst>(V)) {
    if (!C->getType()->isIntegerTy() || !C->getOperand(0)->getType()->isIntegerTy())
      break;
    V = C->getOperand(0);
  }
  if (const auto *F = dyn_cast<FreezeInst>(V))
    return throughCasts(F->getOperand(0));
  return V;
}

/// A load of X[v] or X[v + 1]: the array, v, and which.
struct OffsetRead {
  const Value *Array = nullptr;
  const Value *Item = nullptr;
  bool End = false;
};

std::optional<OffsetRead> offsetRead(const LoadInst *L) {
  const Value *P = L->getPointerOperand();
  bool End = false;
  // X[v + 1] as -O2 writes it: a byte offset of one element from &X[v].
  if (const auto *Bytes = dyn_cast<GEPOperator>(P);
      Bytes && Bytes->getNumIndices() == 1 && Bytes->getSourceElementType()->isIntegerTy(8))
    if (const auto *C = dyn_cast<ConstantInt>(Bytes->getOperand(1)))
      if (const auto *Inner = dyn_cast<GEPOperator>(Bytes->getPointerOperand());
          Inner && Inner->getNumIndices() == 1 && Inner->getSourceElementType()->isSized() &&
          C->getSExtValue() == int64_t(L->getModule()->getDataLayout().getTypeAllocSize(
                                   Inner->getSourceElementType())) &&
          L->getType() == Inner->getSourceElementType()) {
        End = true;
        P = Inner;
      }
  const auto *G = dyn_cast<GEPOperator>(P);
  if (!G || G->getNumIndices() != 1 || (!End && L->getType() != G->getSourceElementType()))
    return std::nullopt;
  const Value *Item = throughCasts(G->getOperand(1));
  if (const auto *Add = dyn_cast<BinaryOperator>(Item);
      !End && Add && Add->getOpcode() == Instruction::Add)
    for (unsigned I = 0; I < 2; ++I)
      if (const auto *One = dyn_cast<ConstantInt>(Add->getOperand(I)); One && One->isOne()) {
        End = true;
        Item = throughCasts(Add->getOperand(1 - I));
        break;
      }
  return OffsetRead{G->getPointerOperand()->stripPointerCasts(), Item, End};
}

/// A shuffle's value operand (llvm.nvvm.shfl.sync.idx.i32(mask, v, src, c)).
const Value *shuffled(const Value *V) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  std::optional<unsigned> Arg = Callee ? shuffledValueArg(Callee->getName()) : std::nullopt;
  return Arg && Call->arg_size() > *Arg ? Call->getArgOperand(*Arg) : nullptr;
}

/// The two values a select, a max or a min picks from.
std::optional<std::pair<const Value *, const Value *>> picked(const Value *V) {
  if (const auto *S = dyn_cast<SelectInst>(V))
    return std::make_pair(S->getTrueValue(), S->getFalseValue());
  if (const auto *Call = dyn_cast<CallBase>(V))
    if (const Function *Callee = Call->getCalledFunction();
        Callee && Call->arg_size() == 2 && picksAnOperand(Callee->getName()))
      return std::make_pair(Call->getArgOperand(0), Call->getArgOperand(1));
  return std::nullopt;
}

struct Root {
  const Value *V;
  bool Negated;
};

/// The additive terms of \p V: through add, sub, an `or` of disjoint bits,
/// and integer casts.
void addTerms(const Value *V, bool Negated, SmallVectorImpl<Root> &Out, unsigned Steps = 0) {
  V = throughCasts(V);
  if (const auto *BO = dyn_cast<BinaryOperator>(V); BO && Steps < 8) {
    bool Disjoint =
        BO->getOpcode() == Instruction::Or && cast<PossiblyDisjointInst>(BO)->isDisjoint();
    if (BO->getOpcode() == Instruction::Add || BO->getOpcode() == Instruction::Sub || Disjoint) {
      addTerms(BO->getOperand(0), Negated, Out, Steps + 1);
      addTerms(BO->getOperand(1), BO->getOpcode() == Instruction::Sub ? !Negated : Negated, Out,
               Steps + 1);
      return;
    }
  }
  Out.push_back({V, Negated});
}

std::optional<std::string> termsRow(ArrayRef<Root> Terms, IndexDeps &Owner, unsigned Depth);
RowTerm rowTerm(const Value *V, bool Negated, IndexDeps &Owner, unsigned Depth);

/// \p V positions nothing in a row (model: rowColumn).
bool columnPart(const Value *V, unsigned Depth) {
  SmallVector<Root, 6> Terms;
  addTerms(V, false, Terms);
  SmallVector<RowTerm, 6> Rows;
  IndexDeps Ignored;
  for (const Root &T : Terms)
    Rows.push_back(rowTerm(T.V, T.Negated, Ignored, Depth + 1));
  return rowColumn(Rows);
}

std::optional<std::string> cursorRow(const PHINode *Phi, IndexDeps &Owner, unsigned Depth);

RowTerm rowTerm(const Value *V, bool Negated, IndexDeps &Owner, unsigned Depth) {
  RowTerm T;
  T.Negated = Negated;
  if (++RowTerms > MaxRowTerms)
    return T;
  if (const auto *C = dyn_cast<ConstantInt>(V)) {
    T.Kind = RowTermKind::Column;
    T.Negated = Negated != C->isNegative(); // end + -1 takes one away
    return T;
  }
  IndexDeps Deps;
  canonical(V, Deps);
  if (!Deps.Block)
    T.Kind = RowTermKind::Column;
  auto InRow = [&](std::optional<std::string> Row) {
    if (Row) {
      T.Kind = RowTermKind::Cursor;
      T.Row = std::move(*Row);
    }
    return T;
  };
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    if (std::optional<std::string> Row = cursorRow(Phi, Owner, Depth + 1))
      return InRow(Row);
    return T;
  }
  if (const Value *Lane = shuffled(V)) {
    IndexDeps LaneOwner;
    std::optional<std::string> Row = termsRow({{Lane, false}}, LaneOwner, Depth + 1);
    if (Row && shuffleKeepsRow(LaneOwner)) {
      Owner |= LaneOwner;
      return InRow(Row);
    }
    return T;
  }
  if (auto Two = picked(V)) {
    IndexDeps A, B;
    std::optional<std::string> RowA = termsRow({{Two->first, false}}, A, Depth + 1);
    if (std::optional<std::string> Both = RowA ? choiceRow(RowA, termsRow({{Two->second, false}}, B, Depth + 1)) : std::nullopt) {
      Owner |= A;
      return InRow(Both);
    }
    // The smaller of two distances in the row is one (min(32, end - beg)).
    if (!RowA && Depth < MaxRowDepth && columnPart(Two->first, Depth) &&
        columnPart(Two->second, Depth))
      T.Kind = RowTermKind::Column;
    return T;
  }
  // X[v] or X[v + 1], v the owner's, where the function loads X at both.
  const auto *L = dyn_cast<LoadInst>(V);
  std::optional<OffsetRead> Read = L && Deps.Block ? offsetRead(L) : std::nullopt;
  if (!Read)
    return T;
  IndexDeps ItemDeps;
  std::string Item = canonical(Read->Item, ItemDeps);
  if (!ItemDeps.Block)
    return T;
  const LoadInst *Start = Read->End ? nullptr : L;
  bool HasEnd = Read->End;
  for (const Instruction &I : instructions(*L->getFunction())) {
    const auto *Other = dyn_cast<LoadInst>(&I);
    std::optional<OffsetRead> O = Other && (!Start || !HasEnd) ? offsetRead(Other) : std::nullopt;
    if (!O || O->Array != Read->Array)
      continue;
    IndexDeps Ignored;
    if (canonical(O->Item, Ignored) != Item)
      continue;
    if (O->End)
      HasEnd = true;
    else if (!Start)
      Start = Other;
  }
  if (!Start || !HasEnd)
    return T;
  IndexDeps Ignored;
  T.Kind = Read->End ? RowTermKind::End : RowTermKind::Start;
  T.Row = canonical(Start, Ignored);
  Owner |= ItemDeps;
  return T;
}

std::optional<std::string> termsRow(ArrayRef<Root> Roots, IndexDeps &Owner, unsigned Depth) {
  if (Depth > MaxRowDepth)
    return std::nullopt;
  SmallVector<Root, 6> Terms;
  for (const Root &R : Roots)
    addTerms(R.V, R.Negated, Terms);
  // A choice between two indices is in a row where both of them are.
  for (unsigned I = 0; I < Terms.size(); ++I) {
    const auto *S = dyn_cast<SelectInst>(Terms[I].V);
    IndexDeps Deps;
    if (!S || (canonical(S, Deps), !Deps.Block))
      continue;
    auto ArmRow = [&](const Value *Arm) {
      SmallVector<Root, 6> With(Terms.begin(), Terms.end());
      With[I].V = Arm;
      return termsRow(With, Owner, Depth + 1);
    };
    const auto [True, False] = std::make_pair(S->getTrueValue(), S->getFalseValue());
    return choiceRow(ArmRow(True), ArmRow(False));
  }
  SmallVector<RowTerm, 6> Rows;
  for (const Root &T : Terms)
    Rows.push_back(rowTerm(T.V, T.Negated, Owner, Depth));
  return rowOf(Rows);
}

/// The phis a cursorRow reads now, in any web: one met again from inside
/// (read = max(read, lp)) is the web's own value.
SmallPtrSet<const PHINode *, 8> &walkingPhis() {
  static SmallPtrSet<const PHINode *, 8> Walking;
  return Walking;
}

std::optional<std::string> cursorRow(const PHINode *Phi, IndexDeps &Owner, unsigned Depth) {
  SmallPtrSet<const PHINode *, 8> &Walking = walkingPhis();
  if (Depth > MaxRowDepth || Walking.count(Phi))
    return std::nullopt;
  // The web: the phis the values flow through, each read once.
  SmallVector<const PHINode *, 8> Web{Phi}, Added{Phi};
  Walking.insert(Phi);
  bool StepsAreColumns = true, Shuffled = false;
  SmallVector<CursorValue, 8> Values;
  std::function<CursorValue(const Value *)> ValueOf = [&](const Value *V) -> CursorValue {
    V = throughCasts(V);
    if (const auto *P = dyn_cast<PHINode>(V)) {
      if (Walking.count(P))
        return {CursorValueKind::Self, ""};
      if (Web.size() < 16 && P->getType()->isIntegerTy()) {
        Walking.insert(P);
        Web.push_back(P);
        Added.push_back(P);
        return {CursorValueKind::Self, ""};
      }
    }
    if (const auto *C = dyn_cast<ConstantInt>(V); C && C->isNegative())
      return {CursorValueKind::Sentinel, ""};
    if (const Value *Lane = shuffled(V)) {
      Shuffled = true;
      return ValueOf(Lane);
    }
    if (auto Two = picked(V)) {
      CursorValue A = ValueOf(Two->first), B = ValueOf(Two->second);
      if (A.Kind == CursorValueKind::Self)
        return B;
      if (B.Kind == CursorValueKind::Self || (A.Kind == B.Kind && A.Row == B.Row))
        return A;
      return {};
    }
    // The web's own value moved by columns (lp + popc(ball), max(read, lp)
    // + popc(bal)): a step.
    SmallVector<Root, 6> Terms;
    addTerms(V, false, Terms);
    if (Terms.size() > 1)
      for (unsigned I = 0; I < Terms.size(); ++I) {
        const Value *Term = Terms[I].V;
        if (Terms[I].Negated || !(isa<PHINode>(Term) || picked(Term) || shuffled(Term)) ||
            ValueOf(Term).Kind != CursorValueKind::Self)
          continue;
        for (unsigned J = 0; J < Terms.size(); ++J) {
          IndexDeps D;
          if (J != I && (canonical(Terms[J].V, D), D.Block))
            StepsAreColumns = false;
        }
        return {CursorValueKind::Self, ""};
      }
    if (std::optional<std::string> Row = termsRow({{V, false}}, Owner, Depth + 1))
      return {CursorValueKind::Row, *Row};
    return {};
  };
  for (unsigned W = 0; W < Web.size(); ++W)
    for (const Value *In : Web[W]->incoming_values())
      Values.push_back(ValueOf(In));
  for (const PHINode *P : Added)
    Walking.erase(P);
  std::optional<std::string> Row = rowCursor(Values, StepsAreColumns);
  if (Row && Shuffled && !shuffleKeepsRow(Owner))
    return std::nullopt;
  return Row;
}
} // namespace

std::optional<std::string> indexRow(const Value *Index, IndexDeps &Owner) {
  RowTerms = 0;
  return termsRow({{Index, false}}, Owner, 0);
}

} // namespace ir
} // namespace cuda_scope
