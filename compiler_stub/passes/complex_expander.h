// The expander behind complex_expansion.h, shared by the files that
// implement its steps: the driver and the ops on parts
// (complex_expansion.cc), the formulas of complex arithmetic
// (complex_formulas.cc) and fft (complex_fft.cc). Not for other users.
#ifndef PJRTX_COMPILER_STUB_PASSES_COMPLEX_EXPANDER_H_
#define PJRTX_COMPILER_STUB_PASSES_COMPLEX_EXPANDER_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/mlir/ast.h"
#include "compiler_stub/mlir/location_text.h"
#include "compiler_stub/mlir/parser.h"
#include "compiler_stub/passes/complex_expansion.h"

namespace pjrtx::ir::complex_internal {

using mlir::Attribute;
using mlir::Operation;
using mlir::Type;
using mlir::ValueRef;

inline constexpr absl::string_view kComplexPrefix = "complex<";

inline bool IsComplexElement(const std::string& element) {
  return absl::StartsWith(element, kComplexPrefix);
}

inline bool IsComplex(const Type& type) {
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

inline bool AnyComplex(const std::vector<Type>& types) {
  for (const Type& type : types) {
    if (IsComplex(type)) return true;
  }
  return false;
}

inline std::string TensorText(const std::vector<int64_t>& dims,
                              const std::string& element) {
  std::string text = "tensor<";
  for (int64_t dim : dims) {
    absl::StrAppend(&text, dim < 0 ? "?" : std::to_string(dim), "x");
  }
  absl::StrAppend(&text, element, ">");
  return text;
}

// complex<f32> -> f32.
inline std::string PartElement(const std::string& element) {
  // Only a complex<...> element has a part type. Anything else (the empty
  // element of a tuple type holding complex values, a malformed artifact's
  // type) stays as it is, for the verifier to reject, rather than throwing
  // std::out_of_range here.
  if (!IsComplexElement(element) || element.size() <= kComplexPrefix.size()) {
    return element;
  }
  return element.substr(kComplexPrefix.size(),
                        element.size() - kComplexPrefix.size() - 1);
}

inline Type WithElement(const Type& type, const std::string& element) {
  Type result = type;
  result.element = element;
  result.text = TensorText(type.dims, element);
  return result;
}

inline Type PartType(const Type& type) {
  return WithElement(type, PartElement(type.element));
}

// complex<f32>[dims] as it crosses a function boundary: f32[dims, 2], the
// memory layout of a complex buffer (real part first).
inline Type InterleavedType(const Type& type) {
  Type result = PartType(type);
  result.dims.push_back(2);
  result.text = TensorText(result.dims, result.element);
  return result;
}

inline std::string RefText(const ValueRef& ref) {
  return ref.index == 0 ? absl::StrCat("%", ref.name)
                        : absl::StrCat("%", ref.name, "#", ref.index);
}

// "1.5" and "-2" from "(1.5, -2)" in a value of `op`.
inline absl::Status SplitComplexLiteral(const Operation& op,
                                        const std::string& text,
                                        std::string* re, std::string* im) {
  const size_t comma = text.find(',');
  if (text.size() < 5 || text.front() != '(' || text.back() != ')' ||
      comma == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        mlir::LocationText(op.location), ": ", op.name, ": complex literal '",
        text, "', expected (real, imaginary)"));
  }
  *re = std::string(absl::StripAsciiWhitespace(text.substr(1, comma - 1)));
  *im = std::string(absl::StripAsciiWhitespace(
      text.substr(comma + 1, text.size() - comma - 2)));
  return absl::OkStatus();
}

inline std::string Number(double value) {
  char text[40];
  std::snprintf(text, sizeof(text), "%.17g", value);
  std::string result = text;
  // MLIR reads "1" as an integer: keep it a float literal.
  if (result.find_first_of(".eEn") == std::string::npos) result += ".0";
  return result;
}

// fft: a length up to kMaxDftLength is a product with its DFT matrix
// (n^2 entries); a longer one n = n1 n2 splits into DFTs of n1 and n2
// (the four-step algorithm), down to matrices of at most kMaxDftLength;
// a prime above that is a convolution of power-of-two length (Bluestein's
// algorithm). (Splitting shorter lengths costs more in extra passes than
// it saves in multiply-adds: an RFFT of 64 x 256 took 4x as long split
// into 16 x 16.)
inline constexpr int64_t kMaxDftLength = 512;

