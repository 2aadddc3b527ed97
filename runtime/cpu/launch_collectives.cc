#include "runtime/cpu/launch_collectives.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/core/base/trace_recorder.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

class RendezvousExchange : public PendingExchange {
 public:
  RendezvousExchange(LaunchRendezvous& rendezvous,
                     LaunchRendezvous::Exchange exchange, int64_t device_id,
                     const char* kind)
      : rendezvous_(rendezvous),
        exchange_(std::move(exchange)),
        device_id_(device_id),
        kind_(kind),
        start_(std::chrono::steady_clock::now()) {}

  ~RendezvousExchange() override {
    if (!finished_) rendezvous_.Withdraw(exchange_);
  }

  absl::StatusOr<std::vector<Payload>> Finish() override {
    finished_ = true;
    absl::StatusOr<std::vector<Payload>> payloads =
        rendezvous_.Finish(exchange_);
    // From start to finish: the time the exchange was in flight, on the
    // chip's track beside the compute that ran meanwhile.
    if (TraceRecorder* recorder = TraceRecorder::Get()) {
      recorder->Record(device_id_, "collective", kind_, start_,
                       std::chrono::steady_clock::now());
    }
    return payloads;
  }

 private:
  LaunchRendezvous& rendezvous_;
  const LaunchRendezvous::Exchange exchange_;
  const int64_t device_id_;
  const char* const kind_;
  const std::chrono::steady_clock::time_point start_;
  bool finished_ = false;
};

// Contributor id of a channel's sender: send/recv name no peer.
constexpr int64_t kChannelSender = -1;

}  // namespace

std::string LaunchCollectives::LaunchKey(const std::string& key) const {
  return absl::StrCat("launch ", launch_.launch_id, "/", launch_.ordinal, "/",
                      key);
}

absl::StatusOr<std::unique_ptr<PendingExchange>> LaunchCollectives::Begin(
    LaunchRendezvous::Exchange exchange, const char* kind) {
  PJRTX_RETURN_IF_ERROR(launch_.rendezvous->Start(exchange));
  return std::make_unique<RendezvousExchange>(
      *launch_.rendezvous, std::move(exchange), run_.global_id, kind);
}

absl::StatusOr<std::unique_ptr<PendingExchange>> LaunchCollectives::Start(
    const std::string& key, const char* kind,
    absl::Span<const int64_t> participants, PendingExchange::Payload payload,
    absl::Span<const int64_t> sources) {
  const std::vector<int64_t>& devices = *launch_.process_devices;
  const std::vector<bool>& remote = *launch_.process_is_remote;
  LaunchRendezvous::Exchange exchange;
  exchange.key = LaunchKey(key);
  exchange.self = run_.global_id;
  exchange.payload = std::move(payload);
  exchange.local_participants = 0;
  std::vector<int64_t> ids;
  for (int64_t p : participants) {
    ids.push_back(devices[p]);
    if (remote[p]) {
      exchange.publish = true;
    } else {
      ++exchange.local_participants;
    }
  }
  for (int64_t p : sources) {
    exchange.sources.push_back(devices[p]);
    exchange.source_is_remote.push_back(remote[p]);
  }
  exchange.description =
      absl::StrCat(kind, " over devices ", absl::StrJoin(ids, ", "));
  return Begin(std::move(exchange), kind);
}

absl::StatusOr<std::unique_ptr<PendingExchange>>
LaunchCollectives::StartChannel(const std::string& key, const char* kind,
                                bool is_sender,
                                PendingExchange::Payload payload) {
  const std::vector<bool>& remote = *launch_.process_is_remote;
  // The peer is unknown, so a launch spanning processes sends every
  // channel through the key-value store; one in a process, in memory.
  const bool spans_processes =
      std::find(remote.begin(), remote.end(), true) != remote.end();
  LaunchRendezvous::Exchange exchange;
  exchange.key = LaunchKey(key);
  exchange.local_participants = spans_processes ? 1 : 2;
  exchange.publish = spans_processes;
  if (is_sender) {
    exchange.self = kChannelSender;
    exchange.payload = std::move(payload);
  } else {
    exchange.self = run_.global_id;
    exchange.sources = {kChannelSender};
    exchange.source_is_remote = {spans_processes};
  }
  exchange.description =
      absl::StrCat(kind, " on device ", run_.global_id, " over ", key);
  return Begin(std::move(exchange), kind);
}

}  // namespace pjrtx::cpu
