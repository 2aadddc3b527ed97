// Per-device transfer accounting (PJRTX_Device_TransferCounters).
#ifndef PJRTX_RUNTIME_CORE_BASE_TRANSFER_COUNTERS_H_
#define PJRTX_RUNTIME_CORE_BASE_TRANSFER_COUNTERS_H_

#include <atomic>
#include <cstdint>

namespace pjrtx {

// A byte and an operation count that only grow. Relaxed atomics: readers
// take snapshots and subtract, so no ordering with other memory is needed.
class TransferCounter {
 public:
  void Add(int64_t bytes, int64_t ops = 1) {
    bytes_.fetch_add(bytes, std::memory_order_relaxed);
    ops_.fetch_add(ops, std::memory_order_relaxed);
  }
  int64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
  int64_t ops() const { return ops_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> bytes_{0};
  std::atomic<int64_t> ops_{0};
};

struct TransferCounters {
  TransferCounter host_to_device;
  TransferCounter device_to_host;
  TransferCounter device_to_device;
  TransferCounter staging;
  TransferCounter dcn_sent;
  TransferCounter dcn_received;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_TRANSFER_COUNTERS_H_
