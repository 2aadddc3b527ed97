// Where the runs of one launch meet for the collectives inside a program.
//
// A launch is one program run on every device of its device assignment
// (or several programs sharing a launch id, MPMD). When a run reaches a
// collective it deposits what it contributes under a key that every
// participant computes alike, and later takes the contributions it needs.
// Runs of this process meet in memory; a participant in another process
// is reached through the job's key-value store (its contribution published
// under the same key), so collectives inside programs work across
// processes with no further setup.
#ifndef PJRTX_RUNTIME_CORE_BASE_LAUNCH_RENDEZVOUS_H_
#define PJRTX_RUNTIME_CORE_BASE_LAUNCH_RENDEZVOUS_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/core/base/key_value_store.h"

namespace pjrtx {

// Thread-safe. Owned by the client; outlives every run.
class LaunchRendezvous {
 public:
  using Payload = std::shared_ptr<const std::string>;

  // `store` (may be null: then every participant must be local) reaches
  // other processes. `timeout`: how long a run waits for a contribution
  // before its collective fails with DEADLINE_EXCEEDED.
  LaunchRendezvous(KeyValueStore* store, std::chrono::milliseconds timeout)
      : store_(store), timeout_(timeout) {}

  // How many runs with `launch_id` device `device_id` started before this
  // one. Every participant numbers its runs alike, so the number tells
  // apart the launches of an id used more than once.
  int64_t NextOrdinal(int64_t device_id, int64_t launch_id);

  struct Exchange {
    std::string key;   // Same on every participant; unique per launch.
    int64_t self = 0;  // Contributor id (global device id).
    Payload payload;   // May be null: contributes nothing.
    // Contributor ids whose payloads the caller wants, in order.
    std::vector<int64_t> sources;
    // Sources in other processes (read from the key-value store).
    std::vector<bool> source_is_remote;
    // Participants in this process, the caller included: the exchange is
    // forgotten once all of them have finished.
    int local_participants = 1;
    // Whether some participant is in another process: the payload is then
    // also published to the key-value store.
    bool publish = false;
    // Names the exchange in errors, e.g. "all_reduce over devices 0, 1".
    std::string description;
  };

  // Deposits `exchange.payload` without waiting. Errors: publishing failed.
  absl::Status Start(const Exchange& exchange);

  // Waits for the wanted payloads (in `exchange.sources` order) and marks
  // the caller finished. DEADLINE_EXCEEDED naming the missing participants
  // when they do not arrive within the timeout.
  absl::StatusOr<std::vector<Payload>> Finish(const Exchange& exchange);

  // Marks the caller finished without waiting: it gave up on the exchange
  // (its run failed before needing the results).
  void Withdraw(const Exchange& exchange);

 private:
  struct Entry {
    std::map<int64_t, Payload> deposits;
    int finished = 0;
  };
  static std::string StoreKey(const std::string& key, int64_t contributor);

  KeyValueStore* const store_;
  const std::chrono::milliseconds timeout_;
  std::mutex mu_;
  std::condition_variable deposited_;
  std::map<std::string, Entry> entries_;  // Guarded by mu_.
  // (device, launch id) -> runs started; guarded by mu_.
  std::map<std::pair<int64_t, int64_t>, int64_t> ordinals_;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_LAUNCH_RENDEZVOUS_H_
