// convolution: windowed products with strides, padding, input (lhs) and
// kernel (rhs) dilation, window reversal and feature or batch grouping,
// computed directly from the spec's definition without materializing the
// padded, dilated input.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/cpu/accumulation.h"
#include "runtime/cpu/index_util.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {
namespace {

// `values[d]`, or `fallback` when the attribute was left out (empty).
template <typename T>
T AtOr(const std::vector<T>& values, size_t d, T fallback) {
  return d < values.size() ? values[d] : fallback;
}

// One spatial dimension of the window, resolved once.
struct SpatialDim {
  int64_t stride;
  int64_t pad_low;
  int64_t lhs_dilation;
  int64_t rhs_dilation;
  int64_t dilated_input;  // Input size after lhs dilation, before padding.
  int64_t lhs_stride;     // Element strides of this dimension in lhs, rhs
  int64_t rhs_stride;     // and the result.
  int64_t output_dim;
};

template <typename Acc>
Literal ConvolutionIn(const Literal& lhs, const Literal& rhs,
                      const ConvolutionDimensions& dims,
                      const ConvolutionWindow& window,
                      int64_t feature_group_count, int64_t batch_group_count,
                      const Shape& result) {
  const std::vector<Acc> input = ToAccumulator<Acc>(lhs);
  const std::vector<Acc> kernel = ToAccumulator<Acc>(rhs);
  const std::vector<int64_t> lhs_strides = lhs.Strides();
  const std::vector<int64_t> rhs_strides = rhs.Strides();

  std::vector<SpatialDim> spatial(dims.input_spatial.size());
  std::vector<int64_t> kernel_dims(spatial.size());
  for (size_t d = 0; d < spatial.size(); ++d) {
    const int64_t input_size = lhs.dims()[dims.input_spatial[d]];
    const int64_t lhs_dilation = AtOr<int64_t>(window.lhs_dilation, d, 1);
    spatial[d] = {
        .stride = AtOr<int64_t>(window.strides, d, 1),
        .pad_low =
            AtOr<std::pair<int64_t, int64_t>>(window.padding, d, {0, 0}).first,
        .lhs_dilation = lhs_dilation,
        .rhs_dilation = AtOr<int64_t>(window.rhs_dilation, d, 1),
        .dilated_input =
            input_size == 0 ? 0 : (input_size - 1) * lhs_dilation + 1,
        .lhs_stride = lhs_strides[dims.input_spatial[d]],
        .rhs_stride = rhs_strides[dims.kernel_spatial[d]],
        .output_dim = dims.output_spatial[d],
    };
    kernel_dims[d] = rhs.dims()[dims.kernel_spatial[d]];
  }

  // Every window position once: its index in the window and the offset of
  // the kernel element it meets, which window reversal mirrors.
  std::vector<int64_t> window_positions;
  std::vector<int64_t> kernel_offsets;
  for (IndexIterator it(kernel_dims); !it.done(); it.Next()) {
    int64_t offset = 0;
    for (size_t d = 0; d < spatial.size(); ++d) {
      const bool reversed = AtOr<bool>(window.window_reversal, d, false);
      offset += (reversed ? kernel_dims[d] - 1 - it[d] : it[d]) *
                spatial[d].rhs_stride;
      window_positions.push_back(it[d]);
    }
    kernel_offsets.push_back(offset);
  }

  // Grouping splits the output features into groups: with feature groups,
  // group g reads input features [g * Ki, (g + 1) * Ki); with batch groups
  // it reads input batch b + g * (output batch size).
  const int64_t output_features = result.dims[dims.output_feature];
  const int64_t output_batch = result.dims[dims.output_batch];
  const int64_t kernel_input_features = rhs.dims()[dims.kernel_input_feature];
  const int64_t features_per_feature_group =
      std::max<int64_t>(output_features / feature_group_count, 1);
  const int64_t features_per_batch_group =
      std::max<int64_t>(output_features / batch_group_count, 1);
  const int64_t lhs_feature_stride = lhs_strides[dims.input_feature];
  const int64_t rhs_feature_stride = rhs_strides[dims.kernel_input_feature];

  std::vector<Acc> sums(result.num_elements());
  for (IndexIterator it(result.dims); !it.done(); it.Next()) {
    const int64_t feature = it[dims.output_feature];
    const int64_t lhs_batch = it[dims.output_batch] +
                              feature / features_per_batch_group * output_batch;
    const int64_t lhs_base = lhs_batch * lhs_strides[dims.input_batch] +
                             feature / features_per_feature_group *
                                 kernel_input_features * lhs_feature_stride;
    const int64_t rhs_base = feature * rhs_strides[dims.kernel_output_feature];
    Acc sum{};
    for (size_t w = 0; w < kernel_offsets.size(); ++w) {
      const int64_t* position = window_positions.data() + w * spatial.size();
      int64_t lhs_offset = lhs_base;
      bool inside = true;
      for (size_t d = 0; d < spatial.size() && inside; ++d) {
        const SpatialDim& s = spatial[d];
        // Coordinate in the padded, dilated input; padding and the holes
        // that dilation makes contribute zeros, so they are skipped.
        const int64_t x = it[s.output_dim] * s.stride +
                          position[d] * s.rhs_dilation - s.pad_low;
        inside = x >= 0 && x < s.dilated_input && x % s.lhs_dilation == 0;
        lhs_offset += x / s.lhs_dilation * s.lhs_stride;
      }
      if (!inside) continue;
      const int64_t rhs_offset = rhs_base + kernel_offsets[w];
      for (int64_t f = 0; f < kernel_input_features; ++f) {
        sum = MultiplyAdd(sum, input[lhs_offset + f * lhs_feature_stride],
                          kernel[rhs_offset + f * rhs_feature_stride]);
      }
    }
    sums[it.linear()] = sum;
  }
  Literal out(result);
  FromAccumulator<Acc>(sums, out);
  return out;
}

}  // namespace

Literal Convolution(const Literal& lhs, const Literal& rhs,
                    const ConvolutionDimensions& dims,
                    const ConvolutionWindow& window,
                    int64_t feature_group_count, int64_t batch_group_count,
                    const Shape& result) {
  return DispatchAccumulator(result.type, [&](auto acc) {
    return ConvolutionIn<decltype(acc)>(
        lhs, rhs, dims, window, feature_group_count, batch_group_count, result);
  });
}

}  // namespace pjrtx::cpu
