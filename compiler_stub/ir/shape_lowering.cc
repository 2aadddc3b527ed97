// Rules for ops that move or combine elements without regions: broadcast,
// reshape, transpose, slices, concatenate, pad, reverse, dot_general,
// convolution, gather, get_dimension_size. Each infers the result shape as
// the StableHLO spec defines it and checks every index the kernels rely on.
#include <algorithm>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/op_lowering.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

absl::Status Unary(OpState& s, size_t operands = 1) {
  absl::Status status = s.RequireOperands(operands);
  if (status.ok()) status = s.RequireResults(1);
  if (status.ok()) status = s.RequireTensors();
  return status;
}

absl::Status LowerBroadcast(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s));
  PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         s.attributes.Integers("broadcast_dimensions"));
  const Shape& in = s.shape(0);
  const Shape& out = s.result(0);
  if (static_cast<int>(dims.size()) != in.rank()) {
    return s.Error(absl::StrCat("broadcast_dimensions has ", dims.size(),
                                " entries for an operand of rank ", in.rank()));
  }
  PJRTX_RETURN_IF_ERROR(CheckDims(s, "broadcast_dimensions", dims, out.rank()));
  for (int i = 0; i < in.rank(); ++i) {
    if (in.dims[i] != 1 && in.dims[i] != out.dims[dims[i]]) {
      return s.Error(absl::StrCat("operand dimension ", i, " (", in.dims[i],
                                  ") cannot broadcast to result dimension ",
                                  dims[i], " (", out.dims[dims[i]], ")"));
    }
  }
  if (in.type != out.type) return s.Error("element types differ");
  s.instruction.opcode = OpCode::kBroadcastInDim;
  s.instruction.attributes.dims = dims;
  return absl::OkStatus();
}

absl::Status LowerReshape(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s));
  if (s.shape(0).num_elements() != s.result(0).num_elements() ||
      s.shape(0).type != s.result(0).type) {
    return s.Error(absl::StrCat("cannot reshape ", s.shape(0).ToString(),
                                " to ", s.result(0).ToString()));
  }
  s.instruction.opcode = OpCode::kReshape;
  return absl::OkStatus();
}

absl::Status LowerTranspose(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s));
  PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> perm,
                         s.attributes.Integers("permutation"));
  const Shape& in = s.shape(0);
  if (static_cast<int>(perm.size()) != in.rank()) {
    return s.Error("permutation must have one entry per dimension");
  }
  PJRTX_RETURN_IF_ERROR(CheckDims(s, "permutation", perm, in.rank()));
  Shape inferred{in.type, {}};
  for (int64_t p : perm) inferred.dims.push_back(in.dims[p]);
  s.instruction.opcode = OpCode::kTranspose;
  s.instruction.attributes.dims = perm;
  return s.ExpectResult(0, inferred);
}

absl::Status LowerSlice(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s));
  PJRTX_ASSIGN_OR_RETURN(auto start, s.attributes.Integers("start_indices"));
  PJRTX_ASSIGN_OR_RETURN(auto limit, s.attributes.Integers("limit_indices"));
  PJRTX_ASSIGN_OR_RETURN(
      auto strides, s.attributes.Integers(
                        "strides", std::vector<int64_t>(s.shape(0).rank(), 1)));
  const Shape& in = s.shape(0);
  const size_t rank = in.rank();
  if (start.size() != rank || limit.size() != rank || strides.size() != rank) {
    return s.Error(
        "start_indices, limit_indices and strides need one entry "
        "per dimension");
  }
  Shape inferred{in.type, {}};
  for (size_t i = 0; i < rank; ++i) {
    const int64_t b = start[i], e = limit[i], st = strides[i];
    if (b < 0 || b > e || e > in.dims[i] || st <= 0) {
      return s.Error(absl::StrCat("slice [", b, ":", e, ":", st,
                                  "] of dimension ", i, " (size ", in.dims[i],
                                  ") is invalid"));
    }
    inferred.dims.push_back((e - b + st - 1) / st);
  }
  s.instruction.opcode = OpCode::kSlice;
  s.instruction.attributes.start = start;
  s.instruction.attributes.limit = limit;
  s.instruction.attributes.strides = strides;
  return s.ExpectResult(0, inferred);
}

