//===- CheckUtils.cpp - small helpers the cuda-scope checks share ---------===//
#include "CheckUtils.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {

std::vector<std::string> splitList(StringRef Value) {
  SmallVector<StringRef, 8> Parts;
  Value.split(Parts, ';', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim().str());
  return Out;
}

std::vector<std::pair<std::string, unsigned>> parseNameIndexList(StringRef Value,
                                                                 std::vector<std::string> &Bad) {
  std::vector<std::pair<std::string, unsigned>> Out;
  for (const std::string &Item : splitList(Value)) {
    auto [Name, Index] = StringRef(Item).rsplit(':'); // names may be qualified: A::post:0
    unsigned N;
    if (Name.trim().empty() || Index.trim().getAsInteger(10, N))
      Bad.push_back(Item);
    else
      Out.emplace_back(Name.trim().str(), N);
  }
  return Out;
}

void noteCallChain(tidy::ClangTidyCheck &Check, ArrayRef<const CallEdge *> Chain) {
  for (const CallEdge *E : Chain) {
    const char *Text = nullptr;
    switch (E->How) {
    case CallEdge::Call:
    case CallEdge::Pointer: Text = "%0 is called here"; break;
    case CallEdge::Construct: Text = "%0 runs here"; break;
    case CallEdge::Destroy: Text = "%0 runs here, at the end of the object's lifetime"; break;
    case CallEdge::Delete: Text = "%0 runs here, from delete"; break;
    case CallEdge::Virtual: Text = "%0 may be called here, through a virtual call"; break;
    }
    Check.diag(E->Loc, Text, DiagnosticIDs::Note) << ("'" + E->Callee->getQualifiedNameAsString() + "'");
  }
}

std::string describeEvent(const CudaEvent &E) {
  switch (E.What) {
  case CudaEvent::KernelLaunch:
    return ("kernel '" + E.Name + "' launched").str();
  case CudaEvent::ApiCall:
    return ("'" + E.Name + "' called" + (E.ThroughPointer ? " through a function pointer" : "")).str();
  case CudaEvent::ExternalCall:
    return ("'" + E.Name + "' called").str();
  }
  return "";
}

} // namespace cuda_scope
