// A bound on the work of one run of a program, in element operations, for
// deciding whether a run is worth handing to a worker thread.
#ifndef PJRTX_RUNTIME_CPU_PROGRAM_COST_H_
#define PJRTX_RUNTIME_CPU_PROGRAM_COST_H_

#include <cstdint>
#include <optional>

#include "compiler_stub/ir/program.h"

namespace pjrtx::cpu {

// The element operations one run of `program` performs at most (a result
// element, a multiply-add of a dot, one element through a region, ...),
// counted through calls, regions and the longest branch; nullopt when it
// has no bound the program states: loops, collectives, send/recv.
std::optional<int64_t> WorkBound(const ir::Program& program);

// A run of at most this many element operations takes a few microseconds
// on the interpreter, less than a hand-off to a worker thread and back.
inline constexpr int64_t kQuickProgramWork = 1 << 14;

inline bool IsQuickProgram(const ir::Program& program) {
  std::optional<int64_t> work = WorkBound(program);
  return work.has_value() && *work <= kQuickProgramWork;
}

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_PROGRAM_COST_H_
