//===- Wording.cpp - The advice both front ends give ----------------------===//
#include "Wording.h"

namespace cuda_scope {

std::string fenceFor(Scope Needed) {
  std::optional<std::string> Name = deviceBuiltinName("__threadfence", Needed);
  return Name ? "'" + *Name + "()'" : "cuda::atomic_thread_fence with " + libcuName(Needed).str();
}

std::string messageAdvice(bool Publish, FlagForm Form, OpKind What, Scope Needed) {
  std::string Order = Publish ? "release" : "acquire";
  std::string Fence = fenceFor(Needed) + (Publish ? " before it" : " after it");
  switch (Form) {
  case FlagForm::NoOrder:
    return Fence;
  case FlagForm::Plain:
    return "a cuda::atomic_ref " + Order + " " + opKindName(What).str() + ", or " + Fence;
  case FlagForm::Ordered:
    break;
  }
  return (Publish ? "a " : "an ") + Order + " " + opKindName(What).str() + ", or " + Fence;
}

std::string widerFenceAdvice(Scope Needed, bool BuiltinFence) {
  return BuiltinFence ? fenceFor(Needed) : libcuName(Needed).str();
}

std::string wideScopeReason(bool Fence, Scope Used, Scope Enough) {
  std::string Out = (Fence ? "only threads of one block can reach the memory it orders (its block's shared memory, "
                             "no cluster), so "
                           : "only threads of one block can reach this shared memory (no cluster), so ") +
                    shortName(Enough).str() + " scope is enough";
  std::optional<unsigned> Wide = measuredCycles(Used, Fence), Narrow = measuredCycles(Enough, Fence);
  if (Wide && Narrow)
    Out += "; an H100 took " + std::to_string(*Wide) + " cycles for " +
           (Fence ? "a store and a fence" : "an acq_rel atomic") + " at " + shortName(Used).str() + " scope, " +
           std::to_string(*Narrow) + " at " + shortName(Enough).str() + " scope";
  return Out;
}

} // namespace cuda_scope
