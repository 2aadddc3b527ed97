#include "runtime/cpu/fused_f32.h"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "runtime/cpu/cpu_features.h"

// The 64-byte vector type below only travels between always-inlined
// functions, so the ABI warning GCC gives for returning it on baseline
// x86-64 is moot.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace pjrtx::cpu {
namespace {

constexpr int kMaxInputs = 16;
constexpr int kMaxSteps = 64;
constexpr int kMaxOutputs = 8;
constexpr int kMaxSpills = 16;
// Vectors per block. Each step of a block costs a fixed dispatch (an
// indirect jump the predictor often misses) beside its arithmetic; an Adam
// update (15 steps) ran 30 % faster in blocks of 16 vectors than of 8 on
// the AVX2 path, and slower again in blocks of 32, whose spill slots and
// operands no longer stay in L1.
constexpr int kVectors = 16;
// The widest block: kVectors of AVX-512's 16 lanes.
constexpr int kMaxBlock = 16 * kVectors;
// Outputs at least this large go around the caches: they would only evict
// the inputs still to be read.
constexpr int64_t kStreamBytes = int64_t{4} << 20;
// How far ahead of the block being computed inputs are fetched.
constexpr int64_t kPrefetchElements = 1024;

// Each instruction set's loop works in vectors of its registers' width
// (64 bytes for AVX-512, 32 for AVX2, 16 for SSE): GCC lowers a vector
// type wider than the registers through the stack, which made the AVX2
// loop spend its time on stack loads and stores.
using V16 = float __attribute__((vector_size(16)));
using V32 = float __attribute__((vector_size(32)));
using V64 = float __attribute__((vector_size(64)));
template <typename V>
constexpr int kLanesOf = sizeof(V) / sizeof(float);
// The integer vector of V's width, for masks and bit operations.
template <size_t kBytes>
struct IntVectorOf;
template <>
struct IntVectorOf<16> {
  using Type = int32_t __attribute__((vector_size(16)));
};
template <>
struct IntVectorOf<32> {
  using Type = int32_t __attribute__((vector_size(32)));
};
template <>
struct IntVectorOf<64> {
  using Type = int32_t __attribute__((vector_size(64)));
};
template <typename V>
using IntOf = typename IntVectorOf<sizeof(V)>::Type;
// One byte a lane of V: pred masks as stored.
template <int kLanes>
struct ByteVectorOf;
template <>
struct ByteVectorOf<4> {
  using Type = uint8_t __attribute__((vector_size(4)));
};
template <>
struct ByteVectorOf<8> {
  using Type = uint8_t __attribute__((vector_size(8)));
};
template <>
struct ByteVectorOf<16> {
  using Type = uint8_t __attribute__((vector_size(16)));
};
template <typename V>
using BytesOf = typename ByteVectorOf<kLanesOf<V>>::Type;

enum class Op : uint8_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMax,
  kMin,
  kNeg,
  kAbs,
  kSqrt,
  // Comparisons leave a mask: all bits set where true, none where false.
  kEq,
  kNe,
  kGe,
  kGt,
  kLe,
  kLt,
  kSelect,  // select(mask, a, b): reads a third operand.
};
// kMaskInput: a pred array, one byte an element, read as a mask.
enum class Source : uint8_t {
  kAccumulator,
  kInput,
  kMaskInput,
  kScalar,
  kSpill
};

struct Operand {
  Source source = Source::kAccumulator;
  uint8_t index = 0;
};

// How an instruction reads its operands. The common shapes get their own
// dispatch so that a step costs one indirect jump.
enum class Form : uint8_t {
  kAccumulatorScalar,  // op(accumulator, scalar)
  kScalarAccumulator,  // op(scalar, accumulator)
  kGeneral,            // operands fetched from anywhere
};
constexpr int kNumForms = 3;

struct Instruction {
  Op op = Op::kAdd;
  Form form = Form::kGeneral;
  uint8_t code = 0;  // op * kNumForms + form: the one dispatch key.
  Operand a, b, c;
  int8_t spill = -1;  // Slot that keeps the result for a later reader.
};