// A tensor type's spelling, regenerated (the source text of a pretty form
// may be shared by several types).
inline std::string TypeText(const Type& type) {
  return type.kind == Type::Kind::kTensor ? TensorText(type.dims, type.element)
                                          : type.text;
}

struct Parts {
  ValueRef re;
  ValueRef im;
};

using ValueKey = std::pair<std::string, int>;

inline ValueKey KeyOf(const ValueRef& ref) { return {ref.name, ref.index}; }

inline ValueRef Named(std::string name) {
  ValueRef ref;
  ref.name = std::move(name);
  return ref;
}

// Expands one function: complex values are tracked as their parts, values
// that became other values (real(z) is z's real part) as aliases.
class ComplexExpander {
 public:
  explicit ComplexExpander(int* counter) : counter_(counter) {}

  // Rewrites `function`'s complex arguments and results to their
  // interleaved form and expands its body.
  absl::Status ExpandFunction(mlir::Function& function,
                              ComplexSignature* signature);

  // Expands the ops of a block in place.
  absl::Status ExpandOps(std::vector<Operation>& ops);

 private:
  static absl::Status Unsupported(const Operation& op, absl::string_view what) {
    return absl::UnimplementedError(
        absl::StrCat(mlir::LocationText(op.location), ": ", op.name, " ", what,
                     " is not supported"));
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
          absl::StrCat(mlir::LocationText(location_), ": expanding ",
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

  // Complex arithmetic on parts (complex_formulas.cc).
  Parts Multiply(const Parts& x, const Parts& y);
  // Smith's algorithm: scales by the larger part of the divisor, so that
  // |y|^2 neither overflows nor underflows; C99's limits where it gives
  // NaN for infinite or zero operands.
  Parts Divide(const Parts& x, const Parts& y);
  // |z| without overflow: max * sqrt(1 + (min/max)^2), 0 for 0.
  ValueRef Abs(const Parts& z);
  Parts Exp(const Parts& z);
  Parts Log(const Parts& z);
  // The principal root: t = sqrt((|z| + |re|) / 2) is the larger part.
  Parts Sqrt(const Parts& z);
  Parts Reciprocal(const Parts& z);
  // x^y in polar form, with XLA:CPU's corner cases.
  Parts Power(const Parts& x, const Parts& y);
  // Whether the sign bit of `x` is set (true for -0 as for -1).
  ValueRef SignBit(const ValueRef& x);
  // Predicates of a part: NaN, +-inf, neither.
  ValueRef IsNan(const ValueRef& x);
  ValueRef IsInf(const ValueRef& x);
  ValueRef IsFinite(const ValueRef& x);
  // `magnitude` (not negative) with the sign bit of `sign`.
  ValueRef CopySign(const ValueRef& magnitude, const ValueRef& sign);
  // The ops whose complex form is a formula of their operands' parts `z`
  // (every operand complex).
  absl::Status ExpandFormula(const Operation& op, const std::vector<Parts>& z);

  // A complex tensor's parts from / into its interleaved form.
  Parts Unpack(const ValueRef& interleaved, const Type& complex_type);
  ValueRef Pack(const Parts& parts, const Type& complex_type);
  // func.return and func.call: complex operands cross interleaved, and a
  // call's complex results are unpacked.
  absl::Status ExpandBoundary(Operation& op);

  // while, if, case, optimization_barrier, reduce, reduce_window, sort
  // and scatter, whose values flow through operands, region arguments, region
  // returns and results by position: each complex value becomes its two
  // parts in each list (a sort's comparator pairs them per operand).
  absl::Status ExpandControlFlow(const Operation& op);
  // map: as ExpandControlFlow, but a map has one result, so a complex one
  // comes from two maps, each returning one part.
  absl::Status ExpandMap(const Operation& op);
  // A region's return: each complex operand as its two parts.
  absl::Status ExpandReturn(const Operation& op);
  // Sets copy's operands to op's, each complex one as its two parts.
  absl::Status FlattenOperands(const Operation& op, Operation& copy);

  // A reduce of one complex operand whose body only adds: the sum of each
  // part. Any reduce also runs through ExpandControlFlow, but as one
  // variadic reduce whose body the CPU runtime calls per element; two
  // reduces with a one-add body take its fast path (simple_reduce.h).
  static bool IsComplexSum(const Operation& op);
  absl::Status ExpandSum(const Operation& op);
  // all_reduce of complex operands whose body adds: one all_reduce of
  // their parts with a real add (a body that mixes the parts, such as a
  // product, has no such form: UNIMPLEMENTED).
  absl::Status ExpandAllReduce(const Operation& op);
  // reduce_scatter of a complex operand whose body adds: one per part.
  absl::Status ExpandReduceScatter(const Operation& op);

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
          absl::StrCat(mlir::LocationText(op.location), ": ", op.name,
                       " uses %", op.operands[operand].name,
                       ", which is not a complex value defined before it"));
    }
    return it->second;
  }

  void Forget(const ValueKey& key) {
    parts_.erase(key);
    aliases_.erase(key);
  }

  // Defines `op`'s (only) result as `parts` or as `value`.
  void Define(const Operation& op, const Parts& parts) {
    parts_[{op.result_name, 0}] = parts;
  }
  void Alias(const Operation& op, const ValueRef& value) {
    aliases_[{op.result_name, 0}] = value;
  }

  // An n x k matrix constant of element_ from row-major `values`.
  ValueRef Matrix(int64_t n, int64_t k, const std::vector<double>& values);
  // The product of a tensor with `dims` along `axis` (of length n) with an
  // n x k `matrix`: the result has k along `axis`.
  ValueRef Contract(const ValueRef& x, std::vector<int64_t> dims, int axis,
                    int64_t k, const ValueRef& matrix);
  // The DFT along `axis`; with `real_input` x's imaginary part is 0 and
  // its products are skipped.
  Parts ComplexDft(const Parts& x, std::vector<int64_t>& dims, int axis,
                   int64_t n, bool inverse, bool real_input = false);
  // ComplexDft of n = n1 * n2 along `axis`: n2 DFTs of length n1 after n1
  // of length n2 and a twiddle, as in the four-step algorithm.
  Parts FourStepDft(const Parts& x, const std::vector<int64_t>& dims, int axis,
                    int64_t n1, bool inverse, bool real_input);
  // Real to complex (the n / 2 + 1 bins) and back along the last axis.
  // ComplexDft of a length with no factor to split (a prime above
  // kMaxDftLength) along `axis`: Bluestein's algorithm, the DFT as a
  // convolution with a chirp computed by DFTs of a power-of-two length.
  Parts BluesteinDft(const Parts& x, const std::vector<int64_t>& dims, int axis,
                     bool inverse, bool real_input);
  // The constants `values` (dims[axis] of them) repeated along the other
  // dimensions of `dims`.
  ValueRef AlongAxis(const std::vector<double>& values,
                     const std::vector<int64_t>& dims, int axis);
  Parts RealDft(const ValueRef& x, std::vector<int64_t>& dims, int64_t n);
  ValueRef InverseRealDft(const Parts& x, std::vector<int64_t>& dims,
                          int64_t n);
  // a x = b or x a = b of complex a and b as one real solve of twice the
  // size (complex_triangular_solve.cc).
  absl::Status ExpandTriangularSolve(const Operation& op);
  // Structural steps on part tensors of `element_`.
  ValueRef Reshape(const ValueRef& x, const std::vector<int64_t>& from,
                   const std::vector<int64_t>& to);
  ValueRef Transpose(const ValueRef& x, const std::vector<int64_t>& from,
                     const std::vector<int64_t>& permutation);
  ValueRef Slice(const ValueRef& x, const std::vector<int64_t>& from,
                 const std::vector<int64_t>& starts,
                 const std::vector<int64_t>& limits,
                 const std::vector<int64_t>& strides);
  ValueRef SliceLast(const ValueRef& x, const std::vector<int64_t>& from,
                     int64_t start, int64_t limit);
  ValueRef BroadcastInDim(const ValueRef& x, const std::vector<int64_t>& from,
                          const std::vector<int64_t>& to,
                          const std::vector<int64_t>& dimensions);
  // `values`, each of `dims`, end to end along `axis`.
  ValueRef Concatenate(const std::vector<ValueRef>& values,
                       const std::vector<int64_t>& dims, int axis);
  // x of `from` (batch dimensions, then one more) repeated to `to`: the
  // batch dimensions kept, the last one of `from` becoming `axis` of `to`.
  ValueRef BroadcastAlong(const ValueRef& x, const std::vector<int64_t>& from,
                          const std::vector<int64_t>& to, int axis);

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

}  // namespace pjrtx::ir::complex_internal

#endif  // PJRTX_COMPILER_STUB_PASSES_COMPLEX_EXPANDER_H_
