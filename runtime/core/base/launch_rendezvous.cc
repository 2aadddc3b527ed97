#include "runtime/core/base/launch_rendezvous.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/core/base/thread_pool.h"

namespace pjrtx {

int64_t LaunchRendezvous::NextOrdinal(int64_t device_id, int64_t launch_id) {
  std::lock_guard<std::mutex> lock(mu_);
  return ordinals_[{device_id, launch_id}]++;
}

std::string LaunchRendezvous::StoreKey(const std::string& key,
                                       int64_t contributor) {
  return absl::StrCat("pjrtx/launch/", key, "/", contributor);
}

absl::Status LaunchRendezvous::Start(const Exchange& exchange) {
  if (exchange.publish && exchange.payload != nullptr) {
    if (store_ == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat(
          exchange.description,
          " has participants in other processes, and the client has no "
          "key-value store to reach them (create it with key-value "
          "callbacks)"));
    }
    absl::Status put =
        store_->Put(StoreKey(exchange.key, exchange.self), *exchange.payload);
    if (!put.ok()) {
      return absl::Status(put.code(),
                          absl::StrCat(exchange.description,
                                       ": publishing to the other processes "
                                       "failed: ",
                                       put.message()));
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    Entry& entry = entries_[exchange.key];
    entry.deposits[exchange.self] = exchange.payload;
  }
  deposited_.notify_all();
  return absl::OkStatus();
}

absl::StatusOr<std::vector<LaunchRendezvous::Payload>> LaunchRendezvous::Finish(
    const Exchange& exchange) {
  // The programs this one waits for may need this thread's pool.
  ThreadPool::ScopedBlocking blocking;
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  std::vector<Payload> payloads(exchange.sources.size());
  absl::Status status;
  // Remote contributions first, without the lock.
  for (size_t i = 0; i < exchange.sources.size() && status.ok(); ++i) {
    if (i >= exchange.source_is_remote.size() ||
        !exchange.source_is_remote[i]) {
      continue;
    }
    if (store_ == nullptr) {
      status = absl::FailedPreconditionError(absl::StrCat(
          exchange.description, " needs device ", exchange.sources[i],
          " of another process, and the client has no "
          "key-value store to reach it"));
      break;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    absl::StatusOr<std::string> value =
        store_->Get(StoreKey(exchange.key, exchange.sources[i]),
                    std::max<int64_t>(1, left.count()));
    if (!value.ok()) {
      status = absl::Status(
          value.status().code(),
          absl::StrCat(exchange.description, ": device ", exchange.sources[i],
                       " (another process) sent nothing within ",
                       timeout_.count(), " ms: ", value.status().message()));
      break;
    }
    payloads[i] = std::make_shared<const std::string>(*std::move(value));
  }
  std::unique_lock<std::mutex> lock(mu_);
  Entry& entry = entries_[exchange.key];
  if (status.ok()) {
    auto missing = [&] {
      std::vector<int64_t> ids;
      for (size_t i = 0; i < exchange.sources.size(); ++i) {
        if (payloads[i] == nullptr &&
            !entry.deposits.count(exchange.sources[i])) {
          ids.push_back(exchange.sources[i]);
        }
      }
      return ids;
    };
    if (!deposited_.wait_until(lock, deadline,
                               [&] { return missing().empty(); })) {
      status = absl::DeadlineExceededError(absl::StrCat(
          exchange.description, ": device(s) ", absl::StrJoin(missing(), ", "),
          " did not reach it within ", timeout_.count(),
          " ms (a run that never gets there, or programs that run "
          "collectives in different orders)"));
    } else {
      for (size_t i = 0; i < exchange.sources.size(); ++i) {
        if (payloads[i] == nullptr) {
          payloads[i] = entry.deposits[exchange.sources[i]];
        }
      }
    }
  }
  if (++entry.finished >= exchange.local_participants) {
    entries_.erase(exchange.key);
  }
  if (!status.ok()) return status;
  return payloads;
}

void LaunchRendezvous::Withdraw(const Exchange& exchange) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& entry = entries_[exchange.key];
  if (++entry.finished >= exchange.local_participants) {
    entries_.erase(exchange.key);
  }
}

}  // namespace pjrtx