constexpr uint8_t Code(Op op, Form form) {
  return static_cast<uint8_t>(static_cast<int>(op) * kNumForms +
                              static_cast<int>(form));
}

// The body as an accumulator program: each instruction leaves its result
// in the accumulator, which the next instruction may read for free.
struct Plan {
  Instruction code[kMaxSteps];
  int size = 0;
  Operand outputs[kMaxOutputs];
  bool output_is_mask[kMaxOutputs] = {};  // Written as pred bytes.
  int num_outputs = 0;
};

bool ToCompare(const ir::FusedStep& step, Op* op) {
  // TOTALORDER orders NaNs and signed zeros, which vector compares do not.
  if (step.comparison_type != ir::ComparisonType::kNoType &&
      step.comparison_type != ir::ComparisonType::kFloat) {
    return false;
  }
  switch (step.comparison) {
    case ir::ComparisonDirection::kEq:
      return *op = Op::kEq, true;
    case ir::ComparisonDirection::kNe:
      return *op = Op::kNe, true;
    case ir::ComparisonDirection::kGe:
      return *op = Op::kGe, true;
    case ir::ComparisonDirection::kGt:
      return *op = Op::kGt, true;
    case ir::ComparisonDirection::kLe:
      return *op = Op::kLe, true;
    case ir::ComparisonDirection::kLt:
      return *op = Op::kLt, true;
  }
  return false;
}

// The step's op, when the fast path has it. A compare of two f32 values
// defines a mask (a pred register); `is_mask` says which registers hold
// one, so that masks feed only select's first operand and f32 values
// everything else.
bool ToOp(const ir::FusedStep& step, const bool* is_mask, Op* op) {
  const auto reads = [&](size_t i, bool mask) {
    return is_mask[step.inputs[i]] == mask;
  };
  if (step.opcode == ir::OpCode::kCompare) {
    return step.type == ir::ElementType::kPred && step.inputs.size() == 2 &&
           reads(0, false) && reads(1, false) && ToCompare(step, op);
  }
  if (step.type != ir::ElementType::kF32) return false;
  for (size_t i = 0; i < step.inputs.size(); ++i) {
    if (!reads(i, step.opcode == ir::OpCode::kSelect && i == 0)) return false;
  }
  if (step.opcode == ir::OpCode::kSelect && step.inputs.size() == 3) {
    return *op = Op::kSelect, true;
  }
  if (step.opcode == ir::OpCode::kUnary && step.inputs.size() == 1) {
    if (step.unary == ir::UnaryOp::kNegate) return *op = Op::kNeg, true;
    if (step.unary == ir::UnaryOp::kAbs) return *op = Op::kAbs, true;
    if (step.unary == ir::UnaryOp::kSqrt) return *op = Op::kSqrt, true;
    return false;
  }
  if (step.opcode != ir::OpCode::kBinary || step.inputs.size() != 2) {
    return false;
  }
  switch (step.binary) {
    case ir::BinaryOp::kAdd:
      return *op = Op::kAdd, true;
    case ir::BinaryOp::kSubtract:
      return *op = Op::kSub, true;
    case ir::BinaryOp::kMultiply:
      return *op = Op::kMul, true;
    case ir::BinaryOp::kDivide:
      return *op = Op::kDiv, true;
    case ir::BinaryOp::kMaximum:
      return *op = Op::kMax, true;
    case ir::BinaryOp::kMinimum:
      return *op = Op::kMin, true;
    default:
      return false;
  }
}

