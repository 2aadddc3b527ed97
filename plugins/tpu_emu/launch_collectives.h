// The collectives of a program run, met through the client's launch
// rendezvous: the CPU engine's CollectiveContext for one run on one chip.
#ifndef PJRTX_PLUGINS_TPU_EMU_LAUNCH_COLLECTIVES_H_
#define PJRTX_PLUGINS_TPU_EMU_LAUNCH_COLLECTIVES_H_

#include <memory>
#include <string>

#include "runtime/core/base/driver.h"
#include "runtime/cpu/collective_context.h"

namespace tpu_emu {

// Lives for one run; `run` (and the launch context it points to) must
// outlive it.
class LaunchCollectives : public pjrtx::cpu::CollectiveContext {
 public:
  explicit LaunchCollectives(const pjrtx::RunContext& run)
      : run_(run), launch_(*run.launch) {}

  int64_t process() const override { return launch_.process_index; }
  int64_t num_replicas() const override { return launch_.num_replicas; }
  int64_t num_partitions() const override { return launch_.num_partitions; }

  absl::StatusOr<std::unique_ptr<pjrtx::cpu::PendingExchange>> Start(
      const std::string& key, const char* kind,
      absl::Span<const int64_t> participants,
      pjrtx::cpu::PendingExchange::Payload payload,
      absl::Span<const int64_t> sources) override;

  absl::StatusOr<std::unique_ptr<pjrtx::cpu::PendingExchange>> StartChannel(
      const std::string& key, const char* kind, bool is_sender,
      pjrtx::cpu::PendingExchange::Payload payload) override;

 private:
  absl::StatusOr<std::unique_ptr<pjrtx::cpu::PendingExchange>> Begin(
      pjrtx::LaunchRendezvous::Exchange exchange, const char* kind);
  // Unique to this launch (its id and the run's ordinal) and `key`.
  std::string LaunchKey(const std::string& key) const;

  const pjrtx::RunContext& run_;
  const pjrtx::LaunchContext& launch_;
};

}  // namespace tpu_emu

#endif  // PJRTX_PLUGINS_TPU_EMU_LAUNCH_COLLECTIVES_H_
