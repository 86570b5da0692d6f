//===- ReleaseAcquireCheck.cpp - messages with no release/acquire pair ----===//
//
// The engine's message rules (model/EngineMessages.cpp) over the TU's records
// (AstRecords): a flag published after data writes with no release between
// them, received before data reads with no acquire between them, or ordered
// only by a fence whose scope leaves out the other side. Cumulativity makes
// __syncthreads() then one thread's fence and flag enough, and a walk in
// program order sees exactly that.
//
//===----------------------------------------------------------------------===//
#include "ReleaseAcquireCheck.h"
#include "ast/CheckUtils.h"
#include "model/Wording.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

ReleaseAcquireCheck::ReleaseAcquireCheck(StringRef Name, tidy::ClangTidyContext *Ctx)
    : DeviceRuleBase(Name, Ctx), FenceFunctionsOption(Options.get("FenceFunctions", "").str()),
      AcrossKernelsOption(Options.get("AcrossKernels", "false").str()),
      StrictnessOption(Options.get("Strictness", "evidence").str()) {
  std::optional<bool> Across = parseBoolOption(AcrossKernelsOption);
  if (!Across)
    configurationDiag("invalid value '%0' for option 'AcrossKernels' of check '%1': expected 'true' or 'false'",
                      DiagnosticIDs::Error)
        << AcrossKernelsOption << Name;
  AcrossKernels = Across.value_or(false);
  std::optional<Strictness> Parsed = strictnessFromName(StrictnessOption);
  if (!Parsed)
    configurationDiag(invalidOptionMessage("Strictness", "'evidence' or 'wide'"), DiagnosticIDs::Error)
        << StrictnessOption << Name;
  Net = Parsed.value_or(Strictness::Evidence);
  for (const std::string &P : splitList(FenceFunctionsOption)) {
    if (isFunctionPattern(P))
      FenceFunctions.push_back(P);
    else
      configurationDiag("invalid entry '%0' in option 'FenceFunctions' of check '%1': expected a function "
                        "name, qualified or not, optionally ending in '*'",
                        DiagnosticIDs::Error)
          << P << Name;
  }
}

void ReleaseAcquireCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "FenceFunctions", FenceFunctionsOption);
  Options.store(Opts, "AcrossKernels", AcrossKernels ? "true" : "false");
  Options.store(Opts, "Strictness", strictnessName(Net));
}

void ReleaseAcquireCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void ReleaseAcquireCheck::check(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<TranslationUnitDecl>("tu")) {
    Records = AstRecords::get(*Result.Context);
    SM = Result.SourceManager;
    LangOpts = &Result.Context->getLangOpts();
  }
}

void ReleaseAcquireCheck::onEndOfTranslationUnit() {
  ShownAtCall.clear();
  if (!Records)
    return;
  auto IsFence = [&](const FunctionDecl *F) {
    return any_of(FenceFunctions, [&](const std::string &P) { return matchesFunctionName(F, P); });
  };
  EngineOptions Opts;
  Opts.AcrossKernels = AcrossKernels;
  Opts.Net = Net;
  Opts.Rules = EngineOptions::Messages;
  std::set<std::pair<const Stmt *, int>> Reported;
  for (const Finding &F : Records->findings(Opts, IsFence)) {
    if (F.What != Finding::NoRelease && F.What != Finding::NoAcquire && F.What != Finding::NarrowFence)
      continue;
    if (Reported.insert({Records->accessAt(F.At).Site, F.What == Finding::NarrowFence ? -1 : int(F.What)}).second)
      report(F);
  }
  Records.reset();
}

namespace {
/// Who may be on the other side of a message whose flag needs scope \p S.
StringRef otherSide(Scope S) {
  switch (S) {
  case Scope::Block: return "another thread of the block";
  case Scope::System: return "a host thread or another block";
  default: return "a thread in another block";
  }
}

/// "relaxed store", "volatile load", "plain store".
std::string howAccessed(const ScopedAccess &A) {
  return (orderName(A.Ord) + " " + opKindName(A.What)).str();
}
} // namespace

