// CUDA benchmark: libpjrt_cuda.so through the C ABI, every figure against
// the raw CUDA driver call doing the same work on the same GPU, alternating
// in the same run (docs/benchmarks.md):
//
//   cuda.h2d_*     host->device (BufferFromHostBuffer, awaited until
//                  defined) vs cuMemcpyHtoDAsync + stream sync: from pinned
//                  memory against the same (the plugin copies in place; bar
//                  0.9 at 64 MiB), and from pageable memory (through the
//                  plugin's staging pool) against pinned and pageable;
//   cuda.d2h_*     device->host (ToHostBuffer, awaited) vs
//                  cuMemcpyDtoHAsync + sync, into pinned memory against the
//                  same (bar 0.9 at 64 MiB), and into pageable memory
//                  against pinned and pageable;
//   cuda.d2d_*     on one GPU, a program returning its argument (the plugin
//                  copies it with cuMemcpyDtoDAsync) vs cuMemcpyDtoDAsync;
//                  with two GPUs also CopyToDevice vs cuMemcpyPeerAsync;
//   cuda.chain8_*  the fused 8-op elementwise chain over f32[N], one kernel,
//                  vs a device->device copy of the same 4N bytes: both read
//                  and write 4N bytes, so the ratio is the chain's share of
//                  the GPU's copy bandwidth (bar 0.7);
//   cuda.dispatch  a one-element add executed and awaited vs cuLaunchKernel
//                  of an empty kernel + stream sync;
//   cuda.dot_*     dot_general of n x n matrices (n = 4096; 256 with
//                  --quick), bf16 and (on GPUs of compute capability 9.0
//                  and newer) FP8 E4M3 operands with an f32 result, FP8
//                  with the rhs as [n, k] (Hopper's FP8 layout), vs
//                  cublasLtMatmul of the same product on memory allocated
//                  up front, after a check that both give the same
//                  values. UNSUPPORTED where the plugin or the bench has no
//                  cuBLASLt (the `cuda.cublaslt` attribute says why).
//
//   cuda_bench --plugin=PATH [--option k=v]... [--quick] [--require-gpu]
//              [--only=GROUP[,GROUP]...]
//
// --only runs some groups of pairs: transfers, d2d, peer, chain, dispatch,
// dot (e.g. to profile one with ncu).
//
// Bandwidths: transfers between two memories (h2d, d2h, peer) count the
// bytes once; copies within one GPU's memory count bytes read plus bytes
// written (`rw_GBps`, the convention of CUDA's bandwidthTest). Subjects pay
// what a user pays (a fresh output buffer per call, released afterwards);
// anchors reuse memory allocated up front. `bar=` marks the pairs that the
// GPU results check (docs/gpu-results.md).
//
// Without a usable GPU it prints `SKIP` with the plugin's reason and exits
// 0 (1 with --require-gpu); any failed call makes the exit status 1. Under a
// fake driver the figures mean nothing, but every pair still runs end to end.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#if PJRTX_CUDA_BENCH_WITH_CUBLASLT
#include "plugins/cuda/programs/cublaslt_library.h"
#endif
#include "runtime/client/client.h"
#include "runtime/client/executable.h"
#include "runtime/client/status_from_error.h"
#include "tests/bench/benchmark_client.h"
#include "tests/bench/ratio_benchmark.h"

namespace {

using cuda_plugin::DriverApi;
using pjrtx::bench::CompareAlternating;
using pjrtx::bench::PrintResult;
using pjrtx::bench::RatioResult;
using pjrtx::client::Buffer;
using pjrtx::client::Client;
using pjrtx::client::Device;
using pjrtx::client::Executable;
using pjrtx::client::TakeStatus;

// Entry points only the anchors need, resolved like the plugin's own table
// (pinned versions through cuGetProcAddress_v2) but kept out of it, since
// the plugin allocates from stream-ordered pools instead.
#define PJRTX_CUDA_BENCH_ENTRY_POINTS(X) \
  X(cuMemAlloc, 3020)                    \
  X(cuMemFree, 3020)

struct AnchorApi {
#define PJRTX_CUDA_BENCH_DECLARE_ENTRY(name, version) \
  PFN_##name##_v##version name = nullptr;
  PJRTX_CUDA_BENCH_ENTRY_POINTS(PJRTX_CUDA_BENCH_DECLARE_ENTRY)
#undef PJRTX_CUDA_BENCH_DECLARE_ENTRY
};

// Resolves the anchors' entry points from the driver the plugin loaded (the
// same path, so dlopen returns the same, already initialised, library).
std::optional<AnchorApi> ResolveAnchorApi(const std::string& path,
                                          std::string* error) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    *error = absl::StrCat("cannot load ", path);
    return std::nullopt;
  }
  auto get = reinterpret_cast<PFN_cuGetProcAddress_v12000>(
      dlsym(library, "cuGetProcAddress_v2"));
  if (get == nullptr) {
    *error = absl::StrCat(path, " has no cuGetProcAddress_v2");
    return std::nullopt;
  }
  AnchorApi api;
  auto resolve = [&](const char* symbol, int version, void** fn) {
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
    const CUresult result =
        get(symbol, fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &status);
    if (result == CUDA_SUCCESS && *fn != nullptr &&
        status == CU_GET_PROC_ADDRESS_SUCCESS) {
      return true;
    }
    *error = absl::StrCat("the driver has no ", symbol, " at version ", version,
                          " (", result, ", status ", status, ")");
    return false;
  };
