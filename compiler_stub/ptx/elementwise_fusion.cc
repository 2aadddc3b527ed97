#include "compiler_stub/ptx/elementwise_fusion.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"

namespace pjrtx::ptx {
namespace {

using ir::Instruction;
using ir::OpCode;

bool IsElementwise(const Instruction& instruction) {
  switch (instruction.opcode) {
    case OpCode::kUnary:
    case OpCode::kBinary:
    case OpCode::kCompare:
    case OpCode::kSelect:
    case OpCode::kClamp:
    case OpCode::kConvert:
      return true;
    default:
      return false;
  }
}

// A constant whose elements are all equal, or a broadcast of a one-element
// value: every thread sees the same value, so a kernel re-creates it from
// one element instead of reading a materialized tensor.
bool IsSplat(const Instruction& instruction) {
  if (instruction.opcode == OpCode::kBroadcastInDim) {
    return instruction.operand_types[0].shape.num_elements() == 1;
  }
  if (instruction.opcode != OpCode::kConstant) return false;
  const std::vector<uint8_t>& bytes = instruction.attributes.constant;
  const size_t size = ir::StorageSize(instruction.result_types[0].shape.type);
  if (bytes.size() < size) return false;  // No elements.
  for (size_t offset = size; offset < bytes.size(); offset += size) {
    if (std::memcmp(bytes.data(), bytes.data() + offset, size) != 0) {
      return false;
    }
  }
  return true;
}

const std::vector<int64_t>& ResultDims(const Instruction& instruction) {
  return instruction.result_types[0].shape.dims;
}

// A valid PTX identifier made from `name` (letters, digits and '_').
std::string Identifier(const std::string& name) {
  std::string id = name;
  for (char& ch : id) {
    const bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_';
    if (!word) ch = '_';
  }
  if (id.empty() || (id[0] >= '0' && id[0] <= '9')) id.insert(0, "_");
  return id;
}

class Partitioner {
 public:
  Partitioner(const ir::Program& program, int computation)
      : program_(program),
        computation_(program.computations[computation]),
        producer_(computation_.num_values, -1),
        readers_(computation_.num_values),
        group_(computation_.instructions.size(), -1) {
    for (size_t i = 0; i < computation_.instructions.size(); ++i) {
      const Instruction& instruction = computation_.instructions[i];
      for (int value : instruction.results) {
        producer_[value] = static_cast<int>(i);
      }
      for (int value : Reads(instruction)) {
        readers_[value].push_back(static_cast<int>(i));
      }
    }
  }

  std::vector<FusedKernel> Run() {
    for (size_t i = 0; i < computation_.instructions.size(); ++i) {
      Place(static_cast<int>(i));
    }
    std::vector<std::vector<int>> members(parent_.size());
    for (size_t i = 0; i < group_.size(); ++i) {
      if (group_[i] >= 0) members[Find(group_[i])].push_back(i);
    }
    std::vector<FusedKernel> kernels;
    for (const std::vector<int>& group : members) {
      if (group.empty()) continue;
      FusedKernel kernel = Describe(group);
      if (kernel.outputs.empty()) continue;
      kernel.name = absl::StrCat(Identifier(computation_.name), "_fusion",
                                 kernels.size());
      kernels.push_back(std::move(kernel));
    }
    return kernels;
  }

 private:
  // The values `instruction` reads: its operands and, for ops with
  // regions, the values those regions capture from this computation.
  std::vector<int> Reads(const Instruction& instruction) const {
    std::vector<int> values = instruction.operands;
    for (int region : instruction.regions) {
      const std::vector<int>& captures =
          program_.computations[region].captures;
      values.insert(values.end(), captures.begin(), captures.end());
    }
    return values;
  }

  int Find(int group) {
    while (parent_[group] != group) {
      parent_[group] = parent_[parent_[group]];
      group = parent_[group];
    }
    return group;
  }

