#include "runtime/cpu/collective_ops.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/cpu/collective_groups.h"
#include "runtime/cpu/fused_elementwise.h"
#include "runtime/cpu/kernels.h"

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
    absl::StatusOr<std::unique_ptr<PendingExchange>> pending =
        context.StartChannel(key, kind, sender,
                             sender ? Pack(tensors) : nullptr);
    if (!pending.ok()) return pending.status();
    return std::make_unique<StartedCollective>(instruction, std::move(tensors),
                                               std::vector<int64_t>{},
                                               *std::move(pending));
  }

  if (opcode == OpCode::kCollectivePermute) {
    absl::StatusOr<PermuteLayout> layout = LayOutPermute(
        spec, self, context.num_replicas(), context.num_partitions());
    if (!layout.ok()) return layout.status();
    bool is_source = false;
    std::vector<int64_t> sources;
    for (const auto& [source, target] : spec.source_target_pairs) {
      if (source == layout->self) is_source = true;
      if (target == layout->self) sources.push_back(layout->slice[source]);
    }
    const std::string key = sequence.NextKey(
        absl::StrCat(kind, " ", absl::StrJoin(layout->slice, ",")));
    absl::StatusOr<std::unique_ptr<PendingExchange>> pending = context.Start(
        key, kind, layout->slice, is_source ? Pack(tensors) : nullptr, sources);
    if (!pending.ok()) return pending.status();
    return std::make_unique<StartedCollective>(instruction, std::move(tensors),
                                               std::move(sources),
                                               *std::move(pending));
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
  absl::StatusOr<std::unique_ptr<PendingExchange>> pending =
      context.Start(key, kind, group, std::move(payload), sources);
  if (!pending.ok()) return pending.status();
  return std::make_unique<StartedCollective>(
      instruction, std::move(tensors), std::move(group), *std::move(pending));
}

