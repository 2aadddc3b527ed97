// What the processor lets the CPU engine use: the one place in the engine
// that asks (a test fails on any other feature query in the tree).
//
// The engine's vector loops come in three widths, chosen at run time:
//   avx512   AVX-512 F/DQ: 16 f32 lanes (x86-64-v4 CPUs)
//   avx2     AVX2 with FMA: 8 lanes (every x86-64 CPU since 2013-2015)
//   baseline SSE2: 4 lanes (any x86-64 CPU)
// The widest one the CPU has is used unless PJRTX_CPU_MAX_ISA caps it
// (`avx512`, `avx2` or `baseline`), so that the narrower paths can be run
// and tested on any machine. The cap also reaches oneDNN (the engine's
// matrix library) unless DNNL_MAX_CPU_ISA, oneDNN's own setting, is set:
// `avx2` limits it to AVX2, `baseline` to SSE4.1, its lowest.
//
// Thread-safe; the setting is read once per process.
#ifndef PJRTX_RUNTIME_CPU_CPU_FEATURES_H_
#define PJRTX_RUNTIME_CPU_CPU_FEATURES_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace pjrtx::cpu {

// Ordered: a wider ISA compares greater.
enum class CpuIsa { kBaseline = 0, kAvx2 = 1, kAvx512 = 2 };

// "baseline", "avx2" or "avx512".
absl::string_view CpuIsaName(CpuIsa isa);

// The ISA a setting names; an error naming the value and the accepted ones.
absl::StatusOr<CpuIsa> ParseCpuIsa(absl::string_view name);

struct CpuFeatures {
  // The widest vector ISA the engine's loops use: the detected one, capped
  // by PJRTX_CPU_MAX_ISA.
  CpuIsa isa = CpuIsa::kBaseline;
  // The widest one the processor has.
  CpuIsa detected = CpuIsa::kBaseline;
  // Why `isa` is what it is, for logs and benchmark headers, e.g.
  // "avx2 (PJRTX_CPU_MAX_ISA=avx2; the CPU has avx512)".
  std::string description;
  // Whether oneDNN's int8 matmul is exact here: it needs VNNI (AVX512-VNNI
  // or AVX-VNNI, which AMX implies) within oneDNN's own ISA limit. Without
  // it oneDNN multiplies with vpmaddubsw, whose 16-bit pair sums saturate.
  bool exact_int8_matmul = false;
  // An error when PJRTX_CPU_MAX_ISA holds an unknown value (the engine then
  // uses the detected ISA); plugins report it at client creation.
  absl::Status setting_error;
};

// The features of this process's CPU under this process's settings,
// detected on the first call. That call also applies the cap to oneDNN,
// which it only accepts before its first primitive: the engine calls this
// before making one.
const CpuFeatures& HostCpuFeatures();

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_CPU_FEATURES_H_
