// stablehlo.rng_bit_generator, producing the bits XLA:CPU produces (its
// RngBitGeneratorExpander over the generators of xla/hlo/builder/lib/
// prng.cc), so that JAX's `rbg` and `unsafe_rbg` keys draw the same numbers
// here as on JAX's own CPU backend. Lowered from a template of integer
// elementwise ops over u32 and u64 words (every target runs those), built
// as text for the op's shapes:
//
// - The state is u64[2] or, for PHILOX, u64[3]; state[0] is the key, its two
//   u32 halves (low first) the generator's key words, and it is passed on
//   unchanged.
// - THREE_FRY (Threefry-2x32, 20 rounds): state[1] is a u64 counter; block i
//   encrypts counter + i (its low and high u32 halves). 64-bit outputs take
//   one block each (low word | high word << 32). Narrower outputs take the
//   two words of a block for two elements adjacent along one "split"
//   dimension (the first of even size, else the first of the largest):
//   element j along it comes from word j % 2 of the block at j / 2 over the
//   others, blocks numbered row-major. The counter advances by the blocks
//   used.
// - PHILOX (Philox-4x32, 10 rounds): a 128-bit counter, low u64 state[1] and
//   high u64 state[2], or for u64[2] state[0] (the key again). Block i
//   encrypts counter + i, giving four u32 words: elements 4i..4i+3 of the
//   row-major output, or 2i, 2i+1 as (w0 | w1 << 32, w2 | w3 << 32) for
//   64-bit outputs. The counter advances by the blocks used; a u64[2] state
//   keeps only the low word of it.
// - DEFAULT is PHILOX, XLA:CPU's (and XLA:GPU's) choice.
// - Outputs narrower than 32 bits are the low bits of the 32-bit ones;
//   signed and floating-point outputs are the bits of the unsigned output
//   of their width.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/template_lowering.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

constexpr ElementType kU32 = ElementType::kU32;
constexpr ElementType kU64 = ElementType::kU64;

// Threefry-2x32's rotations, and the parity constant of its third key word.
constexpr int kThreeFryRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
constexpr uint32_t kThreeFryParity = 0x1BD11BDA;
constexpr int kThreeFryBlocks = 5;  // Of 4 rounds each.
// Philox-4x32's multipliers and key increments ("Weyl" constants).
constexpr uint32_t kPhiloxMultiplierA = 0xD2511F53;
constexpr uint32_t kPhiloxMultiplierB = 0xCD9E8D57;
constexpr uint32_t kPhiloxKeyStepA = 0x9E3779B9;
constexpr uint32_t kPhiloxKeyStepB = 0xBB67AE85;
constexpr int kPhiloxRounds = 10;

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// The template's text, one op a line. Each value is a tensor of unsigned
// words; binary ops take a rank-0 operand as a scalar to broadcast.
class TemplateText {
 public:
  struct Value {
    std::string name;
    Shape shape;
  };

  // The function's one parameter: the op's initial state.
  Value State(const Shape& shape) { return Value{"%state", shape}; }

  Value Constant(uint64_t value, ElementType type) {
    return Emit(Shape{type, {}},
                absl::StrCat("stablehlo.constant dense<", value,
                             "> : ", TensorText({}, type)));
  }

  Value Iota(int64_t n) {
    const Shape shape{kU64, {n}};
    return Emit(shape,
                absl::StrCat("\"stablehlo.iota\"() {iota_dimension = 0 : "
                             "i64} : () -> ",
                             shape.ToString()));
  }

  Value Binary(absl::string_view op, const Value& a, const Value& b) {
    const Value x = Like(a, b), y = Like(b, a);
    return Emit(x.shape,
                absl::StrCat("\"stablehlo.", op, "\"(", x.name, ", ", y.name,
                             ") : (", x.shape.ToString(), ", ",
                             y.shape.ToString(), ") -> ", x.shape.ToString()));
  }
  Value Add(const Value& a, const Value& b) { return Binary("add", a, b); }
  Value Xor(const Value& a, const Value& b) { return Binary("xor", a, b); }
  Value Or(const Value& a, const Value& b) { return Binary("or", a, b); }
  Value Multiply(const Value& a, const Value& b) {
    return Binary("multiply", a, b);
  }
  Value Add(const Value& a, uint64_t b) {
    return b == 0 ? a : Add(a, Constant(b, a.shape.type));
  }
  Value Xor(const Value& a, uint64_t b) {
    return Xor(a, Constant(b, a.shape.type));
  }
  Value ShiftLeft(const Value& a, int bits) {
    return Binary("shift_left", a, Constant(bits, a.shape.type));
  }
  Value ShiftRight(const Value& a, int bits) {
    return Binary("shift_right_logical", a, Constant(bits, a.shape.type));
  }

