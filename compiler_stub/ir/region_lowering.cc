// Rules for ops with regions: reductions, sort, map, scatter and control
// flow.
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/type_conversion.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

// Splits variadic operands into inputs and init values (N each).
absl::Status SplitInputsAndInits(const OpState& s, size_t* n) {
  if (s.operands.empty() || s.operands.size() % 2 != 0) {
    return s.Error("needs N inputs followed by N init values");
  }
  *n = s.operands.size() / 2;
  if (s.result_types.size() != *n) {
    return s.Error(absl::StrCat("has ", *n, " inputs but ",
                                s.result_types.size(), " results"));
  }
  for (size_t i = 0; i < *n; ++i) {
    const Shape& init = s.shape(*n + i);
    if (!init.dims.empty() || init.type != s.shape(i).type) {
      return s.Error(absl::StrCat("init value ", i, " must be a scalar of ",
                                  ElementTypeToMlir(s.shape(i).type)));
    }
    if (s.shape(i).dims != s.shape(0).dims) {
      return s.Error("inputs must have the same shape");
    }
  }
  return absl::OkStatus();
}

std::vector<ElementType> Twice(const std::vector<ElementType>& types) {
  std::vector<ElementType> both = types;
  both.insert(both.end(), types.begin(), types.end());
  return both;
}

std::vector<ElementType> InputTypes(const OpState& s, size_t n) {
  std::vector<ElementType> types;
  for (size_t i = 0; i < n; ++i) types.push_back(s.shape(i).type);
  return types;
}

absl::Status LowerReduce(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  size_t n = 0;
  PJRTX_RETURN_IF_ERROR(SplitInputsAndInits(s, &n));
  PJRTX_ASSIGN_OR_RETURN(auto dims, s.attributes.Integers("dimensions"));
  const Shape& in = s.shape(0);
  std::vector<int64_t> sorted = dims;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end() ||
      (!sorted.empty() && (sorted.front() < 0 || sorted.back() >= in.rank()))) {
    return s.Error("dimensions must be distinct and within the input rank");
  }
  std::vector<int64_t> kept;
  for (int d = 0; d < in.rank(); ++d) {
    if (!std::binary_search(sorted.begin(), sorted.end(), d)) {
      kept.push_back(in.dims[d]);
    }
  }
  const std::vector<ElementType> types = InputTypes(s, n);
  for (size_t i = 0; i < n; ++i) {
    PJRTX_RETURN_IF_ERROR(
        s.ExpectResult(static_cast<int>(i), Shape{types[i], kept}));
  }
  PJRTX_ASSIGN_OR_RETURN(auto body, s.ScalarRegion(0, Twice(types), types));
  s.instruction.opcode = OpCode::kReduce;
  s.instruction.attributes.dims = dims;
  s.instruction.regions = {body};
  return absl::OkStatus();
}

absl::StatusOr<WindowSpec> ReadWindow(OpState& s, int rank,
                                      const char* dims_name,
                                      const char* strides_name) {
  WindowSpec w;
  PJRTX_ASSIGN_OR_RETURN(auto dims, s.attributes.Integers(dims_name));
  PJRTX_ASSIGN_OR_RETURN(
      auto strides,
      s.attributes.Integers(strides_name, std::vector<int64_t>(rank, 1)));
  PJRTX_ASSIGN_OR_RETURN(
      auto base,
      s.attributes.Integers("base_dilations", std::vector<int64_t>(rank, 1)));
  PJRTX_ASSIGN_OR_RETURN(
      auto window,
      s.attributes.Integers("window_dilations", std::vector<int64_t>(rank, 1)));
  PJRTX_ASSIGN_OR_RETURN(
      auto padding,
      s.attributes.Pairs(
          "padding", std::vector<std::pair<int64_t, int64_t>>(rank, {0, 0})));
  const size_t r = rank;
  if (dims.size() != r || strides.size() != r || base.size() != r ||
      window.size() != r || padding.size() != r) {
    return s.Error("window attributes need one entry per dimension");
  }
  for (size_t i = 0; i < r; ++i) {
    if (dims[i] < 1 || strides[i] < 1 || base[i] < 1 || window[i] < 1 ||
        std::abs(padding[i].first) > (1 << 30) ||
        std::abs(padding[i].second) > (1 << 30)) {
      return s.Error(absl::StrCat("window of dimension ", i,
                                  " has a non-positive size, stride or "
                                  "dilation, or huge padding"));
    }
  }
  w.dimensions = dims;
  w.strides = strides;
  w.base_dilations = base;
  w.window_dilations = window;
  w.padding = padding;
  return w;
}

