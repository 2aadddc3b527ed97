// What every PTX module the compiler stub writes agrees on: the targets it
// knows and the ISA version each needs, kernel names, and how elements are
// loaded and stored.
#ifndef PJRTX_COMPILER_STUB_PTX_PTX_TARGET_H_
#define PJRTX_COMPILER_STUB_PTX_PTX_TARGET_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/ir/element_type.h"

namespace pjrtx::ptx {

struct PtxTarget {
  // The compute capability as major * 10 + minor: 80 for sm_80. Known:
  // 75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121.
  int sm = 80;
};

// 7.8 (CUDA 11.8) is the oldest version that knows sm_90; using it as the
// floor for every target keeps the modules of one program alike.
inline constexpr int kMinimumIsa = 78;

// The oldest PTX ISA version (in tenths) that knows `target`;
// INVALID_ARGUMENT for a target the emitters do not know.
absl::StatusOr<int> TargetIsa(const PtxTarget& target);

// INVALID_ARGUMENT unless `name` is a PTX identifier.
absl::Status CheckKernelName(absl::string_view name);

// A valid PTX identifier made from `name`, for kernels named after what
// they compute: every character other than a letter, a digit or '_'
// becomes '_', and a leading digit (or nothing) gets a '_' in front.
std::string Identifier(absl::string_view name);

// The ld/st type of an element in memory: narrower integers load extended
// to their 32-bit register, i1 as a byte, f16/bf16 as raw 16 bits.
std::string MemoryType(ir::ElementType type);

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_PTX_TARGET_H_
