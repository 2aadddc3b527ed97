// Streams: one worker thread per stream runs the enqueued operations in
// order (copies, memsets, kernels, event records, event waits, host
// functions), optionally after random or fixed delays (FAKE_CUDA_JITTER_US,
// FAKE_CUDA_SLOW_MS) so that missing synchronization in the plugin shows.
// Events: each cuEventRecord makes a new record; waits hold the record
// that was current when they were enqueued.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_STREAM_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_STREAM_H_

#include <cuda.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "tests/plugins/cuda/fake_cuda/driver.h"

namespace fake_cuda {

class Stream {
 public:
  // Runs on the worker. `error` is the stream's (or its context's) error
  // so far: an operation then does only what must happen anyway (an event
  // record still completes, a stream-ordered free still frees) and
  // returns it. A new error is a device fault: it poisons the context.
  using Operation = std::function<CUresult(CUresult error)>;

  Stream(Context* context, unsigned flags, int index);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  Context* context() const { return context_; }
  bool blocking() const { return (flags_ & CU_STREAM_NON_BLOCKING) == 0; }

  // Queues `operation`; returns its ticket for WaitFor. After Retire the
  // operation runs on the caller instead (only process exit retires a
  // stream that still has a handle).
  uint64_t Enqueue(Operation operation);
  // Waits until the operation with `ticket`, and all before it, ran;
  // returns the stream's error.
  CUresult WaitFor(uint64_t ticket);
  // Waits for everything enqueued so far.
  CUresult Synchronize();
  // CUDA_SUCCESS when idle, CUDA_ERROR_NOT_READY while work is pending,
  // or the stream's error.
  CUresult Query();
  // Lets the worker finish what is queued and then exit; returns at once.
  // Operations enqueued later run on the caller.
  void Retire();
  // Whether the worker has exited after Retire (Join is then immediate).
  bool Finished();
  // Waits for the worker to exit (after Retire).
  void Join();

 private:
  void Work();
  void Run(Operation& operation);
  void Delay();

  Context* const context_;
  const unsigned flags_;
  const bool slow_;
  std::mt19937_64 random_;  // Only the worker uses it.

  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Operation> queue_;
  uint64_t enqueued_ = 0;
  uint64_t completed_ = 0;
  CUresult error_ = CUDA_SUCCESS;
  bool retired_ = false;
  bool finished_ = false;
  std::mutex join_mu_;  // Streams may be joined from several threads.
  std::thread worker_;
};

// One cuEventRecord: completes when the stream reaches it.
class Recording {
 public:
  void Complete(CUresult error);
  bool done();
  // Waits for completion; returns the error it completed with.
  CUresult Wait();
  // When it completed; only valid once done.
  std::chrono::steady_clock::time_point time();

 private:
  std::mutex mu_;
  std::condition_variable done_cv_;
  bool done_ = false;
  CUresult error_ = CUDA_SUCCESS;
  std::chrono::steady_clock::time_point time_;
};

class Event {
 public:
  Event(Context* context, unsigned flags) : context_(context), flags_(flags) {}
  Context* context() const { return context_; }
  bool timing() const { return (flags_ & CU_EVENT_DISABLE_TIMING) == 0; }
  // The latest record, or nullptr if the event was never recorded (which
  // counts as complete).
  std::shared_ptr<Recording> latest();
  void set_latest(std::shared_ptr<Recording> record);

 private:
  Context* const context_;
  const unsigned flags_;
  std::mutex mu_;
  std::shared_ptr<Recording> latest_;
};

// The live stream `handle` in `context`: INVALID_HANDLE for the NULL and
// per-thread default streams (the fake has no legacy stream), for an
// unknown or destroyed handle, and for another context's stream.
CUresult FindStream(CUstream handle, Context* context,
                    std::shared_ptr<Stream>* stream);
// Waits for the work queued so far on the context's blocking streams:
// what a call on the legacy NULL stream (cuMemcpyHtoD) waits for.
void WaitForBlockingStreams(Context* context);
// Waits for every stream of the context; returns its sticky error.
CUresult SynchronizeContext(Context* context);

// The live streams and events.
HandleTable<Stream>& Streams();
HandleTable<Event>& Events();

}  // namespace fake_cuda

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_STREAM_H_
