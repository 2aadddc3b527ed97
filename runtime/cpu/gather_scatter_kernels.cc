// gather and scatter: slices at positions read from an index array.
#include <algorithm>
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

// The dimensions among [0, rank) not listed in `excluded`, ascending.
std::vector<int64_t> OtherDims(int64_t rank,
                               absl::Span<const int64_t> excluded) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(excluded, d)) dims.push_back(d);
  }
  return dims;
}

// The index vectors of gather's start_indices or scatter's scatter_indices
// as seen from the array being walked (gather's result, scatter's
// updates): the walked array's batch dimensions, in order, index the
// dimensions of `indices` other than index_vector_dim, along which the
// vector's components lie.
class IndexVectors {
 public:
  IndexVectors(const Literal& indices, int64_t index_vector_dim,
               absl::Span<const int64_t> walked_batch_dims)
      : indices_(indices) {
    const std::vector<int64_t> strides = indices.Strides();
    const int64_t rank = indices.shape().rank();
    vector_stride_ = index_vector_dim < rank ? strides[index_vector_dim] : 0;
    for (int64_t d = 0, j = 0; d < rank; ++d) {
      if (d == index_vector_dim) {
        walked_dim_.push_back(-1);
        continue;
      }
      walked_dim_.push_back(walked_batch_dims[j++]);
      batch_strides_.push_back(strides[d]);
      batch_walked_dims_.push_back(walked_dim_.back());
    }
  }

  // Where in `indices` the vector of walked index `walked` starts.
  int64_t Base(absl::Span<const int64_t> walked) const {
    int64_t base = 0;
    for (size_t j = 0; j < batch_strides_.size(); ++j) {
      base += walked[batch_walked_dims_[j]] * batch_strides_[j];
    }
    return base;
  }

  // Component `i` of the vector starting at `base`.
  int64_t Component(int64_t base, int64_t i) const {
    return ReadIndex(indices_, base + i * vector_stride_);
  }

  // The coordinate of walked index `walked` along dimension `dim` of
  // `indices` (a batching dimension, never index_vector_dim).
  int64_t Coordinate(absl::Span<const int64_t> walked, int64_t dim) const {
    return walked[walked_dim_[dim]];
  }

 private:
  const Literal& indices_;
  int64_t vector_stride_ = 0;
  std::vector<int64_t> walked_dim_;  // Per indices dimension; -1 for the
                                     // index vector dimension.
  std::vector<int64_t> batch_strides_;
  std::vector<int64_t> batch_walked_dims_;
};

// For each operand dimension, the walked array's dimension giving the
// offset within the slice or window, or -1 for the dimensions the slice
// drops (collapsed or inserted, and batching): the walked `window_dims`
// fill the remaining operand dimensions in order.
std::vector<int64_t> WindowSources(int64_t operand_rank,
                                   absl::Span<const int64_t> window_dims,
                                   absl::Span<const int64_t> dropped,
                                   absl::Span<const int64_t> batching) {
  std::vector<int64_t> sources(operand_rank, -1);
  size_t next = 0;
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (Contains(dropped, d) || Contains(batching, d)) continue;
    sources[d] = window_dims[next++];
  }
  return sources;
}

}  // namespace

Literal Gather(const Literal& operand, const Literal& start_indices,
               const GatherDimensions& dims,
               absl::Span<const int64_t> slice_sizes, const Shape& result) {
  const int64_t rank = operand.shape().rank();
  const IndexVectors vectors(start_indices, dims.index_vector_dim,
                             OtherDims(result.rank(), dims.offset_dims));
  const std::vector<int64_t> offset_sources =
      WindowSources(rank, dims.offset_dims, dims.collapsed_slice_dims,
                    dims.operand_batching_dims);
  const std::vector<int64_t> strides = operand.Strides();
  Literal out(result);
  std::vector<int64_t> index(rank);
  for (IndexIterator it(result.dims); !it.done(); it.Next()) {
    for (int64_t d = 0; d < rank; ++d) {
      index[d] = offset_sources[d] < 0 ? 0 : it[offset_sources[d]];
    }
    const int64_t base = vectors.Base(it.index());
    for (size_t i = 0; i < dims.start_index_map.size(); ++i) {
      // The spec clamps starts so that the whole slice is in bounds.
      const int64_t d = dims.start_index_map[i];
      index[d] += std::clamp<int64_t>(vectors.Component(base, i), 0,
                                      operand.dims()[d] - slice_sizes[d]);
    }
    for (size_t i = 0; i < dims.operand_batching_dims.size(); ++i) {
      index[dims.operand_batching_dims[i]] +=
          vectors.Coordinate(it.index(), dims.start_indices_batching_dims[i]);
    }
    out.CopyElement(it.linear(), operand, Offset(index, strides));
  }
  return out;
}

absl::StatusOr<std::vector<Literal>> Scatter(absl::Span<const Literal> inputs,
                                             const Literal& scatter_indices,
                                             absl::Span<const Literal> updates,
                                             const ScatterDimensions& dims,
                                             const RegionFn& update,
                                             absl::Span<const Shape> results) {
  const std::vector<int64_t>& operand_dims = inputs[0].dims();
  const int64_t rank = operand_dims.size();
  const IndexVectors vectors(
      scatter_indices, dims.index_vector_dim,
      OtherDims(updates[0].shape().rank(), dims.update_window_dims));
  const std::vector<int64_t> window_sources =
      WindowSources(rank, dims.update_window_dims, dims.inserted_window_dims,
                    dims.input_batching_dims);
  const std::vector<int64_t> strides = inputs[0].Strides();

  std::vector<ElementType> types;
  std::vector<Literal> outs;
  for (size_t k = 0; k < inputs.size(); ++k) {
    types.push_back(results[k].type);
    // Reshaping to its own shape makes the owned copy to update.
    outs.push_back(Reshape(inputs[k], results[k]));
  }

  std::vector<int64_t> start(rank), offset(rank);
  for (IndexIterator it(updates[0].dims()); !it.done(); it.Next()) {
    for (int64_t d = 0; d < rank; ++d) {
      offset[d] = window_sources[d] < 0 ? 0 : it[window_sources[d]];
      start[d] = 0;
    }
    const int64_t base = vectors.Base(it.index());
    for (size_t i = 0; i < dims.scatter_dims_to_operand_dims.size(); ++i) {
      start[dims.scatter_dims_to_operand_dims[i]] = vectors.Component(base, i);
    }
    for (size_t i = 0; i < dims.input_batching_dims.size(); ++i) {
      offset[dims.input_batching_dims[i]] +=
          vectors.Coordinate(it.index(), dims.scatter_indices_batching_dims[i]);
    }
    // Unlike gather, scatter does not clamp: each update element whose
    // target falls outside the operand is skipped. `start` comes from data
    // and may be huge, so it is compared rather than added.
    bool inside = true;
    int64_t target = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (start[d] < -offset[d] || start[d] >= operand_dims[d] - offset[d]) {
        inside = false;
        break;
      }
      target += (start[d] + offset[d]) * strides[d];
    }
    if (!inside) continue;

    std::vector<Literal> args;
    for (const Literal& out : outs) args.push_back(ScalarAt(out, target));
    for (const Literal& values : updates) {
      args.push_back(ScalarAt(values, it.linear()));
    }
    PJRTX_ASSIGN_OR_RETURN(std::vector<Literal> updated,
                           CallRegion(update, args, types));
    for (size_t k = 0; k < outs.size(); ++k) {
      outs[k].CopyElement(target, updated[k], 0);
    }
  }
  return outs;
}

}  // namespace pjrtx::cpu
