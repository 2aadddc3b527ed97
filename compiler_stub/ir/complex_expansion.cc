#include "compiler_stub/ir/complex_expansion.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "compiler_stub/mlir/parser.h"

namespace pjrtx::ir {
namespace {

using mlir::Attribute;
using mlir::Operation;
using mlir::Type;
using mlir::ValueRef;

constexpr absl::string_view kComplexPrefix = "complex<";

bool IsComplexElement(const std::string& element) {
  return absl::StartsWith(element, kComplexPrefix);
}

bool IsComplex(const Type& type) {
  if (type.kind == Type::Kind::kTensor || type.kind == Type::Kind::kScalar) {
    return IsComplexElement(type.element);
  }
  for (const Type& element : type.elements) {
    if (IsComplex(element)) return true;
  }
  for (const Type& result : type.results) {
    if (IsComplex(result)) return true;
  }
  return false;
}

bool AnyComplex(const std::vector<Type>& types) {
  for (const Type& type : types) {
    if (IsComplex(type)) return true;
  }
  return false;
}

std::string TensorText(const std::vector<int64_t>& dims,
                       const std::string& element) {
  std::string text = "tensor<";
  for (int64_t dim : dims) {
    absl::StrAppend(&text, dim < 0 ? "?" : std::to_string(dim), "x");
  }
  absl::StrAppend(&text, element, ">");
  return text;
}

// complex<f32> -> f32.
std::string PartElement(const std::string& element) {
  return element.substr(kComplexPrefix.size(),
                        element.size() - kComplexPrefix.size() - 1);
}

Type WithElement(const Type& type, const std::string& element) {
  Type result = type;
  result.element = element;
  result.text = TensorText(type.dims, element);
  return result;
}

Type PartType(const Type& type) {
  return WithElement(type, PartElement(type.element));
}

// complex<f32>[dims] as it crosses a function boundary: f32[dims, 2], the
// memory layout of a complex buffer (real part first).
Type InterleavedType(const Type& type) {
  Type result = PartType(type);
  result.dims.push_back(2);
  result.text = TensorText(result.dims, result.element);
  return result;
}

std::string RefText(const ValueRef& ref) {
  return ref.index == 0 ? absl::StrCat("%", ref.name)
                        : absl::StrCat("%", ref.name, "#", ref.index);
}

// "1.5" and "-2" from "(1.5, -2)" in a value of `op`.
absl::Status SplitComplexLiteral(const Operation& op, const std::string& text,
                                 std::string* re, std::string* im) {
  const size_t comma = text.find(',');
  if (text.size() < 5 || text.front() != '(' || text.back() != ')' ||
      comma == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        op.location.line, ":", op.location.column, ": ", op.name,
        ": complex literal '", text, "', expected (real, imaginary)"));
  }
  *re = std::string(absl::StripAsciiWhitespace(text.substr(1, comma - 1)));
  *im = std::string(absl::StripAsciiWhitespace(
      text.substr(comma + 1, text.size() - comma - 2)));
  return absl::OkStatus();
}

std::string Number(double value) {
  char text[40];
  std::snprintf(text, sizeof(text), "%.17g", value);
  std::string result = text;
  // MLIR reads "1" as an integer: keep it a float literal.
  if (result.find_first_of(".eEn") == std::string::npos) result += ".0";
  return result;
}

// fft runs as products with DFT matrices (n^2 entries per dimension).
constexpr int64_t kMaxDftLength = 512;

// A tensor type's spelling, regenerated (the source text of a pretty form
// may be shared by several types).
std::string TypeText(const Type& type) {
  return type.kind == Type::Kind::kTensor ? TensorText(type.dims, type.element)
                                          : type.text;
}

struct Parts {
  ValueRef re;
  ValueRef im;
};

using ValueKey = std::pair<std::string, int>;

ValueKey KeyOf(const ValueRef& ref) { return {ref.name, ref.index}; }

ValueRef Named(std::string name) {
  ValueRef ref;
  ref.name = std::move(name);
  return ref;
}

// Expands one function: complex values are tracked as their parts, values
// that became other values (real(z) is z's real part) as aliases.
class FunctionExpander {
 public:
  explicit FunctionExpander(int* counter) : counter_(counter) {}

  // Rewrites `function`'s complex arguments and results to their
  // interleaved form and expands its body.
  absl::Status ExpandFunction(mlir::Function& function,
                              ComplexSignature* signature) {
    std::vector<Operation> prologue;
    out_ = &prologue;
    signature->arguments.assign(function.arguments.size(), false);
    signature->results.assign(function.result_types.size(), false);
    for (size_t i = 0; i < function.arguments.size(); ++i) {
      mlir::FunctionArgument& argument = function.arguments[i];
      if (!IsComplex(argument.type)) continue;
      if (argument.type.kind != Type::Kind::kTensor) {
        return absl::UnimplementedError(
            absl::StrCat(argument.location.line, ":", argument.location.column,
                         ": function @", function.name, " argument %",
                         argument.name, " of ", argument.type.text,
                         ": complex values are supported in tensors only"));
      }
      signature->arguments[i] = true;
      const Type complex_type = argument.type;
      argument.type = InterleavedType(complex_type);
      if (!function.body.blocks.empty() &&
          i < function.body.blocks[0].arguments.size()) {
        function.body.blocks[0].arguments[i].type = argument.type;
      }
      location_ = argument.location;
      expanding_ = absl::StrCat("argument %", argument.name);
      parts_[KeyOf(Named(argument.name))] =
          Unpack(Named(argument.name), complex_type);
    }
    for (size_t i = 0; i < function.result_types.size(); ++i) {
      if (!IsComplex(function.result_types[i])) continue;
      signature->results[i] = true;
      function.result_types[i] = InterleavedType(function.result_types[i]);
    }
    absl::Status status = status_;
    for (mlir::Block& block : function.body.blocks) {
      if (!status.ok()) break;
      status = ExpandOps(block.operations);
    }
    if (!status.ok()) return status;
    if (!prologue.empty() && !function.body.blocks.empty()) {
      std::vector<Operation>& ops = function.body.blocks[0].operations;
      ops.insert(ops.begin(), std::make_move_iterator(prologue.begin()),
                 std::make_move_iterator(prologue.end()));
    }
    return absl::OkStatus();
  }

