//===- CaptureRegionCalls.cpp - what each call does to the open captures ===//
//
// The calls of the capture-region dataflow: begins and ends (the API's, a
// wrapper's, a function that only begins or only ends), exchanges of the
// thread's mode, and every other call made while a capture may be open,
// judged by the model and worded by it. Captures ended on some paths only are
// found when the function returns.
//
//===----------------------------------------------------------------------===//
#include "CaptureFacts.h"
#include "CaptureRegions.h"
#include "CallChains.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {

static const unsigned EventMask = (1u << CudaEvent::ApiCall) | (1u << CudaEvent::KernelLaunch);

static bool overridesOrIs(const FunctionDecl *Callee, const CXXMethodDecl *MD) {
  const auto *M = dyn_cast<CXXMethodDecl>(Callee);
  SmallVector<const CXXMethodDecl *, 4> Work;
  if (M)
    Work.push_back(M);
  while (!Work.empty()) {
    const CXXMethodDecl *X = Work.pop_back_val();
    if (X->getCanonicalDecl() == MD->getCanonicalDecl())
      return true;
    append_range(Work, X->overridden_methods());
  }
  return false;
}

void CaptureAnalysis::call(Run &R, State &S, const CallExpr *CE) {
  if (R.Collect && R.Final && S.Relaxed) {
    R.Collect->Exprs.insert(CE);
    R.Collect->Locs.insert(CE->getBeginLoc());
  }
  if (std::optional<Boundary> B = boundary(R, S, CE)) {
    if (B->IsBegin)
      begin(R, S, CE, *B);
    else
      end(R, S, CE, *B);
    return;
  }
  if (const CudaEvent *Ev = R.EventAt.lookup(CE)) {
    if (Ev->What == CudaEvent::ExternalCall || Ev->What == CudaEvent::OpenCall) {
      // A call that leaves the file: the whole program follows it. A virtual
      // call also reaches the overriders this file defines, below.
      if (Facts && Ev->What == CudaEvent::OpenCall && R.reporting() && !S.Open.empty() &&
          !Guards.guarded(R.F, CE->getBeginLoc()))
        captureCall(R, S, nullptr, Ev);
      if (!Ev->Virtual)
        return;
    } else {
      if (Ev->Api && Ev->Api->Capture == CaptureEffect::ExchangeMode)
        exchange(S, CE);
      else if (R.reporting() && !S.Open.empty() && !Guards.guarded(R.F, CE->getBeginLoc()))
        report(R, S, *Ev, {}, R.F);
      return;
    }
  }
  const FunctionDecl *Direct = CE->getDirectCallee();
  if (!Direct) {
    edgesAt(R, S, CE->getBeginLoc(), [](const CallEdge &E) { return E.How == CallEdge::Pointer; });
    return;
  }
  const FunctionDecl *Def = TUCallGraph::definitionOf(Direct);
  const auto *MD = dyn_cast<CXXMethodDecl>(Direct);
  edgesAt(R, S, CE->getBeginLoc(), [&](const CallEdge &E) {
    if (E.How == CallEdge::Call)
      return E.Callee == Def;
    return E.How == CallEdge::Virtual && MD && overridesOrIs(E.Callee, MD);
  });
}

void CaptureAnalysis::edgesAt(Run &R, State &S, SourceLocation Loc,
                              function_ref<bool(const CallEdge &)> Matches) {
  if (R.Collect && R.Final && S.Relaxed)
    R.Collect->Locs.insert(Loc);
  if (!R.reporting() || S.Open.empty())
    return;
  auto It = R.EdgesAt.find(Loc);
  if (It == R.EdgesAt.end() || Guards.guarded(R.F, Loc))
    return;
  for (const CallEdge *Edge : It->second) {
    if (!Matches(*Edge))
      continue;
    Graph.forEachReachable(
        Edge->Callee, EventMask,
        [&](const CudaEvent &E) { return classify(E) != CaptureCall::None; },
        [&](const TUCallGraph::Path &P) {
          SmallVector<const CallEdge *, 4> Chain{Edge};
          append_range(Chain, P.Chain);
          report(R, S, *P.Event, Chain, P.Owner);
        });
    if (Facts)
      captureCall(R, S, Edge, nullptr);
  }
}

