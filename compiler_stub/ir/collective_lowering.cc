// Rules for collectives, send/recv and the process ids. The compiler only
// verifies them and records how they pick their processes (CollectiveSpec);
// the runtime moves the data. What depends on the launch (how many
// processes there are, which ids replica_groups may name) is checked by
// the runtime, which knows it.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/op_lowering.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

using Groups = std::vector<std::vector<int64_t>>;

std::string RowText(const std::vector<int64_t>& row) {
  return absl::StrCat("[", absl::StrJoin(row, ", "), "]");
}

// replica_groups: a dense RxC integer tensor whose ragged rows end in -1
// padding. Absent or empty means "all processes", which only the runtime
// can spell out.
absl::StatusOr<Groups> ReadReplicaGroups(const OpState& s) {
  const mlir::Attribute* a = s.attributes.Find("replica_groups");
  if (a == nullptr) return Groups{};
  if (a->kind != mlir::Attribute::Kind::kDenseElements ||
      a->type.kind != mlir::Type::Kind::kTensor || a->type.dims.size() != 2) {
    return s.Error(absl::StrCat("replica_groups is '", a->text,
                                "', expected dense<[[...], ...]> : "
                                "tensor<RxCxi64>"));
  }
  const int64_t rows = a->type.dims[0];
  const int64_t columns = a->type.dims[1];
  if (rows <= 0 || columns <= 0) return Groups{};
  PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> flat,
                         s.attributes.Integers("replica_groups"));
  // Integers() fills a splat out to the declared shape, so anything else
  // is a literal that disagrees with its type.
  const int64_t size = static_cast<int64_t>(flat.size());
  if (size % columns != 0 || size / columns != rows) {
    return s.Error(absl::StrCat("replica_groups has ", flat.size(),
                                " ids for a tensor<", rows, "x", columns, "> (",
                                a->text, ")"));
  }
  Groups groups;
  std::set<int64_t> seen;
  for (int64_t r = 0; r < rows; ++r) {
    const std::vector<int64_t> row(flat.begin() + r * columns,
                                   flat.begin() + (r + 1) * columns);
    std::vector<int64_t> ids;
    bool padding = false;
    for (int64_t id : row) {
      if (id == -1) {
        padding = true;
        continue;
      }
      if (id < 0) {
        return s.Error(absl::StrCat("replica_groups row ", r, " ", RowText(row),
                                    " has id ", id,
                                    "; ids must be >= 0 (-1 only pads "
                                    "the end of a row)"));
      }
      if (padding) {
        return s.Error(absl::StrCat("replica_groups row ", r, " ", RowText(row),
                                    " has id ", id,
                                    " after -1 padding; -1 may only pad "
                                    "the end of a row"));
      }
      if (!seen.insert(id).second) {
        return s.Error(absl::StrCat("replica_groups names id ", id,
                                    " twice; an id may be in one group "
                                    "only"));
      }
      ids.push_back(id);
    }
    if (ids.empty()) {
      return s.Error(absl::StrCat("replica_groups row ", r, " ", RowText(row),
                                  " is only padding"));
    }
    groups.push_back(std::move(ids));
  }
  return groups;
}

// channel_handle: #stablehlo.channel_handle<handle = H, type = T>.
absl::Status ReadChannel(const OpState& s, bool required,
                         CollectiveSpec* spec) {
  const mlir::Attribute* a = s.attributes.Find("channel_handle");
  if (a == nullptr) {
    if (!required) return absl::OkStatus();
    return s.Error(
        "needs a channel_handle = "
        "#stablehlo.channel_handle<handle = H, type = T>");
  }
  if (a->kind != mlir::Attribute::Kind::kDialect ||
      a->mnemonic != "channel_handle") {
    return s.Error(absl::StrCat("channel_handle is '", a->text,
                                "', expected #stablehlo.channel_handle<"
                                "handle = H, type = T>"));
  }
  PJRTX_ASSIGN_OR_RETURN(int64_t handle, DialectInteger(*a, "handle", s.op));
  PJRTX_ASSIGN_OR_RETURN(int64_t type, DialectInteger(*a, "type", s.op, 0));
  // The ChannelType enum: invalid, device to device, device to host, host
  // to device.
  if (type < 0 || type > 3) {
    return s.Error(absl::StrCat("channel_handle type ", type,
                                " is not a channel type (0 to 3)"));
  }
  spec->channel_id = handle;
  spec->channel_type = type;
  return absl::OkStatus();
}