#define PJRTX_CUDA_BENCH_RESOLVE_ENTRY(name, version)                \
  if (!resolve(#name, version, reinterpret_cast<void**>(&api.name))) \
    return std::nullopt;
  PJRTX_CUDA_BENCH_ENTRY_POINTS(PJRTX_CUDA_BENCH_RESOLVE_ENTRY)
#undef PJRTX_CUDA_BENCH_RESOLVE_ENTRY
  return api;
}

bool Check(const DriverApi& api, CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return true;
  std::fprintf(stderr, "error: %s: %s\n", what,
               cuda_plugin::ErrorText(api, result).c_str());
  return false;
}

// One GPU as the anchors drive it: its primary context (the one the plugin
// uses too, as every CUDA user in a process does), a non-blocking stream
// like the plugin's, and the memory the anchors allocate, all released on
// destruction.
class AnchorGpu {
 public:
  AnchorGpu(const DriverApi& api, const AnchorApi& anchor_api, int ordinal)
      : api_(api), anchor_api_(anchor_api), ordinal_(ordinal) {}
  ~AnchorGpu() {
    if (context_ == nullptr) return;
    api_.cuCtxSetCurrent(context_);
    if (stream_ != nullptr) {
      api_.cuStreamSynchronize(stream_);
      api_.cuStreamDestroy(stream_);
    }
    for (CUdeviceptr pointer : device_memory_) anchor_api_.cuMemFree(pointer);
    for (void* pointer : pinned_memory_) api_.cuMemFreeHost(pointer);
    if (module_ != nullptr) api_.cuModuleUnload(module_);
    CUdevice device = 0;
    if (api_.cuDeviceGet(&device, ordinal_) == CUDA_SUCCESS) {
      api_.cuDevicePrimaryCtxRelease(device);
    }
  }
  AnchorGpu(const AnchorGpu&) = delete;
  AnchorGpu& operator=(const AnchorGpu&) = delete;

  bool Open() {
    CUdevice device = 0;
    return Check(api_, api_.cuDeviceGet(&device, ordinal_), "cuDeviceGet") &&
           Check(api_, api_.cuDevicePrimaryCtxRetain(&context_, device),
                 "cuDevicePrimaryCtxRetain") &&
           MakeCurrent() &&
           Check(api_, api_.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING),
                 "cuStreamCreate");
  }

  // The plugin switches the calling thread between its GPUs' contexts, so
  // every anchor call starts by making its own current (a thread-local
  // store in the driver).
  bool MakeCurrent() const {
    return Check(api_, api_.cuCtxSetCurrent(context_), "cuCtxSetCurrent");
  }

  CUdeviceptr AllocDevice(size_t bytes) {
    CUdeviceptr pointer = 0;
    if (!MakeCurrent() ||
        !Check(api_, anchor_api_.cuMemAlloc(&pointer, bytes), "cuMemAlloc")) {
      return 0;
    }
    device_memory_.push_back(pointer);
    return pointer;
  }

  void* AllocPinned(size_t bytes) {
    void* pointer = nullptr;
    if (!MakeCurrent() || !Check(api_, api_.cuMemHostAlloc(&pointer, bytes, 0),
                                 "cuMemHostAlloc")) {
      return nullptr;
    }
    pinned_memory_.push_back(pointer);
    return pointer;
  }

  // Loads hand-written PTX and returns its `name` kernel.
  CUfunction LoadKernel(const char* ptx, const char* name) {
    CUfunction function = nullptr;
    if (!MakeCurrent() ||
        !Check(api_,
               api_.cuModuleLoadDataEx(&module_, ptx, 0, nullptr, nullptr),
               "cuModuleLoadDataEx") ||
        !Check(api_, api_.cuModuleGetFunction(&function, module_, name),
               "cuModuleGetFunction")) {
      return nullptr;
    }
    return function;
  }

  bool Sync() const {
    return Check(api_, api_.cuStreamSynchronize(stream_),
                 "cuStreamSynchronize");
  }

  CUcontext context() const { return context_; }
  CUstream stream() const { return stream_; }

 private:
  const DriverApi& api_;
  const AnchorApi& anchor_api_;
  const int ordinal_;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  CUmodule module_ = nullptr;
  std::vector<CUdeviceptr> device_memory_;
  std::vector<void*> pinned_memory_;
};

// The dispatch anchor: a kernel that does nothing. PTX 7.8 for sm_80 is
// accepted by every driver the plugin accepts (CUDA 12.0 and newer) and is
// compiled for any GPU from sm_80 on.
constexpr char kEmptyKernelPtx[] = R"(.version 7.8
.target sm_80
.address_size 64

.visible .entry pjrtx_bench_empty()
{
  ret;
}
)";

// The plugin side through the raw C ABI, as transfer_bench drives it.
struct PluginContext {
  const PJRTX_Api* api;
  PJRTX_Client* client;
};

bool Ok(const PluginContext& c, PJRTX_Error* error) {
  absl::Status status = TakeStatus(c.api, error);
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\n", status.ToString().c_str());
  }
  return status.ok();
}

bool AwaitAndDestroy(const PluginContext& c, PJRTX_Event* event) {
  PJRTX_CLIENT_ARGS(PJRTX_Event_Await_Args, await);
  await.event = event;
  const bool ok = Ok(c, c.api->Event_Await(&await));
  PJRTX_CLIENT_ARGS(PJRTX_Event_Destroy_Args, destroy);
  destroy.event = event;
  return Ok(c, c.api->Event_Destroy(&destroy)) && ok;
}

void DestroyBuffer(const PluginContext& c, PJRTX_Buffer* buffer) {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_Destroy_Args, destroy);
  destroy.buffer = buffer;
  Ok(c, c.api->Buffer_Destroy(&destroy));
}

bool AwaitReadyAndDestroy(const PluginContext& c, PJRTX_Buffer* buffer) {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_ReadyEvent_Args, ready);
  ready.buffer = buffer;
  const bool ok = Ok(c, c.api->Buffer_ReadyEvent(&ready)) &&
                  AwaitAndDestroy(c, ready.event);
  DestroyBuffer(c, buffer);
  return ok;
}

// A u8 buffer on `device` from `bytes` of host memory, awaited until the
// host memory is released and the buffer is defined.
PJRTX_Buffer* FromHost(const PluginContext& c, const void* data, int64_t bytes,
                       PJRTX_Device* device) {
  PJRTX_CLIENT_ARGS(PJRTX_Client_BufferFromHostBuffer_Args, args);
  args.client = c.client;
  args.data = data;
  args.type = PJRTX_Buffer_Type_U8;
  args.dims = &bytes;
  args.num_dims = 1;
  args.host_buffer_semantics =
      PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes;
  args.device = device;
  if (!Ok(c, c.api->Client_BufferFromHostBuffer(&args))) return nullptr;
  const bool released = AwaitAndDestroy(c, args.done_with_host_buffer);
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_ReadyEvent_Args, ready);
  ready.buffer = args.buffer;
  if (!released || !Ok(c, c.api->Buffer_ReadyEvent(&ready)) ||
      !AwaitAndDestroy(c, ready.event)) {
    DestroyBuffer(c, args.buffer);
    return nullptr;
  }
  return args.buffer;
}

