// What the CPU engine makes once per executable and reuses on every run.
#ifndef PJRTX_RUNTIME_CPU_PROGRAM_CACHE_H_
#define PJRTX_RUNTIME_CPU_PROGRAM_CACHE_H_

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "compiler_stub/ir/program.h"
#include "runtime/cpu/onednn_dot.h"

namespace pjrtx::cpu {

// Plans made from a program's instructions on first use and kept for the
// life of the executable: today the oneDNN plans of its dot_general
// instructions, whose primitive creation costs far more than a small dot.
// Entries are keyed by instruction address, so one cache serves one program,
// which must outlive it.
//
// Thread-safe: every chip running the executable shares one cache. Plans
// are made under a lock (once per instruction); the plans themselves run
// concurrently.
class ProgramCache {
 public:
  ProgramCache() = default;
  ProgramCache(const ProgramCache&) = delete;
  ProgramCache& operator=(const ProgramCache&) = delete;

  // The plan for dot_general `dot` (OneDnnDot::Create's
  // `round_f32_to_bf16` as given), made on the first call; null when
  // oneDNN does not run this dot and the caller uses the reference kernel.
  const OneDnnDot* DotPlan(const ir::Instruction& dot, bool round_f32_to_bf16);

 private:
  std::mutex mu_;
  // Null plans remember that oneDNN does not run the dot. Guarded by mu_.
  std::map<std::pair<const ir::Instruction*, bool>, std::unique_ptr<OneDnnDot>>
      dots_;
};

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_PROGRAM_CACHE_H_
