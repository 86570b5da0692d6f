//===- CheckUtils.h - small helpers the cuda-scope checks share -----------===//
#ifndef CUDA_SCOPE_TIDY_CHECKUTILS_H
#define CUDA_SCOPE_TIDY_CHECKUTILS_H

#include "TUCallGraph.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cuda_scope {

/// Splits a ';'-separated option value, dropping blanks around items.
std::vector<std::string> splitList(llvm::StringRef Value);

/// Parses "name:index;name:index". Entries that do not parse are returned in
/// \p Bad so the check can report them.
std::vector<std::pair<std::string, unsigned>> parseNameIndexList(llvm::StringRef Value,
                                                                 std::vector<std::string> &Bad);

/// Emits one note per step of \p Chain, from the root down: "'f' is called
/// here", "'~Buffer' runs here", ...
void noteCallChain(clang::tidy::ClangTidyCheck &Check, llvm::ArrayRef<const CallEdge *> Chain);

/// "'cudaFree'", "kernel 'fill'", "'cuMemFree' (through a function pointer)".
std::string describeEvent(const CudaEvent &E);

} // namespace cuda_scope

#endif
