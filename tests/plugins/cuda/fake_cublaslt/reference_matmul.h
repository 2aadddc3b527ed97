// The fake cuBLASLt's arithmetic, on host memory: cuBLASLt's column-major
// D = alpha * (scale_a * op(A)) (scale_b * op(B)) + beta * C, batch by
// batch, every product summed in f32 as CUBLAS_COMPUTE_32F does (the order
// of the sums is the fake's own; a GPU's may differ in the last bits).
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUBLASLT_REFERENCE_MATMUL_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUBLASLT_REFERENCE_MATMUL_H_

#include <cstddef>
#include <cstdint>

namespace fake_cublaslt {

// The element types the fake multiplies.
enum class Element { kF32, kBF16, kF8E4M3 };

size_t ElementBytes(Element type);
float Decode(Element type, const void* base, int64_t index);
// Rounds to nearest even (FP8 would saturate, but is never a result here).
void Encode(Element type, void* base, int64_t index, float value);

// One matrix as a cuBLASLt layout describes it: `rows` x `cols` stored
// column-major with leading dimension `ld`, batches `stride` elements
// apart; `transposed` is the op applied to it (A and B only).
struct Matrix {
  const void* data = nullptr;
  Element type = Element::kF32;
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0;
  int64_t stride = 0;
  bool transposed = false;
};

// Elements from the first to one past the last that `batch` batches of
// `matrix` touch.
uint64_t Extent(const Matrix& matrix, int64_t batch);

// D (m x n, of type `d_type`) for each of `batch` batches; C may alias D.
void Matmul(const Matrix& a, const Matrix& b, const Matrix& c, void* d,
            const Matrix& d_layout, int64_t batch, float alpha, float beta,
            float scale_a, float scale_b);

}  // namespace fake_cublaslt

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUBLASLT_REFERENCE_MATMUL_H_
