//===- CudaApi.h - what the CUDA runtime and driver APIs do, as data ------===//
//
// The table lives in CudaApi.def; this header answers questions about a
// function name: is it a CUDA API call, what does it do to a stream capture,
// which argument is its stream, which registers a host callback.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_CUDAAPI_H
#define CUDA_SCOPE_MODEL_CUDAAPI_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace cuda_scope {

/// Runtime and Driver: the CUDA APIs. Library: a CUDA library's handle
/// calls (cuBLAS, cuFFT, cuSPARSE), which make CUDA calls of their own.
enum class ApiFamily : uint8_t { Runtime, Driver, Library };

/// What a call does while the calling thread's stream is being captured.
enum class CaptureEffect : uint8_t {
  Neutral,         ///< Legal in a capture and captures nothing.
  StreamOrdered,   ///< Enqueued on its stream argument; captured there.
  LegacyWork,      ///< Synchronous work on the legacy stream.
  UnsafeInCapture, ///< Rejected under Global/ThreadLocal capture, allowed under Relaxed.
  Sync,            ///< Synchronization or a query; illegal in every mode.
  DeviceSync,      ///< Synchronizes the whole device: illegal in every mode, and
                   ///< from every thread while any capture is open.
  Unsupported,     ///< Not supported in a capture at all.
  BeginCapture,
  EndCapture,
  ExchangeMode,
  CaptureQuery,
  CreateStream,
};

enum class CallbackForm : uint8_t { None, Function, HostNodeParams };

struct CudaApiInfo {
  llvm::StringRef Name;
  ApiFamily Family;
  CaptureEffect Capture;
  int StreamArg;
  int CallbackArg;
  CallbackForm Callback;
  int ModeArg;
  llvm::StringRef Evidence;
};

/// Strips the versioned and per-thread-stream suffixes the headers add by
/// macro: cuMemAlloc_v2 -> cuMemAlloc, cudaMemcpy_ptds -> cudaMemcpy.
llvm::StringRef normalizeApiName(llvm::StringRef Name);

/// The table row for \p Name (normalized first), or null.
const CudaApiInfo *lookupCudaApi(llvm::StringRef Name);

/// True for names spelled like a runtime or driver API function:
/// "cuda" or "cu" followed by an upper-case letter.
bool looksLikeCudaApiName(llvm::StringRef Name);

/// True for a function the checks treat as a CUDA call: spelled like the
/// runtime or driver API, or a library function the table lists.
bool isCudaCallName(llvm::StringRef Name);

/// API functions that read a static table and touch no device, stream or
/// capture state: the error-string functions. The host-API checks allow them
/// by default (their AllowedFunctions option), as a ';'-separated list.
inline constexpr llvm::StringLiteral StatelessApiFunctions =
    "cudaGetErrorString;cudaGetErrorName;cuGetErrorString;cuGetErrorName";

/// True for the API functions that take a kernel only to read or set its
/// attributes (cudaFuncGetAttributes, cudaFuncSetAttribute,
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor, their driver twins): they
/// do not launch it.
bool readsKernelAttributesOnly(llvm::StringRef Name);

/// Every row, for tools that print the table.
llvm::ArrayRef<CudaApiInfo> allCudaApis();

/// How a launch API runs a kernel's blocks (CudaApi.def, LAUNCH_API).
enum class LaunchForm : uint8_t {
  Plain,       ///< <<<...>>>, cudaLaunchKernel: blocks run as resources free up
  Cooperative, ///< every block resident at once, or the launch is refused
  Attributes,  ///< cooperative when the launch configuration's attributes say so
};
/// What a launch's grid size is computed from, as the host code shows it.
enum class GridSize : uint8_t {
  Unknown,   ///< a constant, a value passed in as the grid, what the code does not show
  Residency, ///< the occupancy query or the SM count (CudaApi.def, RESIDENCY rows): bounded
  Input,     ///< arithmetic on a value the program reads at run time (n, v.size()): grows with it
};

struct LaunchApiInfo {
  llvm::StringRef Name;
  int KernelArg; ///< the argument naming the kernel, -1 for none
  int GridArg;   ///< the argument giving the grid's size, -1 for none
  LaunchForm Form;
  llvm::StringRef Evidence;
};
/// The launch API \p Name (suffixes as normalizeApiName), or null.
const LaunchApiInfo *lookupLaunchApi(llvm::StringRef Name);
/// How a name that bounds a grid by residency is used (CudaApi.def's
/// RESIDENCY rows): a function called, a structure's field, an enumerator.
enum class ResidencyName : uint8_t { Api, Field, Enumerator };
/// A grid computed from \p Name, used as the row says, is bounded by what
/// the GPU keeps resident (an occupancy query, the SM count).
std::optional<ResidencyName> residencyName(llvm::StringRef Name);
/// The words the host facts carry for a GridSize ("input", ...), and back.
llvm::StringRef gridSizeName(GridSize G);
std::optional<GridSize> gridSizeFromName(llvm::StringRef Name);
/// How a <<<...>>> launch is spelled in messages and facts.
inline constexpr llvm::StringLiteral TripleChevronLaunch = "<<<...>>>";
/// How a kernel node of a CUDA graph is spelled: the node runs the kernel
/// that its parameters' field names (isGraphKernelNodeFunc) each time the
/// graph is launched, not cooperatively unless the node's attribute says so.
inline constexpr llvm::StringLiteral GraphKernelNodeLaunch = "a kernel node of a CUDA graph";
/// Field \p Field of structure \p Record names the kernel a graph's kernel
/// node runs (cudaKernelNodeParams::func, and its V2).
bool isGraphKernelNodeFunc(llvm::StringRef Record, llvm::StringRef Field);
/// An enumerator that asks a launch or a graph's kernel node to be
/// cooperative (cudaLaunchAttributeCooperative, which
/// cudaKernelNodeAttributeCooperative names too; the driver's
/// CU_LAUNCH_ATTRIBUTE_COOPERATIVE).
bool isCooperativeAttribute(llvm::StringRef Enumerator);

llvm::StringRef captureEffectName(CaptureEffect E);

} // namespace cuda_scope

#endif