std::optional<CaptureAnalysis::Boundary> CaptureAnalysis::boundary(Run &R, const State &S,
                                                                   const CallExpr *CE) {
  auto ModeOf = [&](const Expr *E) -> std::optional<int64_t> {
    if (!E)
      return std::nullopt;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (std::optional<int64_t> Known = valueOf(S, V))
          return Known;
    return constantValue(E, Ctx);
  };
  if (const CudaEvent *Ev = R.EventAt.lookup(CE); Ev && Ev->Api) {
    CaptureEffect C = Ev->Api->Capture;
    if (C != CaptureEffect::BeginCapture && C != CaptureEffect::EndCapture)
      return std::nullopt;
    const Expr *Stream = argOrNull(CE, Ev->Api->StreamArg);
    if (!Stream)
      return std::nullopt;
    return boundaryOn(C == CaptureEffect::BeginCapture, Stream,
                      ModeOf(argOrNull(CE, Ev->Api->ModeArg)), Ev->Name);
  }
  const auto *Callee = dyn_cast_or_null<NamedDecl>(CE->getCalleeDecl());
  if (!Callee)
    return std::nullopt;
  for (bool IsBegin : {true, false})
    for (const CaptureWrapper &W : IsBegin ? Opts.BeginWrappers : Opts.EndWrappers)
      if (matchesFunctionName(Callee, W.Name))
        if (const Expr *Stream = argOrNull(CE, W.StreamArg))
          return boundaryOn(IsBegin, Stream, std::nullopt, identifierOf(Callee));

  // A function the TU defines that only begins, or only ends, a capture is
  // a wrapper when its stream is one of its parameters, a variable it
  // captures or a global (a lambda `finish` that ends the capture of `s`), or
  // a field of the object it is called on (Recorder::begin() capturing
  // this->Stream). Its body is not walked.
  const FunctionDecl *Def = TUCallGraph::definitionOf(CE->getDirectCallee());
  if (!Def || Def == R.F)
    return std::nullopt;
  const TUCallGraph::Summary *Sum = Graph.summary(Def);
  if (!Sum)
    return std::nullopt;
  const CudaEvent *Found = nullptr;
  bool Begins = false, Ends = false;
  for (const CudaEvent &E : Sum->Events) {
    if (!E.Api || (E.Api->Capture != CaptureEffect::BeginCapture &&
                   E.Api->Capture != CaptureEffect::EndCapture))
      continue;
    (E.Api->Capture == CaptureEffect::BeginCapture ? Begins : Ends) = true;
    Found = Found ? Found : &E;
  }
  if (!Found || Begins == Ends)
    return std::nullopt;
  // A member operator's object is the call's first argument.
  const unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) ? 1 : 0;
  const auto *MemberCall = dyn_cast<CXXMemberCallExpr>(CE);
  const Expr *Object = MemberCall ? MemberCall->getImplicitObjectArgument() : nullptr;
  auto Param = [&](const Expr *Inner) -> const Expr * {
    const auto *DRE = Inner ? dyn_cast<DeclRefExpr>(Inner->IgnoreParenImpCasts()) : nullptr;
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!P || P->getDeclContext() != Def)
      return nullptr;
    unsigned I = P->getFunctionScopeIndex() + Shift;
    return I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
  };
  const auto *Inner = cast<CallExpr>(Found->E);
  const Expr *InnerStream = argOrNull(Inner, Found->Api->StreamArg);
  const Expr *InnerMode = argOrNull(Inner, Found->Api->ModeArg);
  std::optional<int64_t> Mode =
      Param(InnerMode) ? ModeOf(Param(InnerMode)) : constantValue(InnerMode, Ctx);
  if (!InnerStream)
    return std::nullopt;
  const Expr *Bare = InnerStream->IgnoreParenImpCasts();
  if (const Expr *Arg = Param(InnerStream))
    return boundaryOn(Begins, Arg, Mode, identifierOf(Def));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Bare)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && (!V->isLocalVarDeclOrParm() || V->getParentFunctionOrMethod() != Def))
      return boundaryOn(Begins, InnerStream, Mode, identifierOf(Def));
    return std::nullopt;
  }
  // this->Stream in a method called on an object is Object.Stream here.
  const auto *ME = dyn_cast<MemberExpr>(Bare);
  if (!ME || !Object || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return std::nullopt;
  const Expr *Obj = Object->IgnoreParenImpCasts();
  const ValueDecl *Field = ME->getMemberDecl();
  std::string Key = streamKey(Obj, Ctx) + ".m" +
                    utohexstr(reinterpret_cast<uintptr_t>(Field->getCanonicalDecl()));
  std::string Name = isa<CXXThisExpr>(Obj)
                         ? Field->getNameAsString()
                         : streamText(Obj, Ctx) + (Obj->getType()->isPointerType() ? "->" : ".") +
                               Field->getNameAsString();
  return Boundary{Begins, Key, Name, Field->getCanonicalDecl(), Mode, identifierOf(Def).str()};
}