bool ToHost(const PluginContext& c, PJRTX_Buffer* source, void* dst,
            size_t bytes) {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_ToHostBuffer_Args, args);
  args.src = source;
  args.dst = dst;
  args.dst_size = bytes;
  return Ok(c, c.api->Buffer_ToHostBuffer(&args)) &&
         AwaitAndDestroy(c, args.event);
}

// Where a subject's time goes: the Execute call (the caller's share of
// issuing) and the wait for its completion after it returned, summed over
// the runs since the last Reset.
struct RunPhases {
  double execute_seconds = 0;
  double await_seconds = 0;
  int runs = 0;
  void Reset() { *this = RunPhases(); }
  std::string Text() const {
    return runs == 0 ? ""
                     : absl::StrFormat(" execute_us=%.1f await_us=%.1f",
                                       execute_seconds * 1e6 / runs,
                                       await_seconds * 1e6 / runs);
  }
};
RunPhases run_phases;

bool RunOnce(const Executable& executable, const Device& device,
             const std::vector<const Buffer*>& args) {
  const auto start = std::chrono::steady_clock::now();
  auto run = executable.Execute(device, args);
  const auto issued = std::chrono::steady_clock::now();
  if (!run.ok()) {
    std::fprintf(stderr, "error: %s\n", run.status().ToString().c_str());
    return false;
  }
  absl::Status done = run->done.Await();
  const auto finished = std::chrono::steady_clock::now();
  run_phases.execute_seconds +=
      std::chrono::duration<double>(issued - start).count();
  run_phases.await_seconds +=
      std::chrono::duration<double>(finished - issued).count();
  ++run_phases.runs;
  if (!done.ok()) std::fprintf(stderr, "error: %s\n", done.ToString().c_str());
  return done.ok();
}

std::string SizeName(int64_t bytes) {
  if (bytes >= (int64_t{1} << 20)) return absl::StrCat(bytes >> 20, "MiB");
  return absl::StrCat(bytes >> 10, "KiB");
}

double GBps(double bytes, double seconds) { return bytes / seconds / 1e9; }

std::string IdentityProgram(int64_t n) {
  const std::string t = absl::StrCat("tensor<", n, "xf32>");
  return absl::StrCat("func.func @main(%x: ", t, ") -> ", t,
                      " {\n  func.return %x : ", t, "\n}\n");
}

// y = ((((x*a+b)-c)*d) max e) min f + g with scalar constants: eight ops,
// one fused kernel.
constexpr float kChainConstants[] = {1.5f,  0.25f, 0.125f, 0.75f,
                                     -2.0f, 2.0f,  0.5f};

std::string ChainProgram(int64_t n) {
  const std::string t = absl::StrCat("tensor<", n, "xf32>");
  std::string text =
      absl::StrCat("func.func @main(%x: ", t, ") -> ", t, " {\n");
  const char* names[] = {"a", "b", "c", "d", "e", "f", "g"};
  for (int i = 0; i < 7; ++i) {
    absl::StrAppend(&text, "  %", names[i], "0 = stablehlo.constant dense<",
                    absl::StrFormat("%.6f", kChainConstants[i]),
                    "> : tensor<f32>\n  %", names[i],
                    " = stablehlo.broadcast_in_dim %", names[i],
                    "0, dims = [] : (tensor<f32>) -> ", t, "\n");
  }
  absl::StrAppend(&text, "  %1 = stablehlo.multiply %x, %a : ", t, "\n",
                  "  %2 = stablehlo.add %1, %b : ", t, "\n",
                  "  %3 = stablehlo.subtract %2, %c : ", t, "\n",
                  "  %4 = stablehlo.multiply %3, %d : ", t, "\n",
                  "  %5 = stablehlo.maximum %4, %e : ", t, "\n",
                  "  %6 = stablehlo.minimum %5, %f : ", t, "\n",
                  "  %7 = stablehlo.add %6, %g : ", t, "\n",
                  "  func.return %7 : ", t, "\n}\n");
  return text;
}

float ChainReference(float x) {
  const float* k = kChainConstants;
  float y = x * k[0];
  y = y + k[1];
  y = y - k[2];
  y = y * k[3];
  y = std::max(y, k[4]);
  y = std::min(y, k[5]);
  return y + k[6];
}

constexpr char kTinyAdd[] = R"(
func.func @main(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %x, %y : tensor<f32>
  func.return %0 : tensor<f32>
}
)";

#if PJRTX_CUDA_BENCH_WITH_CUBLASLT
// lhs [n, n] · rhs [n, n] -> f32 [n, n]; with `rhs_transposed` the rhs is
// [n (columns of the result), n (contracted)].
std::string DotProgram(int64_t n, const std::string& type,
                       bool rhs_transposed) {
  const std::string operand =
      absl::StrCat("tensor<", n, "x", n, "x", type, ">");
  const std::string result = absl::StrCat("tensor<", n, "x", n, "xf32>");
  return absl::StrCat(
      "func.func @main(%a: ", operand, ", %b: ", operand, ") -> ", result,
      " {\n  %0 = stablehlo.dot_general %a, %b, "
      "contracting_dims = [1] x [",
      rhs_transposed ? 1 : 0, "] : (", operand, ", ", operand, ") -> ", result,
      "\n  func.return %0 : ", result, "\n}\n");
}

// Operands whose products and sums are exact in f32 (0, ±1/4, ±1/2, ±1),
// so that the plugin and the anchor must agree to the bit whatever order
// their kernels sum in: the encodings in bf16 and in FP8 E4M3.
constexpr uint16_t kBf16Values[] = {0x0000, 0x3E80, 0x3F00, 0x3F80,
                                    0xBE80, 0xBF00, 0xBF80};
constexpr uint8_t kFp8Values[] = {0x00, 0x28, 0x30, 0x38, 0xA8, 0xB0, 0xB8};

std::vector<uint8_t> DotOperand(int64_t elements, bool fp8, uint32_t seed) {
  std::vector<uint8_t> bytes(elements * (fp8 ? 1 : 2));
  uint32_t state = seed;
  for (int64_t i = 0; i < elements; ++i) {
    state = state * 1664525u + 1013904223u;
    const uint32_t pick = (state >> 16) % 7;
    if (fp8) {
      bytes[i] = kFp8Values[pick];
    } else {
      std::memcpy(&bytes[2 * i], &kBf16Values[pick], 2);
    }
  }
  return bytes;
}

