#include "plugins/cuda/streams/cuda_queue.h"

#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include "plugins/cuda/driver_api/cuda_status.h"

namespace cuda_plugin {

CudaQueue::CudaQueue(Gpu& gpu, CompletionThread& completions,
                     IssuedEvents& issued, int64_t lane)
    : gpu_(gpu),
      completions_(completions),
      issued_(issued),
      lane_(lane),
      tail_(gpu.stream(StreamKind::kCompute)),
      last_done_(pjrtx::Event::MakeReady()),
      thread_([this] { IssueLoop(); }) {}

CudaQueue::~CudaQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
  WaitIdle();
}

pjrtx::EventRef CudaQueue::Enqueue(absl::Span<const pjrtx::EventRef> wait_for,
                                   Task task) {
  Item item{std::vector<pjrtx::EventRef>(wait_for.begin(), wait_for.end()),
            std::move(task), pjrtx::Event::Create()};
  pjrtx::EventRef done = item.done;
  issued_.Register(done.get(), lane_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    last_done_ = done;
    items_.push_back(std::move(item));
  }
  changed_.notify_one();
  return done;
}

void CudaQueue::WaitIdle() {
  pjrtx::EventRef last;
  {
    std::lock_guard<std::mutex> lock(mu_);
    last = last_done_;
  }
  // Tasks finish in order, so the last one finishing means all did.
  last->Await().IgnoreError();
}

void CudaQueue::IssueLoop() {
  const absl::Status current = gpu_.MakeCurrent();
  for (;;) {
    Item item;
    if (completions_.wait() == CompletionWait::kSpin) AwaitWorkSpinning();
    {
      std::unique_lock<std::mutex> lock(mu_);
      changed_.wait(lock, [this] { return stopping_ || !items_.empty(); });
      if (items_.empty()) return;
      item = std::move(items_.front());
      items_.pop_front();
    }
    if (!current.ok()) {
      Fail(std::move(item), current);
      continue;
    }
    Issue(std::move(item));
  }
}

void CudaQueue::AwaitWorkSpinning() {
  // Waking a sleeping thread costs tens of microseconds on some machines,
  // as much as a small kernel: a caller that awaits each step before
  // issuing the next finds this thread still polling.
  constexpr auto kSpinFor = std::chrono::milliseconds(5);
  const auto until = std::chrono::steady_clock::now() + kSpinFor;
  while (std::chrono::steady_clock::now() < until) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_ || !items_.empty()) return;
    }
    std::this_thread::yield();
  }
}

void CudaQueue::Fail(Item item, absl::Status status) {
  issued_.Remove(item.done.get());
  item.task = nullptr;
  FinishInOrder(item.done, pjrtx::Event::MakeReady(std::move(status)));
}

void CudaQueue::FinishInOrder(pjrtx::EventRef done, pjrtx::EventRef outcome) {
  auto finish = [done, outcome] {
    outcome->AndThen([done](const absl::Status& status) { done->Set(status); });
  };
  pjrtx::EventRef previous = std::move(previous_done_);
  previous_done_ = std::move(done);
  if (previous == nullptr) {
    finish();
  } else {
    previous->AndThen([finish](const absl::Status&) { finish(); });
  }
}

void CudaQueue::Issue(Item item) {
  absl::Status status;
  // Dependencies the GPU orders: their outcome is known only later, and
  // decides the task's.
  std::vector<pjrtx::EventRef> ordered;
  for (const pjrtx::EventRef& dependency : item.wait_for) {
    absl::StatusOr<IssuedEvents::Order> order =
        issued_.OrderAfter(dependency, lane_, tail_);
    if (!order.ok()) {
      status = order.status();
    } else if (*order == IssuedEvents::Order::kHostWait) {
      status = dependency->Await();
    } else if (dependency->IsReady()) {
      status = dependency->status();
    } else {
      ordered.push_back(dependency);
    }
    if (!status.ok()) break;
  }
  IssueScope scope(gpu_, tail_, completions_, lane_);
  if (status.ok()) status = std::move(item.task)();
  absl::StatusOr<CUstream> joined = scope.Join();
  if (!joined.ok()) {
    // The streams could not even be joined: the device is unusable, so
    // nothing the task issued will run either.
    Fail(std::move(item), status.ok() ? joined.status() : status);
    return;
  }
  tail_ = *joined;
  // The task's own outcome; `done` follows it and the GPU-ordered
  // dependencies (a failed dependency fails the task, as on a host queue),
  // and is set after the previous task's, so tasks finish in order (a
  // failed task does not fail the next: only its order counts).
  pjrtx::EventRef own = pjrtx::Event::Create();
  ordered.push_back(own);
  FinishInOrder(item.done, pjrtx::AfterAll(ordered));
  // Held so that the event's address cannot be reused by another task
  // before MarkIssued below, even if the task completes first.
  const pjrtx::EventRef key = item.done;
  CUevent end = nullptr;
  const absl::Status recorded = scope.OnCompletion(
      tail_,
      [this, item = std::move(item), status = std::move(status),
       own](absl::Status device) mutable {
        issued_.Remove(item.done.get());
        // Releases the task's allocations before anyone learns it is done,
        // so that a client waiting for its queues sees them freed.
        item.task = nullptr;
        own->Set(status.ok() ? device : status);
      },
      &end);
  // On a failure to record, the callback already ran with the error.
  if (recorded.ok()) issued_.MarkIssued(key.get(), end);
}

}  // namespace cuda_plugin