void ReleaseAcquireCheck::report(const Finding &F) {
  const ScopedAccess &Flag = Records->accessAt(F.Flag);
  const ScopedAccess &Data = Records->accessAt(F.Data);
  const ScopedAccess *Other = Records->access(F.Other);
  std::string FlagName = Flag.Object ? ScopedAccesses::describe(*Flag.Object) : "'" + Flag.Name + "'";
  // A multicast access whose address the walk does not name: its instruction.
  // A library's transfer: what the call moves (MemOp::Peer).
  std::string DataName = Data.Object     ? ScopedAccesses::describe(*Data.Object)
                         : Data.Transfer ? "what '" + Data.Name + (Data.What == OpKind::Load ? "' fetches" : "' sends")
                                         : "'" + Data.Name + "'";
  bool Publish = F.What == Finding::NoRelease || (F.What == Finding::NarrowFence && !F.Receiving);
  if (Flag.Shown.isValid() && !ShownAtCall
                                  .insert({Flag.Shown.getRawEncoding(), Data.Loc.getRawEncoding(),
                                           static_cast<int>(F.What)})
                                  .second)
    return;
  StringRef DataUse = Data.What == OpKind::Store ? "written" : "read";

  if (F.What == Finding::NarrowFence) {
    const ScopedAccess &Fence = Records->accessAt(F.Fence);
    std::string Consider = widerFenceAdvice(F.Needed, Fence.How == ScopedAccess::DeviceBuiltin);
    diag(Fence.reportLoc(), "'%0' orders the message through %1 and %2 with %3, but %4 is on the other side; a fence's "
                    "scope must include the threads it synchronizes with; consider %5")
        << Fence.Name << FlagName << DataName << libcuName(Fence.S) << otherSide(F.Needed) << Consider;
    diag(Flag.Loc, "%0 is %1 here with a %2", DiagnosticIDs::Note)
        << FlagName << (Publish ? "published" : "received") << howAccessed(Flag);
    diag(Data.Loc, "%0 is %1 here", DiagnosticIDs::Note) << DataName << DataUse;
    return;
  }

  // The order as written, where changing it is certainly the fix: a relaxed
  // libcu++ store or load whose order argument names relaxed.
  std::optional<FixItHint> Fix;
  StringRef Wanted = Publish ? "release" : "acquire";
  if (Flag.How == ScopedAccess::LibcuType && Flag.Ord == Order::Relaxed && Flag.OrderSpelling.isValid() &&
      Flag.What == (Publish ? OpKind::Store : OpKind::Load)) {
    CharSourceRange Range = CharSourceRange::getTokenRange(Flag.OrderSpelling);
    StringRef Text = Lexer::getSourceText(Range, *SM, *LangOpts);
    if (Text == "memory_order_relaxed")
      Fix = FixItHint::CreateReplacement(Range, ("memory_order_" + Wanted).str());
    else if (Text == "relaxed")
      Fix = FixItHint::CreateReplacement(Range, Wanted);
  }
  // What else would order it: the order (where the form takes one), or a
  // fence; worded as the IR pass words it (model/Wording).
  FlagForm Form = Flag.How == ScopedAccess::Plain           ? FlagForm::Plain
                  : Flag.How == ScopedAccess::DeviceBuiltin ? FlagForm::NoOrder
                                                            : FlagForm::Ordered;
  // A partner instance may run on another GPU: advise a fence that includes it.
  std::string Consider = messageAdvice(Publish, Form, Flag.What, F.Partner ? Scope::System : F.Needed);

  // A library's code is not the project's to edit: the fix goes with its call.
  if (Flag.Shown.isValid())
    Fix.reset();
  const ScopedAccess *Via = Records->access(F.Via);
  if (F.Peer) {
    // A message to or from the other GPUs of the team: its other side may be
    // outside the kernel.
    auto D = diag(Flag.reportLoc(), Publish ? "%0 signals the other GPUs here with a %1 after %2 writes to %3 in another GPU's "
                                      "memory, with no release between them; %4; consider %5"
                                    : "%0 is waited for here with a %1 and %3 is %2 another GPU's memory after it, "
                                      "with no acquire between them; %4; consider %5")
             << FlagName << howAccessed(Flag)
             << (Publish ? orderName(Data.Ord) : F.WriteWrite ? StringRef("written into") : StringRef("read from"))
             << DataName << peerReason(Publish, F.WriteWrite) << Consider;
    if (Fix)
      D << *Fix;
  } else if (F.ByOthers) {
    // One thread's flag for its block's or warp's threads: the order is
    // there, for that thread alone.
    diag(Flag.reportLoc(), Publish ? "%0 is published here by fewer threads than write %1 before it, with no barrier "
                             "between them; %2; consider %3"
                           : "%0 is received here by fewer threads than read %1 after it, with no barrier "
                             "between them; %2; consider %3")
        << FlagName << DataName << byOthersReason(Publish) << byOthersAdvice(Publish);
  } else if (Publish && Via) {
    // A relay: the data reached this thread through another flag.
    std::string ViaName = ScopedAccesses::describe(*Via->Object);
    auto D = diag(Flag.reportLoc(), "%0 is published here with a %1 after %2 was received, which carries %3, with no "
                            "release between them; %4 that sees %0 may still read the old data; consider %5")
             << FlagName << howAccessed(Flag) << ViaName << DataName << otherSide(F.Needed) << Consider;
    if (Fix)
      D << *Fix;
    diag(Via->Loc, "%0 is received here", DiagnosticIDs::Note) << ViaName;
  } else if (Publish && F.WriteWrite) {
    auto D = diag(Flag.reportLoc(), "%0 is published here with a %1 after %2 writes to %3, with no release between "
                            "them; %4 that sees the flag and then writes %3 may have that write overwritten by this "
                            "earlier one (the two writes race); consider %5")
             << FlagName << howAccessed(Flag) << orderName(Data.Ord) << DataName << otherSide(F.Needed) << Consider;
    if (Fix)
      D << *Fix;
  } else if (Publish && F.Partner && Other) {
    auto D = diag(Flag.reportLoc(), "%0 is published here with a %1 after %2 writes to %3, with no release between "
                            "them; the kernel's partner instance (the same kernel on another GPU or grid), which "
                            "receives it as %4, may still read the old data; consider %5")
             << FlagName << howAccessed(Flag) << orderName(Data.Ord) << DataName
             << ScopedAccesses::describe(*Other->Object) << Consider;
    if (Fix)
      D << *Fix;
  } else if (Publish) {
    auto D = diag(Flag.reportLoc(), "%0 is published here with a %1 after %2 writes to %3, with no release between "
                            "them; %4 that sees the flag may still read the old data; consider %5")
             << FlagName << howAccessed(Flag) << orderName(Data.Ord) << DataName << otherSide(F.Needed) << Consider;
    if (Fix)
      D << *Fix;
  } else if (F.WriteWrite) {
    auto D = diag(Flag.reportLoc(), "%0 is received here with a %1 and %2 is written after it, with no acquire between "
                            "them; the write may be ordered before one made before the flag was published, "
                            "which then overwrites it (the two writes race); consider %3")
             << FlagName << howAccessed(Flag) << DataName << Consider;
    if (Fix)
      D << *Fix;
  } else if (F.Partner && Other) {
    auto D = diag(Flag.reportLoc(), "%0 is received here with a %1 and %2 is read after it, with no acquire between "
                            "them; the read may return data older than the flag, which the kernel's partner "
                            "instance (the same kernel on another GPU or grid) publishes as %3; consider %4")
             << FlagName << howAccessed(Flag) << DataName << ScopedAccesses::describe(*Other->Object) << Consider;
    if (Fix)
      D << *Fix;
  } else {
    auto D = diag(Flag.reportLoc(), "%0 is received here with a %1 and %2 is read after it, with no acquire between "
                            "them; the read may return data older than the flag; consider %3")
             << FlagName << howAccessed(Flag) << DataName << Consider;
    if (Fix)
      D << *Fix;
  }
  if (Flag.Shown.isValid())
    diag(Flag.Loc, "%0 is accessed here, in the library's code", DiagnosticIDs::Note) << FlagName;
  diag(Data.Loc, "%0 is %1 here", DiagnosticIDs::Note) << DataName << DataUse;
  if (Other)
    diag(Other->Loc, "%0 %1 %2 here", DiagnosticIDs::Note)
        << describeRoot(*Other) << (Publish ? "receives" : "publishes")
        << (F.Partner ? ScopedAccesses::describe(*Other->Object) : FlagName);
  noteCalls(Flag);
}

void ReleaseAcquireCheck::noteCalls(const ScopedAccess &A) {
  // A flag accessed in a helper (a library's atomic wrapper) is reported
  // there; the calls that reach it from the kernel say which use of the
  // helper it is, innermost first, as far as the project's code goes.
  unsigned Shown = 0;
  for (const Expr *Call : llvm::reverse(A.CallChain)) {
    SourceLocation Loc = SM->getExpansionLoc(Call->getBeginLoc());
    if (SM->isInSystemHeader(Loc))
      continue;
    if (++Shown > MaxCallNotes)
      break;
    const FunctionDecl *Callee = nullptr;
    if (const auto *CE = dyn_cast<CallExpr>(Call))
      Callee = CE->getDirectCallee();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Call))
      Callee = Construct->getConstructor();
    if (Callee)
      diag(Call->getBeginLoc(), "%0 is called here", DiagnosticIDs::Note) << Callee;
    else
      diag(Call->getBeginLoc(), "called here", DiagnosticIDs::Note);
  }
}

} // namespace cuda_scope