bool MakePlan(const ir::FusedBody& body, const bool* input_is_scalar,
              const bool* input_is_mask, Plan* plan) {
  const int num_inputs = body.num_inputs;
  const int num_steps = static_cast<int>(body.steps.size());
  if (num_inputs > kMaxInputs || num_steps > kMaxSteps || num_steps == 0 ||
      body.outputs.size() > static_cast<size_t>(kMaxOutputs)) {
    return false;
  }
  // A step's value needs a slot when something other than the next step
  // reads it: a later step, or the outputs (unless it is the last step).
  int slot_of[kMaxSteps];
  int num_spills = 0;
  for (int s = 0; s < num_steps; ++s) {
    const int reg = num_inputs + s;
    bool later = false;
    for (int t = s + 2; t < num_steps && !later; ++t) {
      for (int r : body.steps[t].inputs) later |= r == reg;
    }
    if (s != num_steps - 1) {
      for (int r : body.outputs) later |= r == reg;
    }
    slot_of[s] = later ? num_spills++ : -1;
  }
  if (num_spills > kMaxSpills) return false;
  auto operand = [&](int reg, int reader_step, Operand* out) {
    if (reg < num_inputs) {
      const Source source =
          input_is_scalar[reg]
              ? Source::kScalar
              : (input_is_mask[reg] ? Source::kMaskInput : Source::kInput);
      *out = Operand{source, static_cast<uint8_t>(reg)};
      return true;
    }
    const int s = reg - num_inputs;
    if (s >= reader_step) return false;  // Not a straight-line program.
    if (s == reader_step - 1) {
      *out = Operand{Source::kAccumulator, 0};
      return true;
    }
    if (slot_of[s] < 0) return false;
    *out = Operand{Source::kSpill, static_cast<uint8_t>(slot_of[s])};
    return true;
  };
  // Inputs are f32 or pred arrays (the caller's rule); steps say what they
  // define.
  bool is_mask[kMaxInputs + kMaxSteps] = {};
  for (int i = 0; i < num_inputs; ++i) is_mask[i] = input_is_mask[i];
  for (int s = 0; s < num_steps; ++s) {
    const ir::FusedStep& step = body.steps[s];
    Instruction& ins = plan->code[s];
    for (int r : step.inputs) {
      if (r < 0 || r >= num_inputs + s) return false;
    }
    if (!ToOp(step, is_mask, &ins.op)) return false;
    is_mask[num_inputs + s] = step.type == ir::ElementType::kPred;
    if (!operand(step.inputs[0], s, &ins.a)) return false;
    if (step.inputs.size() >= 2 && !operand(step.inputs[1], s, &ins.b)) {
      return false;
    }
    if (step.inputs.size() == 3 && !operand(step.inputs[2], s, &ins.c)) {
      return false;
    }
    ins.spill = static_cast<int8_t>(slot_of[s]);
    const bool binary = step.inputs.size() == 2;
    ins.form = Form::kGeneral;
    if (binary && ins.a.source == Source::kAccumulator &&
        ins.b.source == Source::kScalar) {
      ins.form = Form::kAccumulatorScalar;
    } else if (binary && ins.a.source == Source::kScalar &&
               ins.b.source == Source::kAccumulator) {
      ins.form = Form::kScalarAccumulator;
    }
    ins.code = Code(ins.op, ins.form);
  }
  plan->size = num_steps;
  for (size_t o = 0; o < body.outputs.size(); ++o) {
    const int reg = body.outputs[o];
    // An input passed straight through is left to the generic path.
    if (reg < num_inputs) return false;
    if (!operand(reg, num_steps, &plan->outputs[o])) return false;
    plan->output_is_mask[o] = is_mask[reg];
  }
  plan->num_outputs = static_cast<int>(body.outputs.size());
  return true;
}

// ---- Vector arithmetic, compiled once per instruction set -------------

template <typename V>
struct Group {
  V v[kVectors];
};

#define PJRTX_INLINE __attribute__((always_inline)) inline

