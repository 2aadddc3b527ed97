#include "compiler_stub/passes/shape_refinement.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/mlir/location_text.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

using mlir::Attribute;
using mlir::Operation;
using mlir::Type;
using mlir::ValueRef;

using Attributes = std::vector<std::pair<std::string, Attribute>>;

// Integer vectors folded here stay small: shape computations, not data.
constexpr size_t kMaxFoldedElements = 64;
constexpr int kMaxInlineDepth = 64;
// Inlining a call tree copies each function once per call: bounded, so that
// a module whose functions each call the next twice cannot blow up.
constexpr int64_t kMaxInlinedOps = 1 << 20;

std::string Key(const std::string& name, int index) {
  return absl::StrCat(name, "#", index);
}

// The element count of `dims` when at most kMaxFoldedElements, else -1
// (without overflowing on a hostile artifact's huge dimensions).
int64_t SmallCount(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0 || d > static_cast<int64_t>(kMaxFoldedElements)) return -1;
    count *= d;
    if (count > static_cast<int64_t>(kMaxFoldedElements)) return -1;
  }
  return count;
}

bool IsDynamic(const Type& type) {
  if (type.kind != Type::Kind::kTensor) return false;
  for (int64_t d : type.dims) {
    if (d < 0) return true;
  }
  return false;
}

void SetDims(Type& type, std::vector<int64_t> dims) {
  type.dims = std::move(dims);
  std::string text = "tensor<";
  for (int64_t d : type.dims) absl::StrAppend(&text, d, "x");
  type.text = absl::StrCat(text, type.element, ">");
}