// The dot anchor: cublasLtMatmul straight on the anchor's stream, with the
// heuristic's first choice and a workspace allocated up front, computing
// what the plugin's dot_general does (row-major C = A B as column-major
// C^T = B^T A^T, operands swapped).
class CublasLtAnchor {
 public:
  CublasLtAnchor(const cuda_plugin::CublasLtApi& blas, AnchorGpu& gpu)
      : blas_(blas), gpu_(gpu) {}
  ~CublasLtAnchor() {
    gpu_.MakeCurrent();
    if (desc_ != nullptr) blas_.cublasLtMatmulDescDestroy(desc_);
    for (cublasLtMatrixLayout_t layout : {a_, b_, d_}) {
      if (layout != nullptr) blas_.cublasLtMatrixLayoutDestroy(layout);
    }
    if (handle_ != nullptr) blas_.cublasLtDestroy(handle_);
  }
  CublasLtAnchor(const CublasLtAnchor&) = delete;
  CublasLtAnchor& operator=(const CublasLtAnchor&) = delete;

  // lhs [n, n] · rhs -> f32 out [n, n], as DotProgram; FP8 operands are
  // scaled by the f32 1.0 at `scale`.
  bool Prepare(int64_t n, bool fp8, CUdeviceptr lhs, CUdeviceptr rhs,
               CUdeviceptr out, CUdeviceptr scale) {
    lhs_ = lhs;
    rhs_ = rhs;
    out_ = out;
    workspace_bytes_ = size_t{32} << 20;
    workspace_ = gpu_.AllocDevice(workspace_bytes_);
    if (workspace_ == 0 || !gpu_.MakeCurrent()) return false;
    const cudaDataType_t type = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
    const int32_t transa = fp8 ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int32_t transb = CUBLAS_OP_N;
    const uint64_t size = static_cast<uint64_t>(n);
    const void* scale_pointer = reinterpret_cast<const void*>(scale);
    if (!Ok(blas_.cublasLtCreate(&handle_), "cublasLtCreate") ||
        !Ok(blas_.cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F,
                                           CUDA_R_32F),
            "cublasLtMatmulDescCreate") ||
        !Ok(blas_.cublasLtMatmulDescSetAttribute(
                desc_, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof(transa)),
            "cublasLtMatmulDescSetAttribute") ||
        !Ok(blas_.cublasLtMatmulDescSetAttribute(
                desc_, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof(transb)),
            "cublasLtMatmulDescSetAttribute") ||
        !Ok(blas_.cublasLtMatrixLayoutCreate(&a_, type, size, size, n),
            "cublasLtMatrixLayoutCreate") ||
        !Ok(blas_.cublasLtMatrixLayoutCreate(&b_, type, size, size, n),
            "cublasLtMatrixLayoutCreate") ||
        !Ok(blas_.cublasLtMatrixLayoutCreate(&d_, CUDA_R_32F, size, size, n),
            "cublasLtMatrixLayoutCreate")) {
      return false;
    }
    if (fp8) {
      for (cublasLtMatmulDescAttributes_t attribute :
           {CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
            CUBLASLT_MATMUL_DESC_B_SCALE_POINTER}) {
        if (!Ok(blas_.cublasLtMatmulDescSetAttribute(
                    desc_, attribute, &scale_pointer, sizeof(scale_pointer)),
                "cublasLtMatmulDescSetAttribute")) {
          return false;
        }
      }
    }
    cublasLtMatmulPreference_t preference = nullptr;
    if (!Ok(blas_.cublasLtMatmulPreferenceCreate(&preference),
            "cublasLtMatmulPreferenceCreate")) {
      return false;
    }
    const uint64_t workspace = workspace_bytes_;
    cublasLtMatmulHeuristicResult_t result = {};
    int found = 0;
    const bool picked =
        Ok(blas_.cublasLtMatmulPreferenceSetAttribute(
               preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
               sizeof(workspace)),
           "cublasLtMatmulPreferenceSetAttribute") &&
        Ok(blas_.cublasLtMatmulAlgoGetHeuristic(handle_, desc_, a_, b_, d_, d_,
                                                preference, 1, &result, &found),
           "cublasLtMatmulAlgoGetHeuristic");
    blas_.cublasLtMatmulPreferenceDestroy(preference);
    if (!picked || found < 1) {
      std::fprintf(stderr, "error: cuBLASLt has no algorithm for the dot\n");
      return false;
    }
    algo_ = result.algo;
    return true;
  }

  // One matmul, then a stream sync.
  bool Run() {
    const float alpha = 1.0f;
    const float beta = 0.0f;
    void* out = reinterpret_cast<void*>(out_);
    return gpu_.MakeCurrent() &&
           Ok(blas_.cublasLtMatmul(
                  handle_, desc_, &alpha, reinterpret_cast<const void*>(rhs_),
                  a_, reinterpret_cast<const void*>(lhs_), b_, &beta, out, d_,
                  out, d_, &algo_, reinterpret_cast<void*>(workspace_),
                  workspace_bytes_, gpu_.stream()),
              "cublasLtMatmul") &&
           gpu_.Sync();
  }

 private:
  bool Ok(cublasStatus_t status, const char* what) const {
    if (status == CUBLAS_STATUS_SUCCESS) return true;
    std::fprintf(
        stderr, "error: %s\n",
        cuda_plugin::CublasLtStatus(blas_, status, what).ToString().c_str());
    return false;
  }

  const cuda_plugin::CublasLtApi& blas_;
  AnchorGpu& gpu_;
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, d_ = nullptr;
  cublasLtMatmulAlgo_t algo_ = {};
  CUdeviceptr lhs_ = 0, rhs_ = 0, out_ = 0, workspace_ = 0;
  size_t workspace_bytes_ = 0;
};
#endif  // PJRTX_CUDA_BENCH_WITH_CUBLASLT

