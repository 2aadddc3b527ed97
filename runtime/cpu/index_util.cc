#include "runtime/cpu/index_util.h"

#include <algorithm>
#include <limits>

namespace pjrtx::cpu {

IndexIterator::IndexIterator(absl::Span<const int64_t> dims)
    : dims_(dims.begin(), dims.end()), index_(dims.size(), 0) {
  done_ =
      std::any_of(dims_.begin(), dims_.end(), [](int64_t d) { return d <= 0; });
}

void IndexIterator::Next() {
  ++linear_;
  for (size_t d = dims_.size(); d-- > 0;) {
    if (++index_[d] < dims_[d]) return;
    index_[d] = 0;
  }
  // Every digit wrapped around (or the shape is rank 0): the walk is over.
  done_ = true;
}

std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= dims[d];
  }
  return strides;
}

int64_t Offset(absl::Span<const int64_t> index,
               absl::Span<const int64_t> strides) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * strides[d];
  return offset;
}

int64_t ReadIndex(const Literal& literal, int64_t i) {
  if (!ir::IsUnsignedInt(literal.type())) return literal.GetInt(i);
  uint64_t value = literal.GetUInt(i);
  constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(std::min(value, kMax));
}

bool Contains(absl::Span<const int64_t> dims, int64_t dim) {
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

}  // namespace pjrtx::cpu
