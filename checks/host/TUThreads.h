//===- TUThreads.h - which code runs on other threads, and under which locks ===//
//
// A stream capture in global mode makes another thread's unsafe API call
// fail and invalidates the capture; a device-wide synchronize does it in
// every mode (docs/facts.md, measured). Relating the two needs what one file
// shows of threads: where threads start and with what function, whether
// several can run at once, where the starting function waits for them, and
// which locks are held at each call. The whole-program merge
// (tools/cuda_scope/facts.py) relates them; these are the facts.
//
// Threads are started by std::thread and std::jthread (constructed, or
// emplaced into a container), std::async (unless deferred), pthread_create,
// and the functions a project names ("ThreadPool::enqueue:0"). Locks are the
// standard guards (lock_guard, unique_lock, scoped_lock) and any local object
// constructed from a lockable one (a type with lock and unlock, or Lock and
// Unlock), alive to the end of its block, and explicit m.lock() ... m.unlock().
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_HOST_TUTHREADS_H
#define CUDA_SCOPE_HOST_TUTHREADS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace cuda_scope {

/// One place where a thread starts.
struct ThreadStart {
  const clang::FunctionDecl *Entry;   ///< what the thread runs (a definition, or a declaration)
  const clang::FunctionDecl *Spawner; ///< the function starting it
  const clang::Expr *Site;
  std::string How;                    ///< "std::thread", "pthread_create", "Pool::enqueue"
  bool Many = false;                  ///< started in a loop: several may run at once
  clang::SourceLocation Joined;       ///< where the spawner waits for it; invalid if it does not
};

/// A lock held over part of a function body.
struct LockRange {
  clang::SourceLocation Begin, End; ///< expansion locations
  std::string Lock;                 ///< the mutex's identity; "?" for one not known
};

class TUThreads {
public:
  /// \p Pools: functions that run their argument at the given index on
  /// another thread.
  TUThreads(clang::ASTContext &Ctx, llvm::ArrayRef<std::pair<std::string, unsigned>> Pools);
  ~TUThreads();

  /// Every thread start in the TU outside system headers.
  llvm::ArrayRef<ThreadStart> starts();

  /// The locks held at \p Loc inside \p F's body (its own guards; a
  /// caller's are the merge's to add).
  llvm::SmallVector<std::string, 1> locksAt(const clang::FunctionDecl *F, clang::SourceLocation Loc);

private:
  llvm::ArrayRef<LockRange> ranges(const clang::FunctionDecl *F);

  clang::ASTContext &Ctx;
  std::vector<std::pair<std::string, unsigned>> Pools;
  std::unique_ptr<std::vector<ThreadStart>> Starts;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<LockRange>> Ranges;
};

} // namespace cuda_scope

#endif
