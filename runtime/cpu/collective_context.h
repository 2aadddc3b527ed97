// What the interpreter needs from its host to run collective instructions:
// the running process's place in the launch, and a way to exchange bytes
// with the other processes of the launch.
#ifndef PJRTX_RUNTIME_CPU_COLLECTIVE_CONTEXT_H_
#define PJRTX_RUNTIME_CPU_COLLECTIVE_CONTEXT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pjrtx::cpu {

// An exchange in flight: started (the caller's contribution deposited),
// not yet finished. Finish exactly once.
class PendingExchange {
 public:
  using Payload = std::shared_ptr<const std::string>;
  virtual ~PendingExchange() = default;
  // Waits for the payloads of the sources the exchange was started with,
  // in that order.
  virtual absl::StatusOr<std::vector<Payload>> Finish() = 0;
};

// Processes are numbered row-major over (replica, partition):
// replica * num_partitions + partition.
class CollectiveContext {
 public:
  virtual ~CollectiveContext() = default;

  virtual int64_t process() const = 0;
  virtual int64_t num_replicas() const = 0;
  virtual int64_t num_partitions() const = 0;

  // Starts the exchange `key` (computed alike by every participant) among
  // `participants` (processes, the caller included): deposits `payload`
  // (null: nothing) and asks for the payloads of `sources`. `kind` names
  // the collective in errors ("all_reduce").
  virtual absl::StatusOr<std::unique_ptr<PendingExchange>> Start(
      const std::string& key, const char* kind,
      absl::Span<const int64_t> participants, PendingExchange::Payload payload,
      absl::Span<const int64_t> sources) = 0;

  // For send/recv, whose peer the caller does not know: the sender
  // deposits `payload` under `key`; the receiver (payload null) gets what
  // was sent. Each key is sent once and received once.
  virtual absl::StatusOr<std::unique_ptr<PendingExchange>> StartChannel(
      const std::string& key, const char* kind, bool is_sender,
      PendingExchange::Payload payload) = 0;
};

// Numbers a run's exchanges, so that the n-th collective over a group (or
// the n-th use of a channel) meets the n-th of every other participant.
class CollectiveSequence {
 public:
  std::string NextKey(const std::string& base) {
    return base + "#" + std::to_string(counts_[base]++);
  }
  void Reset() { counts_.clear(); }

 private:
  std::map<std::string, int64_t> counts_;
};

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_COLLECTIVE_CONTEXT_H_
