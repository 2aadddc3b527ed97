#include "runtime/cpu/simple_reduce.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "runtime/cpu/cascade_sum.h"
#include "runtime/cpu/element_traits.h"

namespace pjrtx::cpu {
namespace {

using ir::BinaryOp;
using ir::ElementType;

template <typename T>
T Apply(BinaryOp op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case BinaryOp::kAdd:
        return a + b;
      case BinaryOp::kMultiply:
        return a * b;
      case BinaryOp::kMaximum:
        return Maximum(a, b);
      default:
        return Minimum(a, b);
    }
  } else {
    // Integers wrap: compute in the unsigned type, where overflow is
    // defined.
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case BinaryOp::kAdd:
        return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
      case BinaryOp::kMultiply:
        return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
      case BinaryOp::kMaximum:
        return std::max(a, b);
      case BinaryOp::kMinimum:
        return std::min(a, b);
      case BinaryOp::kAnd:
        return a & b;
      default:
        return a | b;
    }
  }
}

// The input read in place.
template <typename T>
struct InPlaceInput {
  const T* data;
  int64_t n;
  const T* Get(int64_t pos, int64_t* available) {
    *available = n - pos;
    return data + pos;
  }
};

// The input computed a chunk at a time as the reduction reaches it.
template <typename T>
class ProducedInput {
 public:
  ProducedInput(ChunkProducer produce, int64_t n)
      : produce_(produce), n_(n), chunk_(new T[kChunk]) {}

  // nullptr once the producer failed; see status().
  const T* Get(int64_t pos, int64_t* available) {
    if (pos < start_ || pos >= end_) {
      const int64_t length = std::min(kChunk, n_ - pos);
      status_ = produce_(pos, length, chunk_.get());
      if (!status_.ok()) {
        *available = n_ - pos;  // Lets the caller run to the end quickly.
        return nullptr;
      }
      start_ = pos;
      end_ = pos + length;
    }
    *available = end_ - pos;
    return chunk_.get() + (pos - start_);
  }
  const absl::Status& status() const { return status_; }

 private:
  // Small enough to stay in L1/L2 between being produced and reduced.
  static constexpr int64_t kChunk = 4096;
  ChunkProducer produce_;
  const int64_t n_;
  std::unique_ptr<T[]> chunk_;
  int64_t start_ = 0, end_ = 0;
  absl::Status status_;
};

// row[k] = op(row[k], in[k]) for k < length: a column reduction's step
// (a bias gradient's sum over the batch). The op is chosen once, outside
// the loop, so the loop vectorizes; each element's order is unchanged.
template <typename T>
void AccumulateRow(BinaryOp op, T* row, const T* in, int64_t length) {
  auto each = [&](auto fn) {
    for (int64_t k = 0; k < length; ++k) row[k] = fn(row[k], in[k]);
  };
  switch (op) {
    case BinaryOp::kAdd:
      return each([](T a, T b) { return Apply(BinaryOp::kAdd, a, b); });
    case BinaryOp::kMultiply:
      return each([](T a, T b) { return Apply(BinaryOp::kMultiply, a, b); });
    case BinaryOp::kMaximum:
      return each([](T a, T b) { return Apply(BinaryOp::kMaximum, a, b); });
    case BinaryOp::kMinimum:
      return each([](T a, T b) { return Apply(BinaryOp::kMinimum, a, b); });
    default:
      return each([op](T a, T b) { return Apply(op, a, b); });
  }
}

// Advances the multi-index over all but the innermost dimension, and the
// output offset with it.
void AdvanceOuter(const std::vector<int64_t>& dims,
                  const std::vector<int64_t>& out_stride,
                  std::vector<int64_t>* index, int64_t* out_offset) {
  for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) {
    *out_offset += out_stride[d];
    if (++(*index)[d] < dims[d]) break;
    *out_offset -= out_stride[d] * dims[d];
    (*index)[d] = 0;
  }
}