class CudaBench {
 public:
  CudaBench(Client& client, const DriverApi& api, AnchorGpu& gpu0,
            AnchorGpu* gpu1, int compute_major, bool quick,
            std::set<std::string> only)
      : client_(client),
        c_{client.api(), client.handle()},
        api_(api),
        gpu0_(gpu0),
        gpu1_(gpu1),
        only_(std::move(only)),
        quick_(quick),
        trials_(quick ? 5 : 7),
        compute_major_(compute_major) {
    devices_ = client.addressable_devices();
  }

  // Every figure; false if any call failed.
  bool Run() {
    sizes_ = quick_ ? std::vector<int64_t>{4 << 10, 1 << 20}
                    : std::vector<int64_t>{4 << 10, 1 << 20, 64 << 20};
    const int64_t max_bytes = sizes_.back();
    host_.assign(max_bytes, 1);
    sink_.assign(max_bytes, 2);
    pinned_ = static_cast<char*>(gpu0_.AllocPinned(max_bytes));
    pinned_sink_ = static_cast<char*>(gpu0_.AllocPinned(max_bytes));
    src_ = gpu0_.AllocDevice(max_bytes);
    dst_ = gpu0_.AllocDevice(max_bytes);
    if (pinned_ == nullptr || pinned_sink_ == nullptr || src_ == 0 ||
        dst_ == 0) {
      return false;
    }
    std::memset(pinned_, 1, max_bytes);
    if (Runs("transfers")) {
      for (int64_t bytes : sizes_) Transfers(bytes);
    }
    if (Runs("d2d")) {
      for (int64_t bytes : sizes_) DeviceToDevice(bytes);
    }
    if (!Runs("peer")) {
    } else if (gpu1_ != nullptr && devices_.size() > 1) {
      peer_dst_ = gpu1_->AllocDevice(max_bytes);
      if (peer_dst_ == 0) return false;
      for (int64_t bytes : sizes_) Peer(bytes);
    } else {
      std::printf("SKIP cuda.d2d_peer: needs two GPUs\n");
    }
    if (Runs("chain")) Chain(quick_ ? int64_t{1} << 14 : int64_t{64} << 20);
    if (Runs("dispatch")) Dispatch();
    if (Runs("dot")) {
      Dot("bf16", false);
      Dot("fp8", true);
    }
    return !failed_;
  }

  static constexpr const char* kGroups[] = {"transfers", "d2d",      "peer",
                                            "chain",     "dispatch", "dot"};

 private:
  bool Runs(const std::string& group) const {
    return only_.empty() || only_.count(group) > 0;
  }

  int Iterations(int64_t bytes) const {
    const int64_t wanted = (int64_t{256} << 20) / bytes;
    return static_cast<int>(quick_ ? std::clamp<int64_t>(wanted, 2, 10)
                                   : std::clamp<int64_t>(wanted, 4, 500));
  }

  // Runs one pair and reports whether any call in it failed.
  RatioResult Compare(const std::string& name,
                      const std::function<bool()>& subject,
                      const std::function<bool()>& anchor, int iterations) {
    bool failed = false;
    RatioResult r =
        CompareAlternating(subject, anchor, iterations, trials_, &failed);
    if (failed) {
      std::fprintf(stderr, "error: a call failed in %s\n", name.c_str());
      failed_ = true;
    }
    return r;
  }

  // The raw copy anchors: one async copy on the anchor's stream, then a
  // stream sync, the cheapest way to copy and know it is done.
  std::function<bool()> RawHtoD(const void* from, int64_t bytes) {
    return [this, from, bytes] {
      return gpu0_.MakeCurrent() &&
             Check(api_,
                   api_.cuMemcpyHtoDAsync(dst_, from, bytes, gpu0_.stream()),
                   "cuMemcpyHtoDAsync") &&
             gpu0_.Sync();
    };
  }
  std::function<bool()> RawDtoH(void* to, int64_t bytes) {
    return [this, to, bytes] {
      return gpu0_.MakeCurrent() &&
             Check(api_,
                   api_.cuMemcpyDtoHAsync(to, src_, bytes, gpu0_.stream()),
                   "cuMemcpyDtoHAsync") &&
             gpu0_.Sync();
    };
  }
  std::function<bool()> RawDtoD(CUdeviceptr to, CUdeviceptr from,
                                int64_t bytes) {
    return [this, to, from, bytes] {
      return gpu0_.MakeCurrent() &&
             Check(api_,
                   api_.cuMemcpyDtoDAsync(to, from, bytes, gpu0_.stream()),
                   "cuMemcpyDtoDAsync") &&
             gpu0_.Sync();
    };
  }

  void Transfers(int64_t bytes) {
    const std::string size = SizeName(bytes);
    const int iterations = Iterations(bytes);
    // The bars hold where the copy, not the fixed cost of an operation,
    // dominates.
    const std::string bar = bytes >= (int64_t{64} << 20) ? " bar=0.9" : "";
    auto report = [&](const std::string& name, const RatioResult& r,
                      const std::string& extra) {
      PrintResult(name, r,
                  absl::StrFormat("GBps=%.2f raw_GBps=%.2f us=%.2f%s",
                                  GBps(bytes, r.subject_seconds),
                                  GBps(bytes, r.anchor_seconds),
                                  r.subject_seconds * 1e6, extra));
    };
    PJRTX_Device* device = devices_[0].handle();
    auto h2d = [&] {
      PJRTX_Buffer* b = FromHost(c_, host_.data(), bytes, device);
      if (b != nullptr) DestroyBuffer(c_, b);
      return b != nullptr;
    };
    auto h2d_pinned = [&] {
      PJRTX_Buffer* b = FromHost(c_, pinned_, bytes, device);
      if (b != nullptr) DestroyBuffer(c_, b);
      return b != nullptr;
    };
    report(
        absl::StrCat("cuda.h2d_pinned_vs_raw_pinned.", size),
        Compare("h2d_pinned", h2d_pinned, RawHtoD(pinned_, bytes), iterations),
        bar);
    report(absl::StrCat("cuda.h2d_pageable_vs_raw_pinned.", size),
           Compare("h2d", h2d, RawHtoD(pinned_, bytes), iterations), "");
    report(absl::StrCat("cuda.h2d_pageable_vs_raw_pageable.", size),
           Compare("h2d", h2d, RawHtoD(host_.data(), bytes), iterations), "");

    PJRTX_Buffer* source = FromHost(c_, host_.data(), bytes, device);
    if (source == nullptr) {
      failed_ = true;
      return;
    }
    auto d2h_pinned = [&] { return ToHost(c_, source, pinned_sink_, bytes); };
    report(absl::StrCat("cuda.d2h_pinned_vs_raw_pinned.", size),
           Compare("d2h_pinned", d2h_pinned, RawDtoH(pinned_sink_, bytes),
                   iterations),
           bar);
    auto d2h = [&] { return ToHost(c_, source, sink_.data(), bytes); };
    report(absl::StrCat("cuda.d2h_pageable_vs_raw_pinned.", size),
           Compare("d2h", d2h, RawDtoH(pinned_, bytes), iterations), "");
    report(absl::StrCat("cuda.d2h_pageable_vs_raw_pageable.", size),
           Compare("d2h", d2h, RawDtoH(sink_.data(), bytes), iterations), "");
    DestroyBuffer(c_, source);
  }