void CaptureAnalysis::begin(Run &R, State &S, const CallExpr *CE, const Boundary &B) {
  auto [It, New] = R.CaptureOf.try_emplace(CE, R.Captures.size());
  if (New) {
    OpenCapture C;
    C.Begin = CE;
    C.Key = B.Key;
    C.Name = B.Stream;
    C.Mode = captureModeFromValue(B.Mode);
    C.Flags = Opts.Created->flagsOf(B.Identity);
    C.Facts = S.Facts;
    R.Captures.push_back(std::move(C));
  }
  unsigned Id = It->second;
  const OpenCapture &Mine = R.Captures[Id];
  // Every capture, for the rule on what other threads may do meanwhile.
  if (Facts && R.reporting())
    Facts->region(R.F, Mine);
  if (R.reporting()) {
    for (unsigned O : S.Open) {
      const OpenCapture &Other = R.Captures[O];
      // The same begin again, on Streams[I] in a loop over I: another element.
      if (!Other.Begin || Other.Key != Mine.Key || (O == Id && indexedByLocal(Mine.Key)) ||
          !Reported.insert(CE).second)
        continue;
      finding(at(CE->getBeginLoc()), captureBegunTwice(Mine.Name));
      note(at(Other.Begin->getBeginLoc()), firstCaptureNote(Other.Name));
      break;
    }
  }
  S.Open.insert(lower_bound(S.Open, Id), Id);
  S.Open.erase(std::unique(S.Open.begin(), S.Open.end()), S.Open.end());
}

void CaptureAnalysis::end(Run &R, State &S, const CallExpr *CE, const Boundary &B) {
  const std::string &Key = B.Key;
  bool Matched = false;
  const OpenCapture *Other = nullptr;
  SmallVector<unsigned, 2> Keep;
  for (unsigned O : S.Open) {
    const OpenCapture &C = R.Captures[O];
    if (C.Begin && C.Key == Key) {
      Matched = true;
      if (R.Final)
        R.Ended.insert(O);
      continue;
    }
    if (C.Begin && !Other)
      Other = &C;
    Keep.push_back(O);
  }
  S.Open = std::move(Keep);
  if (Matched || !Other || !R.reporting() || !Reported.insert(CE).second)
    return;
  finding(at(CE->getBeginLoc()), captureEndedElsewhere(B.Name, B.Stream, Other->Name));
  note(at(Other->Begin->getBeginLoc()), captureBeginsNote(Other->Name));
}

/// cudaThreadExchangeStreamCaptureMode(&M) switches the thread to relaxed when
/// M was last set to relaxed; the next exchange, the push-pop partner the
/// documentation recommends, switches it back.
void CaptureAnalysis::exchange(State &S, const CallExpr *CE) {
  const VarDecl *V = nullptr;
  if (const Expr *Arg = argOrNull(CE, 0))
    if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
        V = dyn_cast<VarDecl>(DRE->getDecl());
  if (S.Relaxed)
    S.Relaxed = false;
  else if (std::optional<int64_t> M = V ? valueOf(S, V) : std::nullopt; M && exchangesToRelaxed(*M))
    S.Relaxed = true;
  if (V)
    setValue(S, V, std::nullopt);
}

void CaptureAnalysis::reportUnended(Run &R, const std::vector<State> &Out, const CFG &Cfg) {
  // Captures that no path ends are left to the caller (a begin wrapper, or a
  // class whose methods begin and end): only a capture ended on some paths
  // and still open on others is reported.
  MapVector<unsigned, SmallVector<const CFGBlock *, 2>> Leaks;
  const CFGBlock &Exit = Cfg.getExit();
  for (const CFGBlock *P : Exit.preds()) {
    if (!P || !Out[P->getBlockID()].Reached || P->hasNoReturnElement() ||
        isa_and_nonnull<CXXThrowExpr>(P->getTerminatorStmt()))
      continue;
    State S = edgeState(R, P, &Exit, Out[P->getBlockID()]);
    for (unsigned O : S.Open)
      if (R.Captures[O].Begin && R.Ended.count(O))
        Leaks[O].push_back(P);
  }
  for (auto &[Id, Blocks] : Leaks) {
    const OpenCapture &C = R.Captures[Id];
    if (!Reported.insert(C.Begin).second)
      continue;
    finding(at(C.Begin->getBeginLoc()), captureNotEnded(C.Name));
    SmallVector<SourceLocation, 4> Returns;
    for (const CFGBlock *B : Blocks) {
      SourceLocation At;
      for (const CFGElement &E : *B)
        if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
          if (isa<ReturnStmt>(CS->getStmt()))
            At = CS->getStmt()->getBeginLoc();
      if (At.isInvalid())
        if (const auto *Body = dyn_cast_or_null<CompoundStmt>(R.F->getBody()))
          At = Body->getRBracLoc();
      if (At.isValid())
        Returns.push_back(At);
    }
    llvm::sort(Returns, [&](SourceLocation A, SourceLocation B) {
      return SM.isBeforeInTranslationUnit(A, B);
    });
    // A few returns say enough; error-checking macros make dozens.
    for (SourceLocation At : ArrayRef(Returns).take_front(3))
      note(at(At), captureStillOpenNote(C.Name));
  }
}