// replica_groups, channel_handle and use_global_device_ids, which the
// all_* ops share.
absl::Status ReadProcessGroups(OpState& s, bool has_global_ids) {
  CollectiveSpec& spec = s.instruction.attributes.collective;
  PJRTX_ASSIGN_OR_RETURN(spec.replica_groups, ReadReplicaGroups(s));
  PJRTX_RETURN_IF_ERROR(ReadChannel(s, /*required=*/false, &spec));
  if (!has_global_ids) return absl::OkStatus();
  PJRTX_ASSIGN_OR_RETURN(bool global,
                         s.attributes.Bool("use_global_device_ids",
                                           /*default_value=*/false));
  // Flattened ids number processes across partitions, which only a
  // channel (a cross-partition op) has.
  if (global && spec.channel_id <= 0) {
    return s.Error(
        absl::StrCat("use_global_device_ids needs a "
                     "channel_handle with handle > 0, has ",
                     spec.channel_id));
  }
  spec.use_global_device_ids = global;
  return absl::OkStatus();
}

// Ops without regions must not bring one; ops with a combiner bring one.
absl::Status RequireRegions(const OpState& s, size_t count) {
  if (s.op.regions.size() != count) {
    return s.Error(
        absl::StrCat("takes ", count, " region(s), has ", s.op.regions.size()));
  }
  return absl::OkStatus();
}

// N >= 1 tensor operands (exactly `exact` when non-zero) and as many
// tensor results.
absl::Status RequireVariadic(const OpState& s, size_t exact) {
  absl::Status status;
  if (exact > 0) {
    status = s.RequireOperands(exact);
  } else if (s.operands.empty()) {
    status = s.Error("needs at least one operand");
  }
  if (status.ok()) status = s.RequireResults(s.operands.size());
  if (status.ok()) status = s.RequireTensors();
  return status;
}

absl::Status CheckDimension(const OpState& s, const char* name, int64_t dim,
                            int rank) {
  if (dim < 0 || dim >= rank) {
    return s.Error(absl::StrCat(name, " ", dim, " is out of range for rank ",
                                rank, " (must be in [0, ", rank, "))"));
  }
  return absl::OkStatus();
}

// A combiner region (T, T) -> T over the operands' one element type.
absl::Status LowerCombiner(OpState& s) {
  const ElementType type = s.shape(0).type;
  for (size_t i = 1; i < s.operands.size(); ++i) {
    if (s.shape(i).type != type) {
      return s.Error(absl::StrCat(
          "operand ", i, " has element type ",
          ElementTypeToMlir(s.shape(i).type), " but operand 0 has ",
          ElementTypeToMlir(type), "; one region combines them all"));
    }
  }
  PJRTX_RETURN_IF_ERROR(RequireRegions(s, 1));
  PJRTX_ASSIGN_OR_RETURN(int region, s.ScalarRegion(0, {type, type}, {type}));
  s.instruction.regions = {region};
  return absl::OkStatus();
}

absl::Status LowerProcessId(OpState& s, OpCode opcode) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(0));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  const ValueType& result = s.result_types[0];
  if (result.kind != ValueType::Kind::kTensor || !result.shape.dims.empty() ||
      result.shape.type != ElementType::kU32) {
    return s.Error(absl::StrCat("result type ", result.ToString(),
                                " should be tensor<ui32>"));
  }
  s.instruction.opcode = opcode;
  return absl::OkStatus();
}

// all_reduce (any number of operands) and collective_reduce (one).
absl::Status LowerAllReduce(OpState& s, OpCode opcode) {
  PJRTX_RETURN_IF_ERROR(
      RequireVariadic(s, opcode == OpCode::kCollectiveReduce ? 1 : 0));
  for (size_t i = 0; i < s.operands.size(); ++i) {
    PJRTX_RETURN_IF_ERROR(s.ExpectResult(static_cast<int>(i), s.shape(i)));
  }
  PJRTX_RETURN_IF_ERROR(ReadProcessGroups(s, /*has_global_ids=*/true));
  PJRTX_RETURN_IF_ERROR(LowerCombiner(s));
  s.instruction.opcode = opcode;
  return absl::OkStatus();
}