std::vector<int64_t> WindowedShape(const std::vector<int64_t>& in,
                                   const WindowSpec& w) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t dilated =
        in[i] == 0 ? 0 : (in[i] - 1) * w.base_dilations[i] + 1;
    const int64_t padded = dilated + w.padding[i].first + w.padding[i].second;
    const int64_t window = (w.dimensions[i] - 1) * w.window_dilations[i] + 1;
    out.push_back(padded < window ? 0 : (padded - window) / w.strides[i] + 1);
  }
  return out;
}

absl::Status LowerReduceWindow(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  size_t n = 0;
  PJRTX_RETURN_IF_ERROR(SplitInputsAndInits(s, &n));
  PJRTX_ASSIGN_OR_RETURN(
      auto window,
      ReadWindow(s, s.shape(0).rank(), "window_dimensions", "window_strides"));
  const std::vector<ElementType> types = InputTypes(s, n);
  const std::vector<int64_t> out = WindowedShape(s.shape(0).dims, window);
  for (size_t i = 0; i < n; ++i) {
    PJRTX_RETURN_IF_ERROR(
        s.ExpectResult(static_cast<int>(i), Shape{types[i], out}));
  }
  PJRTX_ASSIGN_OR_RETURN(auto body, s.ScalarRegion(0, Twice(types), types));
  s.instruction.opcode = OpCode::kReduceWindow;
  s.instruction.attributes.window = window;
  s.instruction.regions = {body};
  return absl::OkStatus();
}

absl::Status LowerSelectAndScatter(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(3));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const Shape& operand = s.shape(0);
  PJRTX_ASSIGN_OR_RETURN(
      auto window,
      ReadWindow(s, operand.rank(), "window_dimensions", "window_strides"));
  if (!(s.shape(1).dims == WindowedShape(operand.dims, window))) {
    return s.Error(absl::StrCat("source ", s.shape(1).ToString(),
                                " does not match the windows of the operand"));
  }
  if (!s.shape(2).dims.empty() || s.shape(2).type != s.shape(1).type) {
    return s.Error("init_value must be a scalar of the source's type");
  }
  PJRTX_RETURN_IF_ERROR(
      s.ExpectResult(0, Shape{s.shape(1).type, operand.dims}));
  PJRTX_ASSIGN_OR_RETURN(
      auto select,
      s.ScalarRegion(0, {operand.type, operand.type}, {ElementType::kPred}));
  PJRTX_ASSIGN_OR_RETURN(
      auto scatter,
      s.ScalarRegion(1, {s.shape(1).type, s.shape(1).type}, {s.shape(1).type}));
  s.instruction.opcode = OpCode::kSelectAndScatter;
  s.instruction.attributes.window = window;
  s.instruction.regions = {select, scatter};
  return absl::OkStatus();
}

absl::Status LowerSort(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  if (s.operands.empty() || s.result_types.size() != s.operands.size()) {
    return s.Error("needs operands and as many results");
  }
  const Shape& first = s.shape(0);
  for (size_t i = 0; i < s.operands.size(); ++i) {
    if (s.shape(i).dims != first.dims) {
      return s.Error("operands must have the same shape");
    }
    PJRTX_RETURN_IF_ERROR(s.ExpectResult(static_cast<int>(i), s.shape(i)));
  }
  PJRTX_ASSIGN_OR_RETURN(auto dim, s.attributes.Integer("dimension", -1));
  PJRTX_ASSIGN_OR_RETURN(auto stable, s.attributes.Bool("is_stable", false));
  int64_t d = dim < 0 ? dim + first.rank() : dim;
  if (d < 0 || d >= first.rank()) {
    return s.Error(absl::StrCat("dimension ", dim,
                                " is out of range for "
                                "rank ",
                                first.rank()));
  }
  std::vector<ElementType> params;
  for (size_t i = 0; i < s.operands.size(); ++i) {
    params.push_back(s.shape(i).type);
    params.push_back(s.shape(i).type);
  }
  PJRTX_ASSIGN_OR_RETURN(auto comparator,
                         s.ScalarRegion(0, params, {ElementType::kPred}));
  s.instruction.opcode = OpCode::kSort;
  s.instruction.attributes.dimension = d;
  s.instruction.attributes.is_stable = stable;
  s.instruction.regions = {comparator};
  return absl::OkStatus();
}

