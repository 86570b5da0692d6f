//===- CaptureFacts.h - what the capture analysis tells the whole program ===//
//
// The capture rule crosses files (a capture calls a function another file
// defines) and threads (another thread calls cudaMalloc while a global
// capture is open). No file sees both sides, so each writes its side with the
// model's decisions made (docs/facts.md): every call that can break a
// capture carries, per opaque situation key (model/Capture.h), the sentence
// of its finding with the capture's words left open; every capture and every
// call made while one is open carries the keys it is in and its words. The
// cuda-scope command matches keys and fills the words in.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_HOST_CAPTUREFACTS_H
#define CUDA_SCOPE_HOST_CAPTUREFACTS_H

#include "CaptureRegions.h"
#include "TUFacts.h"

namespace cuda_scope {

class CaptureFacts {
public:
  CaptureFacts(TUFacts &Program, TUCallGraph &Graph) : Program(Program), Graph(Graph) {}

  /// A capture \p C that \p F begins, for the rule on other threads.
  void region(const clang::FunctionDecl *F, const OpenCapture &C);
  /// A call made while capture \p C is open (cited at \p Begin by \p Note;
  /// \p ThreadRelaxed: the thread exchanged its mode to relaxed): \p Inside,
  /// to a function the file defines, or \p Open, out of the file.
  void captureCall(const OpenCapture &C, clang::SourceLocation Begin, std::string Note,
                   bool ThreadRelaxed, const CallEdge *Inside, const CudaEvent *Open);
  /// What every function other files can reach does to a capture, and which
  /// of its calls run only when nothing captures, or in relaxed mode.
  void exportFunctions(CaptureAnalysis &A);

private:
  TUFacts &Program;
  TUCallGraph &Graph;
};

} // namespace cuda_scope

#endif
