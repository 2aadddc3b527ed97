#include "runtime/cpu/collective_ops.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/cpu/collective_groups.h"
#include "runtime/cpu/fused_elementwise.h"
#include "runtime/cpu/kernels.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

using ir::OpCode;
using Payload = PendingExchange::Payload;

const char* KindName(OpCode opcode) {
  switch (opcode) {
    case OpCode::kAllReduce:
      return "all_reduce";
    case OpCode::kAllGather:
      return "all_gather";
    case OpCode::kReduceScatter:
      return "reduce_scatter";
    case OpCode::kAllToAll:
      return "all_to_all";
    case OpCode::kCollectivePermute:
      return "collective_permute";
    case OpCode::kCollectiveBroadcast:
      return "collective_broadcast";
    case OpCode::kCollectiveReduce:
      return "collective_reduce";
    case OpCode::kSend:
      return "send";
    case OpCode::kRecv:
      return "recv";
    default:
      return "collective";
  }
}

// The operands' bytes, one after another: what a process contributes.
Payload Pack(absl::Span<const Literal> literals) {
  size_t size = 0;
  for (const Literal& l : literals) size += l.size_bytes();
  auto bytes = std::make_shared<std::string>(size, '\0');
  size_t offset = 0;
  for (const Literal& l : literals) {
    if (l.size_bytes() > 0) {
      std::memcpy(bytes->data() + offset, l.data(), l.size_bytes());
    }
    offset += l.size_bytes();
  }
  return bytes;
}

size_t TotalBytes(const std::vector<Shape>& shapes) {
  size_t size = 0;
  for (const Shape& s : shapes) size += s.size_bytes();
  return size;
}

// Views of the tensors packed in `payload` (which must outlive them).
std::vector<Literal> Unpack(const Payload& payload,
                            const std::vector<Shape>& shapes) {
  std::vector<Literal> views;
  size_t offset = 0;
  for (const Shape& shape : shapes) {
    views.push_back(
        Literal::View(shape, const_cast<char*>(payload->data()) + offset));
    offset += shape.size_bytes();
  }
  return views;
}

Literal OwnedCopy(const Literal& literal) {
  Literal copy = Literal::ForOverwrite(literal.shape());
  if (literal.size_bytes() > 0) {
    std::memcpy(copy.data(), literal.data(), literal.size_bytes());
  }
  return copy;
}

// Processes of the launch a collective_permute pairs up within: the
// replicas of this partition, or the partitions of this replica.
struct PermuteLayout {
  std::vector<int64_t> slice;  // Processes, indexed by pair id.
  int64_t self = 0;            // This process's pair id.
};

absl::StatusOr<PermuteLayout> LayOutPermute(const ir::CollectiveSpec& spec,
                                            int64_t process, int64_t replicas,
                                            int64_t partitions) {
  const bool cross_partition = spec.channel_id > 0;
  const int64_t replica = process / partitions,
                partition = process % partitions;
  PermuteLayout layout;
  const int64_t count = cross_partition ? partitions : replicas;
  for (int64_t i = 0; i < count; ++i) {
    layout.slice.push_back(cross_partition ? replica * partitions + i
                                           : i * partitions + partition);
  }
  layout.self = cross_partition ? partition : replica;
  for (const auto& [source, target] : spec.source_target_pairs) {
    if (source >= count || target >= count) {
      return absl::InvalidArgumentError(
          absl::StrCat("collective_permute pairs ", source, " -> ", target,
                       ", but the launch has ", count,
                       cross_partition ? " partition(s)" : " replica(s)"));
    }
  }
  return layout;
}

// What the processes of an exchange contributed: one payload each, every
// one the packed tensors of `shapes`.
struct Contributions {
  std::vector<Payload> payloads;
  std::vector<Shape> shapes;

  // Views of tensor `k` of every contribution, in order.
  std::vector<Literal> Views(size_t k) const {
    std::vector<Literal> views;
    for (const Payload& p : payloads) views.push_back(Unpack(p, shapes)[k]);
    return views;
  }
};

// The tensors each process contributes to `instruction`: its tensor
// operands but a dynamic root's indices; for recv, its tensor results.
std::vector<Shape> ContributionShapes(const ir::Instruction& instruction,
                                      absl::Span<const Literal> operands) {
  std::vector<Shape> shapes;
  if (instruction.opcode == OpCode::kRecv) {
    for (const ir::ValueType& t : instruction.result_types) {
      if (t.kind == ir::ValueType::Kind::kTensor) shapes.push_back(t.shape);
    }
    return shapes;
  }
  for (const Literal& l : operands) shapes.push_back(l.shape());
  if (instruction.attributes.collective.has_dynamic_root) {
    shapes.pop_back();  // The root indices.
  }
  return shapes;
}

