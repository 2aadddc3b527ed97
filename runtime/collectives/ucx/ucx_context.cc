#include "runtime/collectives/ucx/ucx_context.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "runtime/core/base/thread_pool.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {
namespace {

using Clock = std::chrono::steady_clock;

absl::Status UcsError(absl::string_view call, ucs_status_t status) {
  return absl::UnavailableError(
      absl::StrCat(call, " failed: ", ucs_status_string(status)));
}

absl::Status ErrnoError(absl::string_view call) {
  return absl::UnavailableError(
      absl::StrCat(call, " failed: ", strerror(errno)));
}

// Reads the default configuration (which honours UCX_* variables the user
// set) and overrides TLS in this copy only, so that other UCX users of the
// process keep theirs.
absl::StatusOr<ucp_context_h> InitContext(const UcxContext::Options& options) {
  ucp_config_t* config = nullptr;
  ucs_status_t status = ucp_config_read(nullptr, nullptr, &config);
  if (status != UCS_OK) return UcsError("ucp_config_read", status);
  status = ucp_config_modify(config, "TLS", options.transports.c_str());
  if (status != UCS_OK) {
    ucp_config_release(config);
    return absl::InvalidArgumentError(
        absl::StrCat("UCX rejected TLS=\"", options.transports,
                     "\": ", ucs_status_string(status)));
  }
  for (const auto& [name, value] : options.settings) {
    if (std::getenv(absl::StrCat("UCX_", name).c_str()) != nullptr) continue;
    // UCP hands keys it does not know to the transports, which know them
    // without their prefix ("TCP_SNDBUF" is tcp's "SNDBUF").
    const std::string key =
        absl::StartsWith(name, "TCP_") ? name.substr(4) : name;
    status = ucp_config_modify(config, key.c_str(), value.c_str());
    if (status != UCS_OK) {
      ucp_config_release(config);
      return absl::InvalidArgumentError(
          absl::StrCat("UCX rejected ", name, "=\"", value,
                       "\": ", ucs_status_string(status)));
    }
  }
  ucp_params_t params = {};
  params.field_mask =
      UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED;
  // WAKEUP for the event descriptor the progress thread sleeps on.
  params.features = UCP_FEATURE_TAG | UCP_FEATURE_WAKEUP;
  params.mt_workers_shared = 0;
  ucp_context_h context = nullptr;
  status = ucp_init(&params, config, &context);
  ucp_config_release(config);
  if (status != UCS_OK) {
    return UcsError(
        absl::StrCat("ucp_init with TLS=\"", options.transports, "\""), status);
  }
  return context;
}

}  // namespace

absl::StatusOr<std::shared_ptr<UcxContext>> UcxContext::Create(
    const Options& options) {
  PJRTX_ASSIGN_OR_RETURN(ucp_context_h context, InitContext(options));

  ucp_worker_params_t worker_params = {};
  worker_params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  // Only the progress thread calls UCP once it runs, but the worker is
  // created here, on another thread: SERIALIZED allows exactly that.
  worker_params.thread_mode = UCS_THREAD_MODE_SERIALIZED;
  ucp_worker_h worker = nullptr;
  ucs_status_t status = ucp_worker_create(context, &worker_params, &worker);
  if (status != UCS_OK) {
    ucp_cleanup(context);
    return UcsError("ucp_worker_create", status);
  }
  auto fail = [&](absl::Status error) {
    ucp_worker_destroy(worker);
    ucp_cleanup(context);
    return error;
  };

  ucp_address_t* address = nullptr;
  size_t address_length = 0;
  status = ucp_worker_get_address(worker, &address, &address_length);
  if (status != UCS_OK) return fail(UcsError("ucp_worker_get_address", status));
  std::string worker_address(reinterpret_cast<const char*>(address),
                             address_length);
  ucp_worker_release_address(worker, address);

  int worker_fd = -1;
  status = ucp_worker_get_efd(worker, &worker_fd);
  if (status != UCS_OK) return fail(UcsError("ucp_worker_get_efd", status));

  const int wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd < 0) return fail(ErrnoError("eventfd"));
  // Two epoll sets over the same descriptors: one for the progress thread,
  // one for the thread waiting inline, because a thread asleep in
  // epoll_wait takes the wake-up of its set exclusively and the other would
  // sleep through the event.
  int epoll_fds[2] = {-1, -1};
  for (int& epoll_fd : epoll_fds) {
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    absl::Status error;
    if (epoll_fd < 0) error = ErrnoError("epoll_create1");
    for (int fd : {worker_fd, wake_fd}) {
      epoll_event event = {};
      event.events = EPOLLIN;
      event.data.fd = fd;
      if (error.ok() && epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) {
        error = ErrnoError("epoll_ctl");
      }
    }
    if (!error.ok()) {
      for (int opened : epoll_fds) {
        if (opened >= 0) close(opened);
      }
      close(wake_fd);
      return fail(error);
    }
  }
  return std::shared_ptr<UcxContext>(
      new UcxContext(context, worker, worker_fd, epoll_fds[0], epoll_fds[1],
                     wake_fd, std::move(worker_address), options.spin));
}