  Value Convert(const Value& a, ElementType type) {
    if (a.shape.type == type) return a;
    return Unary("convert", a, Shape{type, a.shape.dims});
  }
  Value BitcastConvert(const Value& a, ElementType type) {
    if (a.shape.type == type) return a;
    return Unary("bitcast_convert", a, Shape{type, a.shape.dims});
  }
  Value Reshape(const Value& a, const std::vector<int64_t>& dims) {
    if (a.shape.dims == dims) return a;
    return Unary("reshape", a, Shape{a.shape.type, dims});
  }

  // The low and high u32 halves of u64 words.
  Value Low(const Value& a) { return Convert(a, kU32); }
  Value High(const Value& a) { return Convert(ShiftRight(a, 32), kU32); }
  // u64 words of u32 halves.
  Value Join(const Value& low, const Value& high) {
    return Or(Convert(low, kU64), ShiftLeft(Convert(high, kU64), 32));
  }

  // a + b on 128-bit numbers as (low, high) u64 words, for b < 2^64:
  // the high word carries when the low one wraps.
  std::pair<Value, Value> Add128(const Value& low, const Value& high,
                                 const Value& b) {
    const Value sum = Add(low, b);
    const Value x = Like(low, sum), h = Like(high, sum);
    const Value carried = Like(Add(high, 1), sum);
    const Shape predicate{ElementType::kPred, sum.shape.dims};
    const Value wrapped = Emit(
        predicate,
        absl::StrCat("\"stablehlo.compare\"(", sum.name, ", ", x.name,
                     ") {comparison_direction = #stablehlo<comparison_direction"
                     " LT>} : (",
                     sum.shape.ToString(), ", ", x.shape.ToString(), ") -> ",
                     predicate.ToString()));
    return {sum, Emit(sum.shape,
                      absl::StrCat("\"stablehlo.select\"(", wrapped.name, ", ",
                                   carried.name, ", ", h.name, ") : (",
                                   predicate.ToString(), ", ",
                                   h.shape.ToString(), ", ", h.shape.ToString(),
                                   ") -> ", h.shape.ToString()))};
  }

  // Element `index` of a rank-1 value, as a scalar.
  Value Element(const Value& a, int64_t index) {
    return Reshape(Slice(a, {index}, {index + 1}), {});
  }
  Value Slice(const Value& a, const std::vector<int64_t>& start,
              const std::vector<int64_t>& limit) {
    if (start == std::vector<int64_t>(start.size(), 0) &&
        limit == a.shape.dims) {
      return a;
    }
    std::vector<int64_t> dims, ones(start.size(), 1);
    for (size_t d = 0; d < start.size(); ++d) {
      dims.push_back(limit[d] - start[d]);
    }
    const Shape shape{a.shape.type, dims};
    return Emit(shape,
                absl::StrCat("\"stablehlo.slice\"(", a.name,
                             ") {start_indices = ", ArrayText(start),
                             ", limit_indices = ", ArrayText(limit),
                             ", strides = ", ArrayText(ones), "} : (",
                             a.shape.ToString(), ") -> ", shape.ToString()));
  }
  Value Concatenate(const std::vector<Value>& parts, int64_t dimension) {
    std::vector<std::string> names, types;
    Shape shape = parts[0].shape;
    shape.dims[dimension] = 0;
    for (const Value& part : parts) {
      names.push_back(part.name);
      types.push_back(part.shape.ToString());
      shape.dims[dimension] += part.shape.dims[dimension];
    }
    return Emit(
        shape,
        absl::StrCat("\"stablehlo.concatenate\"(", absl::StrJoin(names, ", "),
                     ") {dimension = ", dimension, " : i64} : (",
                     absl::StrJoin(types, ", "), ") -> ", shape.ToString()));
  }
  // Rank-1 `parts` of one length, interleaved: parts[k][i] becomes element
  // i * parts.size() + k.
  Value Interleave(const std::vector<Value>& parts) {
    const int64_t n = parts[0].shape.dims[0];
    std::vector<Value> columns;
    for (const Value& part : parts) columns.push_back(Reshape(part, {n, 1}));
    return Reshape(Concatenate(columns, 1),
                   {n * static_cast<int64_t>(parts.size())});
  }

  // The function: the state's type in, `results` out.
  std::string Function(const Shape& state, const std::vector<Value>& results) {
    std::vector<std::string> names, types;
    for (const Value& r : results) {
      names.push_back(r.name);
      types.push_back(r.shape.ToString());
    }
    return absl::StrCat(
        "func.func @rng_bit_generator(%state: ", state.ToString(), ") -> (",
        absl::StrJoin(types, ", "), ") {\n", body_, "  func.return ",
        absl::StrJoin(names, ", "), " : ", absl::StrJoin(types, ", "), "\n}\n");
  }

