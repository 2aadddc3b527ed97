#include "tests/plugins/cuda/fake_cuda/stream.h"

#include <atomic>
#include <utility>
#include <vector>

#include "tests/plugins/cuda/fake_cuda/config.h"
#include "tests/plugins/cuda/fake_cuda/entry_points.h"

namespace fake_cuda {
namespace {

// Destroyed streams whose workers may still be draining: cuStreamDestroy
// returns at once and the queued work still runs, as on a real device.
// Joined once finished, when the context goes, or at exit.
struct Retired {
  std::mutex mu;
  std::vector<std::shared_ptr<Stream>> streams;  // Guarded by mu.
};

Retired& RetiredStreams() {
  static Retired* retired = new Retired;
  return *retired;
}

std::vector<std::shared_ptr<Stream>> TakeRetired(
    const std::function<bool(Stream&)>& predicate) {
  Retired& retired = RetiredStreams();
  std::lock_guard<std::mutex> lock(retired.mu);
  std::vector<std::shared_ptr<Stream>> taken;
  for (auto it = retired.streams.begin(); it != retired.streams.end();) {
    if (predicate(**it)) {
      taken.push_back(std::move(*it));
      it = retired.streams.erase(it);
    } else {
      ++it;
    }
  }
  return taken;
}

std::vector<std::shared_ptr<Stream>> RetiredOf(Context* context) {
  Retired& retired = RetiredStreams();
  std::lock_guard<std::mutex> lock(retired.mu);
  std::vector<std::shared_ptr<Stream>> found;
  for (const auto& stream : retired.streams) {
    if (stream->context() == context) found.push_back(stream);
  }
  return found;
}

// Joins the destroyed streams that have finished their work.
void ReapRetired() {
  for (auto& stream : TakeRetired([](Stream& s) { return s.Finished(); })) {
    stream->Join();
  }
}

std::atomic<int> streams_created{0};

}  // namespace

HandleTable<Stream>& Streams() {
  static auto* streams = new HandleTable<Stream>;
  return *streams;
}

HandleTable<Event>& Events() {
  static auto* events = new HandleTable<Event>;
  return *events;
}

Stream::Stream(Context* context, unsigned flags, int index)
    : context_(context),
      flags_(flags),
      slow_(GetConfig().slow_ms > 0 &&
            (GetConfig().slow_stream < 0 || GetConfig().slow_stream == index)),
      random_(GetConfig().seed * 1000003 + static_cast<uint64_t>(index)) {
  worker_ = std::thread([this] { Work(); });
}

Stream::~Stream() {
  Retire();
  Join();
}

uint64_t Stream::Enqueue(Operation operation) {
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t ticket = ++enqueued_;
  if (!retired_) {
    queue_.push_back(std::move(operation));
    changed_.notify_all();
    return ticket;
  }
  // Only after process exit began: keep working, on the caller.
  lock.unlock();
  Run(operation);
  return ticket;
}

void Stream::Run(Operation& operation) {
  CUresult prior;
  {
    std::lock_guard<std::mutex> lock(mu_);
    prior = error_;
  }
  if (prior == CUDA_SUCCESS) prior = context_->sticky.load();
  const CUresult result = operation(prior);
  if (result != CUDA_SUCCESS && prior == CUDA_SUCCESS) {
    context_->SetSticky(result);
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (error_ == CUDA_SUCCESS) error_ = result;
  ++completed_;
  changed_.notify_all();
}

void Stream::Delay() {
  const Config& config = GetConfig();
  if (slow_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(config.slow_ms));
  }
  if (config.jitter_us > 0) {
    std::uniform_int_distribution<int> jitter(0, config.jitter_us);
    std::this_thread::sleep_for(std::chrono::microseconds(jitter(random_)));
  }
}

void Stream::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    changed_.wait(lock, [&] { return !queue_.empty() || retired_; });
    if (queue_.empty()) break;
    Operation operation = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    Delay();
    Run(operation);
    // Whatever the operation holds (a kernel's module, say) goes before
    // the lock is taken again.
    operation = nullptr;
    lock.lock();
  }
  finished_ = true;
  changed_.notify_all();
}

CUresult Stream::WaitFor(uint64_t ticket) {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [&] { return completed_ >= ticket; });
  return error_ != CUDA_SUCCESS ? error_ : context_->sticky.load();
}

CUresult Stream::Synchronize() {
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(mu_);
    ticket = enqueued_;
  }
  return WaitFor(ticket);
}