template <typename V>
PJRTX_INLINE V Load(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
template <typename V>
PJRTX_INLINE void Store(float* p, const V& v) {
  std::memcpy(p, &v, sizeof(v));
}

// The reference maximum/minimum: NaN wins, and -0 < +0.
template <typename V>
PJRTX_INLINE V Max(const V& a, const V& b) {
  V m = a > b ? a : b;
  m = a == b ? (std::bit_cast<IntOf<V>>(a) < 0 ? b : a) : m;
  m = b != b ? b : m;
  return a != a ? a : m;
}
template <typename V>
PJRTX_INLINE V Min(const V& a, const V& b) {
  V m = a < b ? a : b;
  m = a == b ? (std::bit_cast<IntOf<V>>(a) < 0 ? a : b) : m;
  m = b != b ? b : m;
  return a != a ? a : m;
}

template <Op kOp, typename V>
PJRTX_INLINE V Apply(const V& a, const V& b) {
  using VI = IntOf<V>;
  if constexpr (kOp == Op::kAdd) return a + b;
  if constexpr (kOp == Op::kSub) return a - b;
  if constexpr (kOp == Op::kMul) return a * b;
  if constexpr (kOp == Op::kDiv) return a / b;
  if constexpr (kOp == Op::kMax) return Max(a, b);
  if constexpr (kOp == Op::kMin) return Min(a, b);
  if constexpr (kOp == Op::kNeg) return -a;
  if constexpr (kOp == Op::kAbs) {
    return std::bit_cast<V>(std::bit_cast<VI>(a) & 0x7fffffff);
  }
  if constexpr (kOp == Op::kEq) return std::bit_cast<V>(a == b);
  if constexpr (kOp == Op::kNe) return std::bit_cast<V>(a != b);
  if constexpr (kOp == Op::kGe) return std::bit_cast<V>(a >= b);
  if constexpr (kOp == Op::kGt) return std::bit_cast<V>(a > b);
  if constexpr (kOp == Op::kLe) return std::bit_cast<V>(a <= b);
  if constexpr (kOp == Op::kLt) return std::bit_cast<V>(a < b);
  if constexpr (kOp == Op::kSqrt) {
    // Lane by lane; this file compiles without errno for math calls
    // (CMakeLists.txt), so each instruction set's build vectorizes it into
    // its square-root instruction, correctly rounded as IEEE requires.
    V r;
    for (int i = 0; i < kLanesOf<V>; ++i) r[i] = __builtin_sqrtf(a[i]);
    return r;
  }
}

template <typename V>
struct BlockState {
  const void* const* inputs;
  const V* splats;
  float (*spills)[kMaxBlock];
};

// `kLanes` pred bytes as a mask vector: all bits set for nonzero bytes.
template <typename V>
PJRTX_INLINE V LoadMask(const uint8_t* p) {
  BytesOf<V> bytes;
  std::memcpy(&bytes, p, sizeof(bytes));
  return std::bit_cast<V>(__builtin_convertvector(bytes, IntOf<V>) != 0);
}

// A mask vector as `kLanes` pred bytes, 1 where all bits are set.
template <typename V>
PJRTX_INLINE void StoreMask(uint8_t* p, const V& mask) {
  const BytesOf<V> bytes =
      __builtin_convertvector(std::bit_cast<IntOf<V>>(mask) & 1, BytesOf<V>);
  std::memcpy(p, &bytes, sizeof(bytes));
}

template <typename V>
PJRTX_INLINE Group<V> Fetch(const Operand& operand, const Group<V>& accumulator,
                            const BlockState<V>& state, int64_t start) {
  constexpr int kLanes = kLanesOf<V>;
  Group<V> g;
  switch (operand.source) {
    case Source::kAccumulator:
      return accumulator;
    case Source::kInput: {
      const float* p =
          static_cast<const float*>(state.inputs[operand.index]) + start;
      for (int k = 0; k < kVectors; ++k) g.v[k] = Load<V>(p + k * kLanes);
      return g;
    }
    case Source::kMaskInput: {
      const uint8_t* p =
          static_cast<const uint8_t*>(state.inputs[operand.index]) + start;
      for (int k = 0; k < kVectors; ++k) g.v[k] = LoadMask<V>(p + k * kLanes);
      return g;
    }
    case Source::kScalar:
      for (int k = 0; k < kVectors; ++k) g.v[k] = state.splats[operand.index];
      return g;
    case Source::kSpill: {
      const float* p = state.spills[operand.index];
      for (int k = 0; k < kVectors; ++k) g.v[k] = Load<V>(p + k * kLanes);
      return g;
    }
  }
  __builtin_unreachable();
}

// Streaming stores per instruction set, for a 64-byte-aligned `p`. Plain
// inline: GCC inlines them once the block loop has been inlined into the
// entry point of the same instruction set (always_inline would try that
// earlier, inside the target-neutral block loop, and fail).
// Each also names its instruction set's vector type.
struct StreamAvx512 {
  using V = V64;
  __attribute__((target("avx512f"))) static void Store(float* p, const V& v) {
    _mm512_stream_ps(p, std::bit_cast<__m512>(v));
  }
};
struct StreamAvx2 {
  using V = V32;
  __attribute__((target("avx2"))) static void Store(float* p, const V& v) {
    _mm256_stream_ps(p, std::bit_cast<__m256>(v));
  }
};
struct StreamSse {
  using V = V16;
  PJRTX_INLINE static void Store(float* p, const V& v) {
    _mm_stream_ps(p, std::bit_cast<__m128>(v));
  }
};

template <Op kOp, typename V>
PJRTX_INLINE void ApplyGroup(const Group<V>& a, const Group<V>& b,
                             Group<V>& result) {
  for (int k = 0; k < kVectors; ++k) {
    result.v[k] = Apply<kOp>(a.v[k], b.v[k]);
  }
}
template <Op kOp, typename V>
PJRTX_INLINE void ApplyScalar(const Group<V>& a, const V& b, Group<V>& result,
                              bool scalar_first) {
  for (int k = 0; k < kVectors; ++k) {
    result.v[k] = scalar_first ? Apply<kOp>(b, a.v[k]) : Apply<kOp>(a.v[k], b);
  }
}

// Bitwise, so the chosen value keeps its bits (NaN payloads, -0).
template <typename V>
PJRTX_INLINE void SelectGroup(const Group<V>& mask, const Group<V>& on_true,
                              const Group<V>& on_false, Group<V>& result) {
  using VI = IntOf<V>;
  for (int k = 0; k < kVectors; ++k) {
    const VI m = std::bit_cast<VI>(mask.v[k]);
    result.v[k] = std::bit_cast<V>((m & std::bit_cast<VI>(on_true.v[k])) |
                                   (~m & std::bit_cast<VI>(on_false.v[k])));
  }
}

template <typename Stream, typename V = typename Stream::V>
PJRTX_INLINE void RunBlock(const Plan& plan, const BlockState<V>& state,
                           int64_t start, void* const* outputs, bool stream) {
  constexpr int kLanes = kLanesOf<V>;
  // Left uninitialized: MakePlan lets a step read the accumulator only
  // when the step before wrote it, and an output only after the last step.
  // Zeroing it cost a 512-byte `rep stos` per block: 13% of this loop's
  // samples in an Adam update on the avx2 path, when its vectors were
  // wider than the registers.
  Group<V> accumulator;
  for (int i = 0; i < plan.size; ++i) {
    const Instruction& ins = plan.code[i];
    switch (ins.code) {
#define PJRTX_OP_CASES(op)                                                \
  case Code(op, Form::kAccumulatorScalar):                                \
    ApplyScalar<op>(accumulator, state.splats[ins.b.index], accumulator,  \
                    false);                                               \
    break;                                                                \
  case Code(op, Form::kScalarAccumulator):                                \
    ApplyScalar<op>(accumulator, state.splats[ins.a.index], accumulator,  \
                    true);                                                \
    break;                                                                \
  case Code(op, Form::kGeneral):                                          \
    ApplyGroup<op>(Fetch(ins.a, accumulator, state, start),               \
                   Fetch(ins.b, accumulator, state, start), accumulator); \
    break;
      PJRTX_OP_CASES(Op::kAdd)
      PJRTX_OP_CASES(Op::kSub)
      PJRTX_OP_CASES(Op::kMul)
      PJRTX_OP_CASES(Op::kDiv)
      PJRTX_OP_CASES(Op::kMax)
      PJRTX_OP_CASES(Op::kMin)
      PJRTX_OP_CASES(Op::kNeg)
      PJRTX_OP_CASES(Op::kAbs)
      PJRTX_OP_CASES(Op::kSqrt)
      PJRTX_OP_CASES(Op::kEq)
      PJRTX_OP_CASES(Op::kNe)
      PJRTX_OP_CASES(Op::kGe)
      PJRTX_OP_CASES(Op::kGt)
      PJRTX_OP_CASES(Op::kLe)
      PJRTX_OP_CASES(Op::kLt)
#undef PJRTX_OP_CASES
      case Code(Op::kSelect, Form::kGeneral):
        SelectGroup(Fetch(ins.a, accumulator, state, start),
                    Fetch(ins.b, accumulator, state, start),
                    Fetch(ins.c, accumulator, state, start), accumulator);
        break;
    }
    if (ins.spill >= 0) {
      float* p = state.spills[ins.spill];
      for (int k = 0; k < kVectors; ++k)
        Store<V>(p + k * kLanes, accumulator.v[k]);
    }
  }
  for (int o = 0; o < plan.num_outputs; ++o) {
    const Group<V> g = Fetch(plan.outputs[o], accumulator, state, start);
    if (plan.output_is_mask[o]) {
      uint8_t* p = static_cast<uint8_t*>(outputs[o]) + start;
      for (int k = 0; k < kVectors; ++k) StoreMask(p + k * kLanes, g.v[k]);
      continue;
    }
    float* p = static_cast<float*>(outputs[o]) + start;
    for (int k = 0; k < kVectors; ++k) {
      if (stream) {
        Stream::Store(p + k * kLanes, g.v[k]);
      } else {
        Store<V>(p + k * kLanes, g.v[k]);
      }
    }
  }
}

template <typename Stream>
PJRTX_INLINE void RunPlan(const Plan& plan, const F32FusedArrays& arrays,
                          int num_inputs) {
  using V = typename Stream::V;
  constexpr int kLanes = kLanesOf<V>;
  constexpr int kBlock = kLanes * kVectors;
  const auto input_bytes = [&](int i) -> size_t {
    return arrays.input_is_mask[i] ? 1 : sizeof(float);
  };
  const auto output_bytes = [&](int o) -> size_t {
    return plan.output_is_mask[o] ? 1 : sizeof(float);
  };
  alignas(64) float spills[kMaxSpills][kMaxBlock];
  V splats[kMaxInputs];
  for (int i = 0; i < num_inputs; ++i) {
    if (!arrays.input_is_scalar[i]) continue;
    if (arrays.input_is_mask[i]) {
      const bool set = *static_cast<const uint8_t*>(arrays.inputs[i]) != 0;
      splats[i] = std::bit_cast<V>(IntOf<V>{} - (set ? 1 : 0));
    } else {
      // Lane by lane: V{} + x would turn -0 into +0.
      const float x = *static_cast<const float*>(arrays.inputs[i]);
      for (int l = 0; l < kLanes; ++l) splats[i][l] = x;
    }
  }
  const int64_t n = arrays.n;
  bool stream = n * static_cast<int64_t>(sizeof(float)) >= kStreamBytes;
  for (int o = 0; o < plan.num_outputs; ++o) {
    // Pred outputs are written through the caches whatever their size.
    if (plan.output_is_mask[o]) continue;
    stream &= (reinterpret_cast<uintptr_t>(arrays.outputs[o]) & 63) == 0;
  }
  const BlockState<V> state{arrays.inputs, splats, spills};
  const int64_t whole = n - n % kBlock;
  for (int64_t start = 0; start < whole; start += kBlock) {
    // Block-sized prefetches keep the input streams ahead of the
    // arithmetic, which the hardware prefetcher alone does not quite do.
    for (int i = 0; i < num_inputs; ++i) {
      if (arrays.input_is_scalar[i]) continue;
      const size_t bytes = input_bytes(i);
      const char* ahead = static_cast<const char*>(arrays.inputs[i]) +
                          (start + kPrefetchElements) * bytes;
      for (size_t l = 0; l < kBlock * bytes; l += 64) {
        __builtin_prefetch(ahead + l);
      }
    }
    RunBlock<Stream>(plan, state, start, arrays.outputs, stream);
  }
  if (stream) _mm_sfence();
  if (whole == n) return;
  // The last partial block runs on copies padded to a whole block.
  const int64_t rest = n - whole;
  alignas(64) float in_tail[kMaxInputs][kBlock] = {};
  alignas(64) float out_tail[kMaxOutputs][kBlock];
  const void* tail_inputs[kMaxInputs];
  void* tail_outputs[kMaxOutputs];
  for (int i = 0; i < num_inputs; ++i) {
    tail_inputs[i] = arrays.inputs[i];
    if (arrays.input_is_scalar[i]) continue;
    const size_t bytes = input_bytes(i);
    std::memcpy(in_tail[i],
                static_cast<const char*>(arrays.inputs[i]) + whole * bytes,
                rest * bytes);
    tail_inputs[i] = in_tail[i];
  }
  for (int o = 0; o < plan.num_outputs; ++o) tail_outputs[o] = out_tail[o];
  const BlockState<V> tail_state{tail_inputs, splats, spills};
  RunBlock<Stream>(plan, tail_state, 0, tail_outputs, false);
  for (int o = 0; o < plan.num_outputs; ++o) {
    const size_t bytes = output_bytes(o);
    std::memcpy(static_cast<char*>(arrays.outputs[o]) + whole * bytes,
                out_tail[o], rest * bytes);
  }
}

// Explicit dispatch rather than GCC's target_clones: its ifunc resolver
// runs before sanitizer runtimes are initialized, which ThreadSanitizer
// does not survive.
__attribute__((target("avx512f"))) void RunAvx512(const Plan& plan,
                                                  const F32FusedArrays& arrays,
                                                  int num_inputs) {
  RunPlan<StreamAvx512>(plan, arrays, num_inputs);
}
__attribute__((target("avx2"))) void RunAvx2(const Plan& plan,
                                             const F32FusedArrays& arrays,
                                             int num_inputs) {
  RunPlan<StreamAvx2>(plan, arrays, num_inputs);
}
void RunBaseline(const Plan& plan, const F32FusedArrays& arrays,
                 int num_inputs) {
  RunPlan<StreamSse>(plan, arrays, num_inputs);
}

}  // namespace

