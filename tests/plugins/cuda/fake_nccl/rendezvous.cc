#include "tests/plugins/cuda/fake_nccl/rendezvous.h"

#include <cstring>

#include "tests/plugins/cuda/fake_driver_link/driver_link.h"
#include "tests/plugins/cuda/fake_nccl/reduction.h"

namespace fake_nccl {

uint64_t Member::NextCollective() {
  std::lock_guard<std::mutex> lock(mu_);
  return next_collective_++;
}

uint64_t Member::NextSend(int peer) {
  std::lock_guard<std::mutex> lock(mu_);
  return next_send_[peer]++;
}

uint64_t Member::NextRecv(int peer) {
  std::lock_guard<std::mutex> lock(mu_);
  return next_recv_[peer]++;
}

void Member::SetAsyncError(ncclResult_t error, std::string message) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (async_error_.load(std::memory_order_relaxed) != ncclSuccess) return;
    async_message_ = "fake_nccl: " + std::move(message);
    async_error_.store(error, std::memory_order_release);
  }
  if (listener_) listener_(error, async_message_);
}

void* Translate(CUdeviceptr address, size_t bytes, bool write) {
  const fake_driver_link::DriverLink* driver = fake_driver_link::Driver();
  void* host = nullptr;
  if (driver == nullptr ||
      driver->translate(address, bytes, write ? 1 : 0, &host) != CUDA_SUCCESS) {
    return nullptr;
  }
  return host;
}

size_t InputBytes(const Contribution& contribution, int nranks) {
  const size_t bytes = contribution.count * TypeSize(contribution.type);
  return std::strcmp(contribution.call, "ncclReduceScatter") == 0
             ? bytes * nranks
             : bytes;
}

size_t OutputBytes(const Contribution& contribution, int nranks) {
  const size_t bytes = contribution.count * TypeSize(contribution.type);
  return std::strcmp(contribution.call, "ncclAllGather") == 0 ? bytes * nranks
                                                              : bytes;
}

}  // namespace fake_nccl
