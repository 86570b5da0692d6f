//===- ArchRegions.cpp - code a host compilation sees only for want of __CUDA_ARCH__ ===//
#include "ArchRegions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallVector.h"
#include <mutex>

using namespace clang;
using namespace llvm;

namespace cuda_scope {
namespace {

std::mutex RegistryLock;
DenseMap<const SourceManager *, std::weak_ptr<ArchRegions>> &registry() {
  static DenseMap<const SourceManager *, std::weak_ptr<ArchRegions>> Live;
  return Live;
}

constexpr StringLiteral ArchMacro = "__CUDA_ARCH__";

/// Follows each conditional's arms; an arm taken while the conditional has
/// tested __CUDA_ARCH__ is recorded from its directive to the next one.
class ArmTracker : public PPCallbacks {
public:
  ArmTracker(const SourceManager &SM, const LangOptions &LO, std::shared_ptr<ArchRegions> Out)
      : SM(SM), LO(LO), Out(std::move(Out)) {}

  void If(SourceLocation Loc, SourceRange Cond, ConditionValueKind Value) override {
    Stack.push_back({});
    arm(Loc, mentionsArch(Cond), Value == CVK_True);
  }
  void Ifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    Stack.push_back({});
    arm(Loc, isArch(Name), bool(MD));
  }
  void Ifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    Stack.push_back({});
    arm(Loc, isArch(Name), !MD);
  }
  void Elif(SourceLocation Loc, SourceRange Cond, ConditionValueKind Value, SourceLocation) override {
    close(Loc);
    arm(Loc, mentionsArch(Cond), Value == CVK_True);
  }
  void Elifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    close(Loc);
    arm(Loc, isArch(Name), bool(MD));
  }
  void Elifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    close(Loc);
    arm(Loc, isArch(Name), !MD);
  }
  void Else(SourceLocation Loc, SourceLocation) override {
    close(Loc);
    arm(Loc, false, true);
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    close(Loc);
    if (!Stack.empty())
      Stack.pop_back();
  }

private:
  struct Conditional {
    bool Arch = false;     ///< some condition so far tested __CUDA_ARCH__
    bool AnyTaken = false; ///< an earlier arm was taken: the rest are not
    bool Open = false;     ///< the current arm is taken and tracked
    SourceLocation Start;
  };

  bool isArch(const Token &Name) const {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    return II && II->getName() == ArchMacro;
  }
  bool mentionsArch(SourceRange Cond) const {
    bool Invalid = false;
    StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Cond), SM, LO, &Invalid);
    return !Invalid && Text.contains(ArchMacro);
  }
  void arm(SourceLocation Loc, bool Arch, bool Taken) {
    if (Stack.empty())
      return;
    Conditional &C = Stack.back();
    C.Arch |= Arch;
    C.Open = Taken && !C.AnyTaken;
    C.AnyTaken |= Taken;
    C.Start = Loc;
  }
  void close(SourceLocation Loc) {
    if (Stack.empty())
      return;
    Conditional &C = Stack.back();
    if (C.Open && C.Arch) {
      auto [File, Begin] = SM.getDecomposedExpansionLoc(C.Start);
      auto [EndFile, End] = SM.getDecomposedExpansionLoc(Loc);
      if (File == EndFile && Begin <= End)
        Out->add(File, Begin, End);
    }
    C.Open = false;
  }

  const SourceManager &SM;
  const LangOptions &LO;
  std::shared_ptr<ArchRegions> Out;
  SmallVector<Conditional, 8> Stack;
};

} // namespace

void ArchRegions::track(const SourceManager &SM, Preprocessor *PP) {
  if (!PP || !PP->getLangOpts().CUDA || PP->getLangOpts().CUDAIsDevice)
    return;
  std::lock_guard<std::mutex> Guard(RegistryLock);
  auto &Live = registry();
  for (auto It = Live.begin(); It != Live.end();) {
    auto Next = std::next(It);
    if (It->second.expired())
      Live.erase(It);
    It = Next;
  }
  if (!Live.lookup(&SM).expired())
    return;
  auto Regions = std::make_shared<ArchRegions>(SM);
  Live[&SM] = Regions;
  // The preprocessor owns the callbacks, and they the record: it lives as
  // long as the translation unit does.
  PP->addPPCallbacks(std::make_unique<ArmTracker>(SM, PP->getLangOpts(), std::move(Regions)));
}

std::shared_ptr<const ArchRegions> ArchRegions::of(const SourceManager &SM) {
  std::lock_guard<std::mutex> Guard(RegistryLock);
  return registry().lookup(&SM).lock();
}

bool ArchRegions::hostOnly(SourceLocation Loc) const {
  if (Loc.isInvalid() || Arms.empty())
    return false;
  auto [File, Offset] = SM.getDecomposedExpansionLoc(Loc);
  auto It = Arms.find(File);
  if (It == Arms.end())
    return false;
  for (const auto &[Begin, End] : It->second)
    if (Begin <= Offset && Offset < End)
      return true;
  return false;
}

} // namespace cuda_scope