CUresult Stream::Query() {
  std::lock_guard<std::mutex> lock(mu_);
  if (error_ != CUDA_SUCCESS) return error_;
  if (CUresult sticky = context_->sticky.load(); sticky != CUDA_SUCCESS) {
    return sticky;
  }
  return completed_ == enqueued_ ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

void Stream::Retire() {
  std::lock_guard<std::mutex> lock(mu_);
  retired_ = true;
  changed_.notify_all();
}

bool Stream::Finished() {
  std::lock_guard<std::mutex> lock(mu_);
  return finished_;
}

void Stream::Join() {
  std::lock_guard<std::mutex> lock(join_mu_);
  if (worker_.joinable()) worker_.join();
}

void Recording::Complete(CUresult error) {
  std::lock_guard<std::mutex> lock(mu_);
  time_ = std::chrono::steady_clock::now();
  error_ = error;
  done_ = true;
  done_cv_.notify_all();
}

bool Recording::done() {
  std::lock_guard<std::mutex> lock(mu_);
  return done_;
}

CUresult Recording::Wait() {
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [&] { return done_; });
  return error_;
}

std::chrono::steady_clock::time_point Recording::time() {
  std::lock_guard<std::mutex> lock(mu_);
  return time_;
}

std::shared_ptr<Recording> Event::latest() {
  std::lock_guard<std::mutex> lock(mu_);
  return latest_;
}

void Event::set_latest(std::shared_ptr<Recording> record) {
  std::lock_guard<std::mutex> lock(mu_);
  latest_ = std::move(record);
}

CUresult FindStream(CUstream handle, Context* context,
                    std::shared_ptr<Stream>* stream) {
  // No legacy NULL stream and no per-thread default stream: the plugin
  // must say which stream it means.
  if (handle == nullptr || handle == CU_STREAM_LEGACY ||
      handle == CU_STREAM_PER_THREAD) {
    return CUDA_ERROR_INVALID_HANDLE;
  }
  std::shared_ptr<Stream> found = Streams().Find(handle);
  if (found == nullptr || found->context() != context) {
    return CUDA_ERROR_INVALID_HANDLE;
  }
  *stream = std::move(found);
  return CUDA_SUCCESS;
}

void WaitForBlockingStreams(Context* context) {
  for (const auto& stream : Streams().FindIf([&](const Stream& s) {
         return s.context() == context && s.blocking();
       })) {
    stream->Synchronize();
  }
}

CUresult SynchronizeContext(Context* context) {
  for (const auto& stream : Streams().FindIf(
           [&](const Stream& s) { return s.context() == context; })) {
    stream->Synchronize();
  }
  for (const auto& stream : RetiredOf(context)) stream->Synchronize();
  ReapRetired();
  return context->sticky.load();
}

void ReleaseContextStreams(Context* context) {
  std::vector<std::shared_ptr<Stream>> streams =
      Streams().TakeIf([&](const Stream& s) { return s.context() == context; });
  for (auto& stream :
       TakeRetired([&](Stream& s) { return s.context() == context; })) {
    streams.push_back(std::move(stream));
  }
  for (const auto& stream : streams) stream->Retire();
  for (const auto& stream : streams) stream->Join();
}

void ReleaseContextEvents(Context* context) {
  Events().TakeIf([&](const Event& e) { return e.context() == context; });
}

void ShutdownStreams() {
  // Handles stay valid: a plugin thread still running at exit finds its
  // stream, whose operations then run on the caller.
  std::vector<std::shared_ptr<Stream>> streams =
      Streams().FindIf([](const Stream&) { return true; });
  for (auto& stream : TakeRetired([](Stream&) { return true; })) {
    streams.push_back(std::move(stream));
  }
  for (const auto& stream : streams) stream->Retire();
  for (const auto& stream : streams) stream->Join();
}

namespace api {

CUresult StreamCreate(CUstream* stream, unsigned flags) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (stream == nullptr || (flags & ~unsigned{CU_STREAM_NON_BLOCKING}) != 0) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  ReapRetired();
  *stream = Streams().Add<CUstream>(
      std::make_shared<Stream>(context, flags, streams_created.fetch_add(1)));
  return CUDA_SUCCESS;
}