 private:
  Value Emit(const Shape& shape, absl::string_view text) {
    Value value{absl::StrCat("%v", count_++), shape};
    absl::StrAppend(&body_, "  ", value.name, " = ", text, "\n");
    return value;
  }
  Value Unary(absl::string_view op, const Value& a, const Shape& shape) {
    return Emit(shape,
                absl::StrCat("\"stablehlo.", op, "\"(", a.name, ") : (",
                             a.shape.ToString(), ") -> ", shape.ToString()));
  }
  // `a`, broadcast to the dims of `other` when it is a scalar and `other`
  // is not.
  Value Like(const Value& a, const Value& other) {
    if (!a.shape.dims.empty() || other.shape.dims.empty()) return a;
    const Shape shape{a.shape.type, other.shape.dims};
    return Emit(shape,
                absl::StrCat("\"stablehlo.broadcast_in_dim\"(", a.name,
                             ") {broadcast_dimensions = array<i64>} : (",
                             a.shape.ToString(), ") -> ", shape.ToString()));
  }

  std::string body_;
  int count_ = 0;
};

using Value = TemplateText::Value;

// Threefry-2x32 of the words (x0, x1) under the key words (k0, k1).
std::pair<Value, Value> ThreeFry(TemplateText& t, Value x0, Value x1,
                                 const Value& k0, const Value& k1) {
  const Value keys[3] = {k0, k1, t.Xor(t.Xor(k0, k1), kThreeFryParity)};
  x0 = t.Add(x0, keys[0]);
  x1 = t.Add(x1, keys[1]);
  for (int block = 0; block < kThreeFryBlocks; ++block) {
    for (int round = 0; round < 4; ++round) {
      const int rotation = kThreeFryRotations[(block % 2) * 4 + round];
      x0 = t.Add(x0, x1);
      x1 = t.Xor(
          x0, t.Or(t.ShiftLeft(x1, rotation), t.ShiftRight(x1, 32 - rotation)));
    }
    // The key schedule: keys rotate, and the block number is added in.
    x0 = t.Add(x0, keys[(block + 1) % 3]);
    x1 = t.Add(t.Add(x1, keys[(block + 2) % 3]), block + 1);
  }
  return {x0, x1};
}

// Philox-4x32 of the words `x` under the key words (k0, k1).
std::vector<Value> Philox(TemplateText& t, std::vector<Value> x,
                          const Value& k0, const Value& k1) {
  const Value a = t.Constant(kPhiloxMultiplierA, kU64);
  const Value b = t.Constant(kPhiloxMultiplierB, kU64);
  for (int round = 0; round < kPhiloxRounds; ++round) {
    // The round's key: the words plus `round` steps, modulo 2^32.
    const Value key0 =
        t.Add(k0, static_cast<uint32_t>(round * uint64_t{kPhiloxKeyStepA}));
    const Value key1 =
        t.Add(k1, static_cast<uint32_t>(round * uint64_t{kPhiloxKeyStepB}));
    const Value p0 = t.Multiply(t.Convert(x[0], kU64), a);
    const Value p1 = t.Multiply(t.Convert(x[2], kU64), b);
    x = {t.Xor(t.Xor(t.High(p1), x[1]), key0), t.Low(p1),
         t.Xor(t.Xor(t.High(p0), x[3]), key1), t.Low(p0)};
  }
  return x;
}

// The dimension THREE_FRY's narrow outputs split in two: the first of even
// size, else the first of the largest.
int SplitDimension(const std::vector<int64_t>& dims) {
  int largest = 0;
  for (int d = 0; d < static_cast<int>(dims.size()); ++d) {
    if (dims[d] % 2 == 0) return d;
    if (dims[d] > dims[largest]) largest = d;
  }
  return largest;
}

// Generates `out` (u32 or u64) with THREE_FRY; sets `state` to the new
// state.
Value ThreeFryBits(TemplateText& t, const Value& initial, const Shape& out,
                   Value& state) {
  const Value key = t.Element(initial, 0);
  const Value counter = t.Element(initial, 1);
  const Value k0 = t.Low(key), k1 = t.High(key);
  const std::vector<int64_t>& dims = out.dims;
  const bool wide = out.type == kU64;
  // 32-bit words pair up along the split dimension: as [A, h, 1, B] with h
  // pairs along it, A and B the elements before and after.
  int64_t before = 1, pairs = 1, after = 1;
  int split = 0;
  if (!wide && !dims.empty()) {
    split = SplitDimension(dims);
    pairs = (dims[split] + 1) / 2;
    before = Product(std::vector<int64_t>(dims.begin(), dims.begin() + split));
    after = Product(std::vector<int64_t>(dims.begin() + split + 1, dims.end()));
  }
  const int64_t blocks = wide ? Product(dims) : before * pairs * after;
  const Value counters = t.Add(counter, t.Iota(blocks));
  auto [x0, x1] = ThreeFry(t, t.Low(counters), t.High(counters), k0, k1);
  state = t.Concatenate(
      {t.Reshape(key, {1}), t.Reshape(t.Add(counter, blocks), {1})}, 0);
  if (wide) return t.Reshape(t.Join(x0, x1), dims);
  if (dims.empty()) return t.Reshape(x0, {});
  const std::vector<int64_t> half = {before, pairs, 1, after};
  const Value joined =
      t.Reshape(t.Concatenate({t.Reshape(x0, half), t.Reshape(x1, half)}, 2),
                {before, 2 * pairs, after});
  return t.Reshape(t.Slice(joined, {0, 0, 0}, {before, dims[split], after}),
                   dims);
}

