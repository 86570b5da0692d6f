//===- CaptureFacts.cpp - what the capture analysis tells the whole program ===//
#include "CaptureFacts.h"
#include "clang/AST/Expr.h"
#include <map>

using namespace clang;
using namespace llvm;

namespace cuda_scope {

// The states of a walk from a capture through the calls it makes: the
// calling thread is in the mode the capture was begun in, or it exchanged
// its mode to relaxed on the way. Opaque to the merge, which only carries
// them from a call that sets one to the keys of the capture.
static constexpr llvm::StringLiteral AsBegun = "as-begun", Exchanged = "exchanged";

static json::Array wordsOf(const OpenCapture &C) {
  CaptureWords W = C.words();
  // In the order of OpenSentence's slots.
  return json::Array{std::move(W.Context), std::move(W.Stream)};
}

void CaptureFacts::region(const FunctionDecl *F, const OpenCapture &C) {
  CaptureSituation Other{CaptureThread::Other, C.Mode, C.Flags, false};
  Program.region(Graph, F, C.Begin->getBeginLoc(),
                 json::Object{{"key", captureSituationKey(Other)},
                              {"words", wordsOf(C)},
                              {"note", captureBeginsNote(C.Name, C.Mode)}});
}

void CaptureFacts::captureCall(const OpenCapture &C, SourceLocation Begin, std::string Note,
                               bool ThreadRelaxed, const CallEdge *Inside, const CudaEvent *Open) {
  StreamFlags Flags = C.Begin ? C.Flags : StreamFlags::Unknown;
  CaptureSituation Here{CaptureThread::Capturing, C.Mode, Flags, ThreadRelaxed};
  CaptureSituation Relaxed{CaptureThread::Capturing, C.Mode, Flags, true};
  json::Object Region{{"state", AsBegun},
                      {"keys", json::Object{{AsBegun, captureSituationKey(Here)},
                                            {Exchanged, captureSituationKey(Relaxed)}}},
                      {"words", wordsOf(C)},
                      {"note", std::move(Note)}};
  Program.captureCall(Begin, std::move(Region), Inside, Open);
  if (Inside)
    Program.include(Graph, Inside->Callee);
}

/// The keys under which a call of class \p Call breaks a capture, grouped by
/// the sentence of the finding; \p Relaxed: the call is made in relaxed mode.
static json::Array breaks(CaptureCall Call, bool Relaxed, const CapturedCall &C) {
  std::map<CaptureVerdict, json::Array> Keys;
  for (const CaptureSituation &S : captureSituations()) {
    CaptureSituation Made = S;
    Made.Relaxed = S.Relaxed || Relaxed;
    CaptureVerdict V = captureVerdict(Call, Made);
    if (V != CaptureVerdict::None)
      Keys[V].push_back(captureSituationKey(S));
  }
  json::Array Out;
  for (auto &[V, Ks] : Keys) {
    json::Array Parts;
    OpenSentence Sentence = captureFinding(Call, V, C);
    for (const auto &[Text, Slot] : Sentence.parts())
      Parts.push_back(Slot == OpenSentence::Text ? json::Value(Text) : json::Value(int(Slot)));
    Out.push_back(json::Object{{"keys", std::move(Ks)}, {"message", std::move(Parts)}});
  }
  return Out;
}

void CaptureFacts::exportFunctions(CaptureAnalysis &A) {
  CaptureGuards &Guards = A.guards();
  Program.include(Graph);
  for (const FunctionDecl *F : Program.functions()) {
    const TUCallGraph::Summary *Sum = Graph.summary(F);
    if (!Sum)
      continue;
    // A call behind a test that the stream is not capturing runs only when
    // nothing captures; one inside an exchange to relaxed mode runs relaxed.
    auto Mark = [&](SourceLocation Loc) {
      if (Guards.guarded(F, Loc))
        Program.markCalls(F, Loc, "guarded", true);
      if (Guards.relaxed(F).Locs.count(Loc))
        Program.markCalls(F, Loc, "state", Exchanged);
    };
    for (const CallEdge &E : Sum->Calls)
      Mark(E.Loc);
    for (const CudaEvent &E : Sum->Events) {
      if (E.What == CudaEvent::OpenCall)
        Mark(E.E->getBeginLoc());
      if (E.What == CudaEvent::ExternalCall || E.What == CudaEvent::OpenCall)
        continue;
      CaptureCall K = A.classify(E);
      if (K == CaptureCall::None || Guards.guarded(F, E.E->getBeginLoc()))
        continue;
      // A synchronize of a stream the function creates itself, or of the
      // per-thread stream, is not of a caller's capture.
      if (K == CaptureCall::Sync && A.syncsOwnStream(E, F))
        K = CaptureCall::OtherSync;
      json::Array Breaks =
          breaks(K, Guards.relaxed(F).Exprs.count(E.E), CaptureAnalysis::capturedCall(E));
      if (!Breaks.empty())
        Program.event(F, "capture", E.E->getBeginLoc(),
                      json::Object{{"breaks", std::move(Breaks)}});
    }
  }
}

} // namespace cuda_scope
