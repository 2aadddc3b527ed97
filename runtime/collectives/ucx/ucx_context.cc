#include "runtime/collectives/ucx/ucx_context.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pjrtx::collectives {
namespace {

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
  absl::StatusOr<ucp_context_h> context = InitContext(options);
  if (!context.ok()) return context.status();

  ucp_worker_params_t worker_params = {};
  worker_params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  // Only the progress thread calls UCP once it runs, but the worker is
  // created here, on another thread: SERIALIZED allows exactly that.
  worker_params.thread_mode = UCS_THREAD_MODE_SERIALIZED;
  ucp_worker_h worker = nullptr;
  ucs_status_t status = ucp_worker_create(*context, &worker_params, &worker);
  if (status != UCS_OK) {
    ucp_cleanup(*context);
    return UcsError("ucp_worker_create", status);
  }
  auto fail = [&](absl::Status error) {
    ucp_worker_destroy(worker);
    ucp_cleanup(*context);
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
  const int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd < 0) {
    close(wake_fd);
    return fail(ErrnoError("epoll_create1"));
  }
  for (int fd : {worker_fd, wake_fd}) {
    epoll_event event = {};
    event.events = EPOLLIN;
    event.data.fd = fd;
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) {
      absl::Status error = ErrnoError("epoll_ctl");
      close(epoll_fd);
      close(wake_fd);
      return fail(error);
    }
  }
  return std::shared_ptr<UcxContext>(
      new UcxContext(*context, worker, worker_fd, epoll_fd, wake_fd,
                     std::move(worker_address), options.spin));
}

UcxContext::UcxContext(ucp_context_h context, ucp_worker_h worker,
                       int worker_fd, int epoll_fd, int wake_fd,
                       std::string worker_address,
                       std::chrono::microseconds spin)
    : context_(context),
      worker_(worker),
      worker_fd_(worker_fd),
      epoll_fd_(epoll_fd),
      wake_fd_(wake_fd),
      worker_address_(std::move(worker_address)),
      spin_(spin),
      thread_([this] { ProgressLoop(); }) {}

UcxContext::~UcxContext() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  queued_.fetch_add(1);
  const uint64_t one = 1;
  (void)!write(wake_fd_, &one, sizeof(one));
  thread_.join();
  close(epoll_fd_);
  close(wake_fd_);
  ucp_worker_destroy(worker_);
  ucp_cleanup(context_);
}

void UcxContext::Post(std::function<void(ucp_worker_h)> work) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(work));
  }
  queued_.fetch_add(1);
  const uint64_t one = 1;
  // Cannot fail short of a counter overflow; a lost wake-up would only
  // delay the work until the next worker event.
  (void)!write(wake_fd_, &one, sizeof(one));
}

void UcxContext::Run(std::function<void(ucp_worker_h)> work) {
  std::mutex mu;
  std::condition_variable done_cv;
  bool done = false;
  Post([&](ucp_worker_h worker) {
    work(worker);
    std::lock_guard<std::mutex> lock(mu);
    done = true;
    done_cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  done_cv.wait(lock, [&] { return done; });
}

bool UcxContext::RunQueued() {
  while (true) {
    std::function<void(ucp_worker_h)> work;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (queue_.empty()) return !stopping_;
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    queued_.fetch_sub(1);
    work(worker_);
  }
}

void UcxContext::ProgressLoop() {
  using Clock = std::chrono::steady_clock;
  while (true) {
    if (!RunQueued()) return;
    Clock::time_point spin_until = Clock::now() + spin_;
    while (queued_.load(std::memory_order_relaxed) == 0) {
      if (ucp_worker_progress(worker_) != 0) {
        spin_until = Clock::now() + spin_;
      } else if (Clock::now() >= spin_until) {
        break;
      }
    }
    if (queued_.load(std::memory_order_relaxed) != 0) continue;
    // BUSY means events arrived since the last progress call: poll again
    // rather than sleep past them.
    if (ucp_worker_arm(worker_) == UCS_ERR_BUSY) continue;
    epoll_event events[2];
    const int ready = epoll_wait(epoll_fd_, events, 2, -1);
    for (int i = 0; i < ready; ++i) {
      if (events[i].data.fd == wake_fd_) {
        uint64_t count = 0;
        (void)!read(wake_fd_, &count, sizeof(count));
      }
    }
  }
}

}  // namespace pjrtx::collectives
