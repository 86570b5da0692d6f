//===- Capture.cpp - What a call does to an open stream capture -----------===//
#include "Capture.h"

using namespace llvm;

namespace cuda_scope {

std::optional<CaptureMode> captureModeFromName(StringRef Name) {
  Name.consume_front("cudaStreamCaptureMode");
  Name.consume_front("CU_STREAM_CAPTURE_MODE_");
  std::string Lower = Name.lower();
  if (Lower == "global")
    return CaptureMode::Global;
  if (Lower == "thread-local" || Lower == "thread_local" || Lower == "threadlocal")
    return CaptureMode::ThreadLocal;
  if (Lower == "relaxed")
    return CaptureMode::Relaxed;
  return std::nullopt;
}

CaptureMode captureModeFromValue(std::optional<int64_t> Value) {
  if (!Value)
    return CaptureMode::Unknown;
  switch (*Value) {
  case 0:
    return CaptureMode::Global;
  case 1:
    return CaptureMode::ThreadLocal;
  case 2:
    return CaptureMode::Relaxed;
  default:
    return CaptureMode::Unknown;
  }
}

StringRef captureModeName(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global:
    return "global";
  case CaptureMode::ThreadLocal:
    return "thread-local";
  case CaptureMode::Relaxed:
    return "relaxed";
  case CaptureMode::Unknown:
    return "unknown";
  }
  return "unknown";
}

bool exchangesToRelaxed(int64_t Value) {
  return captureModeFromValue(Value) == CaptureMode::Relaxed;
}

StreamFlags streamFlagsOfCreation(const CudaApiInfo &Api, std::optional<int64_t> Value) {
  if (Api.ModeArg < 0)
    return StreamFlags::Blocking;
  if (!Value)
    return StreamFlags::Unknown;
  return (*Value & 1) ? StreamFlags::NonBlocking : StreamFlags::Blocking;
}

StreamHandle streamHandleFromValue(int64_t Value) {
  return Value == 0 || Value == 1 ? StreamHandle::Legacy
         : Value == 2             ? StreamHandle::PerThread
                                  : StreamHandle::Other;
}

CaptureStatus captureStatusFromValue(int64_t Value) {
  return Value == 0   ? CaptureStatus::None
         : Value == 1 ? CaptureStatus::Active
                      : CaptureStatus::Other;
}

CaptureCall classifyCaptureCall(const CudaApiInfo *Api, bool OnLegacyStream) {
  if (!Api)
    return OnLegacyStream ? CaptureCall::Legacy : CaptureCall::None;
  switch (Api->Capture) {
  case CaptureEffect::UnsafeInCapture:
    return CaptureCall::Unsafe;
  case CaptureEffect::Sync:
    return CaptureCall::Sync;
  case CaptureEffect::DeviceSync:
    return CaptureCall::DeviceSync;
  case CaptureEffect::Unsupported:
    return CaptureCall::Unsupported;
  case CaptureEffect::LegacyWork:
    return CaptureCall::Legacy;
  case CaptureEffect::StreamOrdered:
    return OnLegacyStream ? CaptureCall::Legacy : CaptureCall::None;
  default:
    return CaptureCall::None;
  }
}

/// Legacy work: a blocking capture stream synchronizes with the legacy
/// stream, so the work fails (cudaErrorStreamCaptureImplicit) and invalidates
/// the capture in every mode and from every thread; a non-blocking one lets
/// it run uncaptured (measured: docs/facts.md).
static CaptureVerdict legacyVerdict(StreamFlags F) {
  switch (F) {
  case StreamFlags::Blocking:
    return CaptureVerdict::Invalidates;
  case StreamFlags::NonBlocking:
    return CaptureVerdict::Escapes;
  case StreamFlags::Unknown:
    return CaptureVerdict::InvalidatesOrEscapes;
  }
  return CaptureVerdict::InvalidatesOrEscapes;
}

CaptureVerdict captureVerdict(CaptureCall Call, const CaptureSituation &S) {
  if (Call == CaptureCall::None)
    return CaptureVerdict::None;
  if (S.Thread == CaptureThread::Capturing) {
    switch (Call) {
    case CaptureCall::Unsafe:
    case CaptureCall::OtherSync:
      // Prohibited on the capturing thread unless the capture or the thread
      // is relaxed; a mode the code does not show is taken as the default.
      return S.Relaxed || S.Mode == CaptureMode::Relaxed ? CaptureVerdict::None
                                                         : CaptureVerdict::Invalidates;
    case CaptureCall::Sync:
    case CaptureCall::DeviceSync:
    case CaptureCall::Unsupported:
      return CaptureVerdict::Invalidates;
    case CaptureCall::Legacy:
      return legacyVerdict(S.Flags);
    case CaptureCall::None:
      break;
    }
    return CaptureVerdict::None;
  }
  switch (Call) {
  case CaptureCall::DeviceSync:
    // A device-wide synchronize breaks a capture of any mode in any thread.
    return CaptureVerdict::Invalidates;
  case CaptureCall::Unsafe:
  case CaptureCall::Sync:
  case CaptureCall::OtherSync:
    // A global capture prohibits every thread's unsafe calls, unless that
    // thread is relaxed; a capture of unknown mode is not known to. A stream
    // shared by two threads is not tracked: another thread's synchronize is
    // an unsafe call to it.
    return S.Mode == CaptureMode::Global && !S.Relaxed ? CaptureVerdict::Invalidates
                                                       : CaptureVerdict::None;
  case CaptureCall::Legacy:
    // Only what is known to invalidate: of a non-blocking stream, the work
    // escapes on its own thread, which is that thread's concern.
    return S.Flags == StreamFlags::Blocking ? CaptureVerdict::Invalidates : CaptureVerdict::None;
  case CaptureCall::Unsupported:
  case CaptureCall::None:
    break;
  }
  return CaptureVerdict::None;
}

const std::vector<CaptureSituation> &captureSituations() {
  static const std::vector<CaptureSituation> All = [] {
    std::vector<CaptureSituation> Out;
    const CaptureMode Modes[] = {CaptureMode::Global, CaptureMode::ThreadLocal,
                                 CaptureMode::Relaxed, CaptureMode::Unknown};
    const StreamFlags Flags[] = {StreamFlags::Blocking, StreamFlags::NonBlocking,
                                 StreamFlags::Unknown};
    for (CaptureMode M : Modes)
      for (StreamFlags F : Flags) {
        Out.push_back({CaptureThread::Capturing, M, F, false});
        Out.push_back({CaptureThread::Capturing, M, F, true});
        Out.push_back({CaptureThread::Other, M, F, false});
      }
    return Out;
  }();
  return All;
}

std::string captureSituationKey(const CaptureSituation &S) {
  static const char *const FlagNames[] = {"unknown", "blocking", "nonblocking"};
  std::string Key = S.Thread == CaptureThread::Capturing ? "same:" : "other:";
  Key += captureModeName(S.Mode);
  Key += ":";
  Key += FlagNames[static_cast<unsigned>(S.Flags)];
  if (S.Thread == CaptureThread::Capturing && S.Relaxed)
    Key += ":exchanged";
  return Key;
}

} // namespace cuda_scope
