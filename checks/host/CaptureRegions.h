//===- CaptureRegions.h - which captures are open at each call -*- C++ -*-===//
//
// A capture region is a set of paths through one function's CFG, from a
// begin-capture call to the end on the same stream. A forward may-dataflow
// over the CFG tracks which captures may be open at each call, in which mode,
// and whether the thread's capture mode was exchanged to relaxed; each call
// made while a capture may be open, directly or through the functions the TU
// defines (TUCallGraph), gets the model's verdict (model/Capture.h) and, when
// it breaks or escapes the capture, becomes a finding worded by the model
// (model/Wording.h). The analysis returns its findings; the check reports
// them, and CaptureFacts tells the whole program what it saw.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_HOST_CAPTUREREGIONS_H
#define CUDA_SCOPE_HOST_CAPTUREREGIONS_H

#include "CaptureGuards.h"
#include "StreamIdentity.h"
#include "ast/TUCallGraph.h"
#include "model/Capture.h"
#include "model/Wording.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CFG;
class CFGBlock;
class CallExpr;
class Stmt;
class ValueDecl;
} // namespace clang

namespace cuda_scope {

class CaptureFacts;

/// A function of the project that begins or ends a capture
/// (BeginCaptureFunctions, EndCaptureFunctions), and its stream argument.
struct CaptureWrapper {
  std::string Name;
  unsigned StreamArg;
};

/// What the check tells the analysis.
struct CaptureOptions {
  const llvm::StringSet<> *Allowed = nullptr; ///< API functions never reported
  llvm::ArrayRef<CaptureWrapper> BeginWrappers, EndWrappers;
  const CreatedStreams *Created = nullptr;
};

/// The annotation that declares a function capture-safe.
inline constexpr llvm::StringLiteral CaptureSafeAnnotation = "cuda-scope:capture-safe";

/// A finding, worded, at its place, with its notes in order.
struct CaptureFinding {
  clang::SourceLocation At;
  std::string Message;
  llvm::SmallVector<std::pair<clang::SourceLocation, std::string>, 4> Notes;
};

/// A capture the analysis knows to be open, as the findings and the facts
/// cite it.
struct OpenCapture {
  const clang::Expr *Begin = nullptr; ///< null: the capture a capture-safe function assumes
  std::string Key, Name;              ///< streamKey; the stream's text, or the function's name
  CaptureMode Mode = CaptureMode::Global;
  StreamFlags Flags = StreamFlags::Unknown;
  llvm::SmallVector<std::pair<const void *, bool>, 2> Facts; ///< conditions known when it began
  /// The words its findings' sentences take.
  CaptureWords words() const {
    return Begin ? capturedStreamWords(Name) : captureContractWords(Name);
  }
};

class CaptureAnalysis {
public:
  CaptureAnalysis(const CaptureOptions &Opts, TUCallGraph &Graph, CaptureFacts *Facts);
  ~CaptureAnalysis();

  /// Analyses \p F: a function that begins a capture, or one declared
  /// capture-safe by \p Contract.
  /// \p Mode: the capture mode the contract promises safety in (a library
  /// that captures in relaxed mode may call what only relaxed mode permits).
  void root(const clang::FunctionDecl *F, const clang::Decl *Contract, CaptureMode Mode = CaptureMode::Global);
  /// The findings so far, in the order found.
  std::vector<CaptureFinding> &findings() { return Findings; }
  CaptureGuards &guards() { return Guards; }

  /// What \p E does to an open capture, the options applied (an allowed
  /// function does nothing), before the capture is known.
  CaptureCall classify(const CudaEvent &E) const;
  /// \p E as the model's wording names it.
  static CapturedCall capturedCall(const CudaEvent &E);
  /// A synchronize by \p F of a stream no caller's capture can record: the
  /// per-thread stream, or one \p F creates itself.
  bool syncsOwnStream(const CudaEvent &E, const clang::FunctionDecl *F) const;

private:
  enum class Purpose : uint8_t { Check, CollectRelaxed };

  struct State {
    bool Reached = false;
    bool Relaxed = false; ///< the thread's mode was exchanged to relaxed
    llvm::SmallVector<unsigned, 2> Open;
    llvm::SmallVector<std::pair<const clang::VarDecl *, int64_t>, 2> Values;
    /// Conditions known true or false here: a flag (its declaration) or a
    /// comparison of one with a constant (an interned key).
    llvm::SmallVector<std::pair<const void *, bool>, 2> Facts;
    /// The variables that hold a begin's status (capture id) on every path
    /// here: a later assignment makes the variable another call's status.
    llvm::SmallVector<std::pair<const clang::VarDecl *, unsigned>, 1> StatusOf;
    bool operator==(const State &O) const {
      return Reached == O.Reached && Relaxed == O.Relaxed && Open == O.Open && Values == O.Values &&
             Facts == O.Facts && StatusOf == O.StatusOf;
    }
  };