// Generates `out` (u32 or u64) with PHILOX; sets `state` to the new state.
Value PhiloxBits(TemplateText& t, const Value& initial, const Shape& out,
                 Value& state) {
  const int64_t size = initial.shape.dims[0];
  const Value key = t.Element(initial, 0);
  const Value low = t.Element(initial, 1);
  const Value high = t.Element(initial, size == 3 ? 2 : 0);
  const bool wide = out.type == kU64;
  const int64_t n = Product(out.dims);
  const int64_t per_block = wide ? 2 : 4;
  const int64_t blocks = (n + per_block - 1) / per_block;
  auto [lows, highs] = t.Add128(low, high, t.Iota(blocks));
  const std::vector<Value> words =
      Philox(t, {t.Low(lows), t.High(lows), t.Low(highs), t.High(highs)},
             t.Low(key), t.High(key));
  auto [new_low, new_high] = t.Add128(low, high, t.Constant(blocks, kU64));
  std::vector<Value> parts = {t.Reshape(key, {1}), t.Reshape(new_low, {1})};
  if (size == 3) parts.push_back(t.Reshape(new_high, {1}));
  state = t.Concatenate(parts, 0);
  const Value flat = wide ? t.Interleave({t.Join(words[0], words[1]),
                                          t.Join(words[2], words[3])})
                          : t.Interleave(words);
  return t.Reshape(t.Slice(flat, {0}, {n}), out.dims);
}

}  // namespace

absl::Status LowerRngBitGenerator(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(1));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(2));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  PJRTX_ASSIGN_OR_RETURN(std::string algorithm,
                         s.attributes.EnumBody("rng_algorithm"));
  if (algorithm != "DEFAULT" && algorithm != "THREE_FRY" &&
      algorithm != "PHILOX") {
    return s.Error(absl::StrCat("rng_algorithm ", algorithm,
                                " is not one of DEFAULT, THREE_FRY, PHILOX"));
  }
  const bool three_fry = algorithm == "THREE_FRY";
  const Shape& initial = s.shape(0);
  if (initial.type != kU64 || initial.rank() != 1) {
    return s.Error(absl::StrCat("initial_state must be a 1-dimensional ",
                                "tensor of ui64, got ", initial.ToString()));
  }
  const int64_t size = initial.dims[0];
  if (three_fry && size != 2) {
    return s.Error(absl::StrCat("THREE_FRY takes an initial_state of 2 ui64 ",
                                "(key, counter), got ", initial.ToString()));
  }
  if (!three_fry && size != 2 && size != 3) {
    return s.Error(absl::StrCat(
        algorithm == "DEFAULT" ? "DEFAULT (PHILOX here, as on XLA:CPU)"
                               : "PHILOX",
        " takes an initial_state of 2 ui64 (key, counter) or 3 (key, ",
        "counter low, counter high), got ", initial.ToString()));
  }
  PJRTX_RETURN_IF_ERROR(s.ExpectResult(0, initial));
  const Shape& out = s.result(1);
  if (out.type == ElementType::kPred) {
    return s.Error(absl::StrCat("output must be of an integer or ",
                                "floating-point type, got ", out.ToString()));
  }

  TemplateText t;
  const Value state = t.State(initial);
  const int bits = BitWidth(out.type);
  const Shape words{bits == 64 ? kU64 : kU32, out.dims};
  Value new_state;
  Value value = three_fry ? ThreeFryBits(t, state, words, new_state)
                          : PhiloxBits(t, state, words, new_state);
  if (bits < 32) {
    // Converting an unsigned integer to a narrower one keeps its low bits.
    const ElementType narrow = bits == 16  ? ElementType::kU16
                               : bits == 8 ? ElementType::kU8
                               : bits == 4 ? ElementType::kU4
                                           : ElementType::kU2;
    value = t.Convert(value, narrow);
  }
  value = t.BitcastConvert(value, out.type);
  return LowerFromTemplate(s, t.Function(initial, {new_state, value}));
}

}  // namespace pjrtx::ir