  // The group of the instruction producing `value`, or -1.
  int GroupOf(int value) {
    const int producer = producer_[value];
    return producer < 0 || group_[producer] < 0 ? -1
                                                : Find(group_[producer]);
  }

  // Puts instruction `index` into the open groups it reads from (merging
  // them) or a new one if it is elementwise, then closes every other group
  // it reads from.
  void Place(int index) {
    const Instruction& instruction = computation_.instructions[index];
    const std::vector<int> reads = Reads(instruction);
    int joined = -1;
    if (IsElementwise(instruction)) {
      for (int value : reads) {
        const int group = GroupOf(value);
        if (group < 0 || closed_[group] ||
            ResultDims(computation_.instructions[producer_[value]]) !=
                ResultDims(instruction)) {
          continue;
        }
        if (joined < 0) {
          joined = group;
        } else if (group != joined) {
          parent_[group] = joined;
        }
      }
      if (joined < 0) {
        joined = static_cast<int>(parent_.size());
        parent_.push_back(joined);
        closed_.push_back(false);
      }
      group_[index] = joined;
    }
    for (int value : reads) {
      const int group = GroupOf(value);
      if (group >= 0 && group != joined) closed_[group] = true;
    }
  }

  // Adds splat instruction `index` and the splats it reads to `kernel_set`.
  void AddSplat(int index, std::set<int>& kernel_set) const {
    if (!kernel_set.insert(index).second) return;
    for (int value : computation_.instructions[index].operands) {
      const int producer = producer_[value];
      if (producer >= 0 && IsSplat(computation_.instructions[producer])) {
        AddSplat(producer, kernel_set);
      }
    }
  }

  FusedKernel Describe(const std::vector<int>& group) const {
    FusedKernel kernel;
    kernel.dims = ResultDims(computation_.instructions[group.front()]);
    const std::set<int> members(group.begin(), group.end());
    std::set<int> kernel_set = members;
    for (int index : group) {
      for (int value : computation_.instructions[index].operands) {
        const int producer = producer_[value];
        if (producer >= 0 && !members.contains(producer) &&
            IsSplat(computation_.instructions[producer])) {
          AddSplat(producer, kernel_set);
        }
      }
    }
    std::set<int> inputs;
    for (int index : kernel_set) {
      const Instruction& instruction = computation_.instructions[index];
      kernel.instructions.push_back(instruction);
      kernel.source_instructions.push_back(index);
      for (size_t i = 0; i < instruction.operands.size(); ++i) {
        const int value = instruction.operands[i];
        if (kernel_set.contains(producer_[value]) ||
            !inputs.insert(value).second) {
          continue;
        }
        const ir::Shape& shape = instruction.operand_types[i].shape;
        kernel.inputs.push_back({value, shape, shape.dims != kernel.dims});
      }
    }
    const std::set<int> results(computation_.results.begin(),
                                computation_.results.end());
    for (int index : group) {
      const Instruction& instruction = computation_.instructions[index];
      const std::vector<int>& readers = readers_[instruction.results[0]];
      if (results.contains(instruction.results[0]) ||
          std::any_of(readers.begin(), readers.end(), [&](int reader) {
            return !members.contains(reader);
          })) {
        kernel.outputs.push_back(
            {instruction.results[0], instruction.result_types[0].shape});
      }
    }
    return kernel;
  }

  const ir::Program& program_;
  const ir::Computation& computation_;
  std::vector<int> producer_;  // Value -> instruction index, -1 if none.
  std::vector<std::vector<int>> readers_;  // Value -> instruction indices.
  std::vector<int> group_;     // Instruction index -> group, -1 if none.
  std::vector<int> parent_;    // Union-find over groups.
  // Groups that an instruction outside them reads: they cannot grow, since
  // their kernel must run before that reader.
  std::vector<bool> closed_;
};

}  // namespace

std::vector<FusedKernel> FindElementwiseFusions(const ir::Program& program,
                                                int computation) {
  return Partitioner(program, computation).Run();
}

}  // namespace pjrtx::ptx
