//===- CallChains.cpp - how the host-API checks word a call chain ---------===//
#include "CallChains.h"
#include "model/Wording.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {

std::vector<std::pair<std::string, unsigned>>
threadFunctionsOption(tidy::ClangTidyCheck &Check, StringRef Value, StringRef CheckName) {
  std::vector<std::string> Bad;
  std::vector<std::pair<std::string, unsigned>> Out = parseNameIndexList(Value, Bad);
  for (const std::string &B : Bad)
    Check.configurationDiag("invalid entry '%0' in option 'ThreadFunctions' of check '%1': expected "
                            "'function:callable-argument-index'",
                            DiagnosticIDs::Error)
        << B << CheckName;
  return Out;
}

CallStep callStepOf(const CallEdge &E) {
  switch (E.How) {
  case CallEdge::Call:
  case CallEdge::Pointer: return CallStep::Call;
  case CallEdge::Construct: return CallStep::Construct;
  case CallEdge::Destroy: return CallStep::Destroy;
  case CallEdge::Delete: return CallStep::Delete;
  case CallEdge::Virtual: return CallStep::Virtual;
  }
  return CallStep::Call;
}

std::vector<std::pair<SourceLocation, std::string>> chainNotes(ArrayRef<const CallEdge *> Chain) {
  std::vector<std::pair<SourceLocation, std::string>> Notes;
  for (const CallEdge *E : Chain)
    Notes.emplace_back(E->Loc, callStepNote(E->Callee->getQualifiedNameAsString(), callStepOf(*E)));
  return Notes;
}

void noteCallChain(tidy::ClangTidyCheck &Check, ArrayRef<const CallEdge *> Chain) {
  for (auto &[Loc, Text] : chainNotes(Chain))
    Check.diag(Loc, "%0", DiagnosticIDs::Note) << Text;
}

std::string callbackMessage(const CudaEvent &E) { return callbackApiMessage(describeEvent(E)); }

std::string describeEvent(const CudaEvent &E) {
  return describeCall(E.Name, E.What == CudaEvent::KernelLaunch,
                      E.What == CudaEvent::ApiCall && E.ThroughPointer);
}

} // namespace cuda_scope