// Every contribution must have this process's layout; an error names what
// was expected from whom (`group`: the contributors, in order).
absl::Status CheckContributions(const char* kind, OpCode opcode,
                                int64_t process,
                                const std::vector<int64_t>& group,
                                const std::vector<Payload>& payloads,
                                const std::vector<Shape>& shapes) {
  const size_t expected = TotalBytes(shapes);
  for (size_t i = 0; i < payloads.size(); ++i) {
    if (payloads[i] != nullptr && payloads[i]->size() == expected) continue;
    std::vector<std::string> types;
    for (const Shape& s : shapes) types.push_back(s.ToString());
    return absl::InvalidArgumentError(absl::StrCat(
        kind, ": process ", process, " expects ", expected, " bytes (",
        absl::StrJoin(types, ", "), ") from ",
        opcode == OpCode::kRecv
            ? "its sender"
            : absl::StrCat("process ", group.empty() ? -1 : group[i]),
        ", which sent ",
        payloads[i] == nullptr ? std::string("nothing")
                               : absl::StrCat(payloads[i]->size(), " bytes"),
        " (do the programs of the launch agree?)"));
  }
  return absl::OkStatus();
}

std::vector<TensorValue> TensorResults(std::vector<Literal> literals) {
  std::vector<TensorValue> values;
  for (Literal& l : literals)
    values.push_back(TensorValue::Tensor(std::move(l)));
  return values;
}

// ((p0 op p1) op p2) ... of `inputs` in one pass: registers 0..n-1 are the
// contributions, each step folds in the next.
absl::StatusOr<Literal> FoldBinary(ir::BinaryOp op, const Shape& shape,
                                   std::vector<Literal> inputs) {
  const int n = static_cast<int>(inputs.size());
  ir::FusedBody body;
  body.num_inputs = n;
  for (int j = 1; j < n; ++j) {
    ir::FusedStep step;
    step.opcode = ir::OpCode::kBinary;
    step.binary = op;
    step.inputs = {j == 1 ? 0 : n + j - 2, j};
    step.type = shape.type;
    body.steps.push_back(std::move(step));
  }
  body.outputs = {2 * n - 2};
  std::vector<Literal> out = {Literal::ForOverwrite(shape)};
  PJRTX_RETURN_IF_ERROR(RunFusedElementwise(body, inputs, absl::MakeSpan(out)));
  return std::move(out[0]);
}

// Tensor `k` of every contribution, combined by `combine`.
absl::StatusOr<Literal> Combine(const Contributions& received, size_t k,
                                const Combiner& combine) {
  const std::vector<Payload>& payloads = received.payloads;
  const std::vector<Shape>& shapes = received.shapes;
  if (payloads.size() == 1) return OwnedCopy(Unpack(payloads[0], shapes)[k]);
  if (combine.binary.has_value()) {
    return FoldBinary(*combine.binary, shapes[k], received.Views(k));
  }
  Literal acc = OwnedCopy(Unpack(payloads[0], shapes)[k]);
  for (size_t j = 1; j < payloads.size(); ++j) {
    PJRTX_ASSIGN_OR_RETURN(acc,
                           combine.pair(acc, Unpack(payloads[j], shapes)[k]));
  }
  return acc;
}

// Block `index` of `whole` along `dim`, of `block`'s shape
// (reduce_scatter: the group member's share).
Literal BlockOf(const Literal& whole, const Shape& block, int64_t dim,
                size_t index) {
  std::vector<int64_t> start(block.rank(), 0), limit = block.dims,
                                               strides(block.rank(), 1);
  start[dim] = static_cast<int64_t>(index) * block.dims[dim];
  limit[dim] = start[dim] + block.dims[dim];
  return Slice(whole, start, limit, strides, block);
}

// all_to_all: block `index` of every contribution along the split
// dimension, concatenated along the concat dimension.
std::vector<Literal> ExchangeBlocks(const Contributions& received,
                                    const ir::CollectiveSpec& spec,
                                    const ir::Instruction& instruction,
                                    size_t index) {
  std::vector<Literal> results;
  for (size_t k = 0; k < received.shapes.size(); ++k) {
    const Shape& in = received.shapes[k];
    const int64_t split = spec.split_dimension;
    const int64_t chunk = in.dims[split] / spec.split_count;
    std::vector<int64_t> start(in.rank(), 0), limit = in.dims,
                                              strides(in.rank(), 1);
    start[split] = static_cast<int64_t>(index) * chunk;
    limit[split] = start[split] + chunk;
    Shape part_shape = in;
    part_shape.dims[split] = chunk;
    std::vector<Literal> parts;
    for (const Literal& view : received.Views(k)) {
      parts.push_back(Slice(view, start, limit, strides, part_shape));
    }
    results.push_back(Concatenate(parts, spec.concat_dimension,
                                  instruction.result_types[k].shape));
  }
  return results;
}

