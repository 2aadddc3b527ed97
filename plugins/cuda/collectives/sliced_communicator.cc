#include "plugins/cuda/collectives/sliced_communicator.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugins/cuda/collectives/nccl_communicator.h"
#include "runtime/collectives/device_ids.h"
#include "runtime/collectives/host_communicator.h"
#include "support/status_macros.h"

namespace cuda_plugin {

absl::StatusOr<std::unique_ptr<pjrtx::Communicator>> SlicedCommunicator::Create(
    const NcclLibrary& nccl, GpuDriver& driver,
    std::shared_ptr<pjrtx::ClientState> client,
    absl::Span<const int64_t> device_ids,
    absl::Span<const int64_t> slice_of_rank, int64_t timeout_ms,
    pjrtx::collectives::TransportFactory make_remote) {
  PJRTX_ASSIGN_OR_RETURN(
      std::vector<int> devices,
      pjrtx::collectives::ResolveDeviceIds(*client, device_ids));
  // The ranks of every slice, in rank order.
  std::map<int64_t, std::vector<int64_t>> slices;
  for (size_t r = 0; r < device_ids.size(); ++r) {
    slices[slice_of_rank[r]].push_back(static_cast<int64_t>(r));
  }
  std::vector<int64_t> local;
  for (size_t r = 0; r < devices.size(); ++r) {
    if (client->device(devices[r]).addressable) local.push_back(r);
  }
  bool equal = !local.empty();
  const size_t slice_size = slices.begin()->second.size();
  for (const auto& [slice, ranks] : slices) {
    equal = equal && ranks.size() == slice_size;
  }
  // A process whose GPUs lie in two slices (not a machine's processes)
  // keeps to the host communicator.
  const int64_t my_slice = local.empty() ? 0 : slice_of_rank[local[0]];
  for (int64_t r : local) equal = equal && slice_of_rank[r] == my_slice;

  std::unique_ptr<SlicedCommunicator> communicator(new SlicedCommunicator);
  if (equal) {
    const std::vector<int64_t>& mine = slices[my_slice];
    std::vector<int64_t> ids;
    for (int64_t r : mine) ids.push_back(device_ids[r]);
    PJRTX_ASSIGN_OR_RETURN(
        communicator->slice_,
        NcclCommunicator::Create(nccl, driver, client, ids, timeout_ms));
    communicator->slice_size_ = static_cast<int64_t>(slice_size);
    for (int64_t r : local) {
      const int64_t position =
          std::find(mine.begin(), mine.end(), r) - mine.begin();
      communicator->position_of_local_.push_back(position);
      std::vector<int64_t> column;
      for (const auto& [slice, ranks] : slices) {
        column.push_back(device_ids[ranks[position]]);
      }
      PJRTX_ASSIGN_OR_RETURN(communicator->columns_[position],
                             pjrtx::collectives::HostCommunicator::Create(
                                 client, column, timeout_ms, make_remote));
    }
  }
  PJRTX_ASSIGN_OR_RETURN(
      communicator->all_,
      pjrtx::collectives::HostCommunicator::Create(
          std::move(client), device_ids, timeout_ms, std::move(make_remote)));
  return std::unique_ptr<pjrtx::Communicator>(std::move(communicator));
}

bool SlicedCommunicator::Splits(const pjrtx::CollectiveRequest& request) const {
  if (slice_ == nullptr || request.kind != PJRTX_Collective_ALL_REDUCE) {
    return false;
  }
  if (request.algorithm != PJRTX_CollectiveAlgorithm_AUTO &&
      request.algorithm != PJRTX_CollectiveAlgorithm_HIERARCHICAL) {
    return false;
  }
  // Every process sees the same shapes, so all decide alike.
  if (request.inputs.empty() || request.inputs[0] == nullptr) return false;
  const std::vector<int64_t>& dims = request.inputs[0]->dims();
  return !dims.empty() && dims[0] > 0 && dims[0] % slice_size_ == 0;
}

absl::StatusOr<std::vector<pjrtx::CollectiveResult>>
SlicedCommunicator::Collective(const pjrtx::CollectiveRequest& request) {
  if (!Splits(request)) return all_->Collective(request);
  std::lock_guard<std::mutex> lock(issue_mu_);
  return HierarchicalAllReduce(request);
}

absl::StatusOr<std::vector<pjrtx::CollectiveResult>>
SlicedCommunicator::HierarchicalAllReduce(
    const pjrtx::CollectiveRequest& request) {
  // Within the slice: each GPU ends with its position's 1/c, reduced.
  pjrtx::CollectiveRequest scatter = request;
  scatter.kind = PJRTX_Collective_REDUCE_SCATTER;
  PJRTX_ASSIGN_OR_RETURN(std::vector<pjrtx::CollectiveResult> shards,
                         slice_->Collective(scatter));
  // Across slices: each shard with those at its position elsewhere.
  std::vector<pjrtx::CollectiveResult> reduced;
  for (size_t i = 0; i < shards.size(); ++i) {
    pjrtx::CollectiveRequest across;
    across.kind = PJRTX_Collective_ALL_REDUCE;
    across.op = request.op;
    across.inputs = {shards[i].output.get()};
    across.donate = {true};
    across.wait_for = {shards[i].done};
    across.timeout_ms = request.timeout_ms;
    // Pinned, the hierarchical all-reduce is hierarchical(ring), as the
    // host communicator's: 2(s-1)/s of the shard over DCN per GPU.
    across.algorithm =
        request.algorithm == PJRTX_CollectiveAlgorithm_HIERARCHICAL
            ? PJRTX_CollectiveAlgorithm_RING
            : PJRTX_CollectiveAlgorithm_AUTO;
    absl::StatusOr<std::vector<pjrtx::CollectiveResult>> column =
        columns_.at(position_of_local_[i])->Collective(across);
    if (!column.ok()) {
      return absl::Status(
          column.status().code(),
          absl::StrCat("the cross-slice step of a hierarchical all-reduce: ",
                       column.status().message()));
    }
    reduced.push_back(std::move(column->front()));
  }
  // Within the slice again: every GPU gathers the reduced shards.
  pjrtx::CollectiveRequest gather;
  gather.kind = PJRTX_Collective_ALL_GATHER;
  gather.timeout_ms = request.timeout_ms;
  for (pjrtx::CollectiveResult& part : reduced) {
    gather.inputs.push_back(part.output.get());
    gather.donate.push_back(true);
    gather.wait_for.push_back(part.done);
  }
  PJRTX_ASSIGN_OR_RETURN(std::vector<pjrtx::CollectiveResult> results,
                         slice_->Collective(gather));
  // The intermediate buffers live until the all-gather is done with them
  // (the steps hold their memory; this keeps their handles too).
  auto keep = std::make_shared<std::vector<std::unique_ptr<pjrtx::Buffer>>>();
  for (pjrtx::CollectiveResult& part : shards) {
    keep->push_back(std::move(part.output));
  }
  for (pjrtx::CollectiveResult& part : reduced) {
    keep->push_back(std::move(part.output));
  }
  for (const pjrtx::CollectiveResult& result : results) {
    result.done->AndThen([keep](const absl::Status&) {});
  }
  return results;
}

}  // namespace cuda_plugin
