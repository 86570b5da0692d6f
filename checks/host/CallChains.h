//===- CallChains.h - how the host-API checks word a call chain -*- C++ -*-===//
//
// The notes of a call chain from a root (a host callback, a capture region)
// down to the CUDA call it reaches, and the option that names the project's
// thread-starting functions. Wording comes from model/Wording.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_HOST_CALLCHAINS_H
#define CUDA_SCOPE_HOST_CALLCHAINS_H

#include "ast/CheckUtils.h"
#include "ast/TUCallGraph.h"
#include "model/Wording.h"

namespace cuda_scope {

/// The option ThreadFunctions (the check's own, else global): the project's
/// functions that run the argument at an index on another thread, as
/// "function:argument-index" entries; a bad entry is a configuration error.
std::vector<std::pair<std::string, unsigned>>
threadFunctionsOption(clang::tidy::ClangTidyCheck &Check, llvm::StringRef Value, llvm::StringRef CheckName);

/// How \p E reaches its callee, as the notes word it.
CallStep callStepOf(const CallEdge &E);

/// One note per step of \p Chain, from the root down: "'f' is called
/// here", "'~Buffer' runs here", ... (the diagnostics' and the facts' wording).
std::vector<std::pair<clang::SourceLocation, std::string>>
chainNotes(llvm::ArrayRef<const CallEdge *> Chain);

/// Emits chainNotes(Chain) as notes of the last diagnostic.
void noteCallChain(clang::tidy::ClangTidyCheck &Check, llvm::ArrayRef<const CallEdge *> Chain);

/// cuda-scope-callback-api's message for \p E reached from a host callback.
std::string callbackMessage(const CudaEvent &E);

/// "'cudaFree'", "kernel 'fill'", "'cuMemFree' (through a function pointer)".
std::string describeEvent(const CudaEvent &E);

} // namespace cuda_scope

#endif