// collective_broadcast with a root per operand, known only now: operand k
// from the contribution of group member roots[k].
absl::StatusOr<std::vector<Literal>> FromDynamicRoots(
    const char* kind, const Contributions& received, const Literal& roots,
    const std::vector<int64_t>& group) {
  const std::vector<Payload>& payloads = received.payloads;
  std::vector<Literal> results;
  for (size_t k = 0; k < received.shapes.size(); ++k) {
    const int64_t source = roots.GetInt(static_cast<int64_t>(k));
    if (source < 0 || source >= static_cast<int64_t>(payloads.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat(kind, ": root index ", source, " for operand ", k,
                       " is outside the group of ", payloads.size(),
                       " process(es): ", absl::StrJoin(group, ", ")));
    }
    results.push_back(OwnedCopy(Unpack(payloads[source], received.shapes)[k]));
  }
  return results;
}

}  // namespace

absl::StatusOr<std::unique_ptr<StartedCollective>> StartCollective(
    const ir::Instruction& instruction, absl::Span<const TensorValue> operands,
    CollectiveContext& context, CollectiveSequence& sequence) {
  const ir::CollectiveSpec& spec = instruction.attributes.collective;
  const OpCode opcode = instruction.opcode;
  const char* kind = KindName(opcode);
  const int64_t self = context.process();
  std::vector<Literal> tensors;
  for (const TensorValue& v : operands) {
    if (v.kind == ir::ValueType::Kind::kTensor) tensors.push_back(v.tensor);
  }

  if (opcode == OpCode::kSend || opcode == OpCode::kRecv) {
    const std::string key =
        sequence.NextKey(absl::StrCat("channel ", spec.channel_id));
    const bool sender = opcode == OpCode::kSend;
    PJRTX_ASSIGN_OR_RETURN(
        std::unique_ptr<PendingExchange> pending,
        context.StartChannel(key, kind, sender,
                             sender ? Pack(tensors) : nullptr));
    return std::make_unique<StartedCollective>(instruction, std::move(tensors),
                                               std::vector<int64_t>{},
                                               std::move(pending));
  }

  if (opcode == OpCode::kCollectivePermute) {
    PJRTX_ASSIGN_OR_RETURN(PermuteLayout layout,
                           LayOutPermute(spec, self, context.num_replicas(),
                                         context.num_partitions()));
    bool is_source = false;
    std::vector<int64_t> sources;
    for (const auto& [source, target] : spec.source_target_pairs) {
      if (source == layout.self) is_source = true;
      if (target == layout.self) sources.push_back(layout.slice[source]);
    }
    const std::string key = sequence.NextKey(
        absl::StrCat(kind, " ", absl::StrJoin(layout.slice, ",")));
    PJRTX_ASSIGN_OR_RETURN(
        std::unique_ptr<PendingExchange> pending,
        context.Start(key, kind, layout.slice,
                      is_source ? Pack(tensors) : nullptr, sources));
    return std::make_unique<StartedCollective>(instruction, std::move(tensors),
                                               std::move(sources),
                                               std::move(pending));
  }

  absl::StatusOr<std::vector<std::vector<int64_t>>> groups =
      ProcessGroups(GroupModeFor(opcode, spec), spec.replica_groups,
                    context.num_replicas(), context.num_partitions());
  if (!groups.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(kind, ": ", groups.status().message()));
  }
  std::vector<int64_t> group = GroupOf(*groups, self);
  if (group.empty()) {
    // Not in any group: a broadcast leaves zeros, the others run alone.
    if (opcode == OpCode::kCollectiveBroadcast) {
      return std::make_unique<StartedCollective>(
          instruction, std::move(tensors), std::move(group), nullptr);
    }
    group = {self};
  }
  if (opcode == OpCode::kAllToAll &&
      static_cast<int64_t>(group.size()) != spec.split_count) {
    return absl::InvalidArgumentError(absl::StrCat(
        "all_to_all splits into ", spec.split_count, " part(s) but process ",
        self, "'s group has ", group.size(),
        " process(es): ", absl::StrJoin(group, ", ")));
  }
  // Who contributes and whose contributions this process needs.
  const int64_t root = group.front();
  std::vector<int64_t> sources = group;
  Payload payload;
  if (spec.has_dynamic_root) {
    // Each data operand has its own root, known only now: every member
    // contributes its data (the root indices stay behind, last).
    payload = Pack(absl::MakeConstSpan(tensors).first(tensors.size() - 1));
  } else if (opcode == OpCode::kCollectiveBroadcast) {
    if (self == root) payload = Pack(tensors);
    sources = {root};
  } else {
    payload = Pack(tensors);
    if (opcode == OpCode::kCollectiveReduce && self != root) sources.clear();
  }
  const std::string key =
      sequence.NextKey(absl::StrCat(kind, " ", absl::StrJoin(group, ",")));
  PJRTX_ASSIGN_OR_RETURN(
      std::unique_ptr<PendingExchange> pending,
      context.Start(key, kind, group, std::move(payload), sources));
  return std::make_unique<StartedCollective>(
      instruction, std::move(tensors), std::move(group), std::move(pending));
}