  /// A call that begins or ends a capture, and the stream as the caller sees it.
  struct Boundary {
    bool IsBegin;
    std::string Key, Stream;     ///< streamKey and text of the stream
    const clang::Decl *Identity; ///< the stream's variable or field
    std::optional<int64_t> Mode;
    std::string Name; ///< the function called
  };
  Boundary boundaryOn(bool IsBegin, const clang::Expr *Stream, std::optional<int64_t> Mode,
                      llvm::StringRef Name) const;

  struct Run {
    Run(const clang::FunctionDecl *F, Purpose Why, const clang::Decl *Contract)
        : F(F), Why(Why), Contract(Contract) {}
    const clang::FunctionDecl *F;
    Purpose Why;
    const clang::Decl *Contract;
    const TUCallGraph::Summary *Sum = nullptr;
    llvm::DenseMap<const clang::Expr *, const CudaEvent *> EventAt;
    llvm::DenseMap<clang::SourceLocation, llvm::SmallVector<const CallEdge *, 1>> EdgesAt;
    std::vector<OpenCapture> Captures;
    llvm::DenseMap<const clang::Expr *, unsigned> CaptureOf;
    llvm::DenseSet<unsigned> Ended;
    /// Whether the body writes a variable: an assignment, ++ or --, its
    /// address or a non-const reference to it taken, a capture by reference
    /// (clang's ExprMutationAnalyzer, answers kept per variable).
    std::unique_ptr<clang::ExprMutationAnalyzer> Mutations;
    llvm::DenseMap<const clang::VarDecl *, bool> Mutated;
    bool Final = false;
    RelaxedCalls *Collect = nullptr;
    bool reporting() const { return Final && Why == Purpose::Check; }
  };

  // The dataflow over one function (CaptureRegions.cpp).
  bool analyse(const clang::FunctionDecl *F, Purpose Why, const clang::Decl *Contract,
               RelaxedCalls *Collect = nullptr);
  State edgeState(Run &R, const clang::CFGBlock *Pred, const clang::CFGBlock *Succ,
                  const State &Out);
  void transfer(Run &R, State &S, const clang::CFGBlock &B);
  void statement(Run &R, State &S, const clang::Stmt *St);
  static void setValue(State &S, const clang::VarDecl *V, std::optional<int64_t> Value);
  static std::optional<int64_t> valueOf(const State &S, const clang::VarDecl *V);
  static void merge(State &Into, const State &From);
  bool modified(Run &R, const clang::VarDecl *V);
  bool configuration(Run &R, const clang::VarDecl *V);
  bool writes(const clang::Stmt *S, const clang::VarDecl *V);

  // Calls, boundaries and findings (CaptureRegionCalls.cpp).
  void call(Run &R, State &S, const clang::CallExpr *CE);
  void edgesAt(Run &R, State &S, clang::SourceLocation Loc,
               llvm::function_ref<bool(const CallEdge &)> Matches);
  std::optional<Boundary> boundary(Run &R, const State &S, const clang::CallExpr *CE);
  void begin(Run &R, State &S, const clang::CallExpr *CE, const Boundary &B);
  void end(Run &R, State &S, const clang::CallExpr *CE, const Boundary &B);
  void exchange(State &S, const clang::CallExpr *CE);
  void reportUnended(Run &R, const std::vector<State> &Out, const clang::CFG &Cfg);
  void contractWithoutCfg(const clang::FunctionDecl *F, const clang::Decl *Contract);
  void report(Run &R, const State &S, const CudaEvent &E, llvm::ArrayRef<const CallEdge *> Chain,
              const clang::FunctionDecl *Owner);
  void emit(Run &R, const OpenCapture &Cite, CaptureCall Call, CaptureVerdict V, const CudaEvent &E,
            llvm::ArrayRef<const CallEdge *> Chain);
  void captureCall(Run &R, const State &S, const CallEdge *Inside, const CudaEvent *Open);
  void finding(clang::SourceLocation At, std::string Message);
  void note(clang::SourceLocation At, std::string Text);
  clang::SourceLocation at(clang::SourceLocation L) const;

  const CaptureOptions &Opts;
  TUCallGraph &Graph;
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  CaptureGuards Guards;
  CaptureFacts *Facts; ///< the facts for the whole program; null when none are asked for
  /// The mode the contract of the function being checked names (root()).
  CaptureMode ContractMode = CaptureMode::Global;
  /// Its name for a note: empty for global, the default.
  llvm::StringRef contractModeWord() const {
    return ContractMode == CaptureMode::Global ? llvm::StringRef() : captureModeName(ContractMode);
  }
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, const clang::VarDecl *>, bool>
      Configuration;
  llvm::StringSet<> CondKeys; ///< the comparisons remembered as conditions (stable keys)
  llvm::DenseSet<const clang::Expr *> Reported;
  std::vector<CaptureFinding> Findings;
};

} // namespace cuda_scope

#endif