absl::StatusOr<std::vector<TensorValue>> StartedCollective::Finish(
    int64_t process, const Combiner& combine) {
  const OpCode opcode = instruction_.opcode;
  const char* kind = KindName(opcode);
  const ir::CollectiveSpec& spec = instruction_.attributes.collective;
  std::vector<Payload> payloads;
  if (pending_ != nullptr) {
    absl::StatusOr<std::vector<Payload>> received = pending_->Finish();
    if (!received.ok()) return received.status();
    payloads = *std::move(received);
  }
  std::vector<Shape> shapes;
  for (const Literal& l : operands_) shapes.push_back(l.shape());
  if (spec.has_dynamic_root) shapes.pop_back();  // The root indices.
  if (opcode == OpCode::kRecv) {
    shapes.clear();
    for (const ir::ValueType& t : instruction_.result_types) {
      if (t.kind == ir::ValueType::Kind::kTensor) shapes.push_back(t.shape);
    }
  }
  // Every contribution must have this process's layout.
  const size_t expected = TotalBytes(shapes);
  for (size_t i = 0; i < payloads.size(); ++i) {
    if (payloads[i] == nullptr || payloads[i]->size() != expected) {
      std::vector<std::string> types;
      for (const Shape& s : shapes) types.push_back(s.ToString());
      return absl::InvalidArgumentError(absl::StrCat(
          kind, ": process ", process, " expects ", expected, " bytes (",
          absl::StrJoin(types, ", "), ") from ",
          opcode == OpCode::kRecv
              ? "its sender"
              : absl::StrCat("process ", group_.empty() ? -1 : group_[i]),
          ", which sent ",
          payloads[i] == nullptr ? std::string("nothing")
                                 : absl::StrCat(payloads[i]->size(), " bytes"),
          " (do the programs of the launch agree?)"));
    }
  }
  auto tensor_results = [](std::vector<Literal> literals) {
    std::vector<TensorValue> values;
    for (Literal& l : literals)
      values.push_back(TensorValue::Tensor(std::move(l)));
    return values;
  };
  auto reduce = [&](size_t k) -> absl::StatusOr<Literal> {
    if (payloads.size() == 1) return OwnedCopy(Unpack(payloads[0], shapes)[k]);
    if (combine.binary.has_value()) {
      // ((p0 op p1) op p2) ... in one pass: registers 0..n-1 are the
      // contributions, each step folds in the next.
      const int n = static_cast<int>(payloads.size());
      ir::FusedBody body;
      body.num_inputs = n;
      for (int j = 1; j < n; ++j) {
        ir::FusedStep step;
        step.opcode = ir::OpCode::kBinary;
        step.binary = *combine.binary;
        step.inputs = {j == 1 ? 0 : n + j - 2, j};
        step.type = shapes[k].type;
        body.steps.push_back(std::move(step));
      }
      body.outputs = {2 * n - 2};
      std::vector<Literal> inputs;
      for (const Payload& p : payloads) inputs.push_back(Unpack(p, shapes)[k]);
      std::vector<Literal> out = {Literal::ForOverwrite(shapes[k])};
      absl::Status status =
          RunFusedElementwise(body, inputs, absl::MakeSpan(out));
      if (!status.ok()) return status;
      return std::move(out[0]);
    }
    Literal acc = OwnedCopy(Unpack(payloads[0], shapes)[k]);
    for (size_t j = 1; j < payloads.size(); ++j) {
      absl::StatusOr<Literal> next =
          combine.pair(acc, Unpack(payloads[j], shapes)[k]);
      if (!next.ok()) return next.status();
      acc = *std::move(next);
    }
    return acc;
  };
  const size_t index =
      std::find(group_.begin(), group_.end(), process) - group_.begin();

  switch (opcode) {
    case OpCode::kAllReduce: {
      std::vector<Literal> results;
      for (size_t k = 0; k < shapes.size(); ++k) {
        absl::StatusOr<Literal> r = reduce(k);
        if (!r.ok()) return r.status();
        results.push_back(*std::move(r));
      }
      return tensor_results(std::move(results));
    }
    case OpCode::kCollectiveReduce: {
      if (payloads.empty()) {
        return tensor_results({Literal(instruction_.result_types[0].shape)});
      }
      absl::StatusOr<Literal> r = reduce(0);
      if (!r.ok()) return r.status();
      return tensor_results({*std::move(r)});
    }
    case OpCode::kReduceScatter: {
      absl::StatusOr<Literal> r = reduce(0);
      if (!r.ok()) return r.status();
      const Shape& result = instruction_.result_types[0].shape;
      const int64_t dim = instruction_.attributes.dimension;
      std::vector<int64_t> start(result.rank(), 0), limit = result.dims,
                                                    strides(result.rank(), 1);
      start[dim] = static_cast<int64_t>(index) * result.dims[dim];
      limit[dim] = start[dim] + result.dims[dim];
      return tensor_results({Slice(*r, start, limit, strides, result)});
    }
    case OpCode::kAllGather: {
      std::vector<Literal> results;
      for (size_t k = 0; k < shapes.size(); ++k) {
        std::vector<Literal> parts;
        for (const Payload& p : payloads) parts.push_back(Unpack(p, shapes)[k]);
        results.push_back(Concatenate(parts, instruction_.attributes.dimension,
                                      instruction_.result_types[k].shape));
      }
      return tensor_results(std::move(results));
    }
    case OpCode::kAllToAll: {
      std::vector<Literal> results;
      for (size_t k = 0; k < shapes.size(); ++k) {
        const Shape& in = shapes[k];
        const int64_t split = spec.split_dimension;
        const int64_t chunk = in.dims[split] / spec.split_count;
        std::vector<int64_t> start(in.rank(), 0), limit = in.dims,
                                                  strides(in.rank(), 1);
        start[split] = static_cast<int64_t>(index) * chunk;
        limit[split] = start[split] + chunk;
        Shape part_shape = in;
        part_shape.dims[split] = chunk;
        std::vector<Literal> parts;
        for (const Payload& p : payloads) {
          parts.push_back(
              Slice(Unpack(p, shapes)[k], start, limit, strides, part_shape));
        }
        results.push_back(Concatenate(parts, spec.concat_dimension,
                                      instruction_.result_types[k].shape));
      }
      return tensor_results(std::move(results));
    }
    case OpCode::kCollectiveBroadcast:
      if (spec.has_dynamic_root) {
        const Literal& roots = operands_.back();
        std::vector<Literal> results;
        for (size_t k = 0; k < shapes.size(); ++k) {
          const int64_t source = roots.GetInt(static_cast<int64_t>(k));
          if (source < 0 || source >= static_cast<int64_t>(payloads.size())) {
            return absl::InvalidArgumentError(
                absl::StrCat(kind, ": root index ", source, " for operand ", k,
                             " is outside the group of ", payloads.size(),
                             " process(es): ", absl::StrJoin(group_, ", ")));
          }
          results.push_back(OwnedCopy(Unpack(payloads[source], shapes)[k]));
        }
        return tensor_results(std::move(results));
      }
      [[fallthrough]];
    case OpCode::kCollectivePermute: {
      const Shape& result = instruction_.result_types[0].shape;
      if (payloads.empty()) return tensor_results({Literal(result)});
      return tensor_results({OwnedCopy(Unpack(payloads[0], shapes)[0])});
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
