// A functional stand-in for libcublasLt.so, for testing the CUDA plugin's
// matmuls without GPUs (tests load it through PJRTX_CUBLASLT_PATH). It runs
// on the tests' fake libcuda (fake_cuda/), which it finds as the plugin
// does (PJRTX_CUDA_DRIVER_PATH) and drives through that driver's private
// entry points (fake_cuda/private_api.h).
//
// What it emulates: handles; matmul descriptors (compute type, scale type,
// transposes, the A and B scale pointers of FP8), matrix layouts (type,
// rows, columns, leading dimension, strided batches) and preferences
// (workspace limit, minimum alignments), kept in cuBLASLt's own opaque
// structs and checked on every use; a heuristic that offers one algorithm
// for the combinations cuBLASLt runs with CUBLAS_COMPUTE_32F and f32
// scales (A and B f32, bf16 or FP8 E4M3 alike; D f32, or bf16 for bf16 and
// FP8 inputs; FP8 only as "TN", A transposed and B not, as on Hopper) and
// CUBLAS_STATUS_NOT_SUPPORTED for anything else; cublasLtMatmul, which
// checks its arguments at the call and computes on the caller's stream, in
// stream order, on the host in f32 (reference_matmul.h) through the fake
// driver's view of device memory (an array outside live memory is a device
// fault, logged as the fake driver logs its own). The algorithm asks for
// a workspace of 1 MiB, which the call must pass and which must be live.
//
// What it does not: other entry points are not exported; epilogues,
// other compute and data types, pointer mode device, matrix orders other
// than column-major; the compute capability of the GPU is not checked.
//
// Private entry point, for the tests: fakeCublasLtMatmulCount(), the
// matmuls queued so far in the process.
//
// The environment, read at the first call that needs it:
//   FAKE_CUBLASLT_FAIL=name[,name...]  Those entry points (e.g.
//       cublasLtMatmul) fail at once: cublasLtMatmul with
//       CUBLAS_STATUS_EXECUTION_FAILED, the others with
//       CUBLAS_STATUS_INTERNAL_ERROR.
//   FAKE_CUBLASLT_NO_ALGORITHM=1       The heuristic has no algorithm for
//       anything (CUBLAS_STATUS_NOT_SUPPORTED, no results).
#include <cublasLt.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

#include "tests/plugins/cuda/fake_cublaslt/reference_matmul.h"
#include "tests/plugins/cuda/fake_driver_link/driver_link.h"

// What cublasLtHandle_t points to.
struct cublasLtContext {
  uint32_t magic;
};