// The scalar integer index operands from position `first`.
absl::Status CheckIndexOperands(const OpState& s, size_t first, int64_t count) {
  if (s.operands.size() != first + count) {
    return s.Error(absl::StrCat("needs ", count,
                                " start index operand(s), "
                                "got ",
                                s.operands.size() - first));
  }
  for (size_t i = first; i < s.operands.size(); ++i) {
    if (!s.shape(i).dims.empty() || !IsInteger(s.shape(i).type)) {
      return s.Error(absl::StrCat("start index ", i - first,
                                  " must be an integer scalar, is ",
                                  s.shape(i).ToString()));
    }
  }
  return absl::OkStatus();
}

absl::Status LowerDynamicSlice(OpState& s) {
  if (s.operands.empty()) return s.RequireOperands(1);
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const Shape& in = s.shape(0);
  PJRTX_RETURN_IF_ERROR(CheckIndexOperands(s, 1, in.rank()));
  PJRTX_ASSIGN_OR_RETURN(auto sizes, s.attributes.Integers("slice_sizes"));
  if (static_cast<int>(sizes.size()) != in.rank()) {
    return s.Error("slice_sizes needs one entry per dimension");
  }
  for (int i = 0; i < in.rank(); ++i) {
    if (sizes[i] < 0 || sizes[i] > in.dims[i]) {
      return s.Error(absl::StrCat("slice size ", sizes[i], " of dimension ", i,
                                  " is outside [0, ", in.dims[i], "]"));
    }
  }
  s.instruction.opcode = OpCode::kDynamicSlice;
  s.instruction.attributes.dims = sizes;
  return s.ExpectResult(0, Shape{in.type, sizes});
}

absl::Status LowerDynamicUpdateSlice(OpState& s) {
  if (s.operands.size() < 2) return s.RequireOperands(2);
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const Shape& in = s.shape(0);
  const Shape& update = s.shape(1);
  PJRTX_RETURN_IF_ERROR(CheckIndexOperands(s, 2, in.rank()));
  if (update.rank() != in.rank() || update.type != in.type) {
    return s.Error("update must have the operand's rank and element type");
  }
  for (int i = 0; i < in.rank(); ++i) {
    if (update.dims[i] > in.dims[i]) {
      return s.Error(absl::StrCat("update dimension ", i, " (", update.dims[i],
                                  ") exceeds the operand's (", in.dims[i],
                                  ")"));
    }
  }
  s.instruction.opcode = OpCode::kDynamicUpdateSlice;
  return s.ExpectResult(0, in);
}

absl::Status LowerConcatenate(OpState& s) {
  if (s.operands.empty()) return s.Error("needs at least one operand");
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  PJRTX_ASSIGN_OR_RETURN(int64_t dim, s.attributes.Integer("dimension"));
  const Shape& first = s.shape(0);
  if (dim < 0 || dim >= first.rank()) {
    return s.Error(absl::StrCat("dimension ", dim,
                                " is out of range for "
                                "rank ",
                                first.rank()));
  }
  Shape inferred = first;
  inferred.dims[dim] = 0;
  for (size_t i = 0; i < s.operands.size(); ++i) {
    const Shape& shape = s.shape(i);
    if (shape.rank() != first.rank() || shape.type != first.type) {
      return s.Error(absl::StrCat("operand ", i, " is ", shape.ToString(),
                                  ", not of ", first.ToString(),
                                  "'s rank "
                                  "and type"));
    }
    for (int d = 0; d < first.rank(); ++d) {
      if (d != dim && shape.dims[d] != first.dims[d]) {
        return s.Error(
            absl::StrCat("operand ", i, " differs in dimension ", d));
      }
    }
    inferred.dims[dim] += shape.dims[dim];
  }
  s.instruction.opcode = OpCode::kConcatenate;
  s.instruction.attributes.dimension = dim;
  return s.ExpectResult(0, inferred);
}

