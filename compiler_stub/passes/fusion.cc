#include "compiler_stub/passes/fusion.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace pjrtx::ir {
namespace {

// Two groups merge only while together they stay under this many steps,
// well inside what register-resident evaluation (runtime/cpu/fused_f32.h)
// takes: 64 steps and 16 inputs.
constexpr size_t kMaxMergedSteps = 32;

bool IsScalarTensor(const ValueType& t) {
  return t.kind == ValueType::Kind::kTensor && t.shape.dims.empty();
}

// Whether `inst` reads a broadcast of a rank-0 value.
bool ReadsScalarBroadcast(const Instruction& inst,
                          const std::vector<Instruction>& insts,
                          const std::map<int, size_t>& defined_by) {
  for (int operand : inst.operands) {
    auto def = defined_by.find(operand);
    if (def == defined_by.end()) continue;
    const Instruction& producer = insts[def->second];
    if (producer.opcode == OpCode::kBroadcastInDim &&
        IsScalarTensor(producer.operand_types[0])) {
      return true;
    }
  }
  return false;
}

// The step computing elementwise `inst`, its operands read from the
// registers `reg_of` names.
FusedStep StepOf(const Instruction& inst, const std::map<int, int>& reg_of) {
  FusedStep step;
  step.opcode = inst.opcode;
  step.unary = inst.attributes.unary;
  step.binary = inst.attributes.binary;
  step.comparison = inst.attributes.comparison;
  step.comparison_type = inst.attributes.comparison_type;
  step.type = inst.result_types[0].shape.type;
  for (int v : inst.operands) step.inputs.push_back(reg_of.at(v));
  return step;
}

// A group under construction: instructions (indices into the computation)
// that share the result dims.
struct Group {
  std::vector<int64_t> dims;
  std::vector<size_t> members;
};

// Values of `c` read by the regions of instruction `inst` (captures).
std::vector<int> CapturedBy(const Program& program, const Instruction& inst) {
  std::vector<int> values;
  for (int r : inst.regions) {
    const std::vector<int>& captures = program.computations[r].captures;
    values.insert(values.end(), captures.begin(), captures.end());
  }
  return values;
}

// Which instruction defines each value, and how many reads each value has
// (operands and region captures) among `insts`.
struct DataFlow {
  std::map<int, size_t> defined_by;
  std::map<int, int> uses;
};

DataFlow Analyze(const Program& program,
                 const std::vector<Instruction>& insts) {
  DataFlow flow;
  for (size_t i = 0; i < insts.size(); ++i) {
    for (int r : insts[i].results) flow.defined_by[r] = i;
    for (int o : insts[i].operands) ++flow.uses[o];
    for (int v : CapturedBy(program, insts[i])) ++flow.uses[v];
  }
  return flow;
}

// A single-input reduce takes in the elementwise computation of its input
// (a fused group with that one result, or a single elementwise op) when
// nothing else reads the input: the reduction then consumes it a chunk at
// a time and it is never materialized. `results` are the computation's.
void FuseReductions(const Program& program, std::vector<Instruction>& insts,
                    const std::vector<int>& results) {
  const DataFlow flow = Analyze(program, insts);
  const std::map<int, size_t>& defined_by = flow.defined_by;
  std::map<int, int> uses = flow.uses;
  for (int r : results) ++uses[r];
  std::vector<bool> absorbed(insts.size(), false);
  for (Instruction& reduce : insts) {
    if (reduce.opcode != OpCode::kReduce || reduce.operands.size() != 2 ||
        reduce.results.size() != 1 || reduce.regions.size() != 1) {
      continue;
    }
    const int input = reduce.operands[0];
    auto def = defined_by.find(input);
    if (def == defined_by.end() || uses[input] != 1) continue;
    const Instruction& producer = insts[def->second];
    Instruction fused = reduce;
    fused.opcode = OpCode::kFusedReduce;
    fused.name = "fused reduce";
    fused.attributes.fused_shape = reduce.operand_types[0].shape;
    fused.operands.clear();
    fused.operand_types.clear();
    FusedBody& body = fused.attributes.fused;
    if (producer.opcode == OpCode::kFusedElementwise &&
        producer.results.size() == 1) {
      body = producer.attributes.fused;
      fused.operands = producer.operands;
      fused.operand_types = producer.operand_types;
    } else if (IsElementwise(producer.opcode)) {
      std::map<int, int> reg_of;
      for (size_t k = 0; k < producer.operands.size(); ++k) {
        const int v = producer.operands[k];
        if (reg_of.count(v)) continue;
        reg_of[v] = static_cast<int>(fused.operands.size());
        fused.operands.push_back(v);
        fused.operand_types.push_back(producer.operand_types[k]);
      }
      body.num_inputs = static_cast<int>(fused.operands.size());
      body.steps = {StepOf(producer, reg_of)};
      body.outputs = {body.num_inputs};
    } else {
      continue;
    }
    fused.operands.push_back(reduce.operands[1]);
    fused.operand_types.push_back(reduce.operand_types[1]);
    reduce = std::move(fused);
    absorbed[def->second] = true;
  }
  std::vector<Instruction> kept;
  for (size_t i = 0; i < insts.size(); ++i) {
    if (!absorbed[i]) kept.push_back(std::move(insts[i]));
  }
  insts = std::move(kept);
}

// Fuses the instructions of one computation. The fused instruction takes
// the place of its group's last member, so a group closes as soon as
// anything outside it reads one of its values: nothing between its members
// can depend on it.
void FuseComputation(const Program& program, Computation& c, bool is_entry) {
  const std::vector<Instruction>& insts = c.instructions;
  const DataFlow flow = Analyze(program, insts);
  const std::map<int, size_t>& defined_by = flow.defined_by;
  std::map<int, int> uses = flow.uses;
  std::set<int> must_materialize(c.results.begin(), c.results.end());

  std::vector<int> group_of(insts.size(), -1);
  std::vector<Group> groups;
  std::vector<bool> closed;
  auto group_defining = [&](int value) {
    auto it = defined_by.find(value);
    return it == defined_by.end() ? -1 : group_of[it->second];
  };
  for (size_t i = 0; i < insts.size(); ++i) {
    const Instruction& inst = insts[i];
    int joined = -1;
    if (IsElementwise(inst.opcode)) {
      const std::vector<int64_t>& dims = inst.result_types[0].shape.dims;
      for (int operand : inst.operands) {
        const int g = group_defining(operand);
        if (g < 0 || closed[g] || groups[g].dims != dims || g == joined) {
          continue;
        }
        if (joined < 0) {
          joined = g;
          continue;
        }
        // A second open group of the same shape (b * x + c * y: each product
        // began a group of its own) merges into the first, so that neither
        // is materialized. Both are still open, so nothing outside them has
        // read their values yet, and the merged instruction may take the
        // place of the later last member.
        if (groups[joined].members.size() + groups[g].members.size() >=
            kMaxMergedSteps) {
          continue;
        }
        for (size_t m : groups[g].members) {
          group_of[m] = joined;
          groups[joined].members.push_back(m);
        }
        groups[g].members.clear();
        closed[g] = true;
        std::sort(groups[joined].members.begin(), groups[joined].members.end());
      }
    }
    std::vector<int> reads = inst.operands;
    for (int v : CapturedBy(program, inst)) reads.push_back(v);
    for (int v : reads) {
      const int g = group_defining(v);
      if (g >= 0 && g != joined) closed[g] = true;
    }
    if (!IsElementwise(inst.opcode)) continue;
    if (joined < 0) {
      joined = static_cast<int>(groups.size());
      groups.push_back(Group{inst.result_types[0].shape.dims, {}});
      closed.push_back(false);
    }
    groups[joined].members.push_back(i);
    group_of[i] = joined;
  }

  std::vector<bool> absorbed(insts.size(), false);
  std::map<size_t, Instruction> fused_at;  // Last member -> fused inst.
  for (Group& group : groups) {
    if (group.members.empty()) continue;  // Merged into another.
    // A lone op stays as it is, unless it computes a result of the entry
    // computation (as a fused instruction it writes straight into the
    // caller's output memory) or reads a rank-0 broadcast (fused, it reads
    // the scalar, and the broadcast is never materialized: ReLU's backward
    // select(mask, g, 0)).
    if (group.members.size() < 2) {
      const Instruction& lone = insts[group.members[0]];
      const bool entry_result =
          is_entry && must_materialize.count(lone.results[0]) > 0;
      if (!entry_result && !ReadsScalarBroadcast(lone, insts, defined_by)) {
        continue;
      }
    }
    std::set<size_t> members(group.members.begin(), group.members.end());
    Instruction fused;
    fused.opcode = OpCode::kFusedElementwise;
    fused.name = "fused elementwise";
    fused.location = insts[group.members.front()].location;
    FusedBody& body = fused.attributes.fused;
    std::map<int, int> reg_of;  // Value -> register.
    // Inputs first: operands defined outside the group.
    for (size_t m : group.members) {
      for (size_t k = 0; k < insts[m].operands.size(); ++k) {
        const int v = insts[m].operands[k];
        auto def = defined_by.find(v);
        if (def != defined_by.end() && members.count(def->second)) continue;
        if (reg_of.count(v)) continue;
        reg_of[v] = static_cast<int>(fused.operands.size());
        fused.operands.push_back(v);
        fused.operand_types.push_back(insts[m].operand_types[k]);
      }
    }
    body.num_inputs = static_cast<int>(fused.operands.size());
    int next_reg = body.num_inputs;
    for (size_t m : group.members) {
      const Instruction& inst = insts[m];
      body.steps.push_back(StepOf(inst, reg_of));
      reg_of[inst.results[0]] = next_reg++;
      absorbed[m] = true;
    }
    // Results: member values read outside the group.
    for (size_t m : group.members) {
      const int value = insts[m].results[0];
      int outside = uses[value];
      for (size_t other : group.members) {
        for (int o : insts[other].operands) outside -= (o == value);
      }
      if (outside > 0 || must_materialize.count(value)) {
        body.outputs.push_back(reg_of.at(value));
        fused.results.push_back(value);
        fused.result_types.push_back(insts[m].result_types[0]);
      }
    }
    // A group nobody reads is dead code (elementwise ops have no effects):
    // its members go, and no instruction without results is left behind
    // for targets, which take the kernel's dims from the first result.
    if (fused.results.empty()) continue;
    fused_at[group.members.back()] = std::move(fused);
  }
  std::vector<Instruction> rewritten;
  for (size_t i = 0; i < insts.size(); ++i) {
    if (fused_at.count(i)) {
      rewritten.push_back(std::move(fused_at[i]));
    } else if (!absorbed[i]) {
      rewritten.push_back(insts[i]);
    }
  }
  FuseReductions(program, rewritten, c.results);
  // A rank-0 broadcast feeding a fused instruction is replaced by its
  // scalar operand: the fused body reads a rank-0 input at every element.
  std::map<int, std::pair<int, ValueType>> scalar_source;
  for (const Instruction& inst : rewritten) {
    if (inst.opcode == OpCode::kBroadcastInDim &&
        IsScalarTensor(inst.operand_types[0])) {
      scalar_source[inst.results[0]] = {inst.operands[0],
                                        inst.operand_types[0]};
    }
  }
  for (Instruction& inst : rewritten) {
    if (inst.opcode != OpCode::kFusedElementwise &&
        inst.opcode != OpCode::kFusedReduce) {
      continue;
    }
    for (size_t k = 0; k < inst.operands.size(); ++k) {
      auto it = scalar_source.find(inst.operands[k]);
      if (it == scalar_source.end()) continue;
      inst.operands[k] = it->second.first;
      inst.operand_types[k] = it->second.second;
    }
  }
  // Drop the broadcasts nothing reads any more.
  std::map<int, int> remaining_uses = Analyze(program, rewritten).uses;
  for (int r : c.results) ++remaining_uses[r];
  c.instructions.clear();
  for (Instruction& inst : rewritten) {
    if (inst.opcode == OpCode::kBroadcastInDim &&
        scalar_source.count(inst.results[0]) &&
        remaining_uses[inst.results[0]] == 0) {
      continue;
    }
    c.instructions.push_back(std::move(inst));
  }
}

}  // namespace

bool IsElementwise(OpCode op) {
  switch (op) {
    case OpCode::kUnary:
    case OpCode::kBinary:
    case OpCode::kCompare:
    case OpCode::kSelect:
    case OpCode::kClamp:
    case OpCode::kFma:
    case OpCode::kConvert:
      return true;
    default:
      return false;
  }
}

void FuseElementwise(Program& program) {
  for (size_t i = 0; i < program.computations.size(); ++i) {
    FuseComputation(program, program.computations[i],
                    static_cast<int>(i) == program.entry);
  }
}

}  // namespace pjrtx::ir