bool RunFusedF32(const ir::FusedBody& body, const F32FusedArrays& arrays) {
  if (body.num_inputs > kMaxInputs ||
      body.outputs.size() > static_cast<size_t>(kMaxOutputs)) {
    return false;
  }
  // Callers without pred arrays pass no flags: every array is f32.
  const bool no_masks[std::max(kMaxInputs, kMaxOutputs)] = {};
  F32FusedArrays typed = arrays;
  if (typed.input_is_mask == nullptr) typed.input_is_mask = no_masks;
  if (typed.output_is_mask == nullptr) typed.output_is_mask = no_masks;
  Plan plan;
  if (!MakePlan(body, typed.input_is_scalar, typed.input_is_mask, &plan)) {
    return false;
  }
  // The caller's buffers must be of the type the body computes.
  for (int o = 0; o < plan.num_outputs; ++o) {
    if (plan.output_is_mask[o] != typed.output_is_mask[o]) return false;
  }
  using RunFn = void (*)(const Plan&, const F32FusedArrays&, int);
  static const RunFn run = [] {
    switch (HostCpuFeatures().isa) {
      case CpuIsa::kAvx512:
        return RunAvx512;
      case CpuIsa::kAvx2:
        return RunAvx2;
      case CpuIsa::kBaseline:
        break;
    }
    return RunBaseline;
  }();
  run(plan, typed, body.num_inputs);
  return true;
}

}  // namespace pjrtx::cpu