absl::Status LowerPad(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s, 2));
  const Shape& in = s.shape(0);
  if (!s.shape(1).dims.empty() || s.shape(1).type != in.type) {
    return s.Error("padding_value must be a scalar of the operand's type");
  }
  PJRTX_ASSIGN_OR_RETURN(auto low, s.attributes.Integers("edge_padding_low"));
  PJRTX_ASSIGN_OR_RETURN(auto high, s.attributes.Integers("edge_padding_high"));
  PJRTX_ASSIGN_OR_RETURN(auto interior,
                         s.attributes.Integers("interior_padding"));
  const size_t rank = in.rank();
  if (low.size() != rank || high.size() != rank || interior.size() != rank) {
    return s.Error("paddings need one entry per dimension");
  }
  Shape inferred{in.type, {}};
  for (size_t i = 0; i < rank; ++i) {
    if (interior[i] < 0 || interior[i] > (int64_t{1} << 32) ||
        std::abs(low[i]) > (int64_t{1} << 40) ||
        std::abs(high[i]) > (int64_t{1} << 40)) {
      return s.Error(
          absl::StrCat("padding of dimension ", i, " is out of range"));
    }
    const int64_t size = in.dims[i] + low[i] + high[i] +
                         std::max<int64_t>(in.dims[i] - 1, 0) * interior[i];
    if (size < 0) {
      return s.Error(absl::StrCat("padding makes dimension ", i, " negative (",
                                  size, ")"));
    }
    inferred.dims.push_back(size);
  }
  s.instruction.opcode = OpCode::kPad;
  s.instruction.attributes.low = low;
  s.instruction.attributes.high = high;
  s.instruction.attributes.interior = interior;
  return s.ExpectResult(0, inferred);
}

absl::Status LowerReverse(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s));
  PJRTX_ASSIGN_OR_RETURN(auto dims, s.attributes.Integers("dimensions"));
  PJRTX_RETURN_IF_ERROR(CheckDims(s, "dimensions", dims, s.shape(0).rank()));
  s.instruction.opcode = OpCode::kReverse;
  s.instruction.attributes.dims = dims;
  return s.ExpectResult(0, s.shape(0));
}

absl::Status LowerGetDimensionSize(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s));
  PJRTX_ASSIGN_OR_RETURN(auto dim, s.attributes.Integer("dimension"));
  if (dim < 0 || dim >= s.shape(0).rank()) {
    return s.Error(absl::StrCat("dimension ", dim, " is out of range"));
  }
  s.instruction.opcode = OpCode::kGetDimensionSize;
  s.instruction.attributes.dimension = dim;
  return s.ExpectResult(0, Shape{ElementType::kS32, {}});
}

absl::Status LowerDotGeneral(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s, 2));
  const mlir::Attribute* numbers = s.attributes.Find("dot_dimension_numbers");
  if (numbers == nullptr) return s.Error("needs dot_dimension_numbers");
  DotDimensions dims;
  for (auto [key, field] :
       {std::pair{"lhs_batching_dimensions", &dims.lhs_batching},
        std::pair{"rhs_batching_dimensions", &dims.rhs_batching},
        std::pair{"lhs_contracting_dimensions", &dims.lhs_contracting},
        std::pair{"rhs_contracting_dimensions", &dims.rhs_contracting}}) {
    PJRTX_ASSIGN_OR_RETURN(*field, DialectIntegers(*numbers, key, s.op));
  }
  const Shape& lhs = s.shape(0);
  const Shape& rhs = s.shape(1);
  if (dims.lhs_batching.size() != dims.rhs_batching.size() ||
      dims.lhs_contracting.size() != dims.rhs_contracting.size()) {
    return s.Error(
        "lhs and rhs need as many batching and contracting "
        "dimensions");
  }
  std::vector<int64_t> lhs_all = dims.lhs_batching;
  lhs_all.insert(lhs_all.end(), dims.lhs_contracting.begin(),
                 dims.lhs_contracting.end());
  std::vector<int64_t> rhs_all = dims.rhs_batching;
  rhs_all.insert(rhs_all.end(), dims.rhs_contracting.begin(),
                 dims.rhs_contracting.end());
  PJRTX_RETURN_IF_ERROR(
      CheckDims(s, "lhs batching+contracting dimensions", lhs_all, lhs.rank()));
  PJRTX_RETURN_IF_ERROR(
      CheckDims(s, "rhs batching+contracting dimensions", rhs_all, rhs.rank()));
  for (size_t i = 0; i < lhs_all.size(); ++i) {
    if (lhs.dims[lhs_all[i]] != rhs.dims[rhs_all[i]]) {
      return s.Error(absl::StrCat("lhs dimension ", lhs_all[i], " (",
                                  lhs.dims[lhs_all[i]],
                                  ") does not match rhs dimension ", rhs_all[i],
                                  " (", rhs.dims[rhs_all[i]], ")"));
    }
  }
  Shape inferred{s.result(0).type, {}};
  for (int64_t d : dims.lhs_batching) inferred.dims.push_back(lhs.dims[d]);
  for (int d = 0; d < lhs.rank(); ++d) {
    if (std::find(lhs_all.begin(), lhs_all.end(), d) == lhs_all.end()) {
      inferred.dims.push_back(lhs.dims[d]);
    }
  }
  for (int d = 0; d < rhs.rank(); ++d) {
    if (std::find(rhs_all.begin(), rhs_all.end(), d) == rhs_all.end()) {
      inferred.dims.push_back(rhs.dims[d]);
    }
  }
  s.instruction.opcode = OpCode::kDotGeneral;
  s.instruction.attributes.dot = dims;
  return s.ExpectResult(0, inferred);
}