  absl::Status ExpandOps(std::vector<Operation>& ops) {
    std::vector<Operation> expanded;
    for (Operation& op : ops) {
      for (ValueRef& operand : op.operands) {
        auto alias = aliases_.find(KeyOf(operand));
        if (alias != aliases_.end()) operand = alias->second;
      }
      if (!AnyComplex(op.operand_types) && !AnyComplex(op.result_types)) {
        for (mlir::Region& region : op.regions) {
          for (mlir::Block& block : region.blocks) {
            for (const mlir::BlockArgument& argument : block.arguments) {
              if (IsComplex(argument.type)) {
                return Unsupported(op, "with complex region arguments");
              }
            }
            absl::Status status = ExpandOps(block.operations);
            if (!status.ok()) return status;
          }
        }
        expanded.push_back(std::move(op));
        continue;
      }
      out_ = &expanded;
      location_ = op.location;
      expanding_ = op.name;
      status_ = absl::OkStatus();
      absl::Status status = ExpandOp(op);
      if (status.ok()) status = status_;
      if (!status.ok()) return status;
    }
    ops = std::move(expanded);
    return absl::OkStatus();
  }

 private:
  static absl::Status Unsupported(const Operation& op, absl::string_view what) {
    return absl::UnimplementedError(
        absl::StrCat(op.location.line, ":", op.location.column, ": ", op.name,
                     " ", what, " is not supported"));
  }

  ValueRef Fresh() { return Named(absl::StrCat("__cx", (*counter_)++)); }

  // Appends the op written (generic form, without its result) in `text`
  // and returns its result.
  ValueRef Emit(const std::string& text) {
    ValueRef result = Fresh();
    if (!status_.ok()) return result;
    const std::string function =
        absl::StrCat("func.func @expansion() {\n  ", RefText(result), " = ",
                     text, "\n  func.return\n}\n");
    absl::StatusOr<mlir::Module> module = mlir::ParseModule(function);
    if (!module.ok()) {
      status_ = absl::InternalError(
          absl::StrCat(location_.line, ":", location_.column, ": expanding ",
                       expanding_, ": ", module.status().message()));
      return result;
    }
    Operation op = std::move(module->functions[0].body.blocks[0].operations[0]);
    op.location = location_;
    out_->push_back(std::move(op));
    return result;
  }

  // Ops on the parts, whose tensor type is type_ (bool_type_ for
  // predicates).
  ValueRef Unary(absl::string_view name, const ValueRef& a) {
    return Emit(absl::StrCat("\"", name, "\"(", RefText(a), ") : (", type_,
                             ") -> ", type_));
  }
  ValueRef Binary(absl::string_view name, const ValueRef& a,
                  const ValueRef& b) {
    return Emit(absl::StrCat("\"stablehlo.", name, "\"(", RefText(a), ", ",
                             RefText(b), ") : (", type_, ", ", type_, ") -> ",
                             type_));
  }
  ValueRef Add(const ValueRef& a, const ValueRef& b) {
    return Binary("add", a, b);
  }
  ValueRef Sub(const ValueRef& a, const ValueRef& b) {
    return Binary("subtract", a, b);
  }
  ValueRef Mul(const ValueRef& a, const ValueRef& b) {
    return Binary("multiply", a, b);
  }
  ValueRef Div(const ValueRef& a, const ValueRef& b) {
    return Binary("divide", a, b);
  }
  ValueRef Op(absl::string_view name, const ValueRef& a) {
    return Unary(absl::StrCat("stablehlo.", name), a);
  }
  ValueRef Constant(double value) {
    return Emit(absl::StrCat("\"stablehlo.constant\"() {value = dense<",
                             Number(value), "> : ", type_, "} : () -> ",
                             type_));
  }
  ValueRef Compare(absl::string_view direction, const ValueRef& a,
                   const ValueRef& b, const std::string& type) {
    return Emit(absl::StrCat(
        "\"stablehlo.compare\"(", RefText(a), ", ", RefText(b),
        ") {comparison_direction = #stablehlo<comparison_direction ", direction,
        ">} : (", type, ", ", type, ") -> ", bool_type_));
  }
  ValueRef Compare(absl::string_view direction, const ValueRef& a,
                   const ValueRef& b) {
    return Compare(direction, a, b, type_);
  }
  ValueRef Select(const ValueRef& predicate, const ValueRef& a,
                  const ValueRef& b) {
    return Emit(absl::StrCat("\"stablehlo.select\"(", RefText(predicate), ", ",
                             RefText(a), ", ", RefText(b), ") : (", bool_type_,
                             ", ", type_, ", ", type_, ") -> ", type_));
  }
  ValueRef Logical(absl::string_view name, const ValueRef& a,
                   const ValueRef& b) {
    return Emit(absl::StrCat("\"stablehlo.", name, "\"(", RefText(a), ", ",
                             RefText(b), ") : (", bool_type_, ", ", bool_type_,
                             ") -> ", bool_type_));
  }

