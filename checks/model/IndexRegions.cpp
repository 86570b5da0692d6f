//===- IndexRegions.cpp - which owner's region an index lies in -----------===//
//
// The model's region rules, read the same by both front ends: a block's
// region of a flat index (blockPart), a word past every block's share
// (pastEveryShare), and the row of an offsets array an index or a cursor
// lies in (rowOf, rowColumn, rowCursor).
//
//===----------------------------------------------------------------------===//
#include "MemoryModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace cuda_scope {

std::string blockPart(const std::vector<IndexTerm> &Terms) {
  std::vector<std::string> Alike;
  bool ReadsBlock = false;
  // The pitch, where every scaled term that reads the block's index has a
  // constant factor: the smallest.
  std::optional<uint64_t> Pitch;
  bool PitchIsValue = false;
  auto Magnitude = [](int64_t V) { return V < 0 ? 0 - uint64_t(V) : uint64_t(V); };
  for (const IndexTerm &T : Terms)
    if (T.BlockUniform && T.Deps.Block && T.Scaled) {
      if (!T.Factor || *T.Factor == 0)
        PitchIsValue = true;
      else
        Pitch = Pitch ? std::min(*Pitch, Magnitude(*T.Factor)) : Magnitude(*T.Factor);
    }
  // A column: a term the block's threads compute apart (the thread's index,
  // a slot an atomic handed out).
  const bool Column = any_of(
      Terms, [](const IndexTerm &T) { return !T.BlockUniform || T.Deps.Thread || T.Deps.Warp; });
  for (const IndexTerm &T : Terms) {
    if (!T.BlockUniform || T.Deps.Thread || T.Deps.Warp)
      continue;
    if (Column && T.Constant && (PitchIsValue || (Pitch && Magnitude(*T.Constant) < *Pitch)))
      continue; // the column's, within the block's region
    ReadsBlock |= T.Deps.Block && T.Scaled;
    Alike.push_back((T.Negated ? "-" : "+") + T.Text);
  }
  if (!ReadsBlock)
    return std::string();
  llvm::sort(Alike);
  std::string Out;
  for (const std::string &A : Alike)
    Out += A;
  return Out;
}

bool pastEveryShare(const std::vector<IndexTerm> &Share, const std::vector<IndexTerm> &Past) {
  auto ShareTerm = llvm::find_if(Share, [](const IndexTerm &T) { return !T.ShareOf.empty(); });
  if (ShareTerm == Share.end() || ShareTerm->Negated ||
      std::any_of(std::next(ShareTerm), Share.end(),
                  [](const IndexTerm &T) { return !T.ShareOf.empty(); }))
    return false;
  const std::string &Extent = ShareTerm->ShareOf;
  // Past's terms not yet matched: the extent first, then the base.
  SmallVector<const IndexTerm *, 8> Left;
  for (const IndexTerm &T : Past)
    Left.push_back(&T);
  auto Take = [&](const IndexTerm &T) {
    auto It = llvm::find_if(
        Left, [&](const IndexTerm *P) { return P->Text == T.Text && P->Negated == T.Negated; });
    if (It == Left.end())
      return false;
    Left.erase(It);
    return true;
  };
  IndexTerm X;
  X.Text = Extent;
  if (!Take(X))
    return false;
  unsigned Bags = 0;
  for (const IndexTerm &T : Share) {
    if (&T == &*ShareTerm || Take(T))
      continue;
    // Within the share: its column (what the block's threads compute apart,
    // as blockPart takes it, and constants), one bag.
    bool Column = !T.BlockUniform || T.Deps.Thread || T.Deps.Warp || T.Constant.has_value();
    bool Bag = T.BagOf == Extent && !T.Negated && ++Bags == 1;
    if (!Column && !Bag)
      return false;
  }
  // What Past adds to base + X moves it further up.
  return llvm::all_of(Left, [](const IndexTerm *T) {
    return !T->Negated && (T->NonNegative || (T->Constant && *T->Constant >= 0));
  });
}

std::optional<std::string> rowOf(ArrayRef<RowTerm> Terms) {
  // A bound added and taken away (beg + (len - 1) with len = end - beg)
  // leaves the rest.
  SmallVector<RowTerm, 6> Left(Terms.begin(), Terms.end());
  for (unsigned I = 0; I < Left.size(); ++I) {
    if (Left[I].Kind == RowTermKind::Column || Left[I].Kind == RowTermKind::Other)
      continue;
    for (unsigned J = I + 1; J < Left.size(); ++J)
      if (Left[J].Kind == Left[I].Kind && Left[J].Row == Left[I].Row &&
          Left[J].Negated != Left[I].Negated) {
        Left.erase(Left.begin() + J);
        Left.erase(Left.begin() + I);
        --I;
        break;
      }
  }
  const RowTerm *Bound = nullptr;
  bool TakenAway = false;
  for (const RowTerm &T : Left) {
    if (T.Kind == RowTermKind::Column) {
      TakenAway |= T.Negated;
      continue;
    }
    if (T.Kind == RowTermKind::Other || T.Negated || Bound)
      return std::nullopt;
    Bound = &T;
  }
  if (!Bound || (Bound->Kind == RowTermKind::End && !TakenAway))
    return std::nullopt;
  return Bound->Row;
}

bool picksAnOperand(StringRef Name) {
  Name.consume_front("std::");
  for (StringRef P : {"llvm.smax.", "llvm.smin.", "llvm.umax.", "llvm.umin."})
    if (Name.starts_with(P))
      return true;
  return Name == "max" || Name == "min" || Name == "umax" || Name == "umin" || Name == "llmax" ||
         Name == "llmin" || Name == "ullmax" || Name == "ullmin";
}

bool rowColumn(ArrayRef<RowTerm> Terms) {
  SmallVector<RowTerm, 6> Left;
  for (const RowTerm &T : Terms) {
    if (T.Kind == RowTermKind::Column)
      continue;
    if (T.Kind == RowTermKind::Other)
      return false;
    Left.push_back(T);
  }
  // Every place in a row pairs with one of the other sign in the same row:
  // what is left is a distance within the row (end - beg, lp - beg).
  while (!Left.empty()) {
    auto Pair = std::find_if(Left.begin() + 1, Left.end(), [&](const RowTerm &T) {
      return T.Row == Left.front().Row && T.Negated != Left.front().Negated;
    });
    if (Pair == Left.end())
      return false;
    Left.erase(Pair);
    Left.erase(Left.begin());
  }
  return true;
}

std::optional<std::string> rowCursor(ArrayRef<CursorValue> Values, bool StepsAreColumns) {
  if (!StepsAreColumns)
    return std::nullopt;
  std::optional<std::string> Row;
  for (const CursorValue &V : Values) {
    if (V.Kind == CursorValueKind::Self || V.Kind == CursorValueKind::Sentinel)
      continue;
    if (V.Kind == CursorValueKind::Other || (Row && *Row != V.Row))
      return std::nullopt;
    Row = V.Row;
  }
  return Row;
}

} // namespace cuda_scope
