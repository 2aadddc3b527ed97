// dot_general on oneDNN's matmul: the CPU's own matrix unit (AVX-512 for
// f32; AMX for bf16 and int8 where the CPU has it, AVX-512 or AVX2 where
// it does not, chosen by oneDNN at plan time).
#ifndef PJRTX_RUNTIME_CPU_ONEDNN_DOT_H_
#define PJRTX_RUNTIME_CPU_ONEDNN_DOT_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler_stub/ir/op_attributes.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// A dot_general made once into one (batched) oneDNN matmul
// [B, M, K] x [B, K, N] -> [B, M, N]: batching dims -> B, lhs free dims
// -> M, contracting dims -> K, rhs free dims -> N, which is exactly the
// row-major result of dot_general. An operand whose groups are each laid
// out so that a single stride walks them (plain or transposed matrices,
// leading or interleaved batch dims, ...) is read in place through memory
// strides: transposes cost nothing. Otherwise, or when oneDNN has only its
// reference implementation for those strides, the operand is first
// reordered (one oneDNN copy-transpose pass) into plain scratch memory.
//
// Types: f32 x f32 -> f32 (exact f32, or one bf16 pass, see Create);
// bf16 x bf16 -> bf16 or f32; s8 x s8 -> s32. Products accumulate in f32
// (s32 for s8).
//
// Thread-safe: Run may be called concurrently, e.g. by chips running the
// same executable. The primitives are immutable once made, and each Run has
// its own oneDNN stream and scratch memory (the primitives use scratchpads
// Run provides: oneDNN's own scratchpad would tie a primitive to the
// thread that created it).
class OneDnnDot {
 public:
  // Plans `lhs` . `rhs` -> `result` under `dims`. `round_f32_to_bf16`: an
  // f32 x f32 dot rounds its operands to bf16 and accumulates in f32 (one
  // bf16 pass, InterpreterOptions::bf16_f32_dots). UnimplementedError for
  // other types, or dims oneDNN cannot describe: the caller then uses the
  // reference DotGeneral.
  static absl::StatusOr<std::unique_ptr<OneDnnDot>> Create(
      const Shape& lhs, const Shape& rhs, const ir::DotDimensions& dims,
      const Shape& result, bool round_f32_to_bf16);

  ~OneDnnDot();
  OneDnnDot(const OneDnnDot&) = delete;
  OneDnnDot& operator=(const OneDnnDot&) = delete;

  // Computes the result into `out` (dense row-major, fully overwritten) from
  // dense row-major operands of the shapes given to Create.
  absl::Status Run(const void* lhs, const void* rhs, void* out) const;

  // oneDNN's name for the matmul implementation it chose (for example
  // "brg:avx512_core_amx_bf16"); empty when the result is empty or K is 0
  // and no matmul runs.
  std::string implementation() const;
  // Whether Run copies the operand before the matmul (a reorder pass).
  bool copies_lhs() const;
  bool copies_rhs() const;

 private:
  struct Plan;
  explicit OneDnnDot(std::unique_ptr<const Plan> plan);

  std::unique_ptr<const Plan> plan_;
};

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_ONEDNN_DOT_H_
