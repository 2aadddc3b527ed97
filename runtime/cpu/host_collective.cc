#include "runtime/cpu/host_collective.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/location_text.h"
#include "runtime/cpu/collective_context.h"
#include "runtime/cpu/collective_ops.h"
#include "runtime/cpu/interpreter.h"
#include "runtime/cpu/launch_collectives.h"
#include "runtime/cpu/literal.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {

HostCollectives::HostCollectives(const RunContext& run)
    : sequence_(std::make_unique<CollectiveSequence>()) {
  if (run.launch != nullptr) {
    launch_ = std::make_unique<LaunchCollectives>(run);
  }
}

HostCollectives::~HostCollectives() = default;

absl::Status HostCollectives::Run(const ir::Instruction& instruction,
                                  std::optional<ir::BinaryOp> combine,
                                  const ReadOperand& read,
                                  const WriteResult& write) {
  if (launch_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        instruction.name, " at ", mlir::LocationText(instruction.location),
        " needs the launch it runs in (run the program through an "
        "executable of a client)"));
  }
  std::vector<TensorValue> operands;
  for (size_t k = 0; k < instruction.operand_types.size(); ++k) {
    if (instruction.operand_types[k].kind == ir::ValueType::Kind::kToken) {
      operands.push_back(TensorValue{ir::ValueType::Kind::kToken, {}, {}});
      continue;
    }
    Literal operand(instruction.operand_types[k].shape);
    PJRTX_RETURN_IF_ERROR(
        read(k, absl::MakeSpan(operand.data(), operand.size_bytes())));
    operands.push_back(TensorValue::Tensor(std::move(operand)));
  }
  std::vector<TensorValue> results;
  if (instruction.opcode == ir::OpCode::kReplicaId ||
      instruction.opcode == ir::OpCode::kPartitionId) {
    const int64_t process = launch_->process();
    const int64_t partitions = launch_->num_partitions();
    Literal id(instruction.result_types[0].shape);
    id.SetInt(0, instruction.opcode == ir::OpCode::kReplicaId
                     ? process / partitions
                     : process % partitions);
    results.push_back(TensorValue::Tensor(std::move(id)));
  } else {
    PJRTX_ASSIGN_OR_RETURN(
        std::unique_ptr<StartedCollective> started,
        StartCollective(instruction, operands, *launch_, *sequence_));
    Combiner combiner;
    combiner.binary = combine;
    PJRTX_ASSIGN_OR_RETURN(results,
                           started->Finish(launch_->process(), combiner));
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].kind != ir::ValueType::Kind::kTensor) continue;
    const Literal& result = results[i].tensor;
    PJRTX_RETURN_IF_ERROR(
        write(i, absl::MakeConstSpan(result.data(), result.size_bytes())));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::cpu
