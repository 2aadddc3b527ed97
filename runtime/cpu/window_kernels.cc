// The windowed reductions: reduce_window and select_and_scatter.
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/cpu/index_util.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"
#include "runtime/cpu/region_util.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

// `values[d]`, or `fallback` when the attribute was left out (empty).
int64_t AtOr(const std::vector<int64_t>& values, size_t d, int64_t fallback) {
  return d < values.size() ? values[d] : fallback;
}

// Finds the input element a window position reads. The spec pads the
// input (base dilation holes and edges) before windowing; rather than
// building that padded array, positions are mapped back to the input.
class WindowMapper {
 public:
  WindowMapper(const WindowSpec& window, const Literal& input)
      : window_dims_(window.dimensions) {
    const std::vector<int64_t> strides = input.Strides();
    for (size_t d = 0; d < strides.size(); ++d) {
      dims_.push_back({
          .stride = AtOr(window.strides, d, 1),
          .window_dilation = AtOr(window.window_dilations, d, 1),
          .base_dilation = AtOr(window.base_dilations, d, 1),
          .pad_low = d < window.padding.size() ? window.padding[d].first : 0,
          .input_size = input.dims()[d],
          .input_stride = strides[d],
      });
    }
  }

  const std::vector<int64_t>& window_dims() const { return window_dims_; }

  // Linear index into the input of window position `window_index` of the
  // window of output `output_index`, or -1 where the position falls on
  // padding.
  int64_t Source(absl::Span<const int64_t> output_index,
                 absl::Span<const int64_t> window_index) const {
    int64_t source = 0;
    for (size_t d = 0; d < dims_.size(); ++d) {
      const Dim& dim = dims_[d];
      const int64_t x = output_index[d] * dim.stride +
                        window_index[d] * dim.window_dilation - dim.pad_low;
      if (x < 0 || x % dim.base_dilation != 0 ||
          x / dim.base_dilation >= dim.input_size) {
        return -1;
      }
      source += x / dim.base_dilation * dim.input_stride;
    }
    return source;
  }

 private:
  struct Dim {
    int64_t stride;
    int64_t window_dilation;
    int64_t base_dilation;
    int64_t pad_low;
    int64_t input_size;
    int64_t input_stride;
  };
  std::vector<int64_t> window_dims_;
  std::vector<Dim> dims_;
};

}  // namespace

absl::StatusOr<std::vector<Literal>> ReduceWindow(
    absl::Span<const Literal> inputs, absl::Span<const Literal> inits,
    const WindowSpec& window, const RegionFn& body,
    absl::Span<const Shape> results) {
  const WindowMapper mapper(window, inputs[0]);
  std::vector<ElementType> types;
  std::vector<Literal> outs;
  for (const Shape& shape : results) {
    types.push_back(shape.type);
    outs.emplace_back(shape);
  }
  for (IndexIterator out_it(results[0].dims); !out_it.done(); out_it.Next()) {
    std::vector<Literal> accumulators(inits.begin(), inits.end());
    for (IndexIterator it(mapper.window_dims()); !it.done(); it.Next()) {
      const int64_t source = mapper.Source(out_it.index(), it.index());
      std::vector<Literal> args = accumulators;
      for (size_t k = 0; k < inputs.size(); ++k) {
        // Padding holds the init values, which the body still folds in.
        args.push_back(source < 0 ? inits[k] : ScalarAt(inputs[k], source));
      }
      PJRTX_ASSIGN_OR_RETURN(accumulators, CallRegion(body, args, types));
    }
    for (size_t k = 0; k < outs.size(); ++k) {
      outs[k].CopyElement(out_it.linear(), accumulators[k], 0);
    }
  }
  return outs;
}

absl::StatusOr<Literal> SelectAndScatter(
    const Literal& operand, const Literal& source, const Literal& init_value,
    const WindowSpec& window, const RegionFn& select, const RegionFn& scatter,
    const Shape& result) {
  const WindowMapper mapper(window, operand);
  Literal out(result);
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    out.CopyElement(i, init_value, 0);
  }
  for (IndexIterator src_it(source.dims()); !src_it.done(); src_it.Next()) {
    // The window's first element wins unless `select` prefers a later one;
    // padding never competes.
    int64_t selected = -1;
    for (IndexIterator it(mapper.window_dims()); !it.done(); it.Next()) {
      const int64_t candidate = mapper.Source(src_it.index(), it.index());
      if (candidate < 0) continue;
      if (selected < 0) {
        selected = candidate;
        continue;
      }
      PJRTX_ASSIGN_OR_RETURN(
          bool keep, CallPredicate(select, {ScalarAt(operand, selected),
                                            ScalarAt(operand, candidate)}));
      if (!keep) selected = candidate;
    }
    if (selected < 0) continue;
    // Each element folds the source values that selected it into its init
    // value, in source order.
    PJRTX_ASSIGN_OR_RETURN(
        std::vector<Literal> updated,
        CallRegion(scatter,
                   {ScalarAt(out, selected), ScalarAt(source, src_it.linear())},
                   {result.type}));
    out.CopyElement(selected, updated[0], 0);
  }
  return out;
}

}  // namespace pjrtx::cpu