UcxContext::UcxContext(ucp_context_h context, ucp_worker_h worker,
                       int worker_fd, int progress_epoll_fd,
                       int inline_epoll_fd, int wake_fd,
                       std::string worker_address,
                       std::chrono::microseconds spin)
    : context_(context),
      worker_(worker),
      worker_fd_(worker_fd),
      progress_epoll_fd_(progress_epoll_fd),
      inline_epoll_fd_(inline_epoll_fd),
      wake_fd_(wake_fd),
      worker_address_(std::move(worker_address)),
      spin_(spin),
      thread_([this] { ProgressLoop(); }) {}

UcxContext::~UcxContext() {
  {
    std::lock_guard<std::mutex> lock(wait_mu_);
    stopping_ = true;
  }
  progress_cv_.notify_all();
  Wake();
  thread_.join();
  close(progress_epoll_fd_);
  close(inline_epoll_fd_);
  close(wake_fd_);
  ucp_worker_destroy(worker_);
  ucp_cleanup(context_);
}

absl::StatusOr<uint16_t> UcxContext::AllocateTagSpace() {
  std::lock_guard<std::mutex> lock(spaces_mu_);
  for (size_t i = 0; i < tag_spaces_.size(); ++i) {
    const size_t space = (next_tag_space_ + i) % tag_spaces_.size();
    if (!tag_spaces_[space]) {
      tag_spaces_[space] = true;
      // Not reused soon: a stale message of a destroyed transport must not
      // match its successor's receives.
      next_tag_space_ = space + 1;
      return static_cast<uint16_t>(space);
    }
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      "all ", tag_spaces_.size(),
      " UCX tag spaces of this process are in use; destroy communicators "
      "that are no longer needed"));
}

void UcxContext::ReleaseTagSpace(uint16_t space) {
  std::lock_guard<std::mutex> lock(spaces_mu_);
  tag_spaces_[space] = false;
}

void UcxContext::Wake() {
  const uint64_t one = 1;
  // Cannot fail short of a counter overflow; a lost wake-up would only
  // delay the work until the next worker event or poll timeout.
  (void)!write(wake_fd_, &one, sizeof(one));
}

void UcxContext::Post(std::function<void(ucp_worker_h)> work) {
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    queue_.push_back(std::move(work));
  }
  queued_.fetch_add(1);
  Wake();
}

void UcxContext::Run(std::function<void(ucp_worker_h)> work) {
  std::atomic<bool> ran{false};
  Await([&] { return ran.load(std::memory_order_acquire); },
        Clock::time_point::max(),
        [&](ucp_worker_h worker) {
          work(worker);
          ran.store(true, std::memory_order_release);
          NotifyWaiters();
        });
}

void UcxContext::NotifyWaiters() {
  // Taking the lock orders this after a waiter's check of its condition, so
  // the notification cannot fall between that check and its wait.
  { std::lock_guard<std::mutex> lock(wait_mu_); }
  wait_cv_.notify_all();
}

bool UcxContext::Await(const std::function<bool()>& done,
                       Clock::time_point deadline,
                       std::function<void(ucp_worker_h)> first) {
  if (!first && done()) return true;
  // Counted before anything is posted, so that the progress thread, woken
  // by the post, leaves the worker to this thread.
  inline_waiters_.fetch_add(1);
  std::unique_lock<std::mutex> lock(wait_mu_);
  if (first && inline_driver_) {
    // Another thread drives: it runs `first` in turn.
    lock.unlock();
    Post(std::move(first));
    first = nullptr;
    lock.lock();
  }
  while (!done()) {
    if (!inline_driver_) {
      inline_driver_ = true;
      lock.unlock();
      {
        // The progress thread holds the worker only while it processes
        // events, and lets go as soon as it sees an inline waiter.
        std::lock_guard<std::mutex> worker_lock(worker_mu_);
        if (first) {
          // Run here rather than posted: no wake-up, no queue.
          RunQueued();
          first(worker_);
          first = nullptr;
        }
        DriveUntil(done, deadline);
      }
      lock.lock();
      inline_driver_ = false;
      // Hands the worker to another waiter whose messages are not in yet.
      wait_cv_.notify_all();
      if (Clock::now() >= deadline) break;
      continue;
    }
    if (deadline == Clock::time_point::max()) {
      wait_cv_.wait(lock);
    } else if (wait_cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
      break;
    }
  }
  const bool result = done();
  inline_waiters_.fetch_sub(1);
  return result;
}