const Attribute* Find(const Attributes& attributes, const std::string& name) {
  for (const auto& [key, value] : attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

bool IsIntegerElement(const std::string& element) {
  return !element.empty() &&
         (element[0] == 'i' || element[0] == 's' || element[0] == 'u');
}

std::string At(const mlir::Location& location) {
  return absl::StrCat(mlir::LocationText(location), ": ");
}

// Renames the values of inlined code: names defined inside get `prefix`,
// uses of the callee's arguments (and of inlined calls' results) map
// through `renamed`.
void RenameOp(Operation& op, const std::map<std::string, ValueRef>& renamed,
              const std::string& prefix) {
  for (ValueRef& operand : op.operands) {
    auto found = renamed.find(Key(operand.name, operand.index));
    if (found != renamed.end()) {
      operand = found->second;
    } else {
      operand.name = prefix + operand.name;
    }
  }
  if (!op.result_name.empty()) op.result_name = prefix + op.result_name;
  for (mlir::Region& region : op.regions) {
    for (mlir::Block& block : region.blocks) {
      for (mlir::BlockArgument& argument : block.arguments) {
        argument.name = prefix + argument.name;
      }
      for (Operation& nested : block.operations) {
        RenameOp(nested, renamed, prefix);
      }
    }
  }
}

class Refiner {
 public:
  explicit Refiner(mlir::Module& module) {
    for (const mlir::Function& f : module.functions) functions_[f.name] = &f;
  }

  // Appends `ops` (of a function whose values map through `renamed` and
  // `prefix`) to `out` with calls inlined; the operands of its func.return
  // go to `returned`.
  absl::Status Inline(const std::vector<Operation>& ops,
                      std::map<std::string, ValueRef>& renamed,
                      const std::string& prefix, std::vector<Operation>& out,
                      std::vector<ValueRef>& returned, int depth) {
    if (depth > kMaxInlineDepth) {
      return absl::UnimplementedError("calls nested too deeply to inline");
    }
    for (const Operation& original : ops) {
      if (++inlined_ops_ > kMaxInlinedOps) {
        return absl::UnimplementedError(absl::StrCat(
            "inlining the entry's calls for shape refinement exceeds ",
            kMaxInlinedOps, " ops"));
      }
      if (original.name == "func.return") {
        Operation copy = original;
        RenameOp(copy, renamed, prefix);
        returned = copy.operands;
        continue;
      }
      if (original.name != "func.call") {
        Operation copy = original;
        RenameOp(copy, renamed, prefix);
        out.push_back(std::move(copy));
        continue;
      }
      const Attribute* callee = Find(original.attributes, "callee");
      auto function = callee == nullptr ? functions_.end()
                                        : functions_.find(callee->string_value);
      if (function == functions_.end() ||
          function->second->body.blocks.size() != 1 ||
          function->second->arguments.size() != original.operands.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat(At(original.location), "call to an unknown function"));
      }
      const mlir::Function& f = *function->second;
      std::map<std::string, ValueRef> inner;
      for (size_t i = 0; i < f.arguments.size(); ++i) {
        ValueRef operand = original.operands[i];
        auto found = renamed.find(Key(operand.name, operand.index));
        if (found != renamed.end()) {
          operand = found->second;
        } else {
          operand.name = prefix + operand.name;
        }
        inner[Key(f.arguments[i].name, 0)] = operand;
      }
      std::vector<ValueRef> results;
      PJRTX_RETURN_IF_ERROR(Inline(f.body.blocks[0].operations, inner,
                                   absl::StrCat("i", counter_++, "_"), out,
                                   results, depth + 1));
      if (static_cast<int>(results.size()) != original.num_results) {
        return absl::InvalidArgumentError(absl::StrCat(
            At(original.location), "@", f.name, " returns ", results.size(),
            " values, the call expects ", original.num_results));
      }
      for (size_t i = 0; i < results.size(); ++i) {
        renamed[Key(original.result_name, static_cast<int>(i))] = results[i];
      }
    }
    return absl::OkStatus();
  }

  // Refines the types of `ops` in order (entry arguments already in
  // `types_`), folding integer shape computations into constants.
  absl::Status Refine(std::vector<Operation>& ops) {
    for (Operation& op : ops) {
      for (size_t i = 0; i < op.operands.size() && i < op.operand_types.size();
           ++i) {
        auto found =
            types_.find(Key(op.operands[i].name, op.operands[i].index));
        if (found != types_.end()) op.operand_types[i] = found->second;
      }
      if (op.name == "stablehlo.iota" || op.name == "stablehlo.dynamic_iota") {
        const Attribute* d = Find(op.attributes, "iota_dimension");
        defs_[Key(op.result_name, 0)] = d == nullptr ? -1 : d->integer;
      }
      PJRTX_RETURN_IF_ERROR(RefineOp(op));
      for (size_t i = 0; i < op.result_types.size(); ++i) {
        types_[Key(op.result_name, static_cast<int>(i))] = op.result_types[i];
      }
    }
    return absl::OkStatus();
  }

  std::map<std::string, Type>& types() { return types_; }

 private:
  // The folded integer value of operand `i`, if known.
  const std::vector<int64_t>* Folded(const Operation& op, size_t i) const {
    if (i >= op.operands.size()) return nullptr;
    auto found = folded_.find(Key(op.operands[i].name, op.operands[i].index));
    return found == folded_.end() ? nullptr : &found->second;
  }

  static std::optional<std::vector<int64_t>> ConstantValues(
      const Operation& op) {
    const Attribute* value = Find(op.attributes, "value");
    if (value == nullptr || value->kind != Attribute::Kind::kDenseElements ||
        op.result_types.size() != 1 || IsDynamic(op.result_types[0])) {
      return std::nullopt;
    }
    const Type& type = op.result_types[0];
    if (!IsIntegerElement(type.element)) return std::nullopt;
    const int64_t count = SmallCount(type.dims);
    if (count < 0) return std::nullopt;
    const mlir::DenseElements& dense = value->dense;
    std::vector<int64_t> values;
    if (dense.is_hex) {
      return std::nullopt;  // Not needed for shape computations so far.
    }
    for (const std::string& text : dense.values) {
      if (text == "true" || text == "false") {
        values.push_back(text == "true");
      } else {
        char* end = nullptr;
        values.push_back(std::strtoll(text.c_str(), &end, 0));
        if (end == text.c_str()) return std::nullopt;
      }
    }
    if (dense.splat && values.size() == 1) values.assign(count, values[0]);
    if (static_cast<int64_t>(values.size()) != count) return std::nullopt;
    return values;
  }

  // Replaces `op` by a constant of `values` (its result type, refined).
  static void MakeConstant(Operation& op, const std::vector<int64_t>& values) {
    Attribute value;
    value.kind = Attribute::Kind::kDenseElements;
    value.type = op.result_types[0];
    for (int64_t v : values) {
      value.dense.values.push_back(op.result_types[0].element == "i1"
                                       ? std::string(v ? "true" : "false")
                                       : std::to_string(v));
    }
    value.dense.written_shape = {static_cast<int64_t>(values.size())};
    value.text = "dense<...>";
    op.name = "stablehlo.constant";
    op.operands.clear();
    op.operand_types.clear();
    op.regions.clear();
    op.attributes = {{"value", std::move(value)}};
  }

  static Attribute IntegerList(std::vector<int64_t> values) {
    Attribute attribute;
    attribute.kind = Attribute::Kind::kDenseArray;
    attribute.type.kind = Type::Kind::kScalar;
    attribute.type.element = "i64";
    attribute.integers = std::move(values);
    return attribute;
  }

  absl::Status RefineTopK(Operation& op) {
    const std::vector<int64_t>* k = Folded(op, 1);
    if (k == nullptr || k->size() != 1 || op.operand_types.empty() ||
        op.operand_types[0].dims.empty() || op.result_types.size() != 2) {
      return absl::UnimplementedError(
          absl::StrCat(At(op.location),
                       "stablehlo.dynamic_top_k with a k not computed "
                       "from the argument shapes"));
    }
    return TopK(op, (*k)[0]);
  }

  // `op` (operand 0 the values) as chlo.top_k of `k`.
  absl::Status TopK(Operation& op, int64_t k) {
    std::vector<int64_t> dims = op.operand_types[0].dims;
    if (k < 0 || dims.back() < 0 || k > dims.back()) {
      return absl::InvalidArgumentError(absl::StrCat(
          At(op.location), "top_k of ", k, " out of ", dims.back()));
    }
    dims.back() = k;
    for (Type& result : op.result_types) SetDims(result, dims);
    Attribute value;
    value.kind = Attribute::Kind::kInteger;
    value.integer = k;
    value.type.kind = Type::Kind::kScalar;
    value.type.element = "i64";
    op.name = "chlo.top_k";
    op.operands.resize(1);
    op.operand_types.resize(1);
    op.attributes = {{"k", std::move(value)}};
    return absl::OkStatus();
  }

  // approx_top_k as XLA runs it off TPU (its fallback, an exact top-k)
  // when that is chlo.top_k: aggregated to k, over the last dimension, of
  // (operand, iota) pairs ordered by a GT comparator.
  absl::Status RefineApproxTopK(Operation& op) {
    const std::vector<int64_t>* k = Folded(op, 4);
    const Attribute* config = Find(op.attributes, "mhlo.backend_config");
    const Attribute* called = Find(op.attributes, "called_computations");
    const auto unsupported = [&](const char* why) {
      return absl::UnimplementedError(
          absl::StrCat(At(op.location), "stablehlo.dynamic_approx_top_k ", why,
                       " is not supported"));
    };
    if (k == nullptr || k->size() != 1 || op.operands.size() < 5 ||
        op.result_types.size() != 2 || op.operand_types[0].dims.empty()) {
      return unsupported("with a k not computed from the argument shapes");
    }
    if (config == nullptr || config->kind != Attribute::Kind::kDictionary) {
      return unsupported("without its backend_config");
    }
    const Attribute* aggregate = Find(config->entries, "aggregate_to_topk");
    const Attribute* dimension = Find(config->entries, "reduction_dim");
    const int64_t last =
        static_cast<int64_t>(op.operand_types[0].dims.size()) - 1;
    if (aggregate == nullptr || !aggregate->bool_value ||
        dimension == nullptr || dimension->integer != last) {
      return unsupported("other than aggregated over the last dimension");
    }
    auto def = defs_.find(Key(op.operands[1].name, op.operands[1].index));
    if (def == defs_.end() || def->second != last) {
      return unsupported("of values other than an iota along the dimension");
    }
    bool greater = false;
    if (called != nullptr && called->kind == Attribute::Kind::kArray &&
        !called->elements.empty()) {
      auto function = functions_.find(called->elements[0].string_value);
      if (function != functions_.end() &&
          function->second->body.blocks.size() == 1 &&
          !function->second->arguments.empty()) {
        for (const Operation& c : function->second->body.blocks[0].operations) {
          const Attribute* d = Find(c.attributes, "comparison_direction");
          if (c.name == "stablehlo.compare" && d != nullptr &&
              (d->body == "GT" || d->string_value == "GT") &&
              c.operands.size() == 2 &&
              c.operands[0].name == function->second->arguments[0].name) {
            greater = true;
          }
        }
      }
    }
    if (!greater) return unsupported("with a comparator other than GT");
    return TopK(op, (*k)[0]);
  }

  // `op` (the state, then the output's dims) as stablehlo.rng_bit_generator
  // of the folded dims, its rng_algorithm kept.
  absl::Status RefineRngBitGenerator(Operation& op) {
    const std::vector<int64_t>* dims = Folded(op, 1);
    if (dims == nullptr || op.result_types.size() != 2 ||
        op.result_types[1].kind != Type::Kind::kTensor) {
      return absl::UnimplementedError(
          absl::StrCat(At(op.location),
                       "stablehlo.dynamic_rng_bit_generator with an output "
                       "shape not computed from the argument shapes"));
    }
    const Type& output = op.result_types[1];
    bool fits = dims->size() == output.dims.size();
    for (size_t d = 0; fits && d < dims->size(); ++d) {
      fits = (*dims)[d] >= 0 &&
             (output.dims[d] < 0 || output.dims[d] == (*dims)[d]);
    }
    if (!fits) {
      return absl::InvalidArgumentError(absl::StrCat(
          At(op.location), "stablehlo.dynamic_rng_bit_generator output shape [",
          absl::StrJoin(*dims, ","), "] does not fit its result ",
          output.text));
    }
    SetDims(op.result_types[1], *dims);
    Attributes kept;
    if (const Attribute* algorithm = Find(op.attributes, "rng_algorithm")) {
      kept.emplace_back("rng_algorithm", *algorithm);
    }
    op.name = "stablehlo.rng_bit_generator";
    op.operands.resize(1);
    op.operand_types.resize(1);
    op.attributes = std::move(kept);
    return absl::OkStatus();
  }

  absl::Status RefineReduceWindow(Operation& op) {
    const size_t n = op.operands.size() >= 5 ? (op.operands.size() - 5) / 2 : 0;
    const Attribute* called = Find(op.attributes, "called_computations");
    if (n == 0 || 2 * n + 5 != op.operands.size() || called == nullptr ||
        called->kind != Attribute::Kind::kArray || called->elements.empty() ||
        op.result_types.size() != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          At(op.location), "malformed stablehlo.dynamic_reduce_window"));
    }
    std::vector<std::vector<int64_t>> window(5);
    for (size_t i = 0; i < 5; ++i) {
      const std::vector<int64_t>* values = Folded(op, 2 * n + i);
      if (values == nullptr) {
        return absl::UnimplementedError(
            absl::StrCat(At(op.location),
                         "stablehlo.dynamic_reduce_window with window "
                         "attributes not computed from the argument "
                         "shapes"));
      }
      window[i] = *values;
    }
    const std::vector<int64_t>& in = op.operand_types[0].dims;
    const size_t rank = in.size();
    if (window[0].size() != rank || window[1].size() != rank ||
        window[2].size() != rank || window[3].size() != rank ||
        window[4].size() != 2 * rank) {
      return absl::InvalidArgumentError(
          absl::StrCat(At(op.location),
                       "stablehlo.dynamic_reduce_window attributes do "
                       "not match the operand's rank"));
    }
    // Bounded so that the arithmetic below cannot overflow.
    constexpr int64_t kLimit = int64_t{1} << 30;
    for (const std::vector<int64_t>& values : window) {
      for (int64_t v : values) {
        if (v < -kLimit || v > kLimit) {
          return absl::InvalidArgumentError(
              absl::StrCat(At(op.location), "dynamic_reduce_window attribute ",
                           v, " out of range"));
        }
      }
    }
    for (int64_t d : in) {
      if (d > kLimit) {
        return absl::InvalidArgumentError(
            At(op.location) + "dynamic_reduce_window operand too large");
      }
    }
    std::vector<int64_t> out(rank);
    for (size_t d = 0; d < rank; ++d) {
      const int64_t padded = (in[d] - 1) * window[2][d] + 1 + window[4][2 * d] +
                             window[4][2 * d + 1];
      const int64_t extent = (window[0][d] - 1) * window[3][d] + 1;
      if (window[1][d] <= 0 || in[d] < 0) {
        return absl::InvalidArgumentError(
            At(op.location) + "bad dynamic_reduce_window strides or operand");
      }
      out[d] = padded < extent ? 0 : (padded - extent) / window[1][d] + 1;
    }
    for (Type& result : op.result_types) SetDims(result, out);
    auto function = functions_.find(called->elements[0].string_value);
    if (function == functions_.end() ||
        function->second->body.blocks.size() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          At(op.location), "dynamic_reduce_window's body is not a function"));
    }
    mlir::Region region = function->second->body;
    for (Operation& nested : region.blocks[0].operations) {
      if (nested.name == "func.return") nested.name = "stablehlo.return";
    }
    // Region values get their own names (the function's %0 would clash
    // with the entry's).
    Operation holder;
    holder.regions.push_back(std::move(region));
    RenameOp(holder, {}, absl::StrCat("r", counter_++, "_"));
    op.name = "stablehlo.reduce_window";
    op.operands.resize(2 * n);
    op.operand_types.resize(2 * n);
    op.regions = std::move(holder.regions);
    op.attributes = {{"window_dimensions", IntegerList(window[0])},
                     {"window_strides", IntegerList(window[1])},
                     {"base_dilations", IntegerList(window[2])},
                     {"window_dilations", IntegerList(window[3])},
                     {"padding", IntegerList(window[4])}};
    return absl::OkStatus();
  }

  // The dims of real_dynamic_slice's result, once its start, limit and
  // strides are folded (well-formed ones; lowering checks them against the
  // operand).
  void RefineSliceDims(Operation& op) {
    const std::vector<int64_t>* start = Folded(op, 1);
    const std::vector<int64_t>* limit = Folded(op, 2);
    const std::vector<int64_t>* strides = Folded(op, 3);
    if (start == nullptr || limit == nullptr || strides == nullptr ||
        op.result_types.size() != 1 || !IsDynamic(op.result_types[0])) {
      return;
    }
    const size_t rank = op.result_types[0].dims.size();
    if (start->size() != rank || limit->size() != rank ||
        strides->size() != rank) {
      return;
    }
    std::vector<int64_t> dims;
    for (size_t d = 0; d < rank; ++d) {
      const int64_t from = (*start)[d], to = (*limit)[d], step = (*strides)[d];
      if (from < 0 || to < from || step <= 0) return;
      dims.push_back((to - from) / step + ((to - from) % step != 0));
    }
    SetDims(op.result_types[0], std::move(dims));
  }

  absl::Status RefineOp(Operation& op) {
    const std::string& name = op.name;
    std::optional<std::vector<int64_t>> values;
    if (name == "stablehlo.custom_call") {
      const Attribute* target = Find(op.attributes, "call_target_name");
      const std::string t = target == nullptr ? "" : target->string_value;
      if (t == "stablehlo.dynamic_top_k") return RefineTopK(op);
      if (t == "stablehlo.dynamic_reduce_window") return RefineReduceWindow(op);
      if (t == "stablehlo.dynamic_approx_top_k") return RefineApproxTopK(op);
      if (t == "stablehlo.dynamic_rng_bit_generator") {
        return RefineRngBitGenerator(op);
      }
      if (t.rfind("stablehlo.dynamic_", 0) == 0) {
        return absl::UnimplementedError(absl::StrCat(
            At(op.location), "custom_call target '", t,
            "' is not supported (its static op is not implemented)"));
      }
      return absl::OkStatus();
    }
    if (name == "stablehlo.constant") {
      values = ConstantValues(op);
      if (values) folded_[Key(op.result_name, 0)] = *values;
      return absl::OkStatus();
    }
    // Results shaped as the first operand (elementwise ops and converts).
    static const auto* kElementwise = new std::set<std::string>{
        "stablehlo.convert",  "stablehlo.add",    "stablehlo.subtract",
        "stablehlo.multiply", "stablehlo.divide", "stablehlo.maximum",
        "stablehlo.minimum",  "stablehlo.negate", "stablehlo.abs",
        "stablehlo.compare",  "stablehlo.select", "stablehlo.exponential",
        "stablehlo.log",      "stablehlo.sqrt",   "stablehlo.and",
        "stablehlo.exp2",     "stablehlo.log2",   "stablehlo.fma",
        "stablehlo.or",       "stablehlo.not",    "stablehlo.bitcast_convert"};
    if (op.result_types.size() == 1 && !op.operand_types.empty() &&
        IsDynamic(op.result_types[0]) && kElementwise->count(name) != 0 &&
        op.operand_types.back().dims.size() == op.result_types[0].dims.size()) {
      // The last operand: select's predicate may be a scalar.
      SetDims(op.result_types[0], op.operand_types.back().dims);
    }
    const std::vector<int64_t>* a = Folded(op, 0);
    if (name == "stablehlo.dynamic_iota" && a != nullptr &&
        op.result_types.size() == 1 && IsDynamic(op.result_types[0]) &&
        a->size() == op.result_types[0].dims.size()) {
      SetDims(op.result_types[0], *a);
    }
    if (name == "stablehlo.real_dynamic_slice") RefineSliceDims(op);
    const std::vector<int64_t>* b = Folded(op, 1);
    if (name == "stablehlo.get_dimension_size") {
      const Attribute* dimension = Find(op.attributes, "dimension");
      if (dimension != nullptr && !op.operand_types.empty() &&
          dimension->integer >= 0 &&
          dimension->integer <
              static_cast<int64_t>(op.operand_types[0].dims.size())) {
        const int64_t size = op.operand_types[0].dims[dimension->integer];
        if (size >= 0) values = std::vector<int64_t>{size};
      }
    } else if ((name == "stablehlo.convert" || name == "stablehlo.reshape") &&
               a != nullptr) {
      values = *a;
      if (name == "stablehlo.reshape" && IsDynamic(op.result_types[0]) &&
          op.result_types[0].dims.size() == 1) {
        SetDims(op.result_types[0], {static_cast<int64_t>(a->size())});
      }
    } else if ((name == "stablehlo.add" || name == "stablehlo.subtract" ||
                name == "stablehlo.multiply" || name == "stablehlo.maximum" ||
                name == "stablehlo.minimum" || name == "stablehlo.compare") &&
               a != nullptr && b != nullptr && a->size() == b->size()) {
      std::string direction;
      if (const Attribute* d = Find(op.attributes, "comparison_direction")) {
        direction = d->body.empty() ? d->string_value : d->body;
      }
      values.emplace();
      for (size_t i = 0; i < a->size(); ++i) {
        const int64_t x = (*a)[i], y = (*b)[i];
        int64_t v = 0;
        if (name == "stablehlo.add") {
          v = static_cast<int64_t>(static_cast<uint64_t>(x) + y);
        } else if (name == "stablehlo.subtract") {
          v = static_cast<int64_t>(static_cast<uint64_t>(x) - y);
        } else if (name == "stablehlo.multiply") {
          v = static_cast<int64_t>(static_cast<uint64_t>(x) * y);
        } else if (name == "stablehlo.maximum") {
          v = std::max(x, y);
        } else if (name == "stablehlo.minimum") {
          v = std::min(x, y);
        } else if (direction == "EQ") {
          v = x == y;
        } else if (direction == "NE") {
          v = x != y;
        } else if (direction == "LT") {
          v = x < y;
        } else if (direction == "LE") {
          v = x <= y;
        } else if (direction == "GT") {
          v = x > y;
        } else if (direction == "GE") {
          v = x >= y;
        } else {
          values.reset();
          break;
        }
        if (values) values->push_back(v);
      }
    } else if (name == "stablehlo.concatenate" && op.result_types.size() == 1 &&
               !op.result_types[0].dims.empty() &&
               Find(op.attributes, "dimension") != nullptr &&
               Find(op.attributes, "dimension")->integer == 0) {
      // Along dimension 0 the row-major elements simply follow each other.
      values.emplace();
      for (size_t i = 0; i < op.operands.size() && values; ++i) {
        const std::vector<int64_t>* part = Folded(op, i);
        if (part == nullptr) {
          values.reset();
        } else {
          values->insert(values->end(), part->begin(), part->end());
        }
      }
      if (values && IsDynamic(op.result_types[0]) &&
          op.result_types[0].dims.size() == 1) {
        SetDims(op.result_types[0], {static_cast<int64_t>(values->size())});
      }
    }
    if (values && op.result_types.size() == 1 &&
        op.result_types[0].kind == Type::Kind::kTensor &&
        IsIntegerElement(op.result_types[0].element) &&
        !IsDynamic(op.result_types[0]) &&
        values->size() <= kMaxFoldedElements) {
      if (SmallCount(op.result_types[0].dims) ==
          static_cast<int64_t>(values->size())) {
        folded_[Key(op.result_name, 0)] = *values;
        MakeConstant(op, *values);
      }
    }
    return absl::OkStatus();
  }

  std::map<std::string, const mlir::Function*> functions_;
  std::map<std::string, Type> types_;
  std::map<std::string, std::vector<int64_t>> folded_;
  // The iotas, by value: their iota_dimension.
  std::map<std::string, int64_t> defs_;
  int counter_ = 0;
  int64_t inlined_ops_ = 0;
};

}  // namespace

