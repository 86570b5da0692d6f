//===- CaptureTest.cpp - unit tests of the capture verdict and its words ---===//
//
// The rows of docs/facts.md "What the runtime does, by mode and thread"
// (measured on an H100), as the model decides them.
//
//===----------------------------------------------------------------------===//
#include "model/Capture.h"
#include "model/Wording.h"
#include "gtest/gtest.h"
#include <set>

using namespace cuda_scope;

namespace {

constexpr CaptureVerdict None = CaptureVerdict::None, Invalidates = CaptureVerdict::Invalidates,
                         Escapes = CaptureVerdict::Escapes;

/// The verdict of \p Call in \p Mode, on the capturing thread or another,
/// against a stream of \p Flags.
CaptureVerdict verdict(CaptureCall Call, CaptureMode Mode, CaptureThread Thread,
                       StreamFlags Flags = StreamFlags::NonBlocking, bool Relaxed = false) {
  return captureVerdict(Call, {Thread, Mode, Flags, Relaxed});
}

/// One row of the table: global same, global other, thread-local same,
/// thread-local other, relaxed same, relaxed other.
std::vector<CaptureVerdict> row(CaptureCall Call, StreamFlags Flags = StreamFlags::NonBlocking) {
  std::vector<CaptureVerdict> Out;
  for (CaptureMode M : {CaptureMode::Global, CaptureMode::ThreadLocal, CaptureMode::Relaxed})
    for (CaptureThread T : {CaptureThread::Capturing, CaptureThread::Other})
      Out.push_back(verdict(Call, M, T, Flags));
  return Out;
}

CaptureCall classOf(const char *Api) { return classifyCaptureCall(lookupCudaApi(Api), false); }

} // namespace

TEST(CaptureVerdict, FollowsTheMeasuredTable) {
  using V = std::vector<CaptureVerdict>;
  // cudaMalloc, and a synchronize of a private stream or of cudaStreamPerThread.
  EXPECT_EQ(row(classOf("cudaMalloc")), (V{Invalidates, Invalidates, Invalidates, None, None, None}));
  EXPECT_EQ(row(CaptureCall::OtherSync), (V{Invalidates, Invalidates, Invalidates, None, None, None}));
  // cudaDeviceSynchronize breaks every capture from every thread.
  EXPECT_EQ(row(classOf("cudaDeviceSynchronize")), V(6, Invalidates));
  // cudaMemset on the legacy stream, the capture stream non-blocking: not
  // captured on the capturing thread; another thread's is its own concern.
  EXPECT_EQ(row(classOf("cudaMemset")), (V{Escapes, None, Escapes, None, Escapes, None}));
  // ... and against a blocking capture stream: 906 then 901, every cell.
  EXPECT_EQ(row(classOf("cudaMemset"), StreamFlags::Blocking), V(6, Invalidates));
  // Destroying another stream, creating an event: legal.
  EXPECT_EQ(row(classOf("cudaStreamDestroy")), V(6, None));
  EXPECT_EQ(row(classOf("cudaEventCreate")), V(6, None));
  // The libraries: cublasCreate as cudaMalloc; cublasDestroy as a device-wide synchronize.
  EXPECT_EQ(row(classOf("cublasCreate")), row(classOf("cudaMalloc")));
  EXPECT_EQ(row(classOf("cublasDestroy")), V(6, Invalidates));
}

TEST(CaptureVerdict, TheCapturingThreadSynchronizingItsStreamFailsInEveryMode) {
  for (CaptureMode M : {CaptureMode::Global, CaptureMode::ThreadLocal, CaptureMode::Relaxed})
    EXPECT_EQ(verdict(classOf("cudaStreamSynchronize"), M, CaptureThread::Capturing), Invalidates);
}

TEST(CaptureVerdict, AThreadExchangedToRelaxedMayMakeUnsafeCallsButNotSynchronizeTheDevice) {
  for (CaptureThread T : {CaptureThread::Capturing, CaptureThread::Other}) {
    EXPECT_EQ(verdict(CaptureCall::Unsafe, CaptureMode::Global, T, StreamFlags::Unknown, true), None);
    EXPECT_EQ(verdict(CaptureCall::DeviceSync, CaptureMode::Global, T, StreamFlags::Unknown, true),
              Invalidates);
  }
}

TEST(CaptureVerdict, AModeTheCodeDoesNotShow) {
  // On the capturing thread, taken as the default (global); from another
  // thread, not known to prohibit anything but what every mode prohibits.
  EXPECT_EQ(verdict(CaptureCall::Unsafe, CaptureMode::Unknown, CaptureThread::Capturing), Invalidates);
  EXPECT_EQ(verdict(CaptureCall::Unsafe, CaptureMode::Unknown, CaptureThread::Other), None);
  EXPECT_EQ(verdict(CaptureCall::DeviceSync, CaptureMode::Unknown, CaptureThread::Other), Invalidates);
}

TEST(CaptureVerdict, LegacyWorkAgainstAStreamOfUnknownFlags) {
  EXPECT_EQ(verdict(CaptureCall::Legacy, CaptureMode::Global, CaptureThread::Capturing, StreamFlags::Unknown),
            CaptureVerdict::InvalidatesOrEscapes);
  EXPECT_EQ(verdict(CaptureCall::Legacy, CaptureMode::Global, CaptureThread::Other, StreamFlags::Unknown), None);
}

