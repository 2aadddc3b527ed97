// Multi-index arithmetic shared by the structural kernels of the CPU engine.
#ifndef PJRTX_RUNTIME_CPU_INDEX_UTIL_H_
#define PJRTX_RUNTIME_CPU_INDEX_UTIL_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// Walks every index of a shape in row-major order, tracking the row-major
// linear position alongside, so kernels can both address their result
// linearly and map each index to an operand:
//
//   for (IndexIterator it(dims); !it.done(); it.Next()) { ... }
//
// A rank-0 shape has one index (the empty one); a shape with a zero
// dimension has none.
class IndexIterator {
 public:
  explicit IndexIterator(absl::Span<const int64_t> dims);

  bool done() const { return done_; }
  const std::vector<int64_t>& index() const { return index_; }
  int64_t operator[](size_t d) const { return index_[d]; }
  int64_t linear() const { return linear_; }

  void Next();

 private:
  std::vector<int64_t> dims_;
  std::vector<int64_t> index_;
  int64_t linear_ = 0;
  bool done_ = false;
};

// Row-major strides, in elements, of an array with `dims`.
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims);

// The dot product of `index` and `strides`: a row-major offset.
int64_t Offset(absl::Span<const int64_t> index,
               absl::Span<const int64_t> strides);

// Element `i` of an integer (or PRED) Literal read as an index. Unsigned
// values beyond the int64 range saturate, which keeps them out of bounds
// (or clamped to the top) as they should be.
int64_t ReadIndex(const Literal& literal, int64_t i);

// Whether `dim` is listed in `dims`.
bool Contains(absl::Span<const int64_t> dims, int64_t dim);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_INDEX_UTIL_H_