  // Complex arithmetic on parts.
  Parts Multiply(const Parts& x, const Parts& y) {
    return {Sub(Mul(x.re, y.re), Mul(x.im, y.im)),
            Add(Mul(x.re, y.im), Mul(x.im, y.re))};
  }
  // Smith's algorithm: scales by the larger part of the divisor, so that
  // |y|^2 neither overflows nor underflows.
  Parts Divide(const Parts& x, const Parts& y) {
    const ValueRef real_larger =
        Compare("GE", Op("abs", y.re), Op("abs", y.im));
    const ValueRef big = Select(real_larger, y.re, y.im);
    const ValueRef small = Select(real_larger, y.im, y.re);
    const ValueRef ratio = Div(small, big);
    const ValueRef denominator = Add(big, Mul(small, ratio));
    // y = big (1 + i ratio) when the real part is larger, else
    // big (ratio + i).
    const ValueRef a = Select(real_larger, x.re, x.im);
    const ValueRef b = Select(real_larger, x.im, x.re);
    const ValueRef first = Div(Add(a, Mul(b, ratio)), denominator);
    const ValueRef second = Div(Sub(b, Mul(a, ratio)), denominator);
    // Real part larger: (xr + xi r, xi - xr r) / d; else
    // (xr r + xi, xi r - xr) / d = (first, -second) with a, b swapped.
    return {first, Select(real_larger, second, Op("negate", second))};
  }
  // |z| without overflow: max * sqrt(1 + (min/max)^2), 0 for 0.
  ValueRef Abs(const Parts& z) {
    const ValueRef x = Op("abs", z.re);
    const ValueRef y = Op("abs", z.im);
    const ValueRef big = Binary("maximum", x, y);
    const ValueRef small = Binary("minimum", x, y);
    const ValueRef zero = Constant(0);
    const ValueRef one = Constant(1);
    const ValueRef is_zero = Compare("EQ", big, zero);
    const ValueRef ratio = Div(small, Select(is_zero, one, big));
    const ValueRef scaled = Mul(big, Op("sqrt", Add(one, Mul(ratio, ratio))));
    const ValueRef is_inf = Compare("EQ", big, Constant(INFINITY));
    return Select(is_zero, zero, Select(is_inf, big, scaled));
  }
  Parts Exp(const Parts& z) {
    const ValueRef e = Op("exponential", z.re);
    return {Mul(e, Op("cosine", z.im)), Mul(e, Op("sine", z.im))};
  }
  Parts Log(const Parts& z) {
    return {Op("log", Abs(z)), Binary("atan2", z.im, z.re)};
  }
  // The principal root: t = sqrt((|z| + |re|) / 2) is the larger part.
  Parts Sqrt(const Parts& z) {
    const ValueRef zero = Constant(0);
    const ValueRef t =
        Op("sqrt", Mul(Add(Abs(z), Op("abs", z.re)), Constant(0.5)));
    const ValueRef t_is_zero = Compare("EQ", t, zero);
    const ValueRef other =
        Select(t_is_zero, zero,
               Div(z.im, Mul(Constant(2), Select(t_is_zero, Constant(1), t))));
    const ValueRef re_negative = Compare("LT", z.re, zero);
    const ValueRef signed_t =
        Select(Compare("LT", z.im, zero), Op("negate", t), t);
    return {Select(re_negative, Op("abs", other), t),
            Select(re_negative, signed_t, other)};
  }
  Parts Reciprocal(const Parts& z) {
    return Divide(Parts{Constant(1), Constant(0)}, z);
  }

  // A complex tensor's parts from / into its interleaved form.
  Parts Unpack(const ValueRef& interleaved, const Type& complex_type);
  ValueRef Pack(const Parts& parts, const Type& complex_type);
  // func.return and func.call: complex operands cross interleaved, and a
  // call's complex results are unpacked.
  absl::Status ExpandBoundary(Operation& op);

  // A reduce of one complex operand whose body only adds: the sum of each
  // part.
  static bool IsComplexSum(const Operation& op);
  absl::Status ExpandSum(const Operation& op);

  absl::Status ExpandOp(Operation& op);
  absl::Status ExpandFft(Operation& op);
  absl::Status ExpandCheck(Operation& op);
  absl::Status ExpandConstant(Operation& op);
  void ExpandPerPart(const Operation& op);
  absl::Status ExpandBilinear(const Operation& op);
  // `op` on the given operands (its complex ones replaced by parts), with
  // a real result.
  ValueRef CopyOn(const Operation& op, const std::vector<ValueRef>& operands);

  absl::StatusOr<Parts> PartsOf(const Operation& op, int operand) {
    auto it = parts_.find(KeyOf(op.operands[operand]));
    if (it == parts_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(op.location.line, ":", op.location.column, ": ", op.name,
                       " uses %", op.operands[operand].name,
                       ", which is not a complex value defined before it"));
    }
    return it->second;
  }

  // Defines `op`'s (only) result as `parts` or as `value`.
  void Define(const Operation& op, const Parts& parts) {
    parts_[{op.result_name, 0}] = parts;
  }
  void Alias(const Operation& op, const ValueRef& value) {
    aliases_[{op.result_name, 0}] = value;
  }

  // The DFT along `axis` of a tensor with `dims` (in type_'s element):
  // `matrix_re` / `matrix_im` are N x K row-major, the result has K along
  // `axis`. With an imaginary input part, the complex product.
  ValueRef Contract(const ValueRef& x, std::vector<int64_t> dims, int axis,
                    int64_t k, const std::vector<double>& matrix);
  Parts ComplexDft(const Parts& x, std::vector<int64_t>& dims, int axis,
                   int64_t n, bool inverse);

  int* counter_;
  std::map<ValueKey, Parts> parts_;
  std::map<ValueKey, ValueRef> aliases_;
  std::vector<Operation>* out_ = nullptr;
  // The op or argument being expanded: the location of every op made for
  // it, and its name for messages.
  mlir::Location location_;
  std::string expanding_;
  absl::Status status_;
  std::string element_;    // The parts' element type, e.g. "f64".
  std::string type_;       // The parts' tensor type.
  std::string bool_type_;  // The same shape's i1 tensor.
};

// Ops that move or pick elements without looking at their values, and
// those whose complex form is the real form on each part.
bool IsPerPartOp(const std::string& name) {
  static const std::set<std::string>& ops = *new std::set<std::string>{
      "stablehlo.add",           "stablehlo.subtract",
      "stablehlo.negate",        "stablehlo.reshape",
      "stablehlo.transpose",     "stablehlo.broadcast_in_dim",
      "stablehlo.broadcast",     "stablehlo.slice",
      "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice",
      "stablehlo.concatenate",   "stablehlo.reverse",
      "stablehlo.pad",           "stablehlo.copy",
      "stablehlo.select",        "stablehlo.gather",
      "stablehlo.convert"};
  return ops.count(name) > 0;
}