TEST(CaptureCall, IsReadFromTheTableAndTheStream) {
  EXPECT_EQ(classifyCaptureCall(lookupCudaApi("cudaMemcpyAsync"), false), CaptureCall::None);
  EXPECT_EQ(classifyCaptureCall(lookupCudaApi("cudaMemcpyAsync"), true), CaptureCall::Legacy);
  EXPECT_EQ(classifyCaptureCall(nullptr, true), CaptureCall::Legacy); // a launch on the legacy stream
  EXPECT_EQ(classifyCaptureCall(nullptr, false), CaptureCall::None);
  EXPECT_EQ(classOf("cuStreamAddCallback"), CaptureCall::Unsupported);
  EXPECT_EQ(classOf("cuMemAlloc_v2"), CaptureCall::Unsafe);
}

TEST(CaptureValues, AsTheHeadersSpellThem) {
  EXPECT_EQ(captureModeFromValue(0), CaptureMode::Global);
  EXPECT_EQ(captureModeFromValue(1), CaptureMode::ThreadLocal);
  EXPECT_EQ(captureModeFromValue(2), CaptureMode::Relaxed);
  EXPECT_EQ(captureModeFromValue(std::nullopt), CaptureMode::Unknown);
  EXPECT_TRUE(exchangesToRelaxed(2));
  EXPECT_FALSE(exchangesToRelaxed(0));
  EXPECT_EQ(streamHandleFromValue(0), StreamHandle::Legacy);
  EXPECT_EQ(streamHandleFromValue(1), StreamHandle::Legacy);
  EXPECT_EQ(streamHandleFromValue(2), StreamHandle::PerThread);
  EXPECT_EQ(captureStatusFromValue(0), CaptureStatus::None);
  EXPECT_EQ(captureStatusFromValue(1), CaptureStatus::Active);
  EXPECT_EQ(captureStatusFromValue(2), CaptureStatus::Other);
  const CudaApiInfo &Create = *lookupCudaApi("cudaStreamCreate");
  const CudaApiInfo &WithFlags = *lookupCudaApi("cudaStreamCreateWithFlags");
  EXPECT_EQ(streamFlagsOfCreation(Create, std::nullopt), StreamFlags::Blocking);
  EXPECT_EQ(streamFlagsOfCreation(WithFlags, 1), StreamFlags::NonBlocking);
  EXPECT_EQ(streamFlagsOfCreation(WithFlags, 0), StreamFlags::Blocking);
  EXPECT_EQ(streamFlagsOfCreation(WithFlags, std::nullopt), StreamFlags::Unknown);
}

TEST(CaptureSituations, EachHasItsOwnKey) {
  std::set<std::string> Keys;
  for (const CaptureSituation &S : captureSituations())
    EXPECT_TRUE(Keys.insert(captureSituationKey(S)).second) << captureSituationKey(S);
  // Another thread's own mode is the call's to know: not part of the key.
  CaptureSituation Other{CaptureThread::Other, CaptureMode::Global, StreamFlags::Blocking, false};
  CaptureSituation OtherRelaxed = Other;
  OtherRelaxed.Relaxed = true;
  EXPECT_EQ(captureSituationKey(Other), captureSituationKey(OtherRelaxed));
}

TEST(CaptureWording, OneSentenceWhateverTheCaptureLendsIt) {
  CapturedCall Malloc{"cudaMalloc", false, false, lookupCudaApi("cudaMalloc")};
  OpenSentence S = captureFinding(CaptureCall::Unsafe, Invalidates, Malloc);
  EXPECT_EQ(S.fill(capturedStreamWords("S")),
            "'cudaMalloc' called while stream 'S' is being captured invalidates the capture (the call "
            "returns cudaErrorStreamCaptureUnsupported and cudaStreamEndCapture fails); consider "
            "cudaMallocAsync on the capture stream or allocating before the capture");
  EXPECT_EQ(S.fill(captureContractWords("run")).substr(0, 71),
            "'cudaMalloc' called from 'run', which is declared capture-safe, invalid");
  EXPECT_TRUE(captureFinding(CaptureCall::Unsafe, None, Malloc).parts().empty());

  // Legacy work against a stream of unknown flags names the stream twice.
  CapturedCall Memcpy{"cuMemcpy", false, false, lookupCudaApi("cuMemcpy")};
  EXPECT_EQ(captureFinding(CaptureCall::Legacy, CaptureVerdict::InvalidatesOrEscapes, Memcpy)
                .fill(capturedStreamWords("S")),
            "'cuMemcpy' called while stream 'S' is being captured runs on the legacy stream: if 'S' is "
            "non-blocking it is not captured (it runs now, once, and every replay of the graph skips "
            "it), otherwise it invalidates the capture (CUDA_ERROR_STREAM_CAPTURE_IMPLICIT); consider "
            "cuMemcpyAsync on the capture stream");
}

TEST(CaptureModes, ByNameAsAContractWritesThem) {
  EXPECT_EQ(captureModeFromName("relaxed"), CaptureMode::Relaxed);
  EXPECT_EQ(captureModeFromName("thread-local"), CaptureMode::ThreadLocal);
  EXPECT_EQ(captureModeFromName("thread_local"), CaptureMode::ThreadLocal);
  EXPECT_EQ(captureModeFromName("Global"), CaptureMode::Global);
  EXPECT_EQ(captureModeFromName("cudaStreamCaptureModeRelaxed"), CaptureMode::Relaxed);
  EXPECT_EQ(captureModeFromName("CU_STREAM_CAPTURE_MODE_THREAD_LOCAL"), CaptureMode::ThreadLocal);
  EXPECT_EQ(captureModeFromName("lazy"), std::nullopt);
  EXPECT_EQ(captureModeFromName(""), std::nullopt);
}
