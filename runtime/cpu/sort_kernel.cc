// sort: sorts 1-D slices of variadic inputs together with a comparator
// region.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/cpu/index_util.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"
#include "runtime/cpu/region_util.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

// Orders the positions of one slice. A bottom-up merge sort rather than
// std::sort: comparator regions can fail, which the standard algorithms
// cannot carry out, and need not be strict weak orders, with which
// std::sort may run out of bounds. Merging takes the left element on ties,
// so the sort is stable.
class SliceSorter {
 public:
  // `elements[k][i]` is element i of the slice of input k, as a scalar.
  SliceSorter(const RegionFn& comparator,
              const std::vector<std::vector<Literal>>& elements)
      : comparator_(comparator), elements_(elements) {}

  absl::Status Sort(std::vector<int64_t>& order) const {
    const int64_t n = order.size();
    std::vector<int64_t> merged(n);
    for (int64_t width = 1; width < n; width *= 2) {
      for (int64_t lo = 0; lo < n; lo += 2 * width) {
        const int64_t mid = std::min(lo + width, n);
        const int64_t hi = std::min(lo + 2 * width, n);
        int64_t left = lo, right = mid, out = lo;
        while (left < mid && right < hi) {
          PJRTX_ASSIGN_OR_RETURN(bool right_first,
                                 Before(order[right], order[left]));
          merged[out++] = right_first ? order[right++] : order[left++];
        }
        while (left < mid) merged[out++] = order[left++];
        while (right < hi) merged[out++] = order[right++];
      }
      std::swap(order, merged);
    }
    return absl::OkStatus();
  }

 private:
  // Whether the comparator puts slice position `a` before `b`.
  absl::StatusOr<bool> Before(int64_t a, int64_t b) const {
    std::vector<Literal> args;
    args.reserve(2 * elements_.size());
    for (const std::vector<Literal>& input : elements_) {
      args.push_back(input[a]);
      args.push_back(input[b]);
    }
    return CallPredicate(comparator_, args);
  }

  const RegionFn& comparator_;
  const std::vector<std::vector<Literal>>& elements_;
};

}  // namespace

absl::StatusOr<std::vector<Literal>> Sort(absl::Span<const Literal> inputs,
                                          int64_t dimension,
                                          bool /*is_stable*/,  // Always is.
                                          const RegionFn& comparator) {
  std::vector<int64_t> dims = inputs[0].dims();
  if (dimension < 0) dimension += dims.size();
  const int64_t length = dims[dimension];
  const int64_t step = inputs[0].Strides()[dimension];
  // One slice per index of the other dimensions.
  dims[dimension] = 1;
  const std::vector<int64_t> strides = inputs[0].Strides();

  std::vector<Literal> outs;
  for (const Literal& input : inputs) outs.emplace_back(input.shape());
  std::vector<std::vector<Literal>> elements(inputs.size());
  std::vector<int64_t> order(length);
  for (IndexIterator it(dims); !it.done(); it.Next()) {
    const int64_t base = Offset(it.index(), strides);
    for (size_t k = 0; k < inputs.size(); ++k) {
      elements[k].clear();
      for (int64_t i = 0; i < length; ++i) {
        elements[k].push_back(ScalarAt(inputs[k], base + i * step));
      }
    }
    std::iota(order.begin(), order.end(), 0);
    PJRTX_RETURN_IF_ERROR(SliceSorter(comparator, elements).Sort(order));
    for (size_t k = 0; k < inputs.size(); ++k) {
      for (int64_t i = 0; i < length; ++i) {
        outs[k].CopyElement(base + i * step, inputs[k], base + order[i] * step);
      }
    }
  }
  return outs;
}

}  // namespace pjrtx::cpu