absl::Status LowerGather(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s, 2));
  const mlir::Attribute* numbers = s.attributes.Find("dimension_numbers");
  if (numbers == nullptr) return s.Error("needs dimension_numbers");
  GatherDimensions g;
  for (auto [key, field] :
       {std::pair{"offset_dims", &g.offset_dims},
        std::pair{"collapsed_slice_dims", &g.collapsed_slice_dims},
        std::pair{"operand_batching_dims", &g.operand_batching_dims},
        std::pair{"start_indices_batching_dims",
                  &g.start_indices_batching_dims},
        std::pair{"start_index_map", &g.start_index_map}}) {
    PJRTX_ASSIGN_OR_RETURN(*field, DialectIntegers(*numbers, key, s.op));
  }
  PJRTX_ASSIGN_OR_RETURN(g.index_vector_dim,
                         DialectInteger(*numbers, "index_vector_dim", s.op));
  PJRTX_ASSIGN_OR_RETURN(auto sizes, s.attributes.Integers("slice_sizes"));
  const Shape& operand = s.shape(0);
  const Shape& indices = s.shape(1);
  if (!IsInteger(indices.type))
    return s.Error("start_indices must be integers");
  if (g.index_vector_dim < 0 || g.index_vector_dim > indices.rank()) {
    return s.Error(absl::StrCat("index_vector_dim ", g.index_vector_dim,
                                " is out of range"));
  }
  if (static_cast<int>(sizes.size()) != operand.rank()) {
    return s.Error("slice_sizes needs one entry per operand dimension");
  }
  for (int i = 0; i < operand.rank(); ++i) {
    if (sizes[i] < 0 || sizes[i] > operand.dims[i]) {
      return s.Error(absl::StrCat("slice size ", sizes[i], " of dimension ", i,
                                  " is outside [0, ", operand.dims[i], "]"));
    }
  }
  std::vector<int64_t> removed = g.collapsed_slice_dims;
  removed.insert(removed.end(), g.operand_batching_dims.begin(),
                 g.operand_batching_dims.end());
  PJRTX_RETURN_IF_ERROR(CheckDims(s,
                                  "collapsed_slice_dims+operand_batching_dims",
                                  removed, operand.rank()));
  PJRTX_RETURN_IF_ERROR(
      CheckDims(s, "start_index_map", g.start_index_map, operand.rank()));
  PJRTX_RETURN_IF_ERROR(CheckDims(s, "start_indices_batching_dims",
                                  g.start_indices_batching_dims,
                                  indices.rank()));
  for (int64_t d : g.collapsed_slice_dims) {
    if (sizes[d] > 1) return s.Error("collapsed slice sizes must be <= 1");
  }
  const int64_t index_count = g.index_vector_dim == indices.rank()
                                  ? 1
                                  : indices.dims[g.index_vector_dim];
  if (static_cast<int64_t>(g.start_index_map.size()) != index_count) {
    return s.Error(absl::StrCat("start_index_map has ",
                                g.start_index_map.size(),
                                " entries for index vectors of ", index_count));
  }
  // Result: batch dims (indices without index_vector_dim) interleaved with
  // offset dims (slice sizes not removed) at offset_dims positions.
  std::vector<int64_t> batch;
  for (int d = 0; d < indices.rank(); ++d) {
    if (d != g.index_vector_dim) batch.push_back(indices.dims[d]);
  }
  std::vector<int64_t> offsets;
  for (int d = 0; d < operand.rank(); ++d) {
    if (std::find(removed.begin(), removed.end(), d) == removed.end()) {
      offsets.push_back(sizes[d]);
    }
  }
  const int64_t rank = batch.size() + offsets.size();
  if (offsets.size() != g.offset_dims.size()) {
    return s.Error(absl::StrCat("offset_dims has ", g.offset_dims.size(),
                                " entries, expected ", offsets.size()));
  }
  PJRTX_RETURN_IF_ERROR(CheckDims(s, "offset_dims", g.offset_dims, rank));
  Shape inferred{operand.type, std::vector<int64_t>(rank)};
  size_t next_batch = 0, next_offset = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const bool is_offset = std::find(g.offset_dims.begin(), g.offset_dims.end(),
                                     d) != g.offset_dims.end();
    inferred.dims[d] = is_offset ? offsets[next_offset++] : batch[next_batch++];
  }
  s.instruction.opcode = OpCode::kGather;
  s.instruction.attributes.gather = g;
  s.instruction.attributes.dims = sizes;
  return s.ExpectResult(0, inferred);
}

