#include "runtime/collectives/rate_limited_transport.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "support/status_macros.h"

namespace pjrtx::collectives {

RateLimitedTransport::RateLimitedTransport(std::unique_ptr<Transport> link,
                                           double bytes_per_second)
    : link_(std::move(link)), bytes_per_second_(bytes_per_second) {}

absl::Status RateLimitedTransport::SendRecv(int to,
                                            absl::Span<const uint8_t> send,
                                            int from, absl::Span<uint8_t> recv,
                                            uint64_t tag, Deadline deadline) {
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = link_->SendRecv(to, send, from, recv, tag, deadline);
  if (status.ok() && to >= 0) Pace(start, send.size(), deadline);
  return status;
}

absl::Status RateLimitedTransport::SendRecvStaged(int to, StagedMemory* send,
                                                  int from, StagedMemory* recv,
                                                  uint64_t tag,
                                                  Deadline deadline) {
  const auto start = std::chrono::steady_clock::now();
  absl::Status status =
      link_->SendRecvStaged(to, send, from, recv, tag, deadline);
  if (status.ok() && to >= 0) Pace(start, send->size(), deadline);
  return status;
}

void RateLimitedTransport::Pace(std::chrono::steady_clock::time_point start,
                                size_t sent, Deadline deadline) const {
  if (sent == 0) return;
  const auto due =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(sent / bytes_per_second_));
  // The message has arrived: failing now would leave the peer a step
  // ahead, so a link too slow for the deadline just stops pacing there.
  std::this_thread::sleep_until(std::min(due, deadline));
}

TransportFactory RateLimited(TransportFactory make, double bytes_per_second) {
  if (bytes_per_second <= 0 || make == nullptr) return make;
  return [make = std::move(make), bytes_per_second](
             KeyValueStore& store, const std::string& key, int rank, int size,
             int64_t timeout_ms) -> absl::StatusOr<std::unique_ptr<Transport>> {
    PJRTX_ASSIGN_OR_RETURN(std::unique_ptr<Transport> link,
                           make(store, key, rank, size, timeout_ms));
    return std::unique_ptr<Transport>(
        new RateLimitedTransport(std::move(link), bytes_per_second));
  };
}

}  // namespace pjrtx::collectives
