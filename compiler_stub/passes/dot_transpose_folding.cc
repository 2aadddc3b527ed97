#include "compiler_stub/passes/dot_transpose_folding.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace pjrtx::ir {
namespace {

// Whether `transpose` (of `dot`'s result) swaps the dot's two free result
// dimensions and nothing else.
bool SwapsFreeDimensions(const Instruction& dot, const Instruction& transpose) {
  if (dot.operand_types.size() != 2 || dot.result_types.size() != 1 ||
      dot.operand_types[0].kind != ValueType::Kind::kTensor ||
      dot.operand_types[1].kind != ValueType::Kind::kTensor) {
    return false;
  }
  const DotDimensions& dims = dot.attributes.dot;
  const int64_t batch = static_cast<int64_t>(dims.lhs_batching.size());
  const int64_t lhs_free = dot.operand_types[0].shape.rank() - batch -
                           static_cast<int64_t>(dims.lhs_contracting.size());
  const int64_t rhs_free = dot.operand_types[1].shape.rank() - batch -
                           static_cast<int64_t>(dims.rhs_contracting.size());
  if (lhs_free != 1 || rhs_free != 1) return false;
  const std::vector<int64_t>& permutation = transpose.attributes.dims;
  if (static_cast<int64_t>(permutation.size()) != batch + 2) return false;
  for (int64_t d = 0; d < batch; ++d) {
    if (permutation[d] != d) return false;
  }
  return permutation[batch] == batch + 1 && permutation[batch + 1] == batch;
}

void FoldIn(Program& program, Computation& computation) {
  std::vector<Instruction>& instructions = computation.instructions;
  std::map<int, int> uses;
  for (const Instruction& inst : instructions) {
    for (int operand : inst.operands) ++uses[operand];
    for (int region : inst.regions) {
      for (int captured : program.computations[region].captures) {
        ++uses[captured];
      }
    }
  }
  for (int result : computation.results) ++uses[result];

  std::map<int, size_t> defined_by;
  std::vector<bool> folded(instructions.size(), false);
  bool any = false;
  for (size_t i = 0; i < instructions.size(); ++i) {
    Instruction& transpose = instructions[i];
    if (transpose.opcode == OpCode::kTranspose &&
        transpose.operands.size() == 1) {
      auto def = defined_by.find(transpose.operands[0]);
      if (def != defined_by.end() && uses[transpose.operands[0]] == 1) {
        Instruction& dot = instructions[def->second];
        if (dot.opcode == OpCode::kDotGeneral &&
            SwapsFreeDimensions(dot, transpose)) {
          Instruction swapped = std::move(dot);
          std::swap(swapped.operands[0], swapped.operands[1]);
          std::swap(swapped.operand_types[0], swapped.operand_types[1]);
          DotDimensions& dims = swapped.attributes.dot;
          std::swap(dims.lhs_batching, dims.rhs_batching);
          std::swap(dims.lhs_contracting, dims.rhs_contracting);
          swapped.results = transpose.results;
          swapped.result_types = transpose.result_types;
          folded[def->second] = true;
          transpose = std::move(swapped);
          any = true;
        }
      }
    }
    for (int result : instructions[i].results) defined_by[result] = i;
  }
  if (!any) return;
  std::vector<Instruction> kept;
  kept.reserve(instructions.size());
  for (size_t i = 0; i < instructions.size(); ++i) {
    if (!folded[i]) kept.push_back(std::move(instructions[i]));
  }
  instructions = std::move(kept);
}

}  // namespace

void FoldTransposesIntoDots(Program& program) {
  for (Computation& computation : program.computations) {
    FoldIn(program, computation);
  }
}

}  // namespace pjrtx::ir