absl::Status LowerConvolution(OpState& s) {
  PJRTX_RETURN_IF_ERROR(Unary(s, 2));
  const mlir::Attribute* numbers = s.attributes.Find("dimension_numbers");
  if (numbers == nullptr) return s.Error("needs dimension_numbers");
  ConvolutionDimensions d;
  auto field = [&](const char* key, int64_t* out) {
    auto v = DialectInteger(*numbers, key, s.op);
    if (v.ok()) *out = *v;
    return v.status();
  };
  auto list = [&](const char* key, std::vector<int64_t>* out) {
    auto v = DialectIntegers(*numbers, key, s.op);
    if (v.ok()) *out = *v;
    return v.status();
  };
  for (absl::Status st :
       {field("input_batch_dimension", &d.input_batch),
        field("input_feature_dimension", &d.input_feature),
        list("input_spatial_dimensions", &d.input_spatial),
        field("kernel_input_feature_dimension", &d.kernel_input_feature),
        field("kernel_output_feature_dimension", &d.kernel_output_feature),
        list("kernel_spatial_dimensions", &d.kernel_spatial),
        field("output_batch_dimension", &d.output_batch),
        field("output_feature_dimension", &d.output_feature),
        list("output_spatial_dimensions", &d.output_spatial)}) {
    if (!st.ok()) return st;
  }
  const Shape& lhs = s.shape(0);
  const Shape& rhs = s.shape(1);
  const size_t n = d.input_spatial.size();
  if (d.kernel_spatial.size() != n || d.output_spatial.size() != n ||
      lhs.rank() != static_cast<int>(n + 2) || rhs.rank() != lhs.rank() ||
      s.result(0).rank() != lhs.rank()) {
    return s.Error("input, kernel and output need rank 2 + spatial dims");
  }
  std::vector<int64_t> in_dims = {d.input_batch, d.input_feature};
  in_dims.insert(in_dims.end(), d.input_spatial.begin(), d.input_spatial.end());
  std::vector<int64_t> k_dims = {d.kernel_input_feature,
                                 d.kernel_output_feature};
  k_dims.insert(k_dims.end(), d.kernel_spatial.begin(), d.kernel_spatial.end());
  std::vector<int64_t> o_dims = {d.output_batch, d.output_feature};
  o_dims.insert(o_dims.end(), d.output_spatial.begin(), d.output_spatial.end());
  PJRTX_RETURN_IF_ERROR(CheckDims(s, "input dimensions", in_dims, lhs.rank()));
  PJRTX_RETURN_IF_ERROR(CheckDims(s, "kernel dimensions", k_dims, rhs.rank()));
  PJRTX_RETURN_IF_ERROR(
      CheckDims(s, "output dimensions", o_dims, s.result(0).rank()));
  ConvolutionWindow w;
  PJRTX_ASSIGN_OR_RETURN(
      auto strides,
      s.attributes.Integers("window_strides", std::vector<int64_t>(n, 1)));
  PJRTX_ASSIGN_OR_RETURN(
      auto padding,
      s.attributes.Pairs("padding",
                         std::vector<std::pair<int64_t, int64_t>>(n, {0, 0})));
  PJRTX_ASSIGN_OR_RETURN(
      auto lhs_dil,
      s.attributes.Integers("lhs_dilation", std::vector<int64_t>(n, 1)));
  PJRTX_ASSIGN_OR_RETURN(
      auto rhs_dil,
      s.attributes.Integers("rhs_dilation", std::vector<int64_t>(n, 1)));
  PJRTX_ASSIGN_OR_RETURN(
      auto reversal,
      s.attributes.Bools("window_reversal", std::vector<bool>(n, false)));
  PJRTX_ASSIGN_OR_RETURN(auto fgc,
                         s.attributes.Integer("feature_group_count", 1));
  PJRTX_ASSIGN_OR_RETURN(auto bgc,
                         s.attributes.Integer("batch_group_count", 1));
  if (strides.size() != n || padding.size() != n || lhs_dil.size() != n ||
      rhs_dil.size() != n || reversal.size() != n) {
    return s.Error("window attributes need one entry per spatial dimension");
  }
  if (fgc < 1 || bgc < 1 || lhs.dims[d.input_feature] % fgc != 0 ||
      rhs.dims[d.kernel_output_feature] % fgc != 0 ||
      rhs.dims[d.kernel_output_feature] % bgc != 0 ||
      lhs.dims[d.input_batch] % bgc != 0 ||
      lhs.dims[d.input_feature] / fgc != rhs.dims[d.kernel_input_feature]) {
    return s.Error(
        "feature_group_count / batch_group_count do not divide the "
        "feature and batch dimensions consistently");
  }
  Shape inferred{s.result(0).type, std::vector<int64_t>(lhs.rank())};
  inferred.dims[d.output_batch] = lhs.dims[d.input_batch] / bgc;
  inferred.dims[d.output_feature] = rhs.dims[d.kernel_output_feature];
  for (size_t i = 0; i < n; ++i) {
    const int64_t stride = strides[i], ld = lhs_dil[i], rd = rhs_dil[i];
    if (stride < 1 || ld < 1 || rd < 1) {
      return s.Error("strides and dilations must be positive");
    }
    const int64_t in = lhs.dims[d.input_spatial[i]];
    const int64_t k = rhs.dims[d.kernel_spatial[i]];
    const int64_t dilated_in = in == 0 ? 0 : (in - 1) * ld + 1;
    const int64_t padded = dilated_in + padding[i].first + padding[i].second;
    const int64_t dilated_k = k == 0 ? 0 : (k - 1) * rd + 1;
    const int64_t out =
        padded < dilated_k ? 0 : (padded - dilated_k) / stride + 1;
    inferred.dims[d.output_spatial[i]] = out;
  }
  s.instruction.opcode = OpCode::kConvolution;
  s.instruction.attributes.convolution = d;
  s.instruction.attributes.convolution_window =
      ConvolutionWindow{strides, padding, lhs_dil, rhs_dil, reversal};
  s.instruction.attributes.feature_group_count = fgc;
  s.instruction.attributes.batch_group_count = bgc;
  return s.ExpectResult(0, inferred);
}

}  // namespace

