// Inlining calls of straight-line functions: a target-neutral pass over
// verified programs.
#ifndef PJRTX_COMPILER_STUB_PASSES_CALL_INLINING_H_
#define PJRTX_COMPILER_STUB_PASSES_CALL_INLINING_H_

#include "compiler_stub/ir/program.h"

namespace pjrtx::ir {

// Replaces each call of a function whose body is straight-line code (no
// regions, no calls of its own once its callees are inlined) by a copy of
// that body. JAX outlines small helpers into private functions
// (jax.nn.relu, custom_jvp rules, jnp wrappers); called, each is an opaque
// step that elementwise fusion cannot see through, and its own constants
// and broadcasts are materialized on every call. Calls whose callee returns
// a parameter or one value twice stay calls, as do calls of larger bodies
// (kMaxInlinedInstructions in the source). Callees stay in the program.
void InlineStraightLineCalls(Program& program);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_PASSES_CALL_INLINING_H_
