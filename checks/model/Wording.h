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

#include "Capture.h"
#include "MemoryModel.h"
#include <string>
#include <vector>

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

/// A flag that one thread publishes (or receives) for the other threads of
/// its block or warp (Finding::ByOthers): what the one thread's order does
/// not cover, and the barrier that would, worded alike by both front ends.
std::string byOthersReason(bool Publish);
std::string byOthersAdvice(bool Publish);
/// Why a message between a kernel and the other GPUs of its team is unordered
/// (Finding::Peer): the other side reads or wrote the memory outside this
/// kernel, where only the signal can order it.
std::string peerReason(bool Publish, bool Writes = false);

/// What a fence too narrow for a message should be: the builtin of the
/// needed scope for a builtin fence, else the scope's libcu++ name.
std::string widerFenceAdvice(Scope Needed, bool BuiltinFence);

/// Why a fence or an ordering access at \p Used is wider than its code
/// needs and what that costs: "only threads of one block can reach the memory
/// it orders (shared memory, no cluster), so block scope is enough; an H100
/// took 661 cycles for a store and a fence at device scope, 21 at block scope".
std::string wideScopeReason(bool Fence, Scope Used, Scope Enough);

// -- The host API -------------------------------------------------------------

/// How a sentence names a call: "'cudaMalloc' called", "'cudaFree' called
/// through a function pointer", "kernel 'step' launched".
std::string describeCall(llvm::StringRef Name, bool Launch, bool ThroughPointer = false);

/// A call made from a host callback (\p What: describeCall).
std::string callbackApiMessage(llvm::StringRef What);

/// How a step of a call chain reaches its callee.
enum class CallStep : uint8_t { Call, Construct, Destroy, Delete, Virtual };
/// The note of one step: "'Buffer::~Buffer' runs here, from delete",
/// "'Allocator::release' may be called here, through a virtual call".
std::string callStepNote(llvm::StringRef Callee, CallStep How);

/// The words a capture lends the sentence of a call that breaks it.
struct CaptureWords {
  std::string Context; ///< "while stream 'S' is being captured"
  std::string Stream;  ///< "'S'"
};
/// A capture the code shows begin, of stream \p Stream.
CaptureWords capturedStreamWords(llvm::StringRef Stream);
/// The capture a function declared capture-safe assumes: its caller's.
CaptureWords captureContractWords(llvm::StringRef Function);

/// A sentence with the capture's words left open: the facts of one file
/// carry it so, and the capture another file shows (or another thread
/// begins) fills it in. Parts are text, or the slot of one of the words.
class OpenSentence {
public:
  enum Slot : int { Text = -1, Context = 0, Stream = 1 };
  void text(std::string S);
  void slot(Slot W) { Parts.push_back({std::string(), W}); }
  std::string fill(const CaptureWords &W) const;
  const std::vector<std::pair<std::string, Slot>> &parts() const { return Parts; }

private:
  std::vector<std::pair<std::string, Slot>> Parts;
};

/// A call the capture rule judges.
struct CapturedCall {
  llvm::StringRef Name;             ///< the API function, or the kernel
  bool Launch = false;              ///< a kernel launch
  bool ThroughPointer = false;      ///< called through a function pointer
  const CudaApiInfo *Api = nullptr; ///< its row; null for a launch
};
/// The sentence of call \p C of class \p Call whose verdict is \p V: what
/// happens and why (the error it returns), then what to do instead. Empty
/// for the verdict None.
OpenSentence captureFinding(CaptureCall Call, CaptureVerdict V, const CapturedCall &C);

/// A second begin on a stream that is capturing.
std::string captureBegunTwice(llvm::StringRef Stream);
std::string firstCaptureNote(llvm::StringRef Stream);
/// An end on \p Stream (\p Function called) while only \p Other captures.
std::string captureEndedElsewhere(llvm::StringRef Function, llvm::StringRef Stream,
                                  llvm::StringRef Other);
/// A capture some paths end and others leave open.
std::string captureNotEnded(llvm::StringRef Stream);
std::string captureStillOpenNote(llvm::StringRef Stream);
/// "capture of 'S' begins here".
std::string captureBeginsNote(llvm::StringRef Stream);
/// "capture of 'S' begins here, in global mode": the note another thread's
/// call cites, since the mode decides what other threads may do.
std::string captureBeginsNote(llvm::StringRef Stream, CaptureMode Mode);
/// Where a function is declared capture-safe: by its annotation, or by the
/// option CaptureSafeFunctions.
/// \p Mode: the capture mode the contract names, empty for global (the
/// default).
std::string captureContractNote(llvm::StringRef Function, bool Annotated, llvm::StringRef Mode = "");
/// The call itself, noted where the finding is moved out of a system header.
std::string callMadeNote(llvm::StringRef Name, bool Launch);

/// Where a thread starts: "a thread running 'poll' is started here, through
/// 'std::thread'" (\p Many: "; several may run at once").
std::string threadStartNote(llvm::StringRef Name, llvm::StringRef How, bool Many);

} // namespace cuda_scope

#endif