void CaptureAnalysis::contractWithoutCfg(const FunctionDecl *F, const Decl *Contract) {
  Run R(F, Purpose::Check, Contract);
  R.Final = true;
  OpenCapture Assumed;
  Assumed.Name = F->getQualifiedNameAsString();
  Assumed.Mode = ContractMode;
  R.Captures.push_back(std::move(Assumed));
  State S;
  S.Reached = true;
  S.Open.push_back(0);
  Graph.forEachReachable(
      F, EventMask, [&](const CudaEvent &E) { return classify(E) != CaptureCall::None; },
      [&](const TUCallGraph::Path &P) { report(R, S, *P.Event, P.Chain, P.Owner); });
}

CaptureCall CaptureAnalysis::classify(const CudaEvent &E) const {
  if (E.What == CudaEvent::KernelLaunch)
    return classifyCaptureCall(nullptr, launchIsOnLegacyStream(E.E));
  if (E.What != CudaEvent::ApiCall || !E.Api || Opts.Allowed->contains(E.Name))
    return CaptureCall::None;
  bool OnLegacy = false;
  if (const auto *CE = dyn_cast<CallExpr>(E.E))
    OnLegacy = streamHandleOf(argOrNull(CE, E.Api->StreamArg)) == StreamHandle::Legacy;
  return classifyCaptureCall(E.Api, OnLegacy);
}

CapturedCall CaptureAnalysis::capturedCall(const CudaEvent &E) {
  CapturedCall C;
  C.Name = E.Name;
  C.Launch = E.What == CudaEvent::KernelLaunch;
  C.ThroughPointer = E.What == CudaEvent::ApiCall && E.ThroughPointer;
  C.Api = E.Api;
  return C;
}

bool CaptureAnalysis::syncsOwnStream(const CudaEvent &E, const FunctionDecl *F) const {
  const auto *CE = dyn_cast<CallExpr>(E.E);
  const Expr *Arg = CE && E.Api ? argOrNull(CE, E.Api->StreamArg) : nullptr;
  if (!Arg)
    return false;
  StreamHandle H = streamHandleOf(Arg);
  return H == StreamHandle::PerThread ||
         (H == StreamHandle::Other && Opts.Created->createdIn(Arg, F));
}

static CaptureSituation onThisThread(const OpenCapture &C, bool Relaxed) {
  return {CaptureThread::Capturing, C.Mode, C.Begin ? C.Flags : StreamFlags::Unknown, Relaxed};
}

void CaptureAnalysis::report(Run &R, const State &S, const CudaEvent &E,
                             ArrayRef<const CallEdge *> Chain, const FunctionDecl *Owner) {
  CaptureCall K = classify(E);
  if (K == CaptureCall::None || S.Open.empty())
    return;
  // The call sites inside the functions the region reaches, and the call
  // itself, may sit in a branch that runs only when not capturing.
  if (!Chain.empty() && Guards.chainGuarded(Chain, Owner, E.E))
    return;
  // A synchronize of a stream that no open capture records is an unsafe
  // call to the model. The capture a capture-safe function assumes is its
  // caller's, of a stream it cannot name: the per-thread stream, or a stream
  // the function creates itself, is another one. A stream named in another
  // function is not known to differ.
  if (K == CaptureCall::Sync && E.Api)
    if (const auto *CE = dyn_cast<CallExpr>(E.E))
      if (const Expr *Arg = argOrNull(CE, E.Api->StreamArg)) {
        StreamHandle H = streamHandleOf(Arg);
        bool PerThread = H == StreamHandle::PerThread;
        std::string Key = streamKey(Arg, Ctx);
        bool CreatedHere = Opts.Created->createdIn(Arg, R.F);
        if (H != StreamHandle::Legacy && (Chain.empty() || PerThread) &&
            all_of(S.Open, [&](unsigned O) {
              const OpenCapture &C = R.Captures[O];
              return C.Begin ? C.Key != Key : PerThread || CreatedHere;
            }))
          K = CaptureCall::OtherSync;
      }
  // The capture the finding cites: the one the call harms most, one the
  // code shows begin before the one a contract assumes, then the first.
  const OpenCapture *Cite = nullptr;
  CaptureVerdict Worst = CaptureVerdict::None;
  for (unsigned O : S.Open) {
    const OpenCapture &C = R.Captures[O];
    CaptureVerdict V = captureVerdict(K, onThisThread(C, S.Relaxed));
    if (V != CaptureVerdict::None &&
        (!Cite || V > Worst || (V == Worst && !Cite->Begin && C.Begin))) {
      Cite = &C;
      Worst = V;
    }
  }
  if (!Cite)
    return;
  // An exchange to relaxed mode around a call on the way permits what the
  // relaxed mode permits.
  if (!Chain.empty() && captureVerdict(K, onThisThread(*Cite, true)) == CaptureVerdict::None &&
      Guards.chainRelaxed(Chain, Owner, E.E))
    return;
  if (!Reported.insert(E.E).second)
    return;
  emit(R, *Cite, K, Worst, E, Chain);
}

