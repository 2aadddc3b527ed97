#include "runtime/cpu/simple_reduce.h"

#include <algorithm>
#include <cstdint>
#include <vector>

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

// One pass over the input in row-major order; `out_stride[d]` is how far
// the output moves when input dimension d advances (0 when reduced).
template <typename T>
void Reduce(BinaryOp op, const Literal& input, Literal& out,
            const std::vector<int64_t>& out_stride) {
  const T* in = input.as<T>();
  T* acc = out.as<T>();
  const std::vector<int64_t>& dims = input.dims();
  const int rank = static_cast<int>(dims.size());
  const int64_t n = input.num_elements();
  if (n == 0) return;
  if (rank == 0) {
    acc[0] = Apply(op, acc[0], in[0]);
    return;
  }
  const int64_t inner = dims[rank - 1];
  const int64_t inner_stride = out_stride[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t out_offset = 0;
  for (int64_t start = 0; start < n; start += inner) {
    if (inner_stride == 0) {
      // The innermost dimension is reduced: a tight loop into one value.
      T value = acc[out_offset];
      for (int64_t i = 0; i < inner; ++i)
        value = Apply(op, value, in[start + i]);
      acc[out_offset] = value;
    } else {
      for (int64_t i = 0; i < inner; ++i) {
        T& a = acc[out_offset + i * inner_stride];
        a = Apply(op, a, in[start + i]);
      }
    }
    // Advance the multi-index over all but the innermost dimension.
    for (int d = rank - 2; d >= 0; --d) {
      out_offset += out_stride[d];
      if (++index[d] < dims[d]) break;
      out_offset -= out_stride[d] * dims[d];
      index[d] = 0;
    }
  }
}

template <typename T>
Literal Run(BinaryOp op, const Literal& input, const Literal& init,
            absl::Span<const int64_t> dimensions, const Shape& result) {
  Literal out(result);
  std::fill(out.as<T>(), out.as<T>() + out.num_elements(), init.as<T>()[0]);
  const std::vector<int64_t>& dims = input.dims();
  std::vector<int64_t> out_stride(dims.size(), 0);
  int64_t stride = 1;
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    if (std::find(dimensions.begin(), dimensions.end(), d) !=
        dimensions.end()) {
      continue;
    }
    out_stride[d] = stride;
    stride *= dims[d];
  }
  Reduce<T>(op, input, out, out_stride);
  return out;
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
  const bool logical = op == BinaryOp::kAnd || op == BinaryOp::kOr;
  switch (input.type()) {
    case ElementType::kF32:
      if (logical) return std::nullopt;
      return Run<float>(op, input, init, dimensions, result);
    case ElementType::kF64:
      if (logical) return std::nullopt;
      return Run<double>(op, input, init, dimensions, result);
    case ElementType::kS32:
      return Run<int32_t>(op, input, init, dimensions, result);
    case ElementType::kS64:
      return Run<int64_t>(op, input, init, dimensions, result);
    case ElementType::kU32:
      return Run<uint32_t>(op, input, init, dimensions, result);
    case ElementType::kU64:
      return Run<uint64_t>(op, input, init, dimensions, result);
    default:
      return std::nullopt;
  }
}

}  // namespace pjrtx::cpu
