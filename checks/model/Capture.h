//===- Capture.h - What a call does to an open stream capture -*- C++ -*-===//
//
// The capture rule, once: what a call made while a stream is being captured
// does to the capture, given what the API table says the call does
// (CudaApi.def), the mode the capture was begun in, how the captured stream
// was created, whether the calling thread exchanged its mode to relaxed, and
// whether the call is made on the capturing thread or on another one. The
// clang-tidy check decides each call of one file with it; the facts a file
// writes for the whole program carry its verdicts under opaque keys
// (captureSituationKey), so that the cuda-scope command only matches keys.
//
// Evidence: docs/facts.md ("What the runtime does, by mode and thread"),
// measured on an H100 by integration/probes/capture-modes.cu and
// capture-libraries.cu.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_CAPTURE_H
#define CUDA_SCOPE_MODEL_CAPTURE_H

#include "CudaApi.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuda_scope {

/// The mode a capture is begun in (cudaStreamCaptureMode and
/// CUstreamCaptureMode: global 0, thread-local 1, relaxed 2), or Unknown when
/// the mode argument is not a constant.
enum class CaptureMode : uint8_t { Global, ThreadLocal, Relaxed, Unknown };
CaptureMode captureModeFromValue(std::optional<int64_t> Value);
/// "global", "thread-local", "relaxed", "unknown".
llvm::StringRef captureModeName(CaptureMode M);
/// The mode a capture-safe contract names: "global", "thread-local" (or
/// "thread_local"), "relaxed", as cudaStreamCaptureMode spells them without
/// its prefix; none for any other word.
std::optional<CaptureMode> captureModeFromName(llvm::StringRef Name);
/// cudaThreadExchangeStreamCaptureMode(&M) with M last set to \p Value
/// switches the calling thread to relaxed mode.
bool exchangesToRelaxed(int64_t Value);

/// How a stream was created, as far as a capture goes: a blocking stream
/// synchronizes with the legacy stream, a non-blocking one does not.
enum class StreamFlags : uint8_t { Unknown, Blocking, NonBlocking };
/// The flags a stream creation gives: \p Api's flags argument (ModeArg) read
/// as \p Value (cudaStreamNonBlocking and CU_STREAM_NON_BLOCKING are bit
/// 0x1), or Blocking for a creation that takes no flags.
StreamFlags streamFlagsOfCreation(const CudaApiInfo &Api, std::optional<int64_t> Value);

/// A stream handle written as a constant: 0 and cudaStreamLegacy /
/// CU_STREAM_LEGACY ((cudaStream_t)0x1) are the legacy stream;
/// cudaStreamPerThread / CU_STREAM_PER_THREAD ((cudaStream_t)0x2) the
/// per-thread stream.
enum class StreamHandle : uint8_t { Other, Legacy, PerThread };
StreamHandle streamHandleFromValue(int64_t Value);

/// What a capture query's status says (cudaStreamCaptureStatus and
/// CUstreamCaptureStatus: none 0, active 1, invalidated 2).
enum class CaptureStatus : uint8_t { None, Active, Other };
CaptureStatus captureStatusFromValue(int64_t Value);
/// The value every CUDA API returns on success (cudaSuccess, CUDA_SUCCESS).
inline constexpr int64_t ApiSuccess = 0;

/// What a call does to whatever capture is open, before the capture is
/// known. OtherSync: a synchronize of a stream that no open capture records
/// (the per-thread stream, one the function creates): an unsafe call, not a
/// synchronize of the capture.
enum class CaptureCall : uint8_t { None, Unsafe, Sync, OtherSync, DeviceSync, Unsupported, Legacy };
/// The class of a call of table row \p Api (null: a kernel launch, \p Api
/// unused); \p OnLegacyStream: its stream argument (or the launch's) is the
/// legacy stream. A synchronize is Sync; the caller makes it OtherSync when
/// it knows the stream to be another.
CaptureCall classifyCaptureCall(const CudaApiInfo *Api, bool OnLegacyStream);

/// Where a call is made with respect to the capture.
enum class CaptureThread : uint8_t { Capturing, Other };

/// The capture a call may break, as the verdict needs it.
struct CaptureSituation {
  CaptureThread Thread = CaptureThread::Capturing;
  CaptureMode Mode = CaptureMode::Global;
  StreamFlags Flags = StreamFlags::Unknown;
  /// The calling thread exchanged its mode to relaxed.
  bool Relaxed = false;
};

/// What the call does to the capture, from the least harm to the most.
enum class CaptureVerdict : uint8_t {
  None,                 ///< legal: captured, or permitted in this mode
  Escapes,              ///< not captured: it runs now, once, and no replay runs it
  InvalidatesOrEscapes, ///< legacy work against a stream of unknown flags
  Invalidates,          ///< fails and invalidates the capture
};

/// The verdict of a call of class \p Call made in situation \p S.
CaptureVerdict captureVerdict(CaptureCall Call, const CaptureSituation &S);

/// Every situation the facts distinguish: on the capturing thread, each
/// mode, flags and thread mode; on another thread, each mode and flags (the
/// other thread's own mode is the call's to know, not the capture's).
const std::vector<CaptureSituation> &captureSituations();
/// The opaque key of a situation in the facts: a capture's facts name the
/// key it is in, a call's facts the keys under which it breaks the capture.
std::string captureSituationKey(const CaptureSituation &S);

} // namespace cuda_scope

#endif