absl::Status LowerMap(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  if (s.operands.empty()) return s.Error("needs at least one operand");
  std::vector<ElementType> params;
  for (size_t i = 0; i < s.operands.size(); ++i) {
    if (s.shape(i).dims != s.shape(0).dims) {
      return s.Error("operands must have the same shape");
    }
    params.push_back(s.shape(i).type);
  }
  PJRTX_ASSIGN_OR_RETURN(auto dims, s.attributes.Integers("dimensions"));
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != static_cast<int64_t>(i) ||
        dims.size() != s.shape(0).dims.size()) {
      return s.Error("dimensions must be [0, ..., rank-1]");
    }
  }
  PJRTX_RETURN_IF_ERROR(
      s.ExpectResult(0, Shape{s.result(0).type, s.shape(0).dims}));
  PJRTX_ASSIGN_OR_RETURN(auto fn,
                         s.ScalarRegion(0, params, {s.result(0).type}));
  s.instruction.opcode = OpCode::kMap;
  s.instruction.attributes.dims = dims;
  s.instruction.regions = {fn};
  return absl::OkStatus();
}

absl::Status LowerScatter(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  // inputs..., scatter_indices, updates...
  if (s.operands.size() < 3 || s.operands.size() % 2 != 1) {
    return s.Error("needs N inputs, the indices and N updates");
  }
  const size_t n = (s.operands.size() - 1) / 2;
  if (s.result_types.size() != n) return s.RequireResults(n);
  const mlir::Attribute* numbers =
      s.attributes.Find("scatter_dimension_numbers");
  if (numbers == nullptr) return s.Error("needs scatter_dimension_numbers");
  ScatterDimensions d;
  for (auto [key, field] :
       {std::pair{"update_window_dims", &d.update_window_dims},
        std::pair{"inserted_window_dims", &d.inserted_window_dims},
        std::pair{"input_batching_dims", &d.input_batching_dims},
        std::pair{"scatter_indices_batching_dims",
                  &d.scatter_indices_batching_dims},
        std::pair{"scatter_dims_to_operand_dims",
                  &d.scatter_dims_to_operand_dims}}) {
    PJRTX_ASSIGN_OR_RETURN(*field, DialectIntegers(*numbers, key, s.op));
  }
  PJRTX_ASSIGN_OR_RETURN(d.index_vector_dim,
                         DialectInteger(*numbers, "index_vector_dim", s.op));
  const Shape& input = s.shape(0);
  const Shape& indices = s.shape(n);
  const Shape& updates = s.shape(n + 1);
  if (!IsInteger(indices.type))
    return s.Error("scatter_indices must be integers");
  if (d.index_vector_dim < 0 || d.index_vector_dim > indices.rank()) {
    return s.Error("index_vector_dim is out of range");
  }
  auto in_range = [](const std::vector<int64_t>& v, int64_t rank) {
    return std::all_of(v.begin(), v.end(),
                       [rank](int64_t x) { return x >= 0 && x < rank; });
  };
  const int64_t index_count = d.index_vector_dim == indices.rank()
                                  ? 1
                                  : indices.dims[d.index_vector_dim];
  if (!in_range(d.update_window_dims, updates.rank()) ||
      !in_range(d.inserted_window_dims, input.rank()) ||
      !in_range(d.input_batching_dims, input.rank()) ||
      !in_range(d.scatter_indices_batching_dims, indices.rank()) ||
      !in_range(d.scatter_dims_to_operand_dims, input.rank()) ||
      static_cast<int64_t>(d.scatter_dims_to_operand_dims.size()) !=
          index_count ||
      static_cast<int64_t>(d.update_window_dims.size() +
                           d.inserted_window_dims.size() +
                           d.input_batching_dims.size()) != input.rank()) {
    return s.Error(
        "scatter_dimension_numbers are inconsistent with the "
        "operand ranks");
  }
  std::vector<ElementType> types;
  for (size_t i = 0; i < n; ++i) {
    if (!(s.shape(i).dims == input.dims) ||
        !(s.shape(n + 1 + i).dims == updates.dims)) {
      return s.Error("inputs (and updates) must share one shape");
    }
    types.push_back(s.shape(i).type);
    PJRTX_RETURN_IF_ERROR(s.ExpectResult(static_cast<int>(i), s.shape(i)));
  }
  // Window sizes of the updates may not exceed the input's.
  std::vector<int64_t> window_sizes;
  for (int64_t dim = 0, w = 0; dim < input.rank(); ++dim) {
    const bool removed = std::count(d.inserted_window_dims.begin(),
                                    d.inserted_window_dims.end(), dim) ||
                         std::count(d.input_batching_dims.begin(),
                                    d.input_batching_dims.end(), dim);
    if (removed) continue;
    if (w >= static_cast<int64_t>(d.update_window_dims.size())) break;
    if (updates.dims[d.update_window_dims[w]] > input.dims[dim]) {
      return s.Error("an update window is larger than the input");
    }
    ++w;
  }
  PJRTX_ASSIGN_OR_RETURN(auto body, s.ScalarRegion(0, Twice(types), types));
  s.instruction.opcode = OpCode::kScatter;
  s.instruction.attributes.scatter = d;
  s.instruction.regions = {body};
  return absl::OkStatus();
}