void FunctionExpander::ExpandPerPart(const Operation& op) {
  Parts result;
  for (int part = 0; part < 2; ++part) {
    Operation copy = op;
    for (size_t i = 0; i < copy.operands.size(); ++i) {
      if (!IsComplex(copy.operand_types[i])) continue;
      absl::StatusOr<Parts> parts = PartsOf(op, static_cast<int>(i));
      if (!parts.ok()) {
        status_ = parts.status();
        return;
      }
      copy.operands[i] = part == 0 ? parts->re : parts->im;
      copy.operand_types[i] = PartType(copy.operand_types[i]);
    }
    copy.result_types[0] = PartType(copy.result_types[0]);
    const ValueRef name = Fresh();
    copy.result_name = name.name;
    (part == 0 ? result.re : result.im) = name;
    out_->push_back(std::move(copy));
  }
  Define(op, result);
}

Parts FunctionExpander::Unpack(const ValueRef& interleaved,
                               const Type& complex_type) {
  const std::string element = PartElement(complex_type.element);
  const std::string part_type = TensorText(complex_type.dims, element);
  std::vector<int64_t> column_dims = complex_type.dims;
  column_dims.push_back(1);
  const std::string column_type = TensorText(column_dims, element);
  const std::string interleaved_type = InterleavedType(complex_type).text;
  std::vector<int64_t> starts(column_dims.size(), 0);
  std::vector<int64_t> strides(column_dims.size(), 1);
  Parts parts;
  for (int part = 0; part < 2; ++part) {
    starts.back() = part;
    std::vector<int64_t> limits = column_dims;
    limits.back() = part + 1;
    const ValueRef column = Emit(absl::StrCat(
        "\"stablehlo.slice\"(", RefText(interleaved),
        ") {start_indices = array<i64: ", absl::StrJoin(starts, ", "),
        ">, limit_indices = array<i64: ", absl::StrJoin(limits, ", "),
        ">, strides = array<i64: ", absl::StrJoin(strides, ", "), ">} : (",
        interleaved_type, ") -> ", column_type));
    const ValueRef value =
        Emit(absl::StrCat("\"stablehlo.reshape\"(", RefText(column), ") : (",
                          column_type, ") -> ", part_type));
    (part == 0 ? parts.re : parts.im) = value;
  }
  return parts;
}

ValueRef FunctionExpander::Pack(const Parts& parts, const Type& complex_type) {
  const std::string element = PartElement(complex_type.element);
  const std::string part_type = TensorText(complex_type.dims, element);
  std::vector<int64_t> column_dims = complex_type.dims;
  column_dims.push_back(1);
  const std::string column_type = TensorText(column_dims, element);
  const ValueRef re =
      Emit(absl::StrCat("\"stablehlo.reshape\"(", RefText(parts.re), ") : (",
                        part_type, ") -> ", column_type));
  const ValueRef im =
      Emit(absl::StrCat("\"stablehlo.reshape\"(", RefText(parts.im), ") : (",
                        part_type, ") -> ", column_type));
  return Emit(absl::StrCat(
      "\"stablehlo.concatenate\"(", RefText(re), ", ", RefText(im),
      ") {dimension = ", complex_type.dims.size(), " : i64} : (", column_type,
      ", ", column_type, ") -> ", InterleavedType(complex_type).text));
}

absl::Status FunctionExpander::ExpandBoundary(Operation& op) {
  Operation copy = op;
  for (size_t i = 0; i < copy.operands.size(); ++i) {
    if (!IsComplex(copy.operand_types[i])) continue;
    if (copy.operand_types[i].kind != Type::Kind::kTensor) {
      return Unsupported(op, "of complex values that are not tensors");
    }
    absl::StatusOr<Parts> parts = PartsOf(op, static_cast<int>(i));
    if (!parts.ok()) return parts.status();
    copy.operands[i] = Pack(*parts, copy.operand_types[i]);
    copy.operand_types[i] = InterleavedType(copy.operand_types[i]);
  }
  std::vector<size_t> complex_results;
  for (size_t i = 0; i < copy.result_types.size(); ++i) {
    if (!IsComplex(copy.result_types[i])) continue;
    if (copy.result_types[i].kind != Type::Kind::kTensor) {
      return Unsupported(op, "of complex values that are not tensors");
    }
    complex_results.push_back(i);
    copy.result_types[i] = InterleavedType(copy.result_types[i]);
  }
  out_->push_back(std::move(copy));
  for (size_t i : complex_results) {
    ValueRef result = Named(op.result_name);
    result.index = static_cast<int>(i);
    parts_[KeyOf(result)] = Unpack(result, op.result_types[i]);
  }
  return absl::OkStatus();
}

bool FunctionExpander::IsComplexSum(const Operation& op) {
  if (op.operands.size() != 2 || op.num_results != 1 ||
      op.regions.size() != 1 || op.regions[0].blocks.size() != 1) {
    return false;
  }
  const mlir::Block& body = op.regions[0].blocks[0];
  if (body.arguments.size() != 2 || body.operations.size() != 2) return false;
  const Operation& add = body.operations[0];
  const Operation& done = body.operations[1];
  auto is_argument = [&](const ValueRef& ref) {
    return ref.index == 0 && (ref.name == body.arguments[0].name ||
                              ref.name == body.arguments[1].name);
  };
  return IsComplex(op.operand_types[0]) && IsComplex(op.operand_types[1]) &&
         add.name == "stablehlo.add" && add.operands.size() == 2 &&
         is_argument(add.operands[0]) && is_argument(add.operands[1]) &&
         add.operands[0].name != add.operands[1].name &&
         (done.name == "stablehlo.return" || done.name == "func.return") &&
         done.operands.size() == 1 && done.operands[0].name == add.result_name;
}