  // A program returning its argument: the plugin copies the argument into
  // the fresh output with cuMemcpyDtoDAsync on the GPU's compute stream.
  void DeviceToDevice(int64_t bytes) {
    const int64_t n = bytes / 4;
    auto program = Executable::Compile(client_, IdentityProgram(n));
    auto x = client_.BufferFromHost(host_.data(), PJRTX_Buffer_Type_F32, {n},
                                    devices_[0]);
    if (!program.ok() || !x.ok()) {
      std::fprintf(stderr, "error: d2d setup: %s %s\n",
                   program.status().ToString().c_str(),
                   x.status().ToString().c_str());
      failed_ = true;
      return;
    }
    run_phases.Reset();
    RatioResult r = Compare(
        "d2d", [&] { return RunOnce(*program, devices_[0], {&*x}); },
        RawDtoD(dst_, src_, bytes), Iterations(bytes));
    PrintResult(absl::StrCat("cuda.d2d_program_vs_raw.", SizeName(bytes)), r,
                absl::StrFormat("rw_GBps=%.2f raw_rw_GBps=%.2f us=%.2f%s",
                                GBps(2.0 * bytes, r.subject_seconds),
                                GBps(2.0 * bytes, r.anchor_seconds),
                                r.subject_seconds * 1e6, run_phases.Text()));
  }

  // GPU 0 -> GPU 1: CopyToDevice (a fresh buffer on GPU 1, awaited) against
  // cuMemcpyPeerAsync between the same GPUs.
  void Peer(int64_t bytes) {
    PJRTX_Buffer* source =
        FromHost(c_, host_.data(), bytes, devices_[0].handle());
    if (source == nullptr) {
      failed_ = true;
      return;
    }
    auto subject = [&] {
      PJRTX_CLIENT_ARGS(PJRTX_Buffer_CopyToDevice_Args, args);
      args.buffer = source;
      args.dst_device = devices_[1].handle();
      return Ok(c_, c_.api->Buffer_CopyToDevice(&args)) &&
             AwaitReadyAndDestroy(c_, args.dst_buffer);
    };
    auto anchor = [&] {
      return gpu0_.MakeCurrent() &&
             Check(
                 api_,
                 api_.cuMemcpyPeerAsync(peer_dst_, gpu1_->context(), src_,
                                        gpu0_.context(), bytes, gpu0_.stream()),
                 "cuMemcpyPeerAsync") &&
             gpu0_.Sync();
    };
    RatioResult r = Compare("d2d_peer", subject, anchor, Iterations(bytes));
    PrintResult(absl::StrCat("cuda.d2d_peer_vs_raw.", SizeName(bytes)), r,
                absl::StrFormat("GBps=%.2f raw_GBps=%.2f us=%.2f",
                                GBps(bytes, r.subject_seconds),
                                GBps(bytes, r.anchor_seconds),
                                r.subject_seconds * 1e6));
    DestroyBuffer(c_, source);
  }

  // The fused chain over f32[n], checked against the host once, then timed
  // against a device->device copy of the same bytes.
  void Chain(int64_t n) {
    const int64_t bytes = n * 4;
    std::vector<float> input(n);
    for (int64_t i = 0; i < n; ++i) {
      // Spans both clamps and the range between them.
      input[i] = static_cast<float>(i % 1000 - 500) / 250.0f;
    }
    auto program = Executable::Compile(client_, ChainProgram(n));
    auto x = client_.BufferFromHost(input.data(), PJRTX_Buffer_Type_F32, {n},
                                    devices_[0]);
    const CUdeviceptr from = gpu0_.AllocDevice(bytes);
    const CUdeviceptr to = gpu0_.AllocDevice(bytes);
    if (!program.ok() || !x.ok() || from == 0 || to == 0) {
      std::fprintf(stderr, "error: chain setup: %s %s\n",
                   program.status().ToString().c_str(),
                   x.status().ToString().c_str());
      failed_ = true;
      return;
    }
    if (!CheckChain(*program, *x, input)) {
      failed_ = true;
      return;
    }
    run_phases.Reset();
    RatioResult r = Compare(
        "chain8", [&] { return RunOnce(*program, devices_[0], {&*x}); },
        RawDtoD(to, from, bytes), quick_ ? 2 : 3);
    PrintResult(
        absl::StrCat("cuda.chain8_vs_d2d.", SizeName(bytes)), r,
        absl::StrFormat("rw_GBps=%.2f d2d_rw_GBps=%.2f ms=%.3f%s bar=0.7",
                        GBps(2.0 * bytes, r.subject_seconds),
                        GBps(2.0 * bytes, r.anchor_seconds),
                        r.subject_seconds * 1e3, run_phases.Text()));
  }

  bool CheckChain(const Executable& program, const Buffer& x,
                  const std::vector<float>& input) {
    auto run = program.Execute(devices_[0], {&x});
    if (!run.ok() || !run->done.Await().ok() || run->outputs.size() != 1) {
      std::fprintf(stderr, "error: the chain did not run\n");
      return false;
    }
    auto out = run->outputs[0].ToHostSync();
    if (!out.ok() || out->size() != input.size() * sizeof(float)) {
      std::fprintf(stderr, "error: reading the chain's result back\n");
      return false;
    }
    const float* y = reinterpret_cast<const float*>(out->data());
    for (size_t i = 0; i < input.size(); ++i) {
      const float want = ChainReference(input[i]);
      // Contracting x*a+b into one FMA may change the last bit.
      if (!(std::fabs(y[i] - want) <=
            1e-5f * std::max(1.0f, std::fabs(want)))) {
        std::fprintf(stderr, "error: chain[%zu] = %.9g, expected %.9g\n", i,
                     y[i], want);
        return false;
      }
    }
    return true;
  }