absl::Status LowerWhile(OpState& s) {
  if (s.operands.size() != s.result_types.size()) {
    return s.Error("must have as many results as operands");
  }
  for (size_t i = 0; i < s.operands.size(); ++i) {
    if (!(s.operands[i].type == s.result_types[i])) {
      return s.Error(
          absl::StrCat("result ", i, " must have operand ", i, "'s type"));
    }
  }
  PJRTX_ASSIGN_OR_RETURN(auto cond, s.Region(0, "cond"));
  PJRTX_ASSIGN_OR_RETURN(auto body, s.Region(1, "body"));
  std::vector<ValueType> types = s.result_types;
  const Computation& c = s.context.lowerer.computation(cond);
  const Computation& b = s.context.lowerer.computation(body);
  const ValueType pred = ValueType::Tensor(Shape{ElementType::kPred, {}});
  if (c.parameter_types != types || c.result_types != std::vector{pred}) {
    return s.Error(absl::StrCat("cond must take ", TypesToString(types),
                                " and return (tensor<i1>)"));
  }
  if (b.parameter_types != types || b.result_types != types) {
    return s.Error(
        absl::StrCat("body must take and return ", TypesToString(types)));
  }
  s.instruction.opcode = OpCode::kWhile;
  s.instruction.regions = {cond, body};
  return absl::OkStatus();
}

absl::Status LowerBranches(OpState& s, bool is_if) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(1));
  const ValueType& selector = s.operands[0].type;
  const ElementType want = is_if ? ElementType::kPred : ElementType::kS32;
  if (selector.kind != ValueType::Kind::kTensor ||
      !selector.shape.dims.empty() || selector.shape.type != want) {
    return s.Error(absl::StrCat(is_if ? "pred" : "index", " must be tensor<",
                                ElementTypeToMlir(want), ">"));
  }
  if (s.op.regions.empty() || (is_if && s.op.regions.size() != 2)) {
    return s.Error(is_if ? "needs two branches" : "needs branches");
  }
  for (size_t i = 0; i < s.op.regions.size(); ++i) {
    PJRTX_ASSIGN_OR_RETURN(auto branch,
                           s.Region(i, absl::StrCat("branch ", i)));
    const Computation& c = s.context.lowerer.computation(branch);
    if (!c.parameter_types.empty() || c.result_types != s.result_types) {
      return s.Error(absl::StrCat("branch ", i,
                                  " must take nothing and "
                                  "return ",
                                  TypesToString(s.result_types)));
    }
    s.instruction.regions.push_back(branch);
  }
  s.instruction.opcode = is_if ? OpCode::kIf : OpCode::kCase;
  return absl::OkStatus();
}

}  // namespace

bool LowerRegionOp(OpState& s, absl::Status* status) {
  const std::string& name = s.op.name;
  if (name == "stablehlo.reduce") {
    *status = LowerReduce(s);
  } else if (name == "stablehlo.reduce_window") {
    *status = LowerReduceWindow(s);
  } else if (name == "stablehlo.select_and_scatter") {
    *status = LowerSelectAndScatter(s);
  } else if (name == "stablehlo.sort") {
    *status = LowerSort(s);
  } else if (name == "stablehlo.map") {
    *status = LowerMap(s);
  } else if (name == "stablehlo.scatter") {
    *status = LowerScatter(s);
  } else if (name == "stablehlo.while") {
    *status = LowerWhile(s);
  } else if (name == "stablehlo.if") {
    *status = LowerBranches(s, /*is_if=*/true);
  } else if (name == "stablehlo.case") {
    *status = LowerBranches(s, /*is_if=*/false);
  } else {
    return false;
  }
  return true;
}

}  // namespace pjrtx::ir