absl::Status FunctionExpander::ExpandSum(const Operation& op) {
  absl::StatusOr<Parts> x = PartsOf(op, 0);
  if (!x.ok()) return x.status();
  absl::StatusOr<Parts> init = PartsOf(op, 1);
  if (!init.ok()) return init.status();
  Parts sum;
  for (int part = 0; part < 2; ++part) {
    Operation copy = op;
    copy.operands = {part == 0 ? x->re : x->im,
                     part == 0 ? init->re : init->im};
    for (Type& type : copy.operand_types) type = PartType(type);
    for (Type& type : copy.result_types) type = PartType(type);
    mlir::Block& body = copy.regions[0].blocks[0];
    for (mlir::BlockArgument& argument : body.arguments) {
      argument.type = PartType(argument.type);
    }
    for (Operation& inner : body.operations) {
      for (Type& type : inner.operand_types) type = PartType(type);
      for (Type& type : inner.result_types) type = PartType(type);
    }
    const ValueRef result = Fresh();
    copy.result_name = result.name;
    (part == 0 ? sum.re : sum.im) = result;
    out_->push_back(std::move(copy));
  }
  Define(op, sum);
  return absl::OkStatus();
}

ValueRef FunctionExpander::CopyOn(const Operation& op,
                                  const std::vector<ValueRef>& operands) {
  Operation copy = op;
  for (size_t i = 0; i < copy.operands.size(); ++i) {
    copy.operands[i] = operands[i];
    if (IsComplex(copy.operand_types[i])) {
      copy.operand_types[i] = PartType(copy.operand_types[i]);
    }
  }
  copy.result_types[0] = PartType(copy.result_types[0]);
  const ValueRef result = Fresh();
  copy.result_name = result.name;
  out_->push_back(std::move(copy));
  return result;
}

// dot_general, dot and convolution are linear in each operand: a complex
// operand splits into its parts, and the products combine as in
// (a + bi)(c + di).
absl::Status FunctionExpander::ExpandBilinear(const Operation& op) {
  if (op.operands.size() != 2) return Unsupported(op, "on complex values");
  Parts x{op.operands[0], ValueRef()}, y{op.operands[1], ValueRef()};
  const bool x_complex = IsComplex(op.operand_types[0]);
  const bool y_complex = IsComplex(op.operand_types[1]);
  for (auto [operand, parts] : {std::pair<int, Parts*>{0, &x}, {1, &y}}) {
    if (!IsComplex(op.operand_types[operand])) continue;
    absl::StatusOr<Parts> found = PartsOf(op, operand);
    if (!found.ok()) return found.status();
    *parts = *found;
  }
  if (x_complex && y_complex) {
    Define(op, Parts{Sub(CopyOn(op, {x.re, y.re}), CopyOn(op, {x.im, y.im})),
                     Add(CopyOn(op, {x.re, y.im}), CopyOn(op, {x.im, y.re}))});
  } else if (x_complex) {
    Define(op, Parts{CopyOn(op, {x.re, y.re}), CopyOn(op, {x.im, y.re})});
  } else {
    Define(op, Parts{CopyOn(op, {x.re, y.re}), CopyOn(op, {x.re, y.im})});
  }
  return absl::OkStatus();
}

absl::Status FunctionExpander::ExpandConstant(Operation& op) {
  for (auto& [name, value] : op.attributes) {
    if (name != "value") continue;
    if (value.kind != Attribute::Kind::kDenseElements || value.dense.is_hex) {
      return Unsupported(op, "with a complex value not written as (re, im)");
    }
    Operation re = op, im = op;
    for (Operation* part : {&re, &im}) {
      part->result_types[0] = PartType(op.result_types[0]);
      for (auto& [part_name, part_value] : part->attributes) {
        if (part_name != "value") continue;
        part_value.type = PartType(value.type);
        part_value.dense.values.clear();
      }
      part->result_name = Fresh().name;
    }
    for (const std::string& literal : value.dense.values) {
      std::string real, imaginary;
      absl::Status status = SplitComplexLiteral(op, literal, &real, &imaginary);
      if (!status.ok()) return status;
      for (auto& [n, v] : re.attributes) {
        if (n == "value") v.dense.values.push_back(real);
      }
      for (auto& [n, v] : im.attributes) {
        if (n == "value") v.dense.values.push_back(imaginary);
      }
    }
    Define(op, Parts{Named(re.result_name), Named(im.result_name)});
    out_->push_back(std::move(re));
    out_->push_back(std::move(im));
    return absl::OkStatus();
  }
  return Unsupported(op, "of complex type without a dense value");
}

absl::Status FunctionExpander::ExpandCheck(Operation& op) {
  std::vector<Operation> copies(2, op);
  for (int part = 0; part < 2; ++part) {
    Operation& copy = copies[part];
    for (size_t i = 0; i < copy.operands.size(); ++i) {
      if (!IsComplex(copy.operand_types[i])) continue;
      absl::StatusOr<Parts> parts = PartsOf(op, static_cast<int>(i));
      if (!parts.ok()) return parts.status();
      copy.operands[i] = part == 0 ? parts->re : parts->im;
      copy.operand_types[i] = PartType(copy.operand_types[i]);
    }
    for (auto& [name, value] : copy.attributes) {
      if (name != "value" || value.kind != Attribute::Kind::kDenseElements ||
          !IsComplex(value.type)) {
        continue;
      }
      if (value.dense.is_hex) {
        return Unsupported(op, "with a complex value not written as (re, im)");
      }
      value.type = PartType(value.type);
      for (std::string& literal : value.dense.values) {
        std::string re, im;
        absl::Status status = SplitComplexLiteral(op, literal, &re, &im);
        if (!status.ok()) return status;
        literal = part == 0 ? re : im;
      }
    }
  }
  out_->push_back(std::move(copies[0]));
  out_->push_back(std::move(copies[1]));
  return absl::OkStatus();
}

