//===- Wording.h - The advice both front ends give, written once -*- C++ -*-===//
//
// What a finding tells the user to do depends on the model's verdict (the
// scope the other side needs) and on how the access is written (whether it
// takes a memory order). Both front ends name the form and call these, so the
// clang-tidy message and the IR pass's remark of one bug give the same advice.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_WORDING_H
#define CUDA_SCOPE_MODEL_WORDING_H

#include "MemoryModel.h"
#include <string>

namespace cuda_scope {

/// The rule of scopes wider than needed: a cost, off by default.
inline constexpr const char *WideScopeCheckName = "cuda-scope-wide-scope";

/// How the flag's access of a message is written, as far as the advice goes.
enum class FlagForm : uint8_t {
  Plain,   ///< a plain or volatile load or store: it takes no order
  NoOrder, ///< a CUDA atomic builtin (atomicAdd, atomicExch, atomicCAS): relaxed, no order argument
  Ordered, ///< an access that names its order (libcu++, __nv_atomic_*, inline PTX)
};

/// The fence that orders memory for the threads of \p Needed, quoted:
/// "'__threadfence()'", or the libcu++ fence where no builtin spells the
/// scope ("cuda::atomic_thread_fence with thread_scope_cluster").
std::string fenceFor(Scope Needed);

/// What orders a message at its flag: "a release store, or '__threadfence()'
/// before it" (\p Publish) or "an acquire load, or '__threadfence()' after
/// it"; a plain flag becomes a cuda::atomic_ref access, and a builtin that
/// takes no order gets the fence alone.
std::string messageAdvice(bool Publish, FlagForm Form, OpKind What, Scope Needed);

/// What a fence too narrow for a message should be: the builtin of the
/// needed scope for a builtin fence, else the scope's libcu++ name.
std::string widerFenceAdvice(Scope Needed, bool BuiltinFence);

/// Why a fence or an ordering access at \p Used is wider than its code
/// needs and what that costs: "only threads of one block can reach the memory
/// it orders (shared memory, no cluster), so block scope is enough; an H100
/// took 661 cycles for a store and a fence at device scope, 21 at block scope".
std::string wideScopeReason(bool Fence, Scope Used, Scope Enough);

} // namespace cuda_scope

#endif