// The result of operand `i` must be its shape with dimension `dim` changed
// by a whole factor: multiplied (all_gather) or divided (reduce_scatter).
absl::Status CheckScaledResult(const OpState& s, size_t i, int64_t dim,
                               bool multiplied) {
  const Shape& in = s.shape(i);
  const Shape& out = s.result(i);
  bool scaled = in.type == out.type && in.rank() == out.rank();
  for (int d = 0; scaled && d < in.rank(); ++d) {
    if (d != dim) scaled = in.dims[d] == out.dims[d];
  }
  if (!scaled) {
    return s.Error(absl::StrCat("result ", i, " type ", out.ToString(),
                                " should be ", in.ToString(),
                                " except at dimension ", dim));
  }
  const int64_t whole = multiplied ? out.dims[dim] : in.dims[dim];
  const int64_t part = multiplied ? in.dims[dim] : out.dims[dim];
  // A group has at least one process, so the part is never larger; a
  // zero part only divides a zero whole.
  const bool ok = part == 0 ? whole == 0 : whole % part == 0;
  if (!ok) {
    return s.Error(absl::StrCat(
        "result ", i, " dimension ", dim, " (", out.dims[dim], ") should be ",
        multiplied ? "a multiple of" : "a divisor of", " operand dimension ",
        dim, " (", in.dims[dim], ")"));
  }
  return absl::OkStatus();
}

absl::Status LowerAllGather(OpState& s) {
  PJRTX_RETURN_IF_ERROR(RequireVariadic(s, 0));
  PJRTX_RETURN_IF_ERROR(RequireRegions(s, 0));
  PJRTX_ASSIGN_OR_RETURN(int64_t dim, s.attributes.Integer("all_gather_dim"));
  for (size_t i = 0; i < s.operands.size(); ++i) {
    PJRTX_RETURN_IF_ERROR(
        CheckDimension(s, "all_gather_dim", dim, s.shape(i).rank()));
    PJRTX_RETURN_IF_ERROR(CheckScaledResult(s, i, dim, true));
  }
  PJRTX_RETURN_IF_ERROR(ReadProcessGroups(s, /*has_global_ids=*/true));
  s.instruction.opcode = OpCode::kAllGather;
  s.instruction.attributes.dimension = dim;
  return absl::OkStatus();
}

absl::Status LowerReduceScatter(OpState& s) {
  PJRTX_RETURN_IF_ERROR(RequireVariadic(s, 1));
  PJRTX_ASSIGN_OR_RETURN(int64_t dim,
                         s.attributes.Integer("scatter_dimension"));
  PJRTX_RETURN_IF_ERROR(
      CheckDimension(s, "scatter_dimension", dim, s.shape(0).rank()));
  PJRTX_RETURN_IF_ERROR(CheckScaledResult(s, 0, dim, false));
  PJRTX_RETURN_IF_ERROR(ReadProcessGroups(s, /*has_global_ids=*/true));
  PJRTX_RETURN_IF_ERROR(LowerCombiner(s));
  s.instruction.opcode = OpCode::kReduceScatter;
  s.instruction.attributes.dimension = dim;
  return absl::OkStatus();
}

absl::Status LowerAllToAll(OpState& s) {
  PJRTX_RETURN_IF_ERROR(RequireVariadic(s, 0));
  PJRTX_RETURN_IF_ERROR(RequireRegions(s, 0));
  PJRTX_ASSIGN_OR_RETURN(int64_t split,
                         s.attributes.Integer("split_dimension"));
  PJRTX_ASSIGN_OR_RETURN(int64_t concat,
                         s.attributes.Integer("concat_dimension"));
  PJRTX_ASSIGN_OR_RETURN(int64_t count, s.attributes.Integer("split_count"));
  if (count <= 0) {
    return s.Error(absl::StrCat("split_count ", count, " must be > 0"));
  }
  for (size_t i = 0; i < s.operands.size(); ++i) {
    const Shape& in = s.shape(i);
    PJRTX_RETURN_IF_ERROR(
        CheckDimension(s, "split_dimension", split, in.rank()));
    PJRTX_RETURN_IF_ERROR(
        CheckDimension(s, "concat_dimension", concat, in.rank()));
    if (in.dims[split] % count != 0) {
      return s.Error(absl::StrCat("operand ", i, " dimension ", split, " (",
                                  in.dims[split],
                                  ") is not divisible by split_count ", count));
    }
    Shape out = in;
    out.dims[split] /= count;
    if (out.dims[concat] > (int64_t{1} << 40) / count) {
      return s.Error(absl::StrCat("operand ", i, " dimension ", concat,
                                  " times split_count ", count,
                                  " is too large"));
    }
    out.dims[concat] *= count;
    PJRTX_RETURN_IF_ERROR(s.ExpectResult(static_cast<int>(i), out));
  }
  PJRTX_RETURN_IF_ERROR(ReadProcessGroups(s, /*has_global_ids=*/false));
  CollectiveSpec& spec = s.instruction.attributes.collective;
  spec.split_dimension = split;
  spec.concat_dimension = concat;
  spec.split_count = count;
  s.instruction.opcode = OpCode::kAllToAll;
  return absl::OkStatus();
}