ValueRef FunctionExpander::Contract(const ValueRef& x,
                                    std::vector<int64_t> dims, int axis,
                                    int64_t k,
                                    const std::vector<double>& matrix) {
  const int64_t n = dims[axis];
  std::vector<std::string> rows;
  for (int64_t row = 0; row < n; ++row) {
    std::vector<std::string> entries;
    for (int64_t column = 0; column < k; ++column) {
      entries.push_back(Number(matrix[row * k + column]));
    }
    rows.push_back(absl::StrCat("[", absl::StrJoin(entries, ", "), "]"));
  }
  const std::string matrix_type = TensorText({n, k}, element_);
  const ValueRef constant = Emit(absl::StrCat(
      "\"stablehlo.constant\"() {value = dense<[", absl::StrJoin(rows, ", "),
      "]> : ", matrix_type, "} : () -> ", matrix_type));
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> moved;  // dot_general puts K last.
  for (int d = 0; d < rank; ++d) {
    if (d != axis) moved.push_back(dims[d]);
  }
  moved.push_back(k);
  const std::string input_type = TensorText(dims, element_);
  const std::string moved_type = TensorText(moved, element_);
  ValueRef product = Emit(absl::StrCat(
      "\"stablehlo.dot_general\"(", RefText(x), ", ", RefText(constant),
      ") {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions "
      "= [",
      axis, "], rhs_contracting_dimensions = [0]>} : (", input_type, ", ",
      matrix_type, ") -> ", moved_type));
  if (axis == rank - 1) return product;
  std::vector<int64_t> permutation;
  for (int d = 0; d < rank; ++d) {
    permutation.push_back(d < axis ? d : d == axis ? rank - 1 : d - 1);
  }
  dims[axis] = k;
  return Emit(absl::StrCat(
      "\"stablehlo.transpose\"(", RefText(product),
      ") {permutation = array<i64: ", absl::StrJoin(permutation, ", "),
      ">} : (", moved_type, ") -> ", TensorText(dims, element_)));
}

// exp(-+2 pi i j k / n) as cos and sin tables, with (j k) mod n keeping
// the angle exact.
double Angle(int64_t j, int64_t k, int64_t n) {
  return 2 * M_PI * static_cast<double>((j * k) % n) / static_cast<double>(n);
}

Parts FunctionExpander::ComplexDft(const Parts& x, std::vector<int64_t>& dims,
                                   int axis, int64_t n, bool inverse) {
  std::vector<double> re(n * n), im(n * n);
  const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t k = 0; k < n; ++k) {
      const double angle = Angle(j, k, n);
      re[j * n + k] = std::cos(angle) * scale;
      im[j * n + k] = (inverse ? std::sin(angle) : -std::sin(angle)) * scale;
    }
  }
  type_ = TensorText(dims, element_);
  const ValueRef rr = Contract(x.re, dims, axis, n, re);
  const ValueRef ii = Contract(x.im, dims, axis, n, im);
  const ValueRef ri = Contract(x.re, dims, axis, n, im);
  const ValueRef ir = Contract(x.im, dims, axis, n, re);
  return {Sub(rr, ii), Add(ri, ir)};
}

absl::Status FunctionExpander::ExpandFft(Operation& op) {
  std::string kind;
  std::vector<int64_t> lengths;
  for (const auto& [name, value] : op.attributes) {
    if (name == "fft_type") kind = value.body;
    if (name == "fft_length") lengths = value.integers;
  }
  const Type& input = op.operand_types[0];
  std::vector<int64_t> dims = input.dims;
  const int rank = static_cast<int>(dims.size());
  const int count = static_cast<int>(lengths.size());
  if (count < 1 || count > 3 || count > rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        op.location.line, ":", op.location.column, ": ", op.name, " length ",
        count, " must be 1..3 and at most the operand's rank ", rank));
  }
  for (int64_t length : lengths) {
    if (length > kMaxDftLength) {
      return absl::UnimplementedError(absl::StrCat(
          op.location.line, ":", op.location.column, ": ", op.name,
          " of length ", length, ": lengths above ", kMaxDftLength,
          " are not supported (each dimension is a product with its ",
          "DFT matrix)"));
    }
  }
  const bool real_input = kind == "RFFT";
  const bool real_output = kind == "IRFFT";
  for (int j = 0; j < count; ++j) {
    const int64_t want =
        real_output && j == count - 1 ? lengths[j] / 2 + 1 : lengths[j];
    if (lengths[j] <= 0 || dims[rank - count + j] != want) {
      return absl::InvalidArgumentError(
          absl::StrCat(op.location.line, ":", op.location.column, ": ", op.name,
                       " ", kind, " of length ", lengths[j], " needs ", want,
                       " elements along dimension ", rank - count + j, ", got ",
                       dims[rank - count + j]));
    }
  }
  const int last = rank - 1;
  if (kind == "FFT" || kind == "IFFT") {
    absl::StatusOr<Parts> x = PartsOf(op, 0);
    if (!x.ok()) return x.status();
    Parts y = *x;
    for (int j = 0; j < count; ++j) {
      y = ComplexDft(y, dims, rank - count + j, lengths[j], kind == "IFFT");
    }
    Define(op, y);
  } else if (real_input) {
    const int64_t n = lengths[count - 1], k = n / 2 + 1;
    std::vector<double> re(n * k), im(n * k);
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t c = 0; c < k; ++c) {
        re[j * k + c] = std::cos(Angle(j, c, n));
        im[j * k + c] = -std::sin(Angle(j, c, n));
      }
    }
    Parts y{Contract(op.operands[0], dims, last, k, re),
            Contract(op.operands[0], dims, last, k, im)};
    dims[last] = k;
    for (int j = 0; j < count - 1; ++j) {
      y = ComplexDft(y, dims, rank - count + j, lengths[j], false);
    }
    Define(op, y);
  } else if (real_output) {
    absl::StatusOr<Parts> x = PartsOf(op, 0);
    if (!x.ok()) return x.status();
    Parts y = *x;
    for (int j = 0; j < count - 1; ++j) {
      y = ComplexDft(y, dims, rank - count + j, lengths[j], true);
    }
    // Hermitian symmetry: the bins above n/2 are the conjugates of those
    // below, so each inner bin counts twice.
    const int64_t n = lengths[count - 1], k = n / 2 + 1;
    std::vector<double> re(k * n), im(k * n);
    for (int64_t c = 0; c < k; ++c) {
      const double weight = (c == 0 || 2 * c == n) ? 1.0 : 2.0;
      for (int64_t j = 0; j < n; ++j) {
        re[c * n + j] = weight * std::cos(Angle(c, j, n)) / n;
        im[c * n + j] = -weight * std::sin(Angle(c, j, n)) / n;
      }
    }
    const ValueRef from_re = Contract(y.re, dims, last, n, re);
    const ValueRef from_im = Contract(y.im, dims, last, n, im);
    dims[last] = n;
    type_ = TensorText(dims, element_);
    Alias(op, Add(from_re, from_im));
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(op.location.line, ":", op.location.column, ": ", op.name,
                     " type '", kind, "', expected FFT, IFFT, RFFT or IRFFT"));
  }
  return absl::OkStatus();
}

