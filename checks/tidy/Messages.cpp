//===- Messages.cpp - flags, the data they publish, and what orders them --===//
#include "Messages.h"
#include "PerTU.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace clang;
using namespace llvm;

namespace cuda_scope {

struct Messages::Flag {
  SmallVector<const ScopedAccess *, 4> Publishes, Receives;
  /// Publishes that only reset the flag after receiving it.
  SmallVector<const ScopedAccess *, 2> Resets;
  std::string Key;
  Scope Needed = Scope::Device;
};

/// The messages of one kernel (or, across kernels, of the TU): the flags,
/// the plain writes and reads of the data, the fences and the calls.
struct Messages::Group {
  std::vector<Flag> Flags;
  /// Each data access with its object's key: an object is never its own data.
  SmallVector<std::pair<const ScopedAccess *, std::string>, 8> DataStores, DataLoads;
  SmallVector<const ScopedAccess *, 8> Fences;
  SmallVector<const CallSite *, 8> Calls;
  /// Fences and calls per root, in walk order (Seq ascending), so that
  /// what lies between two operations is a range.
  DenseMap<const FunctionDecl *, SmallVector<const ScopedAccess *, 8>> FencesOf;
  DenseMap<const FunctionDecl *, SmallVector<const CallSite *, 8>> CallsOf;

