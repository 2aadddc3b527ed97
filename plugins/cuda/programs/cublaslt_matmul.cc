#include "plugins/cuda/programs/cublaslt_matmul.h"

#include <cstdint>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/element_type.h"
#include "support/status_macros.h"

namespace cuda_plugin {
namespace {

using pjrtx::ir::ElementType;

// The alignment cuBLASLt's heuristic assumes of every array by default.
constexpr uint64_t kDefaultAlignment = 256;

cudaDataType_t DataType(ElementType type) {
  switch (type) {
    case ElementType::kBF16:
      return CUDA_R_16BF;
    case ElementType::kF8E4M3FN:
      return CUDA_R_8F_E4M3;
    default:
      return CUDA_R_32F;
  }
}

// The heuristic's statuses for a configuration it has nothing for (on
// this GPU, or in this cuBLASLt: an older one may refuse a combination a
// newer one takes as an invalid value), which the PTX kernel then runs.
bool NoAlgorithm(cublasStatus_t status) {
  return status == CUBLAS_STATUS_NOT_SUPPORTED ||
         status == CUBLAS_STATUS_ARCH_MISMATCH ||
         status == CUBLAS_STATUS_INVALID_VALUE;
}

}  // namespace

absl::StatusOr<std::unique_ptr<CublasLtMatmul>> CublasLtMatmul::Prepare(
    const std::vector<CublasLtGpu*>& gpus,
    const pjrtx::ptx::PlannedMatmul& matmul) {
  if (gpus.empty()) return nullptr;
  // cuBLASLt counts batches in an int32.
  if (matmul.batch > std::numeric_limits<int32_t>::max()) return nullptr;
  std::unique_ptr<CublasLtMatmul> prepared(
      new CublasLtMatmul(gpus.front()->blas(), matmul));
  for (CublasLtGpu* gpu : gpus) {
    auto g = std::make_unique<PerGpu>();
    g->gpu = gpu;
    prepared->gpus_.push_back(std::move(g));
    PJRTX_ASSIGN_OR_RETURN(bool found,
                           prepared->PrepareOn(*prepared->gpus_.back()));
    if (!found) return nullptr;
  }
  return prepared;
}

CublasLtMatmul::~CublasLtMatmul() {
  for (const std::unique_ptr<PerGpu>& g : gpus_) {
    if (g->desc != nullptr) blas_.cublasLtMatmulDescDestroy(g->desc);
    for (cublasLtMatrixLayout_t layout : {g->a, g->b, g->d}) {
      if (layout != nullptr) blas_.cublasLtMatrixLayoutDestroy(layout);
    }
  }
}

absl::StatusOr<bool> CublasLtMatmul::PrepareOn(PerGpu& g) {
  const pjrtx::ptx::PlannedMatmul& mm = matmul_;
  PJRTX_ASSIGN_OR_RETURN(CublasLtResources resources, g.gpu->Acquire());
  PJRTX_RETURN_IF_ERROR(g.gpu->gpu().MakeCurrent());
  // Products summed in f32 for every type; alpha and beta are f32 too.
  PJRTX_CUBLASLT_RETURN_IF_ERROR(
      blas_, cublasLtMatmulDescCreate(&g.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const int32_t transa = mm.rhs_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int32_t transb = CUBLAS_OP_N;
  PJRTX_CUBLASLT_RETURN_IF_ERROR(
      blas_, cublasLtMatmulDescSetAttribute(g.desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                            &transa, sizeof(transa)));
  PJRTX_CUBLASLT_RETURN_IF_ERROR(
      blas_, cublasLtMatmulDescSetAttribute(g.desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                            &transb, sizeof(transb)));

  // Column-major: A is the rhs, n x k (k x n stored when transposed); B
  // is the lhs, k x m; D is n x m.
  const uint64_t m = static_cast<uint64_t>(mm.m);
  const uint64_t n = static_cast<uint64_t>(mm.n);
  const uint64_t k = static_cast<uint64_t>(mm.k);
  struct Layout {
    cublasLtMatrixLayout_t* layout;
    ElementType type;
    uint64_t rows, cols;
  };
  const Layout layouts[] = {
      {&g.a, mm.rhs_type, mm.rhs_transposed ? k : n, mm.rhs_transposed ? n : k},
      {&g.b, mm.lhs_type, k, m},
      {&g.d, mm.result_type, n, m},
  };
  for (const Layout& l : layouts) {
    PJRTX_CUBLASLT_RETURN_IF_ERROR(
        blas_,
        cublasLtMatrixLayoutCreate(l.layout, DataType(l.type), l.rows, l.cols,
                                   static_cast<int64_t>(l.rows)));
    if (mm.batch > 1) {
      const int32_t count = static_cast<int32_t>(mm.batch);
      const int64_t stride = static_cast<int64_t>(l.rows * l.cols);
      PJRTX_CUBLASLT_RETURN_IF_ERROR(
          blas_, cublasLtMatrixLayoutSetAttribute(
                     *l.layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                     sizeof(count)));
      PJRTX_CUBLASLT_RETURN_IF_ERROR(
          blas_, cublasLtMatrixLayoutSetAttribute(
                     *l.layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                     &stride, sizeof(stride)));
    }
  }

  // The best algorithm within the GPU's workspace, for arrays of
  // `alignment` bytes; false when there is none.
  auto pick = [&](uint32_t alignment,
                  cublasLtMatmulAlgo_t* algo) -> absl::StatusOr<bool> {
    cublasLtMatmulPreference_t preference = nullptr;
    PJRTX_CUBLASLT_RETURN_IF_ERROR(blas_,
                                   cublasLtMatmulPreferenceCreate(&preference));
    const uint64_t workspace = resources.workspace_bytes;
    cublasStatus_t status = blas_.cublasLtMatmulPreferenceSetAttribute(
        preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
        sizeof(workspace));
    for (cublasLtMatmulPreferenceAttributes_t attribute :
         {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
          CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
          CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
          CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES}) {
      if (status == CUBLAS_STATUS_SUCCESS) {
        status = blas_.cublasLtMatmulPreferenceSetAttribute(
            preference, attribute, &alignment, sizeof(alignment));
      }
    }
    cublasLtMatmulHeuristicResult_t result = {};
    int found = 0;
    if (status == CUBLAS_STATUS_SUCCESS) {
      status = blas_.cublasLtMatmulAlgoGetHeuristic(
          resources.handle, g.desc, g.a, g.b, g.d, g.d, preference, 1, &result,
          &found);
    }
    blas_.cublasLtMatmulPreferenceDestroy(preference);
    if (NoAlgorithm(status)) return false;
    PJRTX_RETURN_IF_ERROR(
        CublasLtStatus(blas_, status, "cublasLtMatmulAlgoGetHeuristic"));
    if (found < 1 || result.state != CUBLAS_STATUS_SUCCESS) return false;
    *algo = result.algo;
    return true;
  };
  PJRTX_ASSIGN_OR_RETURN(bool aligned, pick(kDefaultAlignment, &g.aligned));
  if (!aligned) return false;
  const uint32_t element =
      static_cast<uint32_t>(pjrtx::ir::StorageSize(mm.lhs_type));
  PJRTX_ASSIGN_OR_RETURN(g.has_unaligned, pick(element, &g.unaligned));
  return true;
}

absl::Status CublasLtMatmul::Run(int gpu, CUstream stream, CUdeviceptr lhs,
                                 CUdeviceptr rhs, CUdeviceptr result,
                                 CUdeviceptr scale) {
  PerGpu& g = *gpus_[gpu];
  PJRTX_ASSIGN_OR_RETURN(CublasLtResources resources, g.gpu->Acquire());
  std::lock_guard<std::mutex> lock(g.mu);
  if (scale != g.scale) {
    // The tensor-wide scales of FP8 operands (device pointers to f32).
    const void* pointer = reinterpret_cast<const void*>(scale);
    for (cublasLtMatmulDescAttributes_t attribute :
         {CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
          CUBLASLT_MATMUL_DESC_B_SCALE_POINTER}) {
      PJRTX_CUBLASLT_RETURN_IF_ERROR(
          blas_, cublasLtMatmulDescSetAttribute(g.desc, attribute, &pointer,
                                                sizeof(pointer)));
    }
    g.scale = scale;
  }
  const cublasLtMatmulAlgo_t* algo = &g.aligned;
  if ((lhs | rhs | result) % kDefaultAlignment != 0) {
    if (!g.has_unaligned) {
      return absl::UnimplementedError(absl::StrCat(
          "cuBLASLt has no algorithm for this matmul on arrays not aligned "
          "to ",
          kDefaultAlignment, " bytes"));
    }
    algo = &g.unaligned;
  }
  const float alpha = 1.0f;
  const float beta = 0.0f;
  const void* a = reinterpret_cast<const void*>(rhs);
  const void* b = reinterpret_cast<const void*>(lhs);
  void* d = reinterpret_cast<void*>(result);
  return CublasLtStatus(
      blas_,
      blas_.cublasLtMatmul(resources.handle, g.desc, &alpha, a, g.a, b, g.b,
                           &beta, d, g.d, d, g.d, algo,
                           reinterpret_cast<void*>(resources.workspace),
                           resources.workspace_bytes, stream),
      "cublasLtMatmul");
}

}  // namespace cuda_plugin