  void Dispatch() {
    auto tiny = Executable::Compile(client_, kTinyAdd);
    const float one = 1.0f;
    auto a =
        client_.BufferFromHost(&one, PJRTX_Buffer_Type_F32, {}, devices_[0]);
    auto b =
        client_.BufferFromHost(&one, PJRTX_Buffer_Type_F32, {}, devices_[0]);
    const CUfunction empty =
        gpu0_.LoadKernel(kEmptyKernelPtx, "pjrtx_bench_empty");
    if (!tiny.ok() || !a.ok() || !b.ok() || empty == nullptr) {
      std::fprintf(stderr, "error: dispatch setup: %s\n",
                   tiny.status().ToString().c_str());
      failed_ = true;
      return;
    }
    auto launch = [&] {
      return gpu0_.MakeCurrent() &&
             Check(api_,
                   api_.cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0,
                                       gpu0_.stream(), nullptr, nullptr),
                   "cuLaunchKernel") &&
             gpu0_.Sync();
    };
    run_phases.Reset();
    RatioResult r = Compare(
        "dispatch",
        [&] {
          return RunOnce(*tiny, devices_[0], {&*a, &*b});
        },
        launch, quick_ ? 20 : 2000);
    PrintResult(
        "cuda.dispatch_vs_launch", r,
        absl::StrFormat("us=%.2f raw_us=%.2f%s", r.subject_seconds * 1e6,
                        r.anchor_seconds * 1e6, run_phases.Text()));
  }

  // The plugin's dot_general against cublasLtMatmul (see the top).
  void Dot(const char* name, bool fp8) {
    const std::optional<std::string> plugin_cublaslt =
        client_.library().StringAttribute("cuda.cublaslt");
    if (fp8 && compute_major_ < 9) {
      std::printf(
          "SKIP cuda.dot_%s: FP8 matmuls need compute capability 9.0 "
          "or newer\n",
          name);
      return;
    }
#if PJRTX_CUDA_BENCH_WITH_CUBLASLT
    const cuda_plugin::CublasLtLibrary& cublaslt = cuda_plugin::LoadCublasLt();
    if (cublaslt.api == nullptr ||
        (plugin_cublaslt && plugin_cublaslt->rfind("unavailable", 0) == 0)) {
      std::printf(
          "UNSUPPORTED cuda.dot_%s: no cuBLASLt (plugin: %s; bench: "
          "%s)\n",
          name, plugin_cublaslt ? plugin_cublaslt->c_str() : "?",
          cublaslt.api != nullptr ? "loaded"
                                  : cublaslt.unavailable_reason.c_str());
      return;
    }
    const std::string type = fp8 ? "f8E4M3FN" : "bf16";
    const int64_t n = quick_ ? 256 : 4096;
    const int64_t elements = n * n;
    const int64_t operand_bytes = elements * (fp8 ? 1 : 2);
    const int64_t out_bytes = elements * 4;
    const std::vector<uint8_t> lhs = DotOperand(elements, fp8, 1);
    const std::vector<uint8_t> rhs = DotOperand(elements, fp8, 2);
    const PJRTX_Buffer_Type buffer_type =
        fp8 ? PJRTX_Buffer_Type_F8E4M3FN : PJRTX_Buffer_Type_BF16;
    auto program = Executable::Compile(client_, DotProgram(n, type, fp8));
    auto a =
        client_.BufferFromHost(lhs.data(), buffer_type, {n, n}, devices_[0]);
    auto b =
        client_.BufferFromHost(rhs.data(), buffer_type, {n, n}, devices_[0]);
    const CUdeviceptr lhs_raw = gpu0_.AllocDevice(operand_bytes);
    const CUdeviceptr rhs_raw = gpu0_.AllocDevice(operand_bytes);
    const CUdeviceptr out_raw = gpu0_.AllocDevice(out_bytes);
    const CUdeviceptr scale = gpu0_.AllocDevice(sizeof(float));
    const float one = 1.0f;
    CublasLtAnchor anchor(*cublaslt.api, gpu0_);
    if (!program.ok() || !a.ok() || !b.ok() || lhs_raw == 0 || rhs_raw == 0 ||
        out_raw == 0 || scale == 0 || !gpu0_.MakeCurrent() ||
        !Check(api_,
               api_.cuMemcpyHtoDAsync(lhs_raw, lhs.data(), operand_bytes,
                                      gpu0_.stream()),
               "cuMemcpyHtoDAsync") ||
        !Check(api_,
               api_.cuMemcpyHtoDAsync(rhs_raw, rhs.data(), operand_bytes,
                                      gpu0_.stream()),
               "cuMemcpyHtoDAsync") ||
        !Check(api_,
               api_.cuMemcpyHtoDAsync(scale, &one, sizeof(one), gpu0_.stream()),
               "cuMemcpyHtoDAsync") ||
        !gpu0_.Sync() ||
        !anchor.Prepare(n, fp8, lhs_raw, rhs_raw, out_raw, scale)) {
      std::fprintf(stderr, "error: dot_%s setup: %s %s %s\n", name,
                   program.status().ToString().c_str(),
                   a.status().ToString().c_str(),
                   b.status().ToString().c_str());
      failed_ = true;
      return;
    }
    if (!CheckDot(name, *program, *a, *b, anchor, out_raw, elements)) {
      failed_ = true;
      return;
    }
    const double flops = 2.0 * n * n * n;
    run_phases.Reset();
    RatioResult r = Compare(
        absl::StrCat("dot_", name),
        [&] {
          return RunOnce(*program, devices_[0], {&*a, &*b});
        },
        [&] { return anchor.Run(); }, quick_ ? 1 : 10);
    PrintResult(absl::StrCat("cuda.dot_", name, "_vs_cublaslt.", n), r,
                absl::StrFormat("TFLOPS=%.1f raw_TFLOPS=%.1f ms=%.3f%s bar=0.9",
                                flops / r.subject_seconds / 1e12,
                                flops / r.anchor_seconds / 1e12,
                                r.subject_seconds * 1e3, run_phases.Text()));
#else
    std::printf(
        "UNSUPPORTED cuda.dot_%s: the bench was built without "
        "cuBLASLt's header (plugin: %s)\n",
        name, plugin_cublaslt ? plugin_cublaslt->c_str() : "?");
#endif
  }