namespace fake_cublaslt {
namespace {

// Marks each kind of live object, so that a destroyed or never created
// one is refused (INVALID_VALUE) instead of used.
constexpr uint32_t kHandleMagic = 0xC0B1A570;
constexpr uint32_t kDescMagic = 0xC0B1DE5C;
constexpr uint32_t kLayoutMagic = 0xC0B11A70;
constexpr uint32_t kPreferenceMagic = 0xC0B1F4EF;
constexpr uint32_t kAlgoMagic = 0xC0B1A160;
constexpr uint32_t kDead = 0xDEADDEAD;

// The workspace the one algorithm asks for.
constexpr uint64_t kAlgoWorkspace = uint64_t{1} << 20;

struct Desc {
  uint32_t magic = kDescMagic;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  cudaDataType_t scale = CUDA_R_32F;
  int32_t transa = CUBLAS_OP_N;
  int32_t transb = CUBLAS_OP_N;
  uint64_t a_scale = 0;  // Device pointers to f32; 0 means 1.0.
  uint64_t b_scale = 0;
};

struct Layout {
  uint32_t magic = kLayoutMagic;
  cudaDataType_t type = CUDA_R_32F;
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0;
  int32_t batch = 1;
  int64_t stride = 0;
};

struct Preference {
  uint32_t magic = kPreferenceMagic;
  uint64_t max_workspace = 0;
};

struct Algo {
  uint32_t magic = kAlgoMagic;
  uint64_t workspace = kAlgoWorkspace;
};

static_assert(sizeof(Desc) <= sizeof(cublasLtMatmulDescOpaque_t));
static_assert(sizeof(Layout) <= sizeof(cublasLtMatrixLayoutOpaque_t));
static_assert(sizeof(Preference) <= sizeof(cublasLtMatmulPreferenceOpaque_t));
static_assert(sizeof(Algo) <= sizeof(cublasLtMatmulAlgo_t));

// The fake's state lives in cuBLASLt's opaque structs, copied in and out.
template <typename T, typename Opaque>
bool Read(const Opaque* opaque, uint32_t magic, T* value) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (opaque == nullptr) return false;
  std::memcpy(value, opaque->data, sizeof(T));
  return value->magic == magic;
}

template <typename T, typename Opaque>
void Write(Opaque* opaque, const T& value) {
  std::memcpy(opaque->data, &value, sizeof(T));
}

template <typename Opaque>
void Kill(Opaque* opaque) {
  const uint32_t dead = kDead;
  std::memcpy(opaque->data, &dead, sizeof(dead));
}

// cublasLt*Create: a new opaque object holding `value`.
template <typename Opaque, typename T>
cublasStatus_t Create(Opaque** opaque, const T& value) {
  if (opaque == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *opaque = new Opaque{};
  Write(*opaque, value);
  return CUBLAS_STATUS_SUCCESS;
}

// cublasLt*SetAttribute: `set` changes a copy of the live object's value
// from `buffer` (or says why not), and the copy is stored back.
template <typename T, typename Opaque, typename Set>
cublasStatus_t SetAttribute(Opaque* opaque, uint32_t magic, const void* buffer,
                            Set set) {
  T value;
  if (!Read(opaque, magic, &value) || buffer == nullptr) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  const cublasStatus_t status = set(value);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  Write(opaque, value);
  return CUBLAS_STATUS_SUCCESS;
}

// cublasLt*Destroy: marked dead first, so that a use after the destroy is
// refused rather than read from freed memory that still looks alive.
template <typename T, typename Opaque>
cublasStatus_t Destroy(Opaque* opaque, uint32_t magic) {
  T value;
  if (!Read(opaque, magic, &value)) return CUBLAS_STATUS_INVALID_VALUE;
  Kill(opaque);
  delete opaque;
  return CUBLAS_STATUS_SUCCESS;
}

struct Config {
  std::set<std::string> fail;
  bool no_algorithm = false;
};

Config ReadConfig() {
  Config config;
  if (const char* text = std::getenv("FAKE_CUBLASLT_FAIL"); text != nullptr) {
    std::string_view rest(text);
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      if (std::string_view name = rest.substr(0, comma); !name.empty()) {
        config.fail.emplace(name);
      }
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  const char* none = std::getenv("FAKE_CUBLASLT_NO_ALGORITHM");
  config.no_algorithm =
      none != nullptr && *none != '\0' && std::string_view(none) != "0";
  return config;
}

const Config& GetConfig() {
  static const Config* config = new Config(ReadConfig());
  return *config;
}

bool Injected(const char* call) { return GetConfig().fail.count(call) != 0; }

std::atomic<int64_t> matmuls{0};

bool ElementOf(cudaDataType_t type, Element* element) {
  switch (type) {
    case CUDA_R_32F:
      *element = Element::kF32;
      return true;
    case CUDA_R_16BF:
      *element = Element::kBF16;
      return true;
    case CUDA_R_8F_E4M3:
      *element = Element::kF8E4M3;
      return true;
    default:
      return false;
  }
}

// Whether cuBLASLt has kernels for the descriptors (see the top).
cublasStatus_t Supported(const Desc& desc, const Layout& a, const Layout& b,
                         const Layout& c, const Layout& d) {
  if (desc.compute != CUBLAS_COMPUTE_32F || desc.scale != CUDA_R_32F ||
      a.type != b.type || c.type != d.type) {
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  switch (a.type) {
    case CUDA_R_32F:
      if (d.type != CUDA_R_32F) return CUBLAS_STATUS_NOT_SUPPORTED;
      break;
    case CUDA_R_16BF:
      if (d.type != CUDA_R_32F && d.type != CUDA_R_16BF) {
        return CUBLAS_STATUS_NOT_SUPPORTED;
      }
      break;
    case CUDA_R_8F_E4M3:
      if ((d.type != CUDA_R_32F && d.type != CUDA_R_16BF) ||
          desc.transa != CUBLAS_OP_T || desc.transb != CUBLAS_OP_N) {
        return CUBLAS_STATUS_NOT_SUPPORTED;
      }
      break;
    default:
      return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  if (desc.a_scale != 0 || desc.b_scale != 0) {
    if (a.type != CUDA_R_8F_E4M3) return CUBLAS_STATUS_INVALID_VALUE;
  }
  // op(A) is m x k, op(B) k x n, C and D m x n.
  const uint64_t m = desc.transa == CUBLAS_OP_N ? a.rows : a.cols;
  const uint64_t k = desc.transa == CUBLAS_OP_N ? a.cols : a.rows;
  const uint64_t kb = desc.transb == CUBLAS_OP_N ? b.rows : b.cols;
  const uint64_t n = desc.transb == CUBLAS_OP_N ? b.cols : b.rows;
  if (k != kb || d.rows != m || d.cols != n || c.rows != m || c.cols != n ||
      a.batch != d.batch || b.batch != d.batch || c.batch != d.batch) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  for (const Layout* layout : {&a, &b, &c, &d}) {
    if (layout->ld < static_cast<int64_t>(layout->rows) || layout->ld < 1) {
      return CUBLAS_STATUS_INVALID_VALUE;
    }
  }
  return CUBLAS_STATUS_SUCCESS;
}

Matrix MatrixOf(const Layout& layout, const void* data, bool transposed) {
  Matrix matrix;
  matrix.data = data;
  ElementOf(layout.type, &matrix.type);
  matrix.rows = layout.rows;
  matrix.cols = layout.cols;
  matrix.ld = layout.ld;
  matrix.stride = layout.stride;
  matrix.transposed = transposed;
  return matrix;
}

// One matmul queued on a stream; pointers are device addresses.
struct Work {
  Desc desc;
  Layout a, b, c, d;
  uint64_t a_data = 0, b_data = 0, c_data = 0, d_data = 0;
  uint64_t workspace = 0, workspace_bytes = 0;
  float alpha = 1, beta = 0;
};

void Fault(const char* what, uint64_t address, uint64_t bytes) {
  std::fprintf(stderr,
               "fake_cublaslt: device fault in cublasLtMatmul: %s "
               "[0x%llx, +%llu) is not live memory\n",
               what, static_cast<unsigned long long>(address),
               static_cast<unsigned long long>(bytes));
}

void RunWork(void* data, CUresult stream_error) {
  std::unique_ptr<Work> work(static_cast<Work*>(data));
  // As on a GPU, nothing runs on a failed stream.
  if (stream_error != CUDA_SUCCESS) return;
  const fake_driver_link::DriverLink* driver = fake_driver_link::Driver();
  auto view = [&](const char* what, uint64_t address, uint64_t bytes,
                  bool write) -> void* {
    void* host = nullptr;
    if (bytes == 0) bytes = 1;
    if (driver->translate(address, bytes, write ? 1 : 0, &host) !=
        CUDA_SUCCESS) {
      Fault(what, address, bytes);
      return nullptr;
    }
    return host;
  };
  const int64_t batch = work->d.batch;
  Matrix a = MatrixOf(work->a, nullptr, work->desc.transa != CUBLAS_OP_N);
  Matrix b = MatrixOf(work->b, nullptr, work->desc.transb != CUBLAS_OP_N);
  Matrix c = MatrixOf(work->c, nullptr, false);
  Matrix d = MatrixOf(work->d, nullptr, false);
  a.data =
      view("A", work->a_data, Extent(a, batch) * ElementBytes(a.type), false);
  b.data =
      view("B", work->b_data, Extent(b, batch) * ElementBytes(b.type), false);
  // With beta 0, C is not read (it may be anything, as on a GPU).
  if (work->beta != 0.0f) {
    c.data =
        view("C", work->c_data, Extent(c, batch) * ElementBytes(c.type), false);
    if (c.data == nullptr) return;
  }
  void* d_data =
      view("D", work->d_data, Extent(d, batch) * ElementBytes(d.type), true);
  if (work->workspace_bytes > 0 &&
      view("the workspace", work->workspace, work->workspace_bytes, true) ==
          nullptr) {
    return;
  }
  float scales[2] = {1.0f, 1.0f};
  const uint64_t scale_pointers[2] = {work->desc.a_scale, work->desc.b_scale};
  for (int i = 0; i < 2; ++i) {
    if (scale_pointers[i] == 0) continue;
    const void* scale = view(i == 0 ? "the A scale" : "the B scale",
                             scale_pointers[i], sizeof(float), false);
    if (scale == nullptr) return;
    std::memcpy(&scales[i], scale, sizeof(float));
  }
  if (a.data == nullptr || b.data == nullptr || d_data == nullptr) return;
  Matmul(a, b, c, d_data, d, batch, work->alpha, work->beta, scales[0],
         scales[1]);
}

}  // namespace
}  // namespace fake_cublaslt

using fake_cublaslt::Desc;
using fake_cublaslt::Layout;
using fake_cublaslt::Preference;

extern "C" int64_t fakeCublasLtMatmulCount() {
  return fake_cublaslt::matmuls.load();
}

const char* cublasLtGetStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS:
      return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "CUBLAS_STATUS_NOT_SUPPORTED";
    default:
      return "CUBLAS_STATUS_UNKNOWN";
  }
}

const char* cublasLtGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS:
      return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "an absent device architectural feature is required";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "the functionality requested is not supported";
    default:
      return "unknown error";
  }
}

