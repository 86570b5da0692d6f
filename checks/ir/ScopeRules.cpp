//===- ScopeRules.cpp - the scope rules, applied to one kernel's device IR ===//
#include "ScopeRules.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace cuda_scope {
namespace {

/// Memory every block of the grid can reach: global memory, or memory whose
/// space the IR does not show but whose object is a global or an argument.
bool sharedByBlocks(const IROp &Op) {
  if (!Op.Object || Op.PerBlock)
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
  // other threads of other blocks; one below device scope on memory every
  // block reaches cannot include them all.
  DenseMap<const Value *, SmallVector<const IROp *, 4>> ByObject;
  for (const IROp &Op : Ops)
    if (Op.isStrongAccess() && Op.ScopeQual && sharedByBlocks(Op))
      ByObject[Op.Object].push_back(&Op);
  for (const IROp &Op : Ops) {
    auto It = ByObject.find(Op.Object);
    if (It == ByObject.end() || !Op.isStrongAccess() || !Op.ScopeQual || !sharedByBlocks(Op))
      continue;
    if (includes(*Op.ScopeQual, Scope::Device) || *Op.ScopeQual == Scope::Thread)
      continue;
    const IROp *Wider = nullptr;
    for (const IROp *Other : It->second)
      if (includes(*Other->ScopeQual, Scope::Device)) {
        Wider = Other;
        break;
      }
    Out.push_back({Wider ? "cuda-scope-mismatch" : "cuda-scope-insufficient", &Op, Wider,
                   describeObject(Op.Object)});
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