absl::Status FunctionExpander::ExpandOp(Operation& op) {
  const std::string& name = op.name;
  if (absl::StartsWith(name, "check.")) return ExpandCheck(op);
  if (name == "func.return" || name == "func.call" || name == "call") {
    return ExpandBoundary(op);
  }
  if (name == "stablehlo.reduce" && IsComplexSum(op)) return ExpandSum(op);
  if (op.num_results != 1 || op.result_types.size() != 1 ||
      !op.regions.empty()) {
    return Unsupported(op, "on complex values");
  }
  // The parts' types: the complex operand's or result's shape.
  const Type* shaped =
      IsComplex(op.result_types[0]) ? &op.result_types[0] : nullptr;
  for (size_t i = 0; shaped == nullptr && i < op.operand_types.size(); ++i) {
    if (IsComplex(op.operand_types[i])) shaped = &op.operand_types[i];
  }
  if (shaped->kind != Type::Kind::kTensor) {
    return Unsupported(op, "on complex values that are not tensors");
  }
  element_ = PartElement(shaped->element);
  if (element_ != "f32" && element_ != "f64") {
    return Unsupported(op, absl::StrCat("on ", shaped->element));
  }
  type_ = TensorText(shaped->dims, element_);
  bool_type_ = TensorText(shaped->dims, "i1");
  const bool complex_result = IsComplex(op.result_types[0]);

  if (name == "stablehlo.fft") return ExpandFft(op);
  if (name == "stablehlo.constant") return ExpandConstant(op);
  if (name == "stablehlo.complex") {
    Define(op, Parts{op.operands[0], op.operands[1]});
    return absl::OkStatus();
  }
  if (name == "stablehlo.convert" && !IsComplex(op.operand_types[0])) {
    const std::string from = TypeText(op.operand_types[0]);
    Define(op, Parts{Emit(absl::StrCat("\"stablehlo.convert\"(",
                                       RefText(op.operands[0]), ") : (", from,
                                       ") -> ", type_)),
                     Constant(0)});
    return absl::OkStatus();
  }
  if (name == "stablehlo.convert" && !complex_result) {
    absl::StatusOr<Parts> z = PartsOf(op, 0);
    if (!z.ok()) return z.status();
    // A complex value converts to a real type through its real part.
    Alias(op,
          Emit(absl::StrCat("\"stablehlo.convert\"(", RefText(z->re), ") : (",
                            type_, ") -> ", TypeText(op.result_types[0]))));
    return absl::OkStatus();
  }
  if (name == "stablehlo.bitcast_convert") {
    // Through the interleaved form, which is the complex value's bits.
    ValueRef source = op.operands[0];
    std::string source_type = TypeText(op.operand_types[0]);
    if (IsComplex(op.operand_types[0])) {
      absl::StatusOr<Parts> z = PartsOf(op, 0);
      if (!z.ok()) return z.status();
      source = Pack(*z, op.operand_types[0]);
      source_type = InterleavedType(op.operand_types[0]).text;
    }
    const std::string target_type =
        complex_result ? InterleavedType(op.result_types[0]).text
                       : TypeText(op.result_types[0]);
    const ValueRef bits =
        Emit(absl::StrCat("\"stablehlo.bitcast_convert\"(", RefText(source),
                          ") : (", source_type, ") -> ", target_type));
    if (complex_result) {
      Define(op, Unpack(bits, op.result_types[0]));
    } else {
      Alias(op, bits);
    }
    return absl::OkStatus();
  }
  if (name == "stablehlo.iota") {
    Operation re = op;
    re.result_types[0] = PartType(op.result_types[0]);
    re.result_name = Fresh().name;
    const ValueRef re_value = Named(re.result_name);
    out_->push_back(std::move(re));
    Define(op, Parts{re_value, Constant(0)});
    return absl::OkStatus();
  }
  if (IsPerPartOp(name)) {
    ExpandPerPart(op);
    return absl::OkStatus();
  }
  if (complex_result &&
      (name == "stablehlo.dot_general" || name == "stablehlo.dot" ||
       name == "stablehlo.convolution")) {
    return ExpandBilinear(op);
  }

  std::vector<Parts> z;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!IsComplex(op.operand_types[i])) {
      return Unsupported(op, "mixing complex and real operands");
    }
    absl::StatusOr<Parts> parts = PartsOf(op, static_cast<int>(i));
    if (!parts.ok()) return parts.status();
    z.push_back(*parts);
  }
  const std::string op_name(absl::StripPrefix(name, "stablehlo."));
  if (z.size() == 1) {
    const Parts& x = z[0];
    if (op_name == "real") {
      Alias(op, x.re);
    } else if (op_name == "imag") {
      Alias(op, x.im);
    } else if (op_name == "abs") {
      Alias(op, Abs(x));
    } else if (op_name == "exponential") {
      Define(op, Exp(x));
    } else if (op_name == "exponential_minus_one") {
      // e^a cos b - 1 = expm1(a) cos b - 2 sin^2(b / 2), exact near 0.
      const ValueRef half_sin = Op("sine", Mul(x.im, Constant(0.5)));
      Define(
          op,
          Parts{Sub(Mul(Op("exponential_minus_one", x.re), Op("cosine", x.im)),
                    Mul(Constant(2), Mul(half_sin, half_sin))),
                Mul(Op("exponential", x.re), Op("sine", x.im))});
    } else if (op_name == "log") {
      Define(op, Log(x));
    } else if (op_name == "log_plus_one") {
      // |1 + z|^2 = 1 + (2a + a^2 + b^2).
      const ValueRef grow =
          Add(Mul(x.re, Add(Constant(2), x.re)), Mul(x.im, x.im));
      Define(op, Parts{Mul(Constant(0.5), Op("log_plus_one", grow)),
                       Binary("atan2", x.im, Add(Constant(1), x.re))});
    } else if (op_name == "sqrt") {
      Define(op, Sqrt(x));
    } else if (op_name == "rsqrt") {
      Define(op, Reciprocal(Sqrt(x)));
    } else if (op_name == "cbrt") {
      const Parts log = Log(x);
      const ValueRef third = Constant(1.0 / 3.0);
      Define(op, Exp(Parts{Mul(log.re, third), Mul(log.im, third)}));
    } else if (op_name == "sine" || op_name == "cosine") {
      const ValueRef sin = Op("sine", x.re), cos = Op("cosine", x.re);
      const ValueRef cosh = Unary("chlo.cosh", x.im);
      const ValueRef sinh = Unary("chlo.sinh", x.im);
      if (op_name == "sine") {
        Define(op, Parts{Mul(sin, cosh), Mul(cos, sinh)});
      } else {
        Define(op, Parts{Mul(cos, cosh), Op("negate", Mul(sin, sinh))});
      }
    } else if (op_name == "tanh") {
      // (sinh 2a + i sin 2b) / (cosh 2a + cos 2b); past |a| = 20 both
      // parts have settled at (sign a, 0) in f64 and sinh would overflow.
      const ValueRef a2 = Mul(Constant(2), x.re);
      const ValueRef b2 = Mul(Constant(2), x.im);
      const ValueRef denominator =
          Add(Unary("chlo.cosh", a2), Op("cosine", b2));
      const ValueRef large = Compare("GT", Op("abs", x.re), Constant(20));
      Define(op, Parts{Select(large, Op("sign", x.re),
                              Div(Unary("chlo.sinh", a2), denominator)),
                       Select(large, Constant(0),
                              Div(Op("sine", b2), denominator))});
    } else if (op_name == "logistic") {
      const Parts e = Exp(Parts{Op("negate", x.re), Op("negate", x.im)});
      Define(op, Reciprocal(Parts{Add(Constant(1), e.re), e.im}));
    } else if (op_name == "sign") {
      const ValueRef magnitude = Abs(x);
      const ValueRef zero = Constant(0);
      const ValueRef is_zero = Compare("EQ", magnitude, zero);
      const ValueRef safe = Select(is_zero, Constant(1), magnitude);
      Define(op, Parts{Select(is_zero, zero, Div(x.re, safe)),
                       Select(is_zero, zero, Div(x.im, safe))});
    } else if (op_name == "negate") {
      Define(op, Parts{Op("negate", x.re), Op("negate", x.im)});
    } else {
      return Unsupported(op, "on complex values");
    }
    return absl::OkStatus();
  }
  if (z.size() == 2) {
    const Parts& x = z[0];
    const Parts& y = z[1];
    if (op_name == "multiply") {
      Define(op, Multiply(x, y));
    } else if (op_name == "divide") {
      Define(op, Divide(x, y));
    } else if (op_name == "power") {
      Define(op, Exp(Multiply(y, Log(x))));
    } else if (op_name == "maximum" || op_name == "minimum") {
      // Lexicographic: real parts first, imaginary parts on a tie.
      const absl::string_view direction = op_name == "maximum" ? "GT" : "LT";
      const ValueRef first = Logical("or", Compare(direction, x.re, y.re),
                                     Logical("and", Compare("EQ", x.re, y.re),
                                             Compare(direction, x.im, y.im)));
      Define(op, Parts{Select(first, x.re, y.re), Select(first, x.im, y.im)});
    } else if (op_name == "compare") {
      std::string direction;
      for (const auto& [attribute, value] : op.attributes) {
        if (attribute == "comparison_direction") direction = value.body;
      }
      if (direction != "EQ" && direction != "NE") {
        return absl::InvalidArgumentError(absl::StrCat(
            op.location.line, ":", op.location.column, ": ", name,
            " of complex values with direction '", direction,
            "', expected EQ or NE (complex numbers are not ordered)"));
      }
      const ValueRef re = Compare(direction, x.re, y.re);
      const ValueRef im = Compare(direction, x.im, y.im);
      Alias(op, Logical(direction == "EQ" ? "and" : "or", re, im));
    } else {
      return Unsupported(op, "on complex values");
    }
    return absl::OkStatus();
  }
  return Unsupported(op, "on complex values");
}

}  // namespace

