// The machine's bf16 matrix-multiply peak, measured with oneDNN: the
// denominator of model FLOPs utilization (MFU).
#ifndef PJRTX_SAMPLES_MULTISLICE_TRAIN_GEMM_PEAK_H_
#define PJRTX_SAMPLES_MULTISLICE_TRAIN_GEMM_PEAK_H_

#include <cstdint>
#include <string>

namespace multislice {

struct GemmPeak {
  double flops_per_second = 0;
  int64_t n = 0;               // Square matrices n x n.
  std::string implementation;  // oneDNN's kernel, e.g. "brg:avx512_core_amx".
};

// Best of `repeats` bf16 x bf16 -> f32 products of n x n matrices, on
// oneDNN's default threads (every core of the machine).
GemmPeak MeasureBf16GemmPeak(int64_t n = 2048, int repeats = 8);

}  // namespace multislice

#endif  // PJRTX_SAMPLES_MULTISLICE_TRAIN_GEMM_PEAK_H_
