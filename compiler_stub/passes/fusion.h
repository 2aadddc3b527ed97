// Elementwise fusion: a target-neutral pass over verified programs.
#ifndef PJRTX_COMPILER_STUB_PASSES_FUSION_H_
#define PJRTX_COMPILER_STUB_PASSES_FUSION_H_

#include "compiler_stub/ir/program.h"

namespace pjrtx::ir {

// True for the ops elementwise fusion groups: unary, binary, compare,
// select, clamp and convert.
bool IsElementwise(OpCode op);

// Replaces groups of elementwise instructions over one shape — unary,
// binary, compare, select, clamp, convert, reading rank-0 broadcasts as
// scalars — by kFusedElementwise instructions, so
// that a target computes each group in one pass over memory instead of
// materializing every intermediate. An op reading values of two open
// groups of its shape merges them. A value used outside its group becomes
// one of the group's results. Groups of a single op are left alone, except
// one computing a result of the entry computation (fused, it writes into
// the caller's output memory) and one reading a rank-0 broadcast (fused,
// the broadcast is never materialized).
// A single-input reduce whose input only it reads takes in that input's
// elementwise computation (kFusedReduce), which then is never
// materialized.
void FuseElementwise(Program& program);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_PASSES_FUSION_H_