#if PJRTX_CUDA_BENCH_WITH_CUBLASLT
  // Both sides once, read back: the same values (exact here, see
  // DotOperand), or the ratio would compare different work.
  bool CheckDot(const char* name, const Executable& program, const Buffer& a,
                const Buffer& b, CublasLtAnchor& anchor, CUdeviceptr out_raw,
                int64_t elements) {
    auto run = program.Execute(devices_[0], {&a, &b});
    if (!run.ok() || !run->done.Await().ok() || run->outputs.size() != 1) {
      std::fprintf(stderr, "error: dot_%s did not run\n", name);
      return false;
    }
    auto out = run->outputs[0].ToHostSync();
    std::vector<float> raw(elements);
    if (!out.ok() || out->size() != raw.size() * sizeof(float) ||
        !anchor.Run() || !gpu0_.MakeCurrent() ||
        !Check(
            api_,
            api_.cuMemcpyDtoHAsync(raw.data(), out_raw,
                                   raw.size() * sizeof(float), gpu0_.stream()),
            "cuMemcpyDtoHAsync") ||
        !gpu0_.Sync()) {
      std::fprintf(stderr, "error: reading dot_%s's results back\n", name);
      return false;
    }
    const float* got = reinterpret_cast<const float*>(out->data());
    for (int64_t i = 0; i < elements; ++i) {
      if (!(std::fabs(got[i] - raw[i]) <= 1e-3f)) {
        std::fprintf(stderr,
                     "error: dot_%s[%lld] = %.9g, cublasLtMatmul gave %.9g\n",
                     name, static_cast<long long>(i), got[i], raw[i]);
        return false;
      }
    }
    return true;
  }
#endif

  Client& client_;
  const PluginContext c_;
  const DriverApi& api_;
  AnchorGpu& gpu0_;
  AnchorGpu* gpu1_;
  const std::set<std::string> only_;  // Empty: every group.
  const bool quick_;
  const int trials_;
  const int compute_major_;
  std::vector<Device> devices_;
  std::vector<int64_t> sizes_;
  bool failed_ = false;
  // Pageable host memory (source and sink), pinned host memory, and device
  // memory for the anchors, all sized for the largest transfer.
  std::vector<char> host_;
  std::vector<char> sink_;
  char* pinned_ = nullptr;
  char* pinned_sink_ = nullptr;
  CUdeviceptr src_ = 0;
  CUdeviceptr dst_ = 0;
  CUdeviceptr peer_dst_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  // --require-gpu: no usable GPU is a failure, not a skip, for runs that
  // exist to measure (the fake-driver smoke test, tests/gpu/run.sh).
  bool require_gpu = false;
  std::set<std::string> only;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--require-gpu") == 0) {
      require_gpu = true;
    } else if (i > 0 && std::strncmp(argv[i], "--only=", 7) == 0) {
      for (absl::string_view group : absl::StrSplit(argv[i] + 7, ',')) {
        if (std::find(std::begin(CudaBench::kGroups),
                      std::end(CudaBench::kGroups),
                      group) == std::end(CudaBench::kGroups)) {
          std::fprintf(stderr,
                       "cuda_bench: unknown group '%s' in --only; expected "
                       "some of %s\n",
                       std::string(group).c_str(),
                       absl::StrJoin(CudaBench::kGroups, ",").c_str());
          return 2;
        }
        only.insert(std::string(group));
      }
    } else {
      args.push_back(argv[i]);
    }
  }
  int exit_code = 0;
  auto setup = pjrtx::bench::OpenBenchmarkClient(static_cast<int>(args.size()),
                                                 args.data(), {}, &exit_code);
  if (!setup) return exit_code;
  Client& client = *setup->client;
  const std::vector<Device> devices = client.addressable_devices();
  if (devices.empty()) {
    const std::optional<std::string> reason =
        client.library().StringAttribute("pjrtx.unavailable_reason");
    std::printf("%s cuda_bench: no usable GPU: %s\n",
                require_gpu ? "FAIL" : "SKIP",
                reason ? reason->c_str() : "the plugin reports no device");
    return require_gpu ? 1 : 0;
  }

  // The anchors call the same driver the plugin loaded, through the same
  // discovery code, so both sides see the same GPUs in the same order.
  const cuda_plugin::Discovery& found = cuda_plugin::Discover();
  std::string error;
  std::optional<AnchorApi> anchor_api;
  if (found.api != nullptr && !found.gpus.empty()) {
    anchor_api = ResolveAnchorApi(found.driver_path, &error);
  } else {
    error = found.unavailable_reason;
  }
  if (!anchor_api) {
    std::fprintf(stderr,
                 "error: the plugin has %zu GPUs but the anchors cannot use "
                 "the driver: %s\n",
                 devices.size(), error.c_str());
    return 1;
  }
  std::printf(
      "cuda_bench: %s %s, %s; %zu GPU(s): %s (driver %s, CUDA %d.%d)"
      "; ratio = raw driver time / plugin time, one thread each\n",
      client.platform_name().c_str(), client.platform_version().c_str(),
      setup->quick ? "quick" : "full", devices.size(),
      devices[0].kind().c_str(), found.driver_path.c_str(),
      found.driver_version / 1000, found.driver_version % 1000 / 10);
  std::fflush(stdout);

  AnchorGpu gpu0(*found.api, *anchor_api, found.gpus[0].ordinal);
  std::unique_ptr<AnchorGpu> gpu1;
  bool ok = gpu0.Open();
  if (ok && devices.size() > 1 && found.gpus.size() > 1) {
    gpu1 = std::make_unique<AnchorGpu>(*found.api, *anchor_api,
                                       found.gpus[1].ordinal);
    ok = gpu1->Open();
  }
  if (ok) {
    CudaBench bench(client, *found.api, gpu0, gpu1.get(),
                    found.gpus[0].compute_major, setup->quick, std::move(only));
    ok = bench.Run();
  }
  if (!ok) {
    std::fprintf(stderr, "error: a call failed during the benchmark\n");
    return 1;
  }
  return 0;
}
