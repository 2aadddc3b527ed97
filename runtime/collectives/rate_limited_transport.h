// A transport whose sends take at least as long as a link of a given
// bandwidth would: emulates a slower data-center network over loopback.
#ifndef PJRTX_RUNTIME_COLLECTIVES_RATE_LIMITED_TRANSPORT_H_
#define PJRTX_RUNTIME_COLLECTIVES_RATE_LIMITED_TRANSPORT_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// Wraps `link`: a SendRecv that sends n bytes returns no earlier than
// n / bytes_per_second after it began (waiting, not spinning, so the time
// is free for compute that overlaps it). Receives are paced by their
// sender. Counters, ranks and operation headers are the link's.
class RateLimitedTransport : public Transport {
 public:
  RateLimitedTransport(std::unique_ptr<Transport> link,
                       double bytes_per_second);

  int rank() const override { return link_->rank(); }
  int size() const override { return link_->size(); }
  absl::Status SendRecv(int to, absl::Span<const uint8_t> send, int from,
                        absl::Span<uint8_t> recv, uint64_t tag,
                        Deadline deadline) override;
  absl::Status SendRecvStaged(int to, StagedMemory* send, int from,
                              StagedMemory* recv, uint64_t tag,
                              Deadline deadline) override;
  TransportCounters counters() const override { return link_->counters(); }
  void BeginOperation(const OperationHeader& header) override {
    link_->BeginOperation(header);
  }

 private:
  // Waits until `sent` bytes begun at `start` are due, or `deadline`.
  void Pace(std::chrono::steady_clock::time_point start, size_t sent,
            Deadline deadline) const;

  const std::unique_ptr<Transport> link_;
  const double bytes_per_second_;
};

// A factory whose transports are those of `make` limited to
// `bytes_per_second`; `make` itself when that is 0 or less.
TransportFactory RateLimited(TransportFactory make, double bytes_per_second);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_RATE_LIMITED_TRANSPORT_H_
