// The data-movement kernels: iota, broadcast, reshape, transpose, slicing,
// concatenation, padding and reversal. Apart from iota they move raw element
// bytes, so one implementation serves every element type.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/types/span.h"
#include "runtime/cpu/index_util.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {
namespace {

// Copies one element's bytes between Literals of the same element type.
class ElementMover {
 public:
  ElementMover(const Literal& src, Literal& dst)
      : src_(src.data()),
        dst_(dst.data()),
        size_(ir::StorageSize(dst.type())) {}

  void Move(int64_t dst_index, int64_t src_index) const {
    std::memcpy(dst_ + dst_index * size_, src_ + src_index * size_, size_);
  }

 private:
  const uint8_t* src_;
  uint8_t* dst_;
  size_t size_;
};

// Fills `out` (row-major) with operand[base + index . steps] for every
// index of `out`, a row (the last dimension) at a time: the row's offset
// is computed once, and its elements are one memcpy where they are
// contiguous in the operand, or one element repeated where the operand is
// broadcast along the row.
void MoveRows(const Literal& operand, Literal& out, int64_t base,
              absl::Span<const int64_t> steps) {
  const std::vector<int64_t>& dims = out.dims();
  if (out.num_elements() == 0) return;
  ElementMover mover(operand, out);
  if (dims.empty()) {
    mover.Move(0, base);
    return;
  }
  const size_t size = ir::StorageSize(out.type());
  const int64_t row = dims.back();
  const int64_t step = steps.back();
  const std::vector<int64_t> outer(dims.begin(), dims.end() - 1);
  const absl::Span<const int64_t> outer_steps = steps.subspan(0, outer.size());
  const uint8_t* src = operand.data();
  uint8_t* dst = out.data();
  int64_t linear = 0;
  for (IndexIterator it(outer); !it.done(); it.Next(), linear += row) {
    const int64_t first = base + Offset(it.index(), outer_steps);
    if (step == 1) {
      std::memcpy(dst + linear * size, src + first * size, row * size);
    } else if (step == 0 && row > 0) {
      // One element repeated: copy it once, then double the filled part.
      uint8_t* out_row = dst + linear * size;
      std::memcpy(out_row, src + first * size, size);
      for (int64_t filled = 1; filled < row;) {
        const int64_t n = std::min(filled, row - filled);
        std::memcpy(out_row + filled * size, out_row, n * size);
        filled += n;
      }
    } else {
      for (int64_t j = 0; j < row; ++j) {
        mover.Move(linear + j, first + j * step);
      }
    }
  }
}

// The elements of `operand` at start + index * strides for every index of
// `result`.
Literal StridedSlice(const Literal& operand, absl::Span<const int64_t> start,
                     absl::Span<const int64_t> strides, const Shape& result) {
  Literal out = Literal::ForOverwrite(result);
  const std::vector<int64_t> operand_strides = operand.Strides();
  const int64_t base = Offset(start, operand_strides);
  std::vector<int64_t> steps(strides.size());
  for (size_t d = 0; d < strides.size(); ++d) {
    steps[d] = strides[d] * operand_strides[d];
  }
  MoveRows(operand, out, base, steps);
  return out;
}

}  // namespace

Literal Iota(const Shape& result, int64_t dimension) {
  Literal out(result);
  const bool is_float = ir::IsFloat(result.type);
  for (IndexIterator it(result.dims); !it.done(); it.Next()) {
    const int64_t value = it[dimension];
    if (is_float) {
      out.SetFloat(it.linear(), static_cast<double>(value));
    } else {
      out.SetInt(it.linear(), value);
    }
  }
  return out;
}

Literal BroadcastInDim(const Literal& operand, const Shape& result,
                       absl::Span<const int64_t> broadcast_dimensions) {
  Literal out = Literal::ForOverwrite(result);
  // Operand dimension d follows result dimension broadcast_dimensions[d],
  // unless it has size 1 and is stretched (stride 0).
  std::vector<int64_t> strides(result.dims.size(), 0);
  const std::vector<int64_t> operand_strides = operand.Strides();
  for (size_t d = 0; d < broadcast_dimensions.size(); ++d) {
    if (operand.dims()[d] != 1) {
      strides[broadcast_dimensions[d]] = operand_strides[d];
    }
  }
  MoveRows(operand, out, 0, strides);
  return out;
}

Literal Reshape(const Literal& operand, const Shape& result) {
  Literal out(result);
  if (out.size_bytes() > 0) {
    std::memcpy(out.data(), operand.data(), out.size_bytes());
  }
  return out;
}