bool MentionsComplex(const mlir::Module& module) {
  std::vector<const mlir::Block*> blocks;
  for (const mlir::Function& function : module.functions) {
    for (const mlir::FunctionArgument& argument : function.arguments) {
      if (IsComplex(argument.type)) return true;
    }
    if (AnyComplex(function.result_types)) return true;
    for (const mlir::Block& block : function.body.blocks) {
      blocks.push_back(&block);
    }
  }
  while (!blocks.empty()) {
    const mlir::Block* block = blocks.back();
    blocks.pop_back();
    for (const mlir::BlockArgument& argument : block->arguments) {
      if (IsComplex(argument.type)) return true;
    }
    for (const Operation& op : block->operations) {
      if (AnyComplex(op.operand_types) || AnyComplex(op.result_types)) {
        return true;
      }
      for (const mlir::Region& region : op.regions) {
        for (const mlir::Block& inner : region.blocks) blocks.push_back(&inner);
      }
    }
  }
  return false;
}

absl::Status ExpandComplex(mlir::Module& module,
                           ComplexSignatures* signatures) {
  int counter = 0;
  for (mlir::Function& function : module.functions) {
    FunctionExpander expander(&counter);
    ComplexSignature signature;
    absl::Status status = expander.ExpandFunction(function, &signature);
    if (!status.ok()) return status;
    if (signatures != nullptr) (*signatures)[function.name] = signature;
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::ir
