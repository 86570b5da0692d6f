//===- ScopeRules.cpp - the scope rules, applied to one kernel's device IR ===//
#include "ScopeRules.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace cuda_scope {
namespace {

/// Memory in a space every block of the grid can reach: global memory, or
/// memory whose space the IR does not show but whose object is a global or an
/// argument.
bool inGridMemory(const IROp &Op) {
  if (!Op.Object)
    return false;
  switch (Op.Space) {
  case MemorySpace::Global:
    return true;
  case MemorySpace::Generic:
  case MemorySpace::Unknown:
    return isa<GlobalVariable>(Op.Object) || isa<Argument>(Op.Object);
  default:
    return false;
  }
}

void scopeRules(const std::vector<IROp> &Ops, std::vector<IRFinding> &Out) {
  // Every access in one kernel may run concurrently with every other, in
  // other threads of other blocks; one below device scope on memory that
  // several blocks reach cannot include them all.
  DenseMap<const Value *, SmallVector<const IROp *, 4>> ByObject;
  for (const IROp &Op : Ops)
    if (Op.isStrongAccess() && Op.ScopeQual && inGridMemory(Op))
      ByObject[Op.Object].push_back(&Op);
  for (auto &Entry : ByObject) {
    const SmallVector<const IROp *, 4> &Accesses = Entry.second;
    // out[blockIdx.x] is per-block data only while every access computes the
    // same block-indexed address; a second index (a partner block, a
    // permutation) lets blocks meet on one element.
    bool PerBlock = all_of(Accesses, [&](const IROp *A) {
      return A->PerBlock && A->Address == Accesses.front()->Address;
    });
    if (PerBlock)
      continue;
    for (const IROp *Op : Accesses) {
      if (includes(*Op->ScopeQual, Scope::Device) || *Op->ScopeQual == Scope::Thread)
        continue;
      const IROp *Wider = nullptr;
      for (const IROp *Other : Accesses)
        if (includes(*Other->ScopeQual, Scope::Device)) {
          Wider = Other;
          break;
        }
      Out.push_back({Wider ? "cuda-scope-mismatch" : "cuda-scope-insufficient", Op, Wider,
                     describeObject(Op->Object)});
    }
  }
}

bool reaches(const Instruction *From, const Instruction *To) {
  return From->getFunction() == To->getFunction() && From != To &&
         isPotentiallyReachable(From, To);
}

void proxyFenceRule(const std::vector<IROp> &Ops, std::vector<IRFinding> &Out) {
  for (const IROp &Read : Ops) {
    if (Read.What != IROp::BulkReadShared)
      continue;
    for (const IROp &Write : Ops) {
      if (Write.What != IROp::Store || Write.Space != MemorySpace::Shared ||
          !reaches(Write.I, Read.I))
        continue;
      bool Fenced = false;
      for (const IROp &F : Ops)
        if (F.What == IROp::ProxyFence && reaches(Write.I, F.I) && reaches(F.I, Read.I)) {
          Fenced = true;
          break;
        }
      if (!Fenced) {
        Out.push_back({"cuda-scope-proxy-fence", &Read, &Write, describeObject(Write.Object)});
        break;
      }
    }
  }
}

} // namespace

std::vector<IRFinding> checkKernelOps(const std::vector<IROp> &Ops) {
  std::vector<IRFinding> Out;
  scopeRules(Ops, Out);
  proxyFenceRule(Ops, Out);
  return Out;
}

} // namespace cuda_scope
