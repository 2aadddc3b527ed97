// The CUDA plugin's communicator over GPUs of several slices (machines):
// NCCL within each slice, the runtime's host communicator over UCX between
// slices. The all-reduce is hierarchical: NCCL reduce-scatters the buffer
// within the slice, each GPU's 1/c shard is all-reduced across slices with
// the GPUs at its position in the other slices (staged through host
// memory once each way: M/c bytes out of and into every GPU), and NCCL
// all-gathers the shards within the slice. The three steps are chained by
// events; nothing waits on the host but the host communicator's staging.
// Every other operation, and an all-reduce that cannot be split (unequal
// slices, dimension 0 not a multiple of the slice size, or another
// algorithm asked for), runs on the host communicator over all ranks.
#ifndef PJRTX_PLUGINS_CUDA_COLLECTIVES_SLICED_COMMUNICATOR_H_
#define PJRTX_PLUGINS_CUDA_COLLECTIVES_SLICED_COMMUNICATOR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "plugins/cuda/collectives/nccl_library.h"
#include "plugins/cuda/device/gpu_driver.h"
#include "runtime/collectives/transport.h"
#include "runtime/core/base/client_state.h"
#include "runtime/core/base/communicator.h"

namespace cuda_plugin {

// Thread-safe. Every process of the ranks creates it with the same ids and
// issues operations in the same order.
class SlicedCommunicator : public pjrtx::Communicator {
 public:
  // `slice_of_rank` gives every rank's slice (the devices' slice_index).
  // The parts are created in the same order in every process: NCCL over
  // this process's slice, one host communicator per position over the
  // GPUs at that position in every slice (where this process has one),
  // then the host communicator over all ranks (over `make_remote`).
  static absl::StatusOr<std::unique_ptr<pjrtx::Communicator>> Create(
      const NcclLibrary& nccl, GpuDriver& driver,
      std::shared_ptr<pjrtx::ClientState> client,
      absl::Span<const int64_t> device_ids,
      absl::Span<const int64_t> slice_of_rank, int64_t timeout_ms,
      pjrtx::collectives::TransportFactory make_remote);

  int64_t size() const override { return all_->size(); }
  const std::vector<int64_t>& local_ranks() const override {
    return all_->local_ranks();
  }

  absl::StatusOr<std::vector<pjrtx::CollectiveResult>> Collective(
      const pjrtx::CollectiveRequest& request) override;

 private:
  SlicedCommunicator() = default;

  // Whether `request` runs as the hierarchical all-reduce.
  bool Splits(const pjrtx::CollectiveRequest& request) const;
  absl::StatusOr<std::vector<pjrtx::CollectiveResult>> HierarchicalAllReduce(
      const pjrtx::CollectiveRequest& request);

  // Destroyed last to first: the host communicators wait for their
  // operations (which wait for NCCL's reduce-scatters), then NCCL waits
  // for its all-gathers (whose inputs the host communicators made).
  std::unique_ptr<pjrtx::Communicator> slice_;  // Null: slices unequal.
  int64_t slice_size_ = 0;
  // By position in the slice, for this process's positions.
  std::map<int64_t, std::unique_ptr<pjrtx::Communicator>> columns_;
  // Per local rank (in all_'s order): its position in its slice.
  std::vector<int64_t> position_of_local_;
  std::unique_ptr<pjrtx::Communicator> all_;
  // Keeps the three steps of concurrent all-reduces in one order.
  std::mutex issue_mu_;
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_COLLECTIVES_SLICED_COMMUNICATOR_H_