bool LowerShapeOp(OpState& s, absl::Status* status) {
  const std::string& name = s.op.name;
  if (name == "stablehlo.broadcast_in_dim") {
    *status = LowerBroadcast(s);
  } else if (name == "stablehlo.reshape") {
    *status = LowerReshape(s);
  } else if (name == "stablehlo.transpose") {
    *status = LowerTranspose(s);
  } else if (name == "stablehlo.slice") {
    *status = LowerSlice(s);
  } else if (name == "stablehlo.dynamic_slice") {
    *status = LowerDynamicSlice(s);
  } else if (name == "stablehlo.dynamic_update_slice") {
    *status = LowerDynamicUpdateSlice(s);
  } else if (name == "stablehlo.concatenate") {
    *status = LowerConcatenate(s);
  } else if (name == "stablehlo.pad") {
    *status = LowerPad(s);
  } else if (name == "stablehlo.reverse") {
    *status = LowerReverse(s);
  } else if (name == "stablehlo.get_dimension_size") {
    *status = LowerGetDimensionSize(s);
  } else if (name == "stablehlo.dot_general") {
    *status = LowerDotGeneral(s);
  } else if (name == "stablehlo.gather") {
    *status = LowerGather(s);
  } else if (name == "stablehlo.convolution") {
    *status = LowerConvolution(s);
  } else {
    return false;
  }
  return true;
}

}  // namespace pjrtx::ir