// One pass over the input in row-major order; `out_stride[d]` is how far
// the output moves when input dimension d advances (0 when reduced).
// Returns false if `input` stopped producing.
template <typename T, typename Input>
bool Reduce(BinaryOp op, Input& input, std::vector<int64_t> dims, Literal& out,
            std::vector<int64_t> out_stride) {
  T* acc = out.as<T>();
  // Trailing reduced dimensions are one row in row-major order: reading
  // them as one lets a whole sum (jnp.sum of a matrix) cascade.
  while (dims.size() >= 2 && out_stride.back() == 0 &&
         out_stride[out_stride.size() - 2] == 0) {
    dims[dims.size() - 2] *= dims.back();
    dims.pop_back();
    out_stride.pop_back();
  }
  const int rank = static_cast<int>(dims.size());
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  if (n == 0) return true;
  int64_t available = 0;
  if (rank == 0) {
    const T* in = input.Get(0, &available);
    if (in == nullptr) return false;
    acc[0] = Apply(op, acc[0], in[0]);
    return true;
  }
  const int64_t inner = dims[rank - 1];
  const int64_t inner_stride = out_stride[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t out_offset = 0;
  // Floating-point sums along rows of a block or more cascade (see
  // cascade_sum.h). Shorter rows keep row-major order: their error is
  // small, and it is the order of the StableHLO reference interpreter and
  // of the CUDA plugin's reduction kernels, so short sums agree bit for bit
  // with both. The other ops are exact in any order, and sums across rows
  // add a whole row's result at a time.
  constexpr bool kFloat = std::is_floating_point_v<T>;
  const bool cascade = kFloat && op == BinaryOp::kAdd && inner_stride == 0 &&
                       inner >= kCascadeBlock;
  for (int64_t start = 0; start < n; start += inner) {
    if constexpr (kFloat) {
      if (cascade) {
        CascadeSum<T> sum;
        for (int64_t i = 0; i < inner;) {
          const T* in = input.Get(start + i, &available);
          if (in == nullptr) return false;
          const int64_t length = std::min(available, inner - i);
          sum.Add(in, length);
          i += length;
        }
        acc[out_offset] = acc[out_offset] + sum.Total();
        AdvanceOuter(dims, out_stride, &index, &out_offset);
        continue;
      }
    }
    // A row may come in several contiguous runs.
    for (int64_t i = 0; i < inner;) {
      const T* in = input.Get(start + i, &available);
      if (in == nullptr) return false;
      const int64_t length = std::min(available, inner - i);
      if (inner_stride == 0) {
        // The innermost dimension is reduced: a tight loop into one value.
        T value = acc[out_offset];
        for (int64_t k = 0; k < length; ++k) value = Apply(op, value, in[k]);
        acc[out_offset] = value;
      } else {
        T* row = acc + out_offset + i * inner_stride;
        if (inner_stride == 1) {
          AccumulateRow(op, row, in, length);
        } else {
          for (int64_t k = 0; k < length; ++k) {
            T& a = row[k * inner_stride];
            a = Apply(op, a, in[k]);
          }
        }
      }
      i += length;
    }
    AdvanceOuter(dims, out_stride, &index, &out_offset);
  }
  return true;
}

// Output strides (see Reduce) and the result filled with `init`.
template <typename T>
Literal Start(const std::vector<int64_t>& dims, const Literal& init,
              absl::Span<const int64_t> dimensions, const Shape& result,
              std::vector<int64_t>* out_stride) {
  Literal out(result);
  std::fill(out.as<T>(), out.as<T>() + out.num_elements(), init.as<T>()[0]);
  out_stride->assign(dims.size(), 0);
  int64_t stride = 1;
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    if (std::find(dimensions.begin(), dimensions.end(), d) !=
        dimensions.end()) {
      continue;
    }
    (*out_stride)[d] = stride;
    stride *= dims[d];
  }
  return out;
}

template <typename T>
Literal Run(BinaryOp op, const Literal& input, const Literal& init,
            absl::Span<const int64_t> dimensions, const Shape& result) {
  std::vector<int64_t> out_stride;
  Literal out = Start<T>(input.dims(), init, dimensions, result, &out_stride);
  InPlaceInput<T> source{input.as<T>(), input.num_elements()};
  Reduce<T>(op, source, input.dims(), out, out_stride);
  return out;
}

template <typename T>
absl::StatusOr<Literal> RunProduced(BinaryOp op, const Shape& input_shape,
                                    ChunkProducer produce, const Literal& init,
                                    absl::Span<const int64_t> dimensions,
                                    const Shape& result) {
  std::vector<int64_t> out_stride;
  Literal out =
      Start<T>(input_shape.dims, init, dimensions, result, &out_stride);
  ProducedInput<T> source(produce, input_shape.num_elements());
  if (!Reduce<T>(op, source, input_shape.dims, out, out_stride)) {
    return source.status();
  }
  return out;
}

// Calls `fn.template operator()<T>()` for the element type the typed
// loops cover with `op`, or returns nullopt.
template <typename Fn>
auto Dispatch(ElementType type, BinaryOp op, Fn fn)
    -> std::optional<decltype(fn.template operator()<float>())> {
  const bool logical = op == BinaryOp::kAnd || op == BinaryOp::kOr;
  switch (type) {
    case ElementType::kF32:
      if (logical) return std::nullopt;
      return fn.template operator()<float>();
    case ElementType::kF64:
      if (logical) return std::nullopt;
      return fn.template operator()<double>();
    case ElementType::kS32:
      return fn.template operator()<int32_t>();
    case ElementType::kS64:
      return fn.template operator()<int64_t>();
    case ElementType::kU32:
      return fn.template operator()<uint32_t>();
    case ElementType::kU64:
      return fn.template operator()<uint64_t>();
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<ir::BinaryOp> SimpleReducer(const ir::Computation& body) {
  if (body.instructions.size() != 1 || !body.captures.empty() ||
      body.parameters.size() != 2 || body.results.size() != 1) {
    return std::nullopt;
  }
  const ir::Instruction& inst = body.instructions[0];
  if (inst.opcode != ir::OpCode::kBinary ||
      inst.results[0] != body.results[0]) {
    return std::nullopt;
  }
  const int a = body.parameters[0], b = body.parameters[1];
  const bool params = (inst.operands[0] == a && inst.operands[1] == b) ||
                      (inst.operands[0] == b && inst.operands[1] == a);
  switch (inst.attributes.binary) {
    case BinaryOp::kAdd:
    case BinaryOp::kMultiply:
    case BinaryOp::kMaximum:
    case BinaryOp::kMinimum:
    case BinaryOp::kAnd:
    case BinaryOp::kOr:
      if (params) return inst.attributes.binary;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::optional<Literal> SimpleReduce(ir::BinaryOp op, const Literal& input,
                                    const Literal& init,
                                    absl::Span<const int64_t> dimensions,
                                    const Shape& result) {
  return Dispatch(input.type(), op, [&]<typename T>() {
    return Run<T>(op, input, init, dimensions, result);
  });
}

std::optional<absl::StatusOr<Literal>> SimpleReduceProduced(
    ir::BinaryOp op, const Shape& input_shape, ChunkProducer produce,
    const Literal& init, absl::Span<const int64_t> dimensions,
    const Shape& result) {
  return Dispatch(input_shape.type, op, [&]<typename T>() {
    return RunProduced<T>(op, input_shape, produce, init, dimensions, result);
  });
}

}  // namespace pjrtx::cpu