void UcxContext::RunQueued() {
  while (queued_.load(std::memory_order_relaxed) != 0) {
    std::function<void(ucp_worker_h)> work;
    {
      std::lock_guard<std::mutex> lock(queue_mu_);
      if (queue_.empty()) return;
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    queued_.fetch_sub(1);
    work(worker_);
  }
}

namespace {

// The longest a thread driving the worker sleeps without progressing it.
constexpr std::chrono::milliseconds kInlinePoll(5);

}  // namespace

void UcxContext::DriveUntil(const std::function<bool()>& done,
                            Clock::time_point deadline) {
  Clock::time_point spin_until = Clock::now() + spin_;
  while (true) {
    RunQueued();
    if (done()) return;
    if (ucp_worker_progress(worker_) != 0) {
      spin_until = Clock::now() + spin_;
      continue;
    }
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return;
    // Spinning only pays while CPUs would otherwise idle: while programs
    // run or wait for a thread (emulated chips computing while a
    // collective is in flight), sleep on the descriptor and leave them the
    // CPU. On 2 cores this took the multislice demo's step with overlap
    // from 0.87x to 0.79x of the step without (median of 6 pairs).
    if (queued_.load(std::memory_order_relaxed) != 0 ||
        (now < spin_until && !ThreadPool::AnyPoolIsBusy())) {
      continue;
    }
    // BUSY means events arrived since the last progress call: poll again
    // rather than sleep past them.
    if (ucp_worker_arm(worker_) == UCS_ERR_BUSY) continue;
    // Bounded like the progress thread's sleep: the descriptor does not
    // report everything the worker has to do (a send UCX could not hand
    // to the socket at once waits for progress, not for an event), and
    // every thread of the process may be waiting on this one, so an
    // unbounded sleep stalled whole collectives until their deadline.
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - now);
    const int timeout_ms =
        static_cast<int>(std::min<int64_t>(left.count(), kInlinePoll.count()));
    // Spins again only when woken: a wait that outlasts the poll would
    // otherwise spin after every poll, a sixth of a core while a rank
    // waits for a slow peer (and taken from the processes that run).
    if (SleepOn(inline_epoll_fd_, timeout_ms)) {
      spin_until = Clock::now() + spin_;
    }
  }
}

bool UcxContext::SleepOn(int epoll_fd, int timeout_ms) {
  epoll_event events[2];
  const int ready = epoll_wait(epoll_fd, events, 2, timeout_ms);
  for (int i = 0; i < ready; ++i) {
    if (events[i].data.fd == wake_fd_) {
      uint64_t count = 0;
      (void)!read(wake_fd_, &count, sizeof(count));
    }
  }
  return ready > 0;
}

void UcxContext::ProgressLoop() {
  // Bounds how long the worker goes unattended when an inline waiter left
  // events behind without arming the worker, and how long the thread stays
  // parked after the last inline waiter is gone (it is not woken for that:
  // a wake-up per operation would cost the waiters' cores).
  constexpr auto kBackgroundPoll = std::chrono::milliseconds(5);
  while (true) {
    {
      std::unique_lock<std::mutex> lock(wait_mu_);
      if (stopping_) break;
      if (inline_waiters_.load() > 0) {
        progress_cv_.wait_for(lock, kBackgroundPoll);
        continue;
      }
    }
    {
      std::lock_guard<std::mutex> worker_lock(worker_mu_);
      RunQueued();
      while (inline_waiters_.load(std::memory_order_relaxed) == 0 &&
             ucp_worker_progress(worker_) != 0) {
      }
      if (inline_waiters_.load(std::memory_order_relaxed) != 0 ||
          queued_.load(std::memory_order_relaxed) != 0) {
        continue;
      }
      if (ucp_worker_arm(worker_) == UCS_ERR_BUSY) continue;
    }
    SleepOn(progress_epoll_fd_, static_cast<int>(kBackgroundPoll.count()));
  }
  // Everything posted before destruction runs.
  std::lock_guard<std::mutex> worker_lock(worker_mu_);
  RunQueued();
}

}  // namespace pjrtx::collectives
