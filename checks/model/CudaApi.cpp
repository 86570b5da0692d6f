//===- CudaApi.cpp - lookups in the CUDA API table -------------------------===//
#include "CudaApi.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace cuda_scope {
namespace {
const CudaApiInfo Table[] = {
#define CUDA_API(Name, Family, Capture, Stream, Cb, CbForm, Mode, Evidence)                        \
  {#Name,         ApiFamily::Family,    CaptureEffect::Capture, Stream, Cb,                          \
   CallbackForm::CbForm, Mode,          Evidence},
#include "CudaApi.def"
};

const StringMap<const CudaApiInfo *> &index() {
  static const StringMap<const CudaApiInfo *> Index = [] {
    StringMap<const CudaApiInfo *> M;
    for (const CudaApiInfo &I : Table)
      M[I.Name] = &I;
    return M;
  }();
  return Index;
}
} // namespace

StringRef normalizeApiName(StringRef Name) {
  for (StringRef Suffix : {"_ptds", "_ptsz", "_v2", "_v3"})
    if (Name.ends_with(Suffix))
      Name = Name.drop_back(Suffix.size());
  // The driver spells both as cuX_v2_ptsz; the loop above takes that order,
  // this pass the other.
  for (StringRef Suffix : {"_ptds", "_ptsz"})
    if (Name.ends_with(Suffix))
      Name = Name.drop_back(Suffix.size());
  return Name;
}

const CudaApiInfo *lookupCudaApi(StringRef Name) {
  auto It = index().find(normalizeApiName(Name));
  return It == index().end() ? nullptr : It->second;
}

bool isCudaCallName(StringRef Name) {
  Name = normalizeApiName(Name);
  return looksLikeCudaApiName(Name) || index().count(Name);
}

bool looksLikeCudaApiName(StringRef Name) {
  StringRef Rest;
  if (Name.starts_with("cuda"))
    Rest = Name.drop_front(4);
  else if (Name.starts_with("cu"))
    Rest = Name.drop_front(2);
  else
    return false;
  return !Rest.empty() && Rest.front() >= 'A' && Rest.front() <= 'Z';
}

bool readsKernelAttributesOnly(StringRef Name) {
  for (StringRef Prefix : {"cudaFuncGet", "cudaFuncSet", "cudaOccupancy", "cuFuncGet", "cuFuncSet", "cuOccupancy"})
    if (Name.starts_with(Prefix))
      return true;
  return false;
}

ArrayRef<CudaApiInfo> allCudaApis() { return Table; }

const LaunchApiInfo *lookupLaunchApi(StringRef Name) {
  static const LaunchApiInfo Launches[] = {
#define LAUNCH_API(Name, KernelArg, GridArg, Form, Evidence) {#Name, KernelArg, GridArg, LaunchForm::Form, Evidence},
#include "CudaApi.def"
  };
  Name = normalizeApiName(Name);
  for (const LaunchApiInfo &L : Launches)
    if (L.Name == Name)
      return &L;
  return nullptr;
}

std::optional<ResidencyName> residencyName(StringRef Name) {
  static const std::pair<StringLiteral, ResidencyName> Names[] = {
#define RESIDENCY(Name, What) {#Name, ResidencyName::What},
#include "CudaApi.def"
  };
  Name = normalizeApiName(Name);
  for (const auto &[N, What] : Names)
    if (Name == N)
      return What;
  return std::nullopt;
}

StringRef gridSizeName(GridSize G) {
  switch (G) {
  case GridSize::Unknown: return "unknown";
  case GridSize::Residency: return "residency";
  case GridSize::Input: return "input";
  }
  return "unknown";
}

std::optional<GridSize> gridSizeFromName(StringRef Name) {
  if (Name == "unknown")
    return GridSize::Unknown;
  if (Name == "residency")
    return GridSize::Residency;
  if (Name == "input")
    return GridSize::Input;
  return std::nullopt;
}

StringRef captureEffectName(CaptureEffect E) {
  switch (E) {
  case CaptureEffect::Neutral: return "neutral";
  case CaptureEffect::StreamOrdered: return "stream-ordered";
  case CaptureEffect::LegacyWork: return "legacy-stream work";
  case CaptureEffect::UnsafeInCapture: return "unsafe in capture";
  case CaptureEffect::Sync: return "synchronization";
  case CaptureEffect::DeviceSync: return "device synchronization";
  case CaptureEffect::Unsupported: return "unsupported in capture";
  case CaptureEffect::BeginCapture: return "begin capture";
  case CaptureEffect::EndCapture: return "end capture";
  case CaptureEffect::ExchangeMode: return "exchange capture mode";
  case CaptureEffect::CaptureQuery: return "capture query";
  case CaptureEffect::CreateStream: return "create stream";
  }
  return "neutral";
}

bool isGraphKernelNodeFunc(StringRef Record, StringRef Field) {
  return Field == "func" && (Record == "cudaKernelNodeParams" || Record == "cudaKernelNodeParamsV2");
}

bool isCooperativeAttribute(StringRef Enumerator) {
  return Enumerator == "cudaLaunchAttributeCooperative" || Enumerator == "CU_LAUNCH_ATTRIBUTE_COOPERATIVE" ||
         Enumerator == "CU_KERNEL_NODE_ATTRIBUTE_COOPERATIVE";
}

} // namespace cuda_scope
