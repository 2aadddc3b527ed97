#include "runtime/cpu/program_cost.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pjrtx::cpu {
namespace {

using ir::OpCode;

// Saturates instead of overflowing: a bound past this is simply "large".
constexpr int64_t kLarge = std::numeric_limits<int64_t>::max() / 4;

int64_t Saturate(double value) {
  return value >= static_cast<double>(kLarge) ? kLarge
                                              : static_cast<int64_t>(value);
}

int64_t Elements(const ir::ValueType& type) {
  if (type.kind == ir::ValueType::Kind::kTensor) {
    return type.shape.num_elements();
  }
  int64_t n = 0;
  for (const ir::ValueType& element : type.elements) n += Elements(element);
  return n;
}

int64_t Elements(const std::vector<ir::ValueType>& types) {
  int64_t n = 0;
  for (const ir::ValueType& type : types) n += Elements(type);
  return n;
}

class WorkCounter {
 public:
  explicit WorkCounter(const ir::Program& program) : program_(program) {}

  std::optional<int64_t> Computation(int index, int depth = 0) {
    // Deeper nesting than any real program has: treat as unbounded rather
    // than recurse without limit on a malformed one.
    if (depth > 64) return std::nullopt;
    double work = 0;
    for (const ir::Instruction& inst :
         program_.computations[index].instructions) {
      std::optional<double> w = Instruction(inst, depth);
      if (!w.has_value()) return std::nullopt;
      work += *w;
    }
    return Saturate(work);
  }

 private:
  std::optional<double> Region(int index, int depth) {
    std::optional<int64_t> w = Computation(index, depth + 1);
    if (!w.has_value()) return std::nullopt;
    return static_cast<double>(std::max<int64_t>(*w, 1));
  }

  std::optional<double> Instruction(const ir::Instruction& inst, int depth) {
    if (ir::IsCollectiveOp(inst.opcode)) return std::nullopt;
    const double results = static_cast<double>(Elements(inst.result_types));
    const double operands = static_cast<double>(Elements(inst.operand_types));
    switch (inst.opcode) {
      case OpCode::kWhile:
        return std::nullopt;
      case OpCode::kCall:
        return Region(inst.attributes.callee, depth);
      case OpCode::kIf:
      case OpCode::kCase: {
        double longest = 0;
        for (int region : inst.regions) {
          std::optional<double> w = Region(region, depth);
          if (!w.has_value()) return std::nullopt;
          longest = std::max(longest, *w);
        }
        return longest + 1;
      }
      case OpCode::kDotGeneral: {
        // Each result element sums over the contracted dimensions.
        double contracted = 1;
        const ir::Shape& lhs = inst.operand_types[0].shape;
        for (int64_t d : inst.attributes.dot.lhs_contracting) {
          if (d >= 0 && d < lhs.rank()) contracted *= lhs.dims[d];
        }
        return results * contracted;
      }
      case OpCode::kConvolution:
      case OpCode::kTriangularSolve:
        // Every output element may read every operand element.
        return results * std::max(operands, 1.0);
      case OpCode::kSort: {
        const double n = std::max(operands, 2.0);
        std::optional<double> w = Region(inst.regions[0], depth);
        if (!w.has_value()) return std::nullopt;
        return n * std::log2(n) * *w;
      }
      case OpCode::kReduce:
      case OpCode::kReduceWindow:
      case OpCode::kSelectAndScatter:
      case OpCode::kMap:
      case OpCode::kScatter:
      case OpCode::kFusedReduce: {
        // The region runs once per operand element at most (per window
        // element for windows: bounded by results x operands).
        double per_element = 1;
        for (int region : inst.regions) {
          std::optional<double> w = Region(region, depth);
          if (!w.has_value()) return std::nullopt;
          per_element += *w;
        }
        double steps = std::max(operands, results);
        if (inst.opcode == OpCode::kReduceWindow ||
            inst.opcode == OpCode::kSelectAndScatter) {
          steps = results * std::max(operands, 1.0);
        }
        if (inst.opcode == OpCode::kFusedReduce) {
          per_element += inst.attributes.fused.steps.size();
        }
        return steps * per_element;
      }
      case OpCode::kFusedElementwise:
        return results *
               std::max<double>(1, inst.attributes.fused.steps.size());
      default:
        return std::max(results, 1.0);
    }
  }

  const ir::Program& program_;
};

}  // namespace

std::optional<int64_t> WorkBound(const ir::Program& program) {
  if (program.has_collectives || program.computations.empty()) {
    return std::nullopt;
  }
  return WorkCounter(program).Computation(program.entry);
}

}  // namespace pjrtx::cpu