  /// Whether \p Pred holds for a fence of \p From's root strictly between
  /// \p From and \p To in walk order (a binary search, then the range).
  template <typename Fn> bool anyFenceBetween(const ScopedAccess &From, const ScopedAccess &To, Fn Pred) const {
    auto It = FencesOf.find(From.Root);
    if (It == FencesOf.end() || From.Root != To.Root)
      return false;
    const auto &List = It->second;
    auto First = llvm::upper_bound(List, From.Seq, [](unsigned S, const ScopedAccess *F) { return S < F->Seq; });
    auto Last = llvm::lower_bound(List, To.Seq, [](const ScopedAccess *F, unsigned S) { return F->Seq < S; });
    for (auto I = First; I < Last; ++I)
      if (Pred(**I))
        return true;
    return false;
  }
};

std::shared_ptr<Messages> Messages::get(ASTContext &Ctx) { return sharedPerTU<Messages>(Ctx); }

Messages::Messages(ASTContext &Ctx) : Accesses(ScopedAccesses::get(Ctx)) {}
Messages::~Messages() = default;

namespace {
/// Memory that threads of every block reach.
bool gridMemory(ObjectHome H) {
  return H == ObjectHome::Global || H == ObjectHome::Managed || H == ObjectHome::MappedHost;
}
bool isPlainData(const ScopedAccess &A) { return A.isPlain() && A.Ord == Order::Plain; }
} // namespace

std::vector<std::unique_ptr<Messages::Group>> &Messages::analyse(bool AcrossKernels) {
  std::unique_ptr<std::vector<std::unique_ptr<Group>>> &Slot = Analysed[AcrossKernels];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<std::vector<std::unique_ptr<Group>>>();
  // Accesses to grid memory, per kernel (or all together) and object.
  MapVector<const FunctionDecl *, MapVector<std::string, SmallVector<const ScopedAccess *, 8>,
                                            std::map<std::string, unsigned>>>
      ByRoot;
  auto GroupKey = [&](const FunctionDecl *Root) { return AcrossKernels ? nullptr : Root; };
  auto Add = [&](const ScopedAccess &A) {
    if (A.RootIs != ScopedAccess::Host && A.isMemoryAccess() && A.Object && A.Object->Root &&
        gridMemory(A.Object->Home))
      ByRoot[GroupKey(A.Root)][A.Object->key()].push_back(&A);
  };
  for (const ScopedAccess &A : Accesses->accesses())
    Add(A);
  for (const ScopedAccess &A : Accesses->plainAccesses())
    Add(A);

  DenseMap<const FunctionDecl *, Group *> GroupOf;
  for (auto &[Root, Objects] : ByRoot) {
    auto G = std::make_unique<Group>();
    for (auto &Entry : Objects) {
      const std::string &Key = Entry.first;
      const SmallVector<const ScopedAccess *, 8> &List = Entry.second; // (lambdas below capture it)
      bool Written = any_of(List, [](const ScopedAccess *A) { return isPlainData(*A) && A->What == AccessKind::Store; });
      bool Read = any_of(List, [](const ScopedAccess *A) { return isPlainData(*A) && A->What == AccessKind::Load; });
      if (Written && Read)
        for (const ScopedAccess *A : List)
          if (isPlainData(*A))
            (A->What == AccessKind::Store ? G->DataStores : G->DataLoads).push_back({A, Key});
      // A flag: published, received, and shared on purpose by some access.
      if (none_of(List, [](const ScopedAccess *A) { return !A->isPlain() || A->Ord == Order::Volatile; }))
        continue;
      Flag F;
      F.Key = Key;
      for (const ScopedAccess *A : List) {
        if (A->What != AccessKind::Load)
          F.Publishes.push_back(A);
        if (A->What != AccessKind::Store && A->TestSeq)
          F.Receives.push_back(A);
      }
      if (F.Publishes.empty() || F.Receives.empty())
        continue;
      // Who may be on the other side: the block only, when every access uses
      // one block-indexed element or the kernel runs one block; the host too,
      // when it accesses the flag.
      const std::string &Index = List.front()->Object->Index;
      bool PerBlock = all_of(List, [&](const ScopedAccess *A) {
        return A->Object->BlockDependent && A->Object->Index == Index;
      });
      // (Two kernels are two grids: one block each is still two blocks.)
      bool OneBlock = all_of(List, [&](const ScopedAccess *A) {
        return A->RootIs == ScopedAccess::Kernel && A->Root == List.front()->Root &&
               Accesses->runsOneBlock(A->Root);
      });
      bool WithHost = any_of(List, [&](const ScopedAccess *A) {
        const AccessGroup *AG = A->isPlain() ? nullptr : Accesses->groupOf(*A);
        return AG && AG->WithHost;
      });
      F.Needed = WithHost ? Scope::System : PerBlock || OneBlock ? Scope::Block : Scope::Device;
      G->Flags.push_back(std::move(F));
    }
    if (G->Flags.empty())
      continue;
    GroupOf[Root] = G.get();
    Slot->push_back(std::move(G));
  }
  for (const ScopedAccess &A : Accesses->accesses())
    if (A.What == AccessKind::Fence && A.RootIs != ScopedAccess::Host)
      if (Group *G = GroupOf.lookup(GroupKey(A.Root))) {
        G->Fences.push_back(&A);
        G->FencesOf[A.Root].push_back(&A);
      }
  for (const CallSite &C : Accesses->calls())
    if (Group *G = GroupOf.lookup(GroupKey(C.Root))) {
      G->Calls.push_back(&C);
      G->CallsOf[C.Root].push_back(&C);
    }

  for (const std::unique_ptr<Group> &G : *Slot)
    for (Flag &F : G->Flags) {
      // A store after this thread has received the flag, with no data
      // written in between, hands nothing over: it resets the flag (the
      // ticket set back to 0 for the next launch). With data written in
      // between it hands the flag on (a lock released after its section).
      // (The latest receive before the store decides: data written after an
      // earlier receive is written after the latest one too, or before it.)
      for (const ScopedAccess *P : F.Publishes) {
        const ScopedAccess *Latest = nullptr;
        for (const ScopedAccess *Rc : F.Receives)
          if (Rc != P && *Rc->TestSeq <= P->Seq && mayPrecede(*Rc, *P) && (!Latest || Latest->Seq < Rc->Seq))
            Latest = Rc;
        if (Latest && none_of(G->DataStores, [&](const auto &D) {
              return D.second != F.Key && mayPrecede(*Latest, *D.first) && mayPrecede(*D.first, *P);
            }))
          F.Resets.push_back(P);
      }
      // The fences between the data and the flag of a message: a data write
      // before and a publish after, or a receive before and a data read after.
      if (AcrossKernels)
        continue;
      for (const ScopedAccess *Fence : G->Fences) {
        auto Any = [&](auto &List, bool Before) {
          return any_of(List, [&](const auto &Item) {
            const ScopedAccess *A = Item.first;
            return Item.second != F.Key && (Before ? mayPrecede(*A, *Fence) : mayPrecede(*Fence, *A));
          });
        };
        auto AnySide = [&](ArrayRef<const ScopedAccess *> Sides, bool Before) {
          return any_of(Sides, [&](const ScopedAccess *A) { return Before ? mayPrecede(*A, *Fence) : mayPrecede(*Fence, *A); });
        };
        if ((Any(G->DataStores, true) && AnySide(F.Publishes, false)) ||
            (AnySide(F.Receives, true) && Any(G->DataLoads, false)))
          MessageFences.insert(Fence);
      }
    }
  return *Slot;
}

bool Messages::ordersMessage(const ScopedAccess &Fence) {
  analyse(/*AcrossKernels=*/false);
  return MessageFences.contains(&Fence);
}

std::vector<MessageFinding> Messages::findings(bool AcrossKernels,
                                               function_ref<bool(const FunctionDecl *)> IsFence) {
  std::vector<MessageFinding> Out;
  for (const std::unique_ptr<Group> &G : analyse(AcrossKernels)) {
    // The calls to fence functions, once per group (usually none).
    SmallVector<const CallSite *, 4> FenceCalls;
    if (IsFence)
      for (const CallSite *C : G->Calls)
        if (IsFence(C->Callee))
          FenceCalls.push_back(C);
    // Whether the order is there: a fence of the wanted kind and a scope
    // that includes the other side, or a call to a fence function, between
    // the two operations. Otherwise the widest fence of the kind between
    // them, if any, for the message (null: none).
    auto Ordered = [&](const ScopedAccess &From, const ScopedAccess &To, bool Release, Scope Needed,
                       const ScopedAccess *&Widest) {
      auto Kind = [&](const ScopedAccess &F) {
        return (Release ? hasRelease(F.Ord) : hasAcquire(F.Ord)) && mayPrecede(From, F) && mayPrecede(F, To);
      };
      if (G->anyFenceBetween(From, To, [&](const ScopedAccess &F) { return includes(F.S, Needed) && Kind(F); }))
        return true;
      if (any_of(FenceCalls, [&](const CallSite *C) { return mayPrecede(From, *C) && mayPrecede(*C, To); }))
        return true;
      Widest = nullptr;
      G->anyFenceBetween(From, To, [&](const ScopedAccess &F) {
        if (Kind(F) && (!Widest || Widest->S < F.S))
          Widest = &F;
        return false;
      });
      return false;
    };
    for (const Flag &F : G->Flags) {
      auto OtherThan = [&](ArrayRef<const ScopedAccess *> List, const ScopedAccess *Self) -> const ScopedAccess * {
        for (const ScopedAccess *A : List)
          if (A != Self && !is_contained(F.Resets, A))
            return A;
        return nullptr;
      };
      for (const ScopedAccess *P : F.Publishes) {
        // A release of narrow scope is cuda-scope-mismatch's (or
        // insufficient's) finding: the order is there.
        if (hasRelease(P->Ord) || is_contained(F.Resets, P))
          continue;
        for (auto &[D, Key] : G->DataStores) {
          if (Key == F.Key || !mayPrecede(*D, *P))
            continue;
          const ScopedAccess *Fence = nullptr;
          if (Ordered(*D, *P, /*Release=*/true, F.Needed, Fence))
            continue;
          Out.push_back({Fence ? MessageFinding::NarrowFence : MessageFinding::NoRelease, P, D, Fence,
                         OtherThan(F.Receives, P), F.Needed});
          break;
        }
      }
      for (const ScopedAccess *Rc : F.Receives) {
        if (hasAcquire(Rc->Ord))
          continue;
        for (auto &[L, Key] : G->DataLoads) {
          if (Key == F.Key || !mayPrecede(*Rc, *L) || L->Seq < *Rc->TestSeq)
            continue;
          // A thread reading back the element it wrote itself (the same
          // object, the same index text, written earlier in its walk) reads
          // its own write, which program order gives it.
          const std::string &LKey = Key;
          if (any_of(G->DataStores, [&](const auto &D) {
                return D.second == LKey && D.first->Object->Index == L->Object->Index && mayPrecede(*D.first, *L);
              }))
            continue;
          const ScopedAccess *Fence = nullptr;
          if (Ordered(*Rc, *L, /*Release=*/false, F.Needed, Fence))
            continue;
          Out.push_back({Fence ? MessageFinding::NarrowFence : MessageFinding::NoAcquire, Rc, L, Fence,
                         OtherThan(F.Publishes, Rc), F.Needed});
          break;
        }
      }
    }
  }
  return Out;
}

} // namespace cuda_scope
