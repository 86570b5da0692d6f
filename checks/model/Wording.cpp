//===- Wording.cpp - The advice both front ends give ----------------------===//
#include "Wording.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

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

std::string byOthersReason(bool Publish) {
  return Publish ? "a release orders only its own thread's writes (and what that thread has seen), so a reader "
                   "that sees the flag may still read the other threads' old data, or read it before they write it"
                 : "an acquire orders only its own thread's reads, so the other threads may read the data before "
                   "the flag is set";
}

std::string byOthersAdvice(bool Publish) {
  return Publish ? "'__syncthreads()' (or '__syncwarp()' among one warp's lanes) between their writes and the publish"
                 : "'__syncthreads()' (or '__syncwarp()' among one warp's lanes) between the wait and their reads";
}

std::string peerReason(bool Publish, bool Writes) {
  if (Publish)
    return "a GPU that sees the signal may read that memory, in this kernel or in the work its stream runs after "
           "it, before the writes arrive";
  return Writes ? "the write may land before the peer is done with what that memory held before it signalled (its "
                  "reads and writes in this kernel or before it began), and be read or overwritten by them"
                : "the read may return what that memory held before the peer signalled, older than what the peer "
                  "wrote before it (in this kernel or before it began)";
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

// -- The host API -------------------------------------------------------------

std::string describeCall(StringRef Name, bool Launch, bool ThroughPointer) {
  if (Launch)
    return ("kernel '" + Name + "' launched").str();
  return ("'" + Name + "' called" + (ThroughPointer ? " through a function pointer" : "")).str();
}

std::string callbackApiMessage(StringRef What) {
  return (What +
          " from a host callback; host functions run by a stream must not call the CUDA API or "
          "launch work (the call fails with cudaErrorNotPermitted or deadlocks the stream); "
          "consider handing the work to a host thread")
      .str();
}

std::string callStepNote(StringRef Callee, CallStep How) {
  const char *Text = " is called here";
  switch (How) {
  case CallStep::Call: break;
  case CallStep::Construct: Text = " runs here"; break;
  case CallStep::Destroy: Text = " runs here, at the end of the object's lifetime"; break;
  case CallStep::Delete: Text = " runs here, from delete"; break;
  case CallStep::Virtual: Text = " may be called here, through a virtual call"; break;
  }
  return ("'" + Callee + "'" + Text).str();
}

CaptureWords capturedStreamWords(StringRef Stream) {
  return {("while stream '" + Stream + "' is being captured").str(), ("'" + Stream + "'").str()};
}

CaptureWords captureContractWords(StringRef Function) {
  return {("from '" + Function + "', which is declared capture-safe,").str(), "the capture stream"};
}

void OpenSentence::text(std::string S) {
  if (!Parts.empty() && Parts.back().second == Text)
    Parts.back().first += S;
  else
    Parts.push_back({std::move(S), Text});
}

std::string OpenSentence::fill(const CaptureWords &W) const {
  std::string Out;
  for (const auto &[S, Part] : Parts)
    Out += Part == Text ? S : Part == Context ? W.Context : W.Stream;
  return Out;
}

namespace {
/// What a capture's failure is called, in the runtime's words or the driver's.
struct ErrorNames {
  StringRef Unsupported, Implicit, CapturedEvent, End, WaitEvent, HostFunc;
};
const ErrorNames &errorNames(ApiFamily F) {
  static const ErrorNames Runtime{"cudaErrorStreamCaptureUnsupported",
                                  "cudaErrorStreamCaptureImplicit",
                                  "cudaErrorCapturedEvent",
                                  "cudaStreamEndCapture",
                                  "cudaStreamWaitEvent",
                                  "cudaLaunchHostFunc"};
  static const ErrorNames Driver{"CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
                                 "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT",
                                 "CUDA_ERROR_CAPTURED_EVENT",
                                 "cuStreamEndCapture",
                                 "cuStreamWaitEvent",
                                 "cuLaunchHostFunc"};
  return F == ApiFamily::Driver ? Driver : Runtime;
}
} // namespace

OpenSentence captureFinding(CaptureCall Call, CaptureVerdict V, const CapturedCall &C) {
  OpenSentence Out;
  if (Call == CaptureCall::None || V == CaptureVerdict::None || (!C.Launch && !C.Api))
    return Out;
  const ErrorNames &Names = errorNames(C.Api ? C.Api->Family : ApiFamily::Runtime);
  const bool Legacy = Call == CaptureCall::Legacy;
  const bool StreamOrdered = C.Api && C.Api->Capture == CaptureEffect::StreamOrdered;
  std::string What = describeCall(C.Name, C.Launch, C.ThroughPointer);
  if (Legacy && (C.Launch || StreamOrdered))
    What += " on the legacy stream";
  StringRef Name = C.Name;
  std::string Async = (Name + "Async").str();
  const CudaApiInfo *AsyncApi = lookupCudaApi(Async);
  bool HasAsync = AsyncApi && AsyncApi->Capture == CaptureEffect::StreamOrdered;

  std::string Why, Fix;
  switch (Call) {
  case CaptureCall::Unsafe: {
    bool Frees = Name.contains("Free") || Name.contains("Unregister");
    Why = ("(the call returns " + Names.Unsupported + " and " + Names.End + " fails)").str();
    if (HasAsync)
      Fix = Async + " on the capture stream or " + (Frees ? "freeing after" : "allocating before") +
            " the capture";
    else
      Fix = Frees ? "calling it after the capture" : "calling it before the capture";
    break;
  }
  case CaptureCall::Sync:
  case CaptureCall::OtherSync:
  case CaptureCall::DeviceSync:
    if (Name.contains("Event")) {
      Why = ("(the call returns " + Names.CapturedEvent + " for an event recorded in the capture and " +
             Names.End + " fails)")
                .str();
      Fix = ("waiting on the event after " + Names.End + ", or " + Names.WaitEvent +
             " to order work inside the graph")
                .str();
    } else {
      Why = ("(the call returns " + Names.Unsupported + " and " + Names.End + " fails)").str();
      Fix = ("synchronizing after " + Names.End).str();
    }
    break;
  case CaptureCall::Unsupported:
    Why = ("(the call returns " + Names.Unsupported + " and " + Names.End + " fails)").str();
    Fix = Name.contains("AddCallback") ? (Names.HostFunc + ", which the capture records as a host node").str()
                                       : ("calling it after " + Names.End).str();
    break;
  case CaptureCall::Legacy:
    Fix = C.Launch        ? "launching it on the capture stream"
          : StreamOrdered ? "passing the capture stream"
          : HasAsync      ? Async + " on the capture stream"
                          : "a stream-ordered form on the capture stream";
    break;
  case CaptureCall::None:
    return Out;
  }
  // A library's handle call fails with the library's own status, or succeeds
  // and leaves the capture invalidated (cublasDestroy): measured, not named.
  if (C.Api && C.Api->Family == ApiFamily::Library && !Legacy && Call != CaptureCall::Unsupported) {
    bool Destroys = Name.contains("Destroy");
    Why = Destroys ? "(the call returns success, but cudaStreamEndCapture fails with "
                     "cudaErrorStreamCaptureInvalidated)"
                   : "(the call fails with the library's error status and cudaStreamEndCapture fails)";
    Fix = Destroys ? "destroying it after the capture" : "creating it before the capture";
  }

  Out.text(What + " ");
  Out.slot(OpenSentence::Context);
  if (!Legacy) {
    Out.text(" invalidates the capture " + Why + "; consider " + Fix);
    return Out;
  }
  switch (V) {
  case CaptureVerdict::Escapes:
    Out.text(" is not captured: it runs now, once, and every replay of the graph skips it; consider " + Fix);
    break;
  case CaptureVerdict::Invalidates:
    Out.text(" runs on the legacy stream, which invalidates the capture (" + Names.Implicit.str() +
             "); consider " + Fix);
    break;
  default:
    Out.text(" runs on the legacy stream: if ");
    Out.slot(OpenSentence::Stream);
    Out.text(" is non-blocking it is not captured (it runs now, once, and every replay of the graph "
             "skips it), otherwise it invalidates the capture (" +
             Names.Implicit.str() + "); consider " + Fix);
    break;
  }
  return Out;
}

std::string captureBegunTwice(StringRef Stream) {
  return ("capture of '" + Stream + "' begun while '" + Stream +
          "' is already being captured; a stream that is capturing cannot begin another capture, so "
          "this call fails; consider ending the first capture before beginning another")
      .str();
}

std::string firstCaptureNote(StringRef Stream) {
  return ("the first capture of '" + Stream + "' begins here").str();
}

std::string captureEndedElsewhere(StringRef Function, StringRef Stream, StringRef Other) {
  return ("'" + Function + "' on '" + Stream + "' while only '" + Other +
          "' is being captured; a capture must be ended on the stream that began it, so '" + Other +
          "' stays in capture mode; consider ending the capture on '" + Other + "'")
      .str();
}

std::string captureNotEnded(StringRef Stream) {
  return ("capture of '" + Stream +
          "' begun here is not ended on every path; where the function returns early the stream "
          "stays in capture mode, so later work on it is recorded instead of run and synchronizing "
          "on it fails; consider ending the capture before every return")
      .str();
}

std::string captureStillOpenNote(StringRef Stream) {
  return ("the function returns here with '" + Stream + "' still being captured").str();
}

std::string captureBeginsNote(StringRef Stream) {
  return ("capture of '" + Stream + "' begins here").str();
}

std::string captureBeginsNote(StringRef Stream, CaptureMode Mode) {
  return captureBeginsNote(Stream) + ", in " + captureModeName(Mode).str() + " mode";
}

std::string captureContractNote(StringRef Function, bool Annotated, StringRef Mode) {
  return ("'" + Function + "' is declared capture-safe " +
          (Annotated ? "here" : "by the option 'CaptureSafeFunctions'") +
          (Mode.empty() ? "" : ", for a capture in " + Mode + " mode"))
      .str();
}

std::string callMadeNote(StringRef Name, bool Launch) {
  return Launch ? ("kernel '" + Name + "' is launched here").str() : ("'" + Name + "' is called here").str();
}

std::string threadStartNote(StringRef Name, StringRef How, bool Many) {
  return ("a thread running '" + Name + "' is started here, through '" + How + "'" +
          (Many ? "; several may run at once" : ""))
      .str();
}

} // namespace cuda_scope