bool HasDynamicShapes(const mlir::Module& module) {
  for (const mlir::Function& f : module.functions) {
    for (const mlir::FunctionArgument& argument : f.arguments) {
      if (IsDynamic(argument.type)) return true;
    }
    for (const Type& result : f.result_types) {
      if (IsDynamic(result)) return true;
    }
  }
  return false;
}

absl::Status RefineShapes(
    mlir::Module& module, const std::string& entry_name,
    const std::vector<std::vector<int64_t>>& argument_dims) {
  mlir::Function* entry = nullptr;
  for (mlir::Function& f : module.functions) {
    if (f.name == entry_name) entry = &f;
  }
  if (entry == nullptr || entry->body.blocks.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("shape refinement: no entry function @", entry_name));
  }
  if (argument_dims.size() != entry->arguments.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "shape refinement: @", entry_name, " takes ", entry->arguments.size(),
        " arguments, ", argument_dims.size(), " shapes given"));
  }
  Refiner refiner(module);
  for (size_t i = 0; i < argument_dims.size(); ++i) {
    Type& type = entry->arguments[i].type;
    if (type.kind != Type::Kind::kTensor) continue;
    bool fits = type.dims.size() == argument_dims[i].size();
    for (size_t d = 0; fits && d < type.dims.size(); ++d) {
      fits = argument_dims[i][d] >= 0 &&
             (type.dims[d] < 0 || type.dims[d] == argument_dims[i][d]);
    }
    if (!fits) {
      return absl::InvalidArgumentError(absl::StrCat(
          "argument ", i, " of shape [", absl::StrJoin(argument_dims[i], ","),
          "] does not fit @", entry_name, "'s ", type.text));
    }
    SetDims(type, argument_dims[i]);
    if (i < entry->body.blocks[0].arguments.size()) {
      entry->body.blocks[0].arguments[i].type = type;
    }
    refiner.types()[Key(entry->arguments[i].name, 0)] = type;
  }
  std::vector<Operation> flat;
  std::vector<ValueRef> returned;
  std::map<std::string, ValueRef> renamed;
  PJRTX_RETURN_IF_ERROR(refiner.Inline(entry->body.blocks[0].operations,
                                       renamed, "", flat, returned, 0));
  Operation ret;
  ret.name = "func.return";
  ret.operands = returned;
  ret.location = entry->location;
  for (const ValueRef& value : returned) {
    auto found = refiner.types().find(Key(value.name, value.index));
    ret.operand_types.push_back(found == refiner.types().end() ? Type()
                                                               : found->second);
  }
  flat.push_back(std::move(ret));
  PJRTX_RETURN_IF_ERROR(refiner.Refine(flat));
  const Operation& final_return = flat.back();
  if (final_return.operand_types.size() == entry->result_types.size()) {
    entry->result_types = final_return.operand_types;
  }
  entry->body.blocks[0].operations = std::move(flat);
  // Everything the entry calls is inlined; the other functions (shape
  // polymorphic too) would not lower.
  mlir::Function kept = std::move(*entry);
  module.functions.clear();
  module.functions.push_back(std::move(kept));
  return absl::OkStatus();
}

}  // namespace pjrtx::ir