CUresult StreamDestroy(CUstream handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<Stream> stream = Streams().Take(handle);
  if (stream == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  stream->Retire();
  {
    Retired& retired = RetiredStreams();
    std::lock_guard<std::mutex> lock(retired.mu);
    retired.streams.push_back(std::move(stream));
  }
  ReapRetired();
  return context->sticky.load();
}

CUresult StreamSynchronize(CUstream handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<Stream> stream = Streams().Find(handle);
  if (stream == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  return stream->Synchronize();
}

CUresult StreamQuery(CUstream handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<Stream> stream = Streams().Find(handle);
  if (stream == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  return stream->Query();
}

CUresult StreamWaitEvent(CUstream handle, CUevent event_handle,
                         unsigned flags) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (flags != CU_EVENT_WAIT_DEFAULT) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Stream> stream;
  if (CUresult result = FindStream(handle, context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  // The event may belong to another device's context.
  std::shared_ptr<Event> event = Events().Find(event_handle);
  if (event == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  // The record current now: recording the event again later does not
  // change what this wait waits for.
  std::shared_ptr<Recording> record = event->latest();
  if (record == nullptr || record->done()) return CUDA_SUCCESS;
  stream->Enqueue([record](CUresult error) {
    if (error == CUDA_SUCCESS) record->Wait();
    return error;
  });
  return CUDA_SUCCESS;
}

CUresult LaunchHostFunc(CUstream handle, CUhostFn function, void* data) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (function == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Stream> stream;
  if (CUresult result = FindStream(handle, context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  stream->Enqueue([function, data](CUresult error) {
    // Not called after an error, unlike cuStreamAddCallback's callbacks.
    if (error != CUDA_SUCCESS) return error;
    HostFunctionScope scope;
    function(data);
    return CUDA_SUCCESS;
  });
  return CUDA_SUCCESS;
}

CUresult EnqueueHostWork(CUstream handle, FakeCudaHostWork work, void* data) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (work == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Stream> stream;
  if (CUresult result = FindStream(handle, context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  // Runs even after an error, which it is told of, and adds none: a kernel
  // of the fake NCCL must still meet its peers.
  stream->Enqueue([work, data](CUresult error) {
    work(data, error);
    return error;
  });
  return CUDA_SUCCESS;
}

CUresult EventCreate(CUevent* event, unsigned flags) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  constexpr unsigned kKnown =
      CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
  if (event == nullptr || (flags & ~kKnown) != 0) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if ((flags & CU_EVENT_INTERPROCESS) != 0) return CUDA_ERROR_NOT_SUPPORTED;
  *event = Events().Add<CUevent>(std::make_shared<Event>(context, flags));
  return CUDA_SUCCESS;
}

CUresult EventDestroy(CUevent handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  // A pending record completes anyway: waits hold the record, not the
  // event.
  if (Events().Take(handle) == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  return context->sticky.load();
}

CUresult EventRecord(CUevent event_handle, CUstream stream_handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<Event> event = Events().Find(event_handle);
  if (event == nullptr || event->context() != context) {
    return CUDA_ERROR_INVALID_HANDLE;
  }
  std::shared_ptr<Stream> stream;
  if (CUresult result = FindStream(stream_handle, context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  auto record = std::make_shared<Recording>();
  event->set_latest(record);
  stream->Enqueue([record](CUresult error) {
    record->Complete(error);
    return error;
  });
  return CUDA_SUCCESS;
}

CUresult EventQuery(CUevent handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<Event> event = Events().Find(handle);
  if (event == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  std::shared_ptr<Recording> record = event->latest();
  if (record == nullptr) return CUDA_SUCCESS;
  if (!record->done()) return CUDA_ERROR_NOT_READY;
  return record->Wait();
}

CUresult EventSynchronize(CUevent handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<Event> event = Events().Find(handle);
  if (event == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  std::shared_ptr<Recording> record = event->latest();
  return record == nullptr ? CUDA_SUCCESS : record->Wait();
}

CUresult EventElapsedTime(float* milliseconds, CUevent start_handle,
                          CUevent end_handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (milliseconds == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Event> start = Events().Find(start_handle);
  std::shared_ptr<Event> end = Events().Find(end_handle);
  if (start == nullptr || end == nullptr || !start->timing() ||
      !end->timing()) {
    return CUDA_ERROR_INVALID_HANDLE;
  }
  std::shared_ptr<Recording> first = start->latest();
  std::shared_ptr<Recording> last = end->latest();
  if (first == nullptr || last == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  if (!first->done() || !last->done()) return CUDA_ERROR_NOT_READY;
  *milliseconds =
      std::chrono::duration<float, std::milli>(last->time() - first->time())
          .count();
  return CUDA_SUCCESS;
}

}  // namespace api
}  // namespace fake_cuda