absl::StatusOr<std::vector<TensorValue>> StartedCollective::Finish(
    int64_t process, const Combiner& combine) {
  const OpCode opcode = instruction_.opcode;
  const char* kind = KindName(opcode);
  const ir::CollectiveSpec& spec = instruction_.attributes.collective;
  Contributions received;
  if (pending_ != nullptr) {
    PJRTX_ASSIGN_OR_RETURN(received.payloads, pending_->Finish());
  }
  received.shapes = ContributionShapes(instruction_, operands_);
  PJRTX_RETURN_IF_ERROR(CheckContributions(kind, opcode, process, group_,
                                           received.payloads, received.shapes));
  const std::vector<Payload>& payloads = received.payloads;
  const std::vector<Shape>& shapes = received.shapes;
  const size_t index =
      std::find(group_.begin(), group_.end(), process) - group_.begin();

  switch (opcode) {
    case OpCode::kAllReduce: {
      std::vector<Literal> results;
      for (size_t k = 0; k < shapes.size(); ++k) {
        PJRTX_ASSIGN_OR_RETURN(Literal r, Combine(received, k, combine));
        results.push_back(std::move(r));
      }
      return TensorResults(std::move(results));
    }
    case OpCode::kCollectiveReduce: {
      if (payloads.empty()) {
        return TensorResults({Literal(instruction_.result_types[0].shape)});
      }
      PJRTX_ASSIGN_OR_RETURN(Literal r, Combine(received, 0, combine));
      return TensorResults({std::move(r)});
    }
    case OpCode::kReduceScatter: {
      PJRTX_ASSIGN_OR_RETURN(Literal r, Combine(received, 0, combine));
      return TensorResults({BlockOf(r, instruction_.result_types[0].shape,
                                    instruction_.attributes.dimension, index)});
    }
    case OpCode::kAllGather: {
      std::vector<Literal> results;
      for (size_t k = 0; k < shapes.size(); ++k) {
        results.push_back(Concatenate(received.Views(k),
                                      instruction_.attributes.dimension,
                                      instruction_.result_types[k].shape));
      }
      return TensorResults(std::move(results));
    }
    case OpCode::kAllToAll:
      return TensorResults(ExchangeBlocks(received, spec, instruction_, index));
    case OpCode::kCollectiveBroadcast:
      if (spec.has_dynamic_root) {
        PJRTX_ASSIGN_OR_RETURN(
            std::vector<Literal> results,
            FromDynamicRoots(kind, received, operands_.back(), group_));
        return TensorResults(std::move(results));
      }
      [[fallthrough]];
    case OpCode::kCollectivePermute: {
      const Shape& result = instruction_.result_types[0].shape;
      if (payloads.empty()) return TensorResults({Literal(result)});
      return TensorResults({OwnedCopy(Unpack(payloads[0], shapes)[0])});
    }
    case OpCode::kSend:
      return std::vector<TensorValue>{
          TensorValue{ir::ValueType::Kind::kToken, {}, {}}};
    case OpCode::kRecv: {
      std::vector<TensorValue> values;
      for (const Literal& view : Unpack(payloads[0], shapes)) {
        values.push_back(TensorValue::Tensor(OwnedCopy(view)));
      }
      values.push_back(TensorValue{ir::ValueType::Kind::kToken, {}, {}});
      return values;
    }
    default:
      return absl::InternalError(
          absl::StrCat("not a collective: ", instruction_.name));
  }
}

}  // namespace pjrtx::cpu
