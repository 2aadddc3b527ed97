// The collectives of a program run, met through the client's launch
// rendezvous: the CPU engine's CollectiveContext for one run on one device
// (the TPU emulator's chips, and the CUDA plugin's host steps).
#ifndef PJRTX_RUNTIME_CPU_LAUNCH_COLLECTIVES_H_
#define PJRTX_RUNTIME_CPU_LAUNCH_COLLECTIVES_H_

#include <memory>
#include <string>

#include "runtime/core/base/driver.h"
#include "runtime/cpu/collective_context.h"

namespace pjrtx::cpu {

// Lives for one run; `run` (and the launch context it points to) must
// outlive it.
class LaunchCollectives : public CollectiveContext {
 public:
  explicit LaunchCollectives(const RunContext& run)
      : run_(run), launch_(*run.launch) {}

  int64_t process() const override { return launch_.process_index; }
  int64_t num_replicas() const override { return launch_.num_replicas; }
  int64_t num_partitions() const override { return launch_.num_partitions; }

  absl::StatusOr<std::unique_ptr<PendingExchange>> Start(
      const std::string& key, const char* kind,
      absl::Span<const int64_t> participants, PendingExchange::Payload payload,
      absl::Span<const int64_t> sources) override;

  absl::StatusOr<std::unique_ptr<PendingExchange>> StartChannel(
      const std::string& key, const char* kind, bool is_sender,
      PendingExchange::Payload payload) override;

 private:
  absl::StatusOr<std::unique_ptr<PendingExchange>> Begin(
      LaunchRendezvous::Exchange exchange, const char* kind);
  // Unique to this launch (its id and the run's ordinal) and `key`.
  std::string LaunchKey(const std::string& key) const;

  const RunContext& run_;
  const LaunchContext& launch_;
};

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_LAUNCH_COLLECTIVES_H_