static bool annotatedCaptureSafe(const Decl *D) {
  return any_of(D->specific_attrs<AnnotateAttr>(),
                [](const AnnotateAttr *A) { return A->getAnnotation() == CaptureSafeAnnotation; });
}

void CaptureAnalysis::emit(Run &R, const OpenCapture &Cite, CaptureCall Call, CaptureVerdict V,
                           const CudaEvent &E, ArrayRef<const CallEdge *> Chain) {
  std::string Text = captureFinding(Call, V, capturedCall(E)).fill(Cite.words());
  if (Text.empty())
    return;
  // Report at the call in the user's code when the call itself is in a
  // system header (header-only library code): diagnostics there are dropped.
  SourceLocation Loc = E.E->getBeginLoc();
  bool Moved = false;
  if (SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
    for (size_t I = Chain.size(); I-- > 0;)
      if (!SM.isInSystemHeader(SM.getExpansionLoc(Chain[I]->Loc))) {
        Loc = Chain[I]->Loc;
        Moved = true;
        break;
      }
  finding(at(Loc), std::move(Text));
  if (Cite.Begin)
    note(at(Cite.Begin->getBeginLoc()), captureBeginsNote(Cite.Name));
  else
    note(R.Contract->getLocation(),
         captureContractNote(Cite.Name, annotatedCaptureSafe(R.Contract), contractModeWord()));
  for (auto &[At, Step] : chainNotes(Chain))
    note(At, std::move(Step));
  if (Moved)
    note(at(E.E->getBeginLoc()), callMadeNote(E.Name, E.What == CudaEvent::KernelLaunch));
}

void CaptureAnalysis::captureCall(Run &R, const State &S, const CallEdge *Inside,
                                  const CudaEvent *Open) {
  // The capture a finding would cite: one the file shows begin (a function
  // declared capture-safe is a contract of its own file).
  for (unsigned O : S.Open)
    if (const OpenCapture &C = R.Captures[O]; C.Begin) {
      Facts->captureCall(C, C.Begin->getBeginLoc(), captureBeginsNote(C.Name), S.Relaxed, Inside,
                         Open);
      return;
    }
  // Only the capture a capture-safe function assumes, its caller's: what it
  // calls in other files must be safe too.
  if (S.Open.empty() || !R.Contract)
    return;
  const OpenCapture &C = R.Captures[S.Open.front()];
  Facts->captureCall(C, R.Contract->getLocation(),
                     captureContractNote(C.Name, annotatedCaptureSafe(R.Contract), contractModeWord()), S.Relaxed,
                     Inside, Open);
}

CaptureAnalysis::Boundary CaptureAnalysis::boundaryOn(bool IsBegin, const Expr *Stream,
                                                      std::optional<int64_t> Mode,
                                                      StringRef Name) const {
  return {IsBegin,   streamKey(Stream, Ctx), streamText(Stream, Ctx), identityDecl(Stream), Mode,
          Name.str()};
}

void CaptureAnalysis::finding(SourceLocation At, std::string Message) {
  Findings.push_back({At, std::move(Message), {}});
}

void CaptureAnalysis::note(SourceLocation At, std::string Text) {
  Findings.back().Notes.push_back({At, std::move(Text)});
}

/// clang-tidy drops a diagnostic inside a system header's macro (cuMemAlloc
/// is cuMemAlloc_v2) unless a note lands in user code: point at the
/// macro's use instead.
SourceLocation CaptureAnalysis::at(SourceLocation L) const {
  return L.isMacroID() && SM.isInSystemMacro(L) ? SM.getExpansionLoc(L) : L;
}

} // namespace cuda_scope