Literal Transpose(const Literal& operand, absl::Span<const int64_t> permutation,
                  const Shape& result) {
  Literal out = Literal::ForOverwrite(result);
  // result[i] = operand[j] where j[permutation[d]] = i[d].
  const std::vector<int64_t> operand_strides = operand.Strides();
  std::vector<int64_t> strides(permutation.size());
  for (size_t d = 0; d < permutation.size(); ++d) {
    strides[d] = operand_strides[permutation[d]];
  }
  MoveRows(operand, out, 0, strides);
  return out;
}

Literal Slice(const Literal& operand, absl::Span<const int64_t> start,
              absl::Span<const int64_t> /*limit*/,  // Implied by `result`.
              absl::Span<const int64_t> strides, const Shape& result) {
  return StridedSlice(operand, start, strides, result);
}

Literal DynamicSlice(const Literal& operand,
                     absl::Span<const int64_t> start_indices,
                     absl::Span<const int64_t> slice_sizes,
                     const Shape& result) {
  std::vector<int64_t> start(start_indices.size());
  for (size_t d = 0; d < start.size(); ++d) {
    start[d] = std::clamp<int64_t>(start_indices[d], 0,
                                   operand.dims()[d] - slice_sizes[d]);
  }
  return StridedSlice(operand, start, std::vector<int64_t>(start.size(), 1),
                      result);
}

Literal DynamicUpdateSlice(const Literal& operand, const Literal& update,
                           absl::Span<const int64_t> start_indices) {
  // Reshaping to its own shape makes the owned copy to update.
  Literal out = Reshape(operand, operand.shape());
  ElementMover mover(update, out);
  const std::vector<int64_t> out_strides = out.Strides();
  std::vector<int64_t> start(start_indices.size());
  for (size_t d = 0; d < start.size(); ++d) {
    start[d] = std::clamp<int64_t>(start_indices[d], 0,
                                   operand.dims()[d] - update.dims()[d]);
  }
  const int64_t base = Offset(start, out_strides);
  for (IndexIterator it(update.dims()); !it.done(); it.Next()) {
    mover.Move(base + Offset(it.index(), out_strides), it.linear());
  }
  return out;
}

Literal Concatenate(absl::Span<const Literal> inputs, int64_t dimension,
                    const Shape& result) {
  Literal out(result);
  // Viewed as [outer, dims[dimension] * inner], each input contributes a
  // contiguous run of bytes to every outer row of the result.
  int64_t outer = 1;
  for (int64_t d = 0; d < dimension; ++d) outer *= result.dims[d];
  const size_t row_bytes = result.size_bytes() / std::max<int64_t>(outer, 1);
  size_t column = 0;
  for (const Literal& input : inputs) {
    const size_t run = input.size_bytes() / std::max<int64_t>(outer, 1);
    for (int64_t row = 0; row < outer && run > 0; ++row) {
      std::memcpy(out.data() + row * row_bytes + column,
                  input.data() + row * run, run);
    }
    column += run;
  }
  return out;
}

Literal Pad(const Literal& operand, const Literal& padding_value,
            absl::Span<const int64_t> low,
            absl::Span<const int64_t> /*high*/,  // Implied by `result`.
            absl::Span<const int64_t> interior, const Shape& result) {
  Literal out(result);
  ElementMover from_operand(operand, out);
  ElementMover from_padding(padding_value, out);
  const std::vector<int64_t> operand_strides = operand.Strides();
  // Result index r along dimension d shows operand element (r - low) /
  // (interior + 1) when that division is exact and lands inside the
  // operand; anything else is padding. Negative `low` simply shifts the
  // operand left, cutting elements off.
  for (IndexIterator it(result.dims); !it.done(); it.Next()) {
    int64_t source = 0;
    for (size_t d = 0; d < result.dims.size() && source >= 0; ++d) {
      const int64_t shifted = it[d] - low[d];
      const int64_t step = interior[d] + 1;
      if (shifted < 0 || shifted % step != 0 ||
          shifted / step >= operand.dims()[d]) {
        source = -1;
      } else {
        source += shifted / step * operand_strides[d];
      }
    }
    if (source >= 0) {
      from_operand.Move(it.linear(), source);
    } else {
      from_padding.Move(it.linear(), 0);
    }
  }
  return out;
}

Literal Reverse(const Literal& operand, absl::Span<const int64_t> dimensions) {
  Literal out(operand.shape());
  ElementMover mover(operand, out);
  const std::vector<int64_t> strides = operand.Strides();
  std::vector<bool> reversed(operand.dims().size(), false);
  for (int64_t d : dimensions) reversed[d] = true;
  std::vector<int64_t> source(operand.dims().size());
  for (IndexIterator it(operand.dims()); !it.done(); it.Next()) {
    for (size_t d = 0; d < source.size(); ++d) {
      source[d] = reversed[d] ? operand.dims()[d] - 1 - it[d] : it[d];
    }
    mover.Move(it.linear(), Offset(source, strides));
  }
  return out;
}

}  // namespace pjrtx::cpu