size_t cublasLtGetVersion() { return CUBLAS_VERSION; }

cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle) {
  if (fake_cublaslt::Injected("cublasLtCreate")) {
    return CUBLAS_STATUS_INTERNAL_ERROR;
  }
  if (handle == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  // As cuBLASLt's own runtime does, it needs the driver from the start.
  if (fake_driver_link::Driver() == nullptr) {
    std::fprintf(stderr, "fake_cublaslt: %s\n",
                 fake_driver_link::LinkError().c_str());
    return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  *handle = new cublasLtContext{fake_cublaslt::kHandleMagic};
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  if (handle == nullptr || handle->magic != fake_cublaslt::kHandleMagic) {
    return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  handle->magic = fake_cublaslt::kDead;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* desc,
                                        cublasComputeType_t compute,
                                        cudaDataType_t scale) {
  Desc value;
  value.compute = compute;
  value.scale = scale;
  return fake_cublaslt::Create(desc, value);
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  return fake_cublaslt::Destroy<Desc>(desc, fake_cublaslt::kDescMagic);
}

cublasStatus_t cublasLtMatmulDescSetAttribute(
    cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attribute,
    const void* buffer, size_t size) {
  return fake_cublaslt::SetAttribute<Desc>(
      desc, fake_cublaslt::kDescMagic, buffer, [&](Desc& value) {
        auto set = [&](auto* field) {
          if (size != sizeof(*field)) return false;
          std::memcpy(field, buffer, size);
          return true;
        };
        bool ok = false;
        switch (attribute) {
          case CUBLASLT_MATMUL_DESC_TRANSA:
            ok = set(&value.transa);
            break;
          case CUBLASLT_MATMUL_DESC_TRANSB:
            ok = set(&value.transb);
            break;
          case CUBLASLT_MATMUL_DESC_A_SCALE_POINTER:
            ok = size == sizeof(void*) && set(&value.a_scale);
            break;
          case CUBLASLT_MATMUL_DESC_B_SCALE_POINTER:
            ok = size == sizeof(void*) && set(&value.b_scale);
            break;
          default:
            return CUBLAS_STATUS_NOT_SUPPORTED;
        }
        return ok ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
      });
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* layout,
                                          cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  fake_cublaslt::Element element;
  if (!fake_cublaslt::ElementOf(type, &element)) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  Layout value;
  value.type = type;
  value.rows = rows;
  value.cols = cols;
  value.ld = ld;
  return fake_cublaslt::Create(layout, value);
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  return fake_cublaslt::Destroy<Layout>(layout, fake_cublaslt::kLayoutMagic);
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(
    cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attribute,
    const void* buffer, size_t size) {
  return fake_cublaslt::SetAttribute<Layout>(
      layout, fake_cublaslt::kLayoutMagic, buffer, [&](Layout& value) {
        switch (attribute) {
          case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT:
            if (size != sizeof(value.batch)) return CUBLAS_STATUS_INVALID_VALUE;
            std::memcpy(&value.batch, buffer, size);
            if (value.batch < 1) return CUBLAS_STATUS_INVALID_VALUE;
            return CUBLAS_STATUS_SUCCESS;
          case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET:
            if (size != sizeof(value.stride)) {
              return CUBLAS_STATUS_INVALID_VALUE;
            }
            std::memcpy(&value.stride, buffer, size);
            return CUBLAS_STATUS_SUCCESS;
          default:
            return CUBLAS_STATUS_NOT_SUPPORTED;
        }
      });
}

cublasStatus_t cublasLtMatmulPreferenceCreate(
    cublasLtMatmulPreference_t* preference) {
  return fake_cublaslt::Create(preference, Preference{});
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(
    cublasLtMatmulPreference_t preference) {
  return fake_cublaslt::Destroy<Preference>(preference,
                                            fake_cublaslt::kPreferenceMagic);
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(
    cublasLtMatmulPreference_t preference,
    cublasLtMatmulPreferenceAttributes_t attribute, const void* buffer,
    size_t size) {
  return fake_cublaslt::SetAttribute<Preference>(
      preference, fake_cublaslt::kPreferenceMagic, buffer,
      [&](Preference& value) {
        switch (attribute) {
          case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES:
            if (size != sizeof(uint64_t)) return CUBLAS_STATUS_INVALID_VALUE;
            std::memcpy(&value.max_workspace, buffer, size);
            return CUBLAS_STATUS_SUCCESS;
          case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES:
          case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES:
          case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES:
          case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES:
            // The fake's one algorithm takes any alignment.
            return size == sizeof(uint32_t) ? CUBLAS_STATUS_SUCCESS
                                            : CUBLAS_STATUS_INVALID_VALUE;
          default:
            return CUBLAS_STATUS_NOT_SUPPORTED;
        }
      });
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
    cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
    cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
    cublasLtMatmulPreference_t preference, int requested,
    cublasLtMatmulHeuristicResult_t results[], int* returned) {
  using fake_cublaslt::Read;
  if (fake_cublaslt::Injected("cublasLtMatmulAlgoGetHeuristic")) {
    return CUBLAS_STATUS_INTERNAL_ERROR;
  }
  if (handle == nullptr || handle->magic != fake_cublaslt::kHandleMagic) {
    return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  Desc desc_value;
  Layout layouts[4];
  Preference preference_value;
  if (!Read(desc, fake_cublaslt::kDescMagic, &desc_value) ||
      !Read(a, fake_cublaslt::kLayoutMagic, &layouts[0]) ||
      !Read(b, fake_cublaslt::kLayoutMagic, &layouts[1]) ||
      !Read(c, fake_cublaslt::kLayoutMagic, &layouts[2]) ||
      !Read(d, fake_cublaslt::kLayoutMagic, &layouts[3]) ||
      !Read(preference, fake_cublaslt::kPreferenceMagic, &preference_value) ||
      requested < 1 || results == nullptr || returned == nullptr) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  *returned = 0;
  if (fake_cublaslt::GetConfig().no_algorithm ||
      preference_value.max_workspace < fake_cublaslt::kAlgoWorkspace) {
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  if (cublasStatus_t supported = fake_cublaslt::Supported(
          desc_value, layouts[0], layouts[1], layouts[2], layouts[3]);
      supported != CUBLAS_STATUS_SUCCESS) {
    return supported;
  }
  results[0] = {};
  fake_cublaslt::Algo algo;
  std::memcpy(results[0].algo.data, &algo, sizeof(algo));
  results[0].workspaceSize = fake_cublaslt::kAlgoWorkspace;
  results[0].state = CUBLAS_STATUS_SUCCESS;
  results[0].wavesCount = 1.0f;
  *returned = 1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle,
                              cublasLtMatmulDesc_t desc, const void* alpha,
                              const void* a, cublasLtMatrixLayout_t a_desc,
                              const void* b, cublasLtMatrixLayout_t b_desc,
                              const void* beta, const void* c,
                              cublasLtMatrixLayout_t c_desc, void* d,
                              cublasLtMatrixLayout_t d_desc,
                              const cublasLtMatmulAlgo_t* algo, void* workspace,
                              size_t workspace_bytes, cudaStream_t stream) {
  using fake_cublaslt::Read;
  if (fake_cublaslt::Injected("cublasLtMatmul")) {
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  if (handle == nullptr || handle->magic != fake_cublaslt::kHandleMagic) {
    return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  auto work = std::make_unique<fake_cublaslt::Work>();
  fake_cublaslt::Algo algo_value;
  if (!Read(desc, fake_cublaslt::kDescMagic, &work->desc) ||
      !Read(a_desc, fake_cublaslt::kLayoutMagic, &work->a) ||
      !Read(b_desc, fake_cublaslt::kLayoutMagic, &work->b) ||
      !Read(c_desc, fake_cublaslt::kLayoutMagic, &work->c) ||
      !Read(d_desc, fake_cublaslt::kLayoutMagic, &work->d) || algo == nullptr ||
      alpha == nullptr || beta == nullptr) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  // An algorithm from the heuristic, and the workspace it asked for.
  std::memcpy(&algo_value, algo->data, sizeof(algo_value));
  if (algo_value.magic != fake_cublaslt::kAlgoMagic ||
      workspace_bytes < algo_value.workspace || workspace == nullptr) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  if (cublasStatus_t supported = fake_cublaslt::Supported(
          work->desc, work->a, work->b, work->c, work->d);
      supported != CUBLAS_STATUS_SUCCESS) {
    return supported;
  }
  const fake_driver_link::DriverLink* driver = fake_driver_link::Driver();
  if (driver == nullptr) {
    std::fprintf(stderr, "fake_cublaslt: %s\n",
                 fake_driver_link::LinkError().c_str());
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  // Pointer mode host: alpha and beta are read now.
  std::memcpy(&work->alpha, alpha, sizeof(float));
  std::memcpy(&work->beta, beta, sizeof(float));
  work->a_data = reinterpret_cast<uint64_t>(a);
  work->b_data = reinterpret_cast<uint64_t>(b);
  work->c_data = reinterpret_cast<uint64_t>(c);
  work->d_data = reinterpret_cast<uint64_t>(d);
  work->workspace = reinterpret_cast<uint64_t>(workspace);
  work->workspace_bytes = workspace_bytes;
  if (driver->enqueue_host_work(stream, fake_cublaslt::RunWork, work.get()) !=
      CUDA_SUCCESS) {
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  work.release();  // RunWork owns it now.
  fake_cublaslt::matmuls.fetch_add(1);
  return CUBLAS_STATUS_SUCCESS;
}