// One operand, one result of its type, no region.
absl::Status RequireSameTypeUnary(const OpState& s) {
  absl::Status status = RequireVariadic(s, 1);
  if (status.ok()) status = RequireRegions(s, 0);
  if (status.ok()) status = s.ExpectResult(0, s.shape(0));
  return status;
}

absl::Status LowerCollectivePermute(OpState& s) {
  PJRTX_RETURN_IF_ERROR(RequireSameTypeUnary(s));
  const mlir::Attribute* a = s.attributes.Find("source_target_pairs");
  if (a != nullptr && a->kind == mlir::Attribute::Kind::kDenseElements &&
      (a->type.dims.size() != 2 || a->type.dims[1] != 2)) {
    return s.Error(absl::StrCat("source_target_pairs is '", a->text,
                                "', expected dense<[[source, target], "
                                "...]> : tensor<Nx2xi64>"));
  }
  PJRTX_ASSIGN_OR_RETURN(auto pairs, s.attributes.Pairs("source_target_pairs"));
  std::set<int64_t> sources, targets;
  for (const auto& [source, target] : pairs) {
    if (source < 0 || target < 0) {
      return s.Error(absl::StrCat("source_target_pairs has [", source, ", ",
                                  target, "]; process ids must be >= 0"));
    }
    if (!sources.insert(source).second) {
      return s.Error(
          absl::StrCat("source_target_pairs names source ", source, " twice"));
    }
    if (!targets.insert(target).second) {
      return s.Error(
          absl::StrCat("source_target_pairs names target ", target, " twice"));
    }
  }
  CollectiveSpec& spec = s.instruction.attributes.collective;
  spec.source_target_pairs = std::move(pairs);
  PJRTX_RETURN_IF_ERROR(ReadChannel(s, /*required=*/false, &spec));
  s.instruction.opcode = OpCode::kCollectivePermute;
  return absl::OkStatus();
}

absl::Status LowerCollectiveBroadcast(OpState& s) {
  if (!s.attributes.Has("has_dynamic_root")) {
    PJRTX_RETURN_IF_ERROR(RequireSameTypeUnary(s));
    PJRTX_RETURN_IF_ERROR(ReadProcessGroups(s, /*has_global_ids=*/false));
    s.instruction.opcode = OpCode::kCollectiveBroadcast;
    return absl::OkStatus();
  }
  // has_dynamic_root: data operands, then a tensor<Nxi32> whose entry k
  // picks (by index into the process group) the source of data operand k.
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  if (s.operands.size() < 2) {
    return s.Error(
        "with has_dynamic_root takes the data operands, then the root "
        "indices");
  }
  const size_t n = s.operands.size() - 1;
  const Shape& roots = s.shape(static_cast<int>(n));
  if (roots.rank() != 1 || roots.dims[0] != static_cast<int64_t>(n) ||
      roots.type != ElementType::kS32) {
    return s.Error(absl::StrCat("root indices are ", roots.ToString(),
                                ", expected tensor<", n,
                                "xi32> (one per data operand)"));
  }
  PJRTX_RETURN_IF_ERROR(s.RequireResults(n));
  for (size_t i = 0; i < n; ++i) {
    PJRTX_RETURN_IF_ERROR(
        s.ExpectResult(static_cast<int>(i), s.shape(static_cast<int>(i))));
  }
  PJRTX_RETURN_IF_ERROR(RequireRegions(s, 0));
  PJRTX_RETURN_IF_ERROR(ReadProcessGroups(s, /*has_global_ids=*/false));
  s.instruction.opcode = OpCode::kCollectiveBroadcast;
  s.instruction.attributes.collective.has_dynamic_root = true;
  return absl::OkStatus();
}

