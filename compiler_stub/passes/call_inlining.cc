#include "compiler_stub/passes/call_inlining.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace pjrtx::ir {
namespace {

// Bodies longer than this stay calls: each call site would get a copy.
constexpr size_t kMaxInlinedInstructions = 256;
// Each round inlines the functions that became straight-line in the one
// before; deeper call chains keep their outer calls.
constexpr int kMaxRounds = 8;

bool IsStraightLine(const Computation& c) {
  if (c.instructions.size() > kMaxInlinedInstructions || !c.captures.empty()) {
    return false;
  }
  for (const Instruction& inst : c.instructions) {
    if (!inst.regions.empty() || inst.opcode == OpCode::kCall) return false;
  }
  // Each result takes the name of the call's result, so it must be defined
  // by an instruction of the body, once.
  const std::set<int> parameters(c.parameters.begin(), c.parameters.end());
  std::set<int> returned;
  for (int r : c.results) {
    if (parameters.count(r) > 0 || !returned.insert(r).second) return false;
  }
  return true;
}

// Replaces the calls of straight-line functions in `caller` by copies of
// their bodies; returns whether any was.
bool InlineInto(Program& program, int caller) {
  std::vector<Instruction> rewritten;
  bool changed = false;
  Computation& c = program.computations[caller];
  for (Instruction& inst : c.instructions) {
    const int callee_index = inst.attributes.callee;
    if (inst.opcode != OpCode::kCall || callee_index == caller ||
        callee_index < 0 ||
        callee_index >= static_cast<int>(program.computations.size())) {
      rewritten.push_back(std::move(inst));
      continue;
    }
    const Computation& callee = program.computations[callee_index];
    if (!IsStraightLine(callee) ||
        callee.parameters.size() != inst.operands.size() ||
        callee.results.size() != inst.results.size()) {
      rewritten.push_back(std::move(inst));
      continue;
    }
    // Callee value -> caller value: parameters are the call's operands,
    // results the call's results, everything else a fresh value.
    std::map<int, int> value_of;
    for (size_t i = 0; i < callee.parameters.size(); ++i) {
      value_of[callee.parameters[i]] = inst.operands[i];
    }
    for (size_t i = 0; i < callee.results.size(); ++i) {
      value_of[callee.results[i]] = inst.results[i];
    }
    for (const Instruction& body_inst : callee.instructions) {
      Instruction copy = body_inst;
      for (int& operand : copy.operands) operand = value_of.at(operand);
      for (int& result : copy.results) {
        auto [it, fresh] = value_of.try_emplace(result, c.num_values);
        if (fresh) ++c.num_values;
        result = it->second;
      }
      rewritten.push_back(std::move(copy));
    }
    changed = true;
  }
  c.instructions = std::move(rewritten);
  return changed;
}

}  // namespace

void InlineStraightLineCalls(Program& program) {
  for (int round = 0; round < kMaxRounds; ++round) {
    bool changed = false;
    for (size_t i = 0; i < program.computations.size(); ++i) {
      changed |= InlineInto(program, static_cast<int>(i));
    }
    if (!changed) return;
  }
}

}  // namespace pjrtx::ir
