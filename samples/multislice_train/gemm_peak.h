// The machine's matrix-multiply peak, measured with oneDNN: the
// denominator of model FLOPs utilization (MFU).
#ifndef PJRTX_SAMPLES_MULTISLICE_TRAIN_GEMM_PEAK_H_
#define PJRTX_SAMPLES_MULTISLICE_TRAIN_GEMM_PEAK_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace multislice {

struct GemmPeak {
  double flops_per_second = 0;
  int64_t n = 0;               // Square matrices n x n.
  std::string type;            // "bf16" or "f32": the operands' type.
  std::string implementation;  // oneDNN's kernel, e.g. "brg:avx512_core_amx".
  // Why `type` was measured, e.g. that oneDNN has no bf16 kernel here.
  std::string reason;
};

// Best of `repeats` products of n x n matrices, accumulated in f32, on
// oneDNN's default threads (every core of the machine), in the type this
// CPU runs fast: bf16 where oneDNN has an optimized bf16 kernel (AVX-512
// and AMX machines), f32 otherwise (oneDNN 2.6 has no bf16 matmul for
// AVX2-only CPUs). An error only when neither can be measured; no
// exception leaves it.
absl::StatusOr<GemmPeak> MeasureGemmPeak(int64_t n = 2048, int repeats = 8);

}  // namespace multislice

#endif  // PJRTX_SAMPLES_MULTISLICE_TRAIN_GEMM_PEAK_H_
