#include "runtime/cpu/program_cache.h"

#include <memory>
#include <mutex>
#include <utility>

namespace pjrtx::cpu {

const OneDnnDot* ProgramCache::DotPlan(const ir::Instruction& dot,
                                       bool round_f32_to_bf16) {
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = dots_.try_emplace({&dot, round_f32_to_bf16});
  if (inserted) {
    absl::StatusOr<std::unique_ptr<OneDnnDot>> plan = OneDnnDot::Create(
        dot.operand_types[0].shape, dot.operand_types[1].shape,
        dot.attributes.dot, dot.result_types[0].shape, round_f32_to_bf16);
    if (plan.ok()) it->second = *std::move(plan);
  }
  return it->second.get();
}

}  // namespace pjrtx::cpu