// The channel and direction of a send or recv.
absl::Status ReadTransfer(OpState& s) {
  CollectiveSpec& spec = s.instruction.attributes.collective;
  PJRTX_RETURN_IF_ERROR(ReadChannel(s, /*required=*/true, &spec));
  PJRTX_ASSIGN_OR_RETURN(bool host, s.attributes.Bool("is_host_transfer",
                                                      /*default_value=*/false));
  spec.is_host_transfer = host;
  return RequireRegions(s, 0);
}

bool IsToken(const ValueType& type) {
  return type.kind == ValueType::Kind::kToken;
}

// Values that travel (all but the trailing token) must be tensors.
absl::Status RequireTensorsBeforeToken(const OpState& s,
                                       const std::vector<ValueType>& types,
                                       const char* what) {
  for (size_t i = 0; i + 1 < types.size(); ++i) {
    if (types[i].kind != ValueType::Kind::kTensor) {
      return s.Error(absl::StrCat(what, " ", i, " must be a tensor, got ",
                                  types[i].ToString()));
    }
  }
  return absl::OkStatus();
}

absl::Status LowerSend(OpState& s) {
  std::vector<ValueType> types;
  for (const ScopedValue& v : s.operands) types.push_back(v.type);
  if (types.empty() || !IsToken(types.back())) {
    return s.Error(
        absl::StrCat("last operand must be a !stablehlo.token, got ",
                     types.empty() ? "no operands" : types.back().ToString()));
  }
  PJRTX_RETURN_IF_ERROR(RequireTensorsBeforeToken(s, types, "operand"));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  if (!IsToken(s.result_types[0])) {
    return s.Error(absl::StrCat("result type ", s.result_types[0].ToString(),
                                " should be !stablehlo.token"));
  }
  PJRTX_RETURN_IF_ERROR(ReadTransfer(s));
  s.instruction.opcode = OpCode::kSend;
  return absl::OkStatus();
}

absl::Status LowerRecv(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(1));
  if (!IsToken(s.operands[0].type)) {
    return s.Error(absl::StrCat("operand must be a !stablehlo.token, got ",
                                s.operands[0].type.ToString()));
  }
  const std::vector<ValueType>& types = s.result_types;
  if (types.empty() || !IsToken(types.back())) {
    return s.Error(
        absl::StrCat("last result must be a !stablehlo.token, got ",
                     types.empty() ? "no results" : types.back().ToString()));
  }
  PJRTX_RETURN_IF_ERROR(RequireTensorsBeforeToken(s, types, "result"));
  PJRTX_RETURN_IF_ERROR(ReadTransfer(s));
  s.instruction.opcode = OpCode::kRecv;
  return absl::OkStatus();
}

}  // namespace

bool LowerCollectiveOp(OpState& s, absl::Status* status) {
  const std::string& name = s.op.name;
  if (name == "stablehlo.replica_id") {
    *status = LowerProcessId(s, OpCode::kReplicaId);
  } else if (name == "stablehlo.partition_id") {
    *status = LowerProcessId(s, OpCode::kPartitionId);
  } else if (name == "stablehlo.all_reduce") {
    *status = LowerAllReduce(s, OpCode::kAllReduce);
  } else if (name == "stablehlo.collective_reduce") {
    *status = LowerAllReduce(s, OpCode::kCollectiveReduce);
  } else if (name == "stablehlo.all_gather") {
    *status = LowerAllGather(s);
  } else if (name == "stablehlo.reduce_scatter") {
    *status = LowerReduceScatter(s);
  } else if (name == "stablehlo.all_to_all") {
    *status = LowerAllToAll(s);
  } else if (name == "stablehlo.collective_permute") {
    *status = LowerCollectivePermute(s);
  } else if (name == "stablehlo.collective_broadcast") {
    *status = LowerCollectiveBroadcast(s);
  } else if (name == "stablehlo.send") {
    *status = LowerSend(s);
  } else if (name == "stablehlo.recv") {
    *status = LowerRecv(s);
  } else {
    return false;
  }
  return true;
}

}  // namespace pjrtx::ir
