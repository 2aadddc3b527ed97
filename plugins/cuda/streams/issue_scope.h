// What the task a CudaQueue is issuing may use: the GPU, its streams
// (ordered after the queue's earlier work on first use), and host steps to
// run once the task's GPU work has completed. The driver's primitives find
// it through Current(): the core calls them from queue tasks without
// naming a stream. (Outside queue tasks the driver makes a scope of its
// own.)
#ifndef PJRTX_PLUGINS_CUDA_STREAMS_ISSUE_SCOPE_H_
#define PJRTX_PLUGINS_CUDA_STREAMS_ISSUE_SCOPE_H_

#include <cuda.h>

#include <cstdint>

#include "absl/status/statusor.h"
#include "plugins/cuda/device/gpu.h"
#include "plugins/cuda/streams/completion_thread.h"

namespace cuda_plugin {

class IssueScope {
 public:
  // Makes this scope current on the calling thread for its lifetime.
  // `tail` is the stream the queue's previous task finished on; `lane`
  // orders the scope's completions on `completions`.
  IssueScope(Gpu& gpu, CUstream tail, CompletionThread& completions,
             int64_t lane);
  ~IssueScope();
  IssueScope(const IssueScope&) = delete;
  IssueScope& operator=(const IssueScope&) = delete;

  // The scope of the task being issued on this thread, or nullptr outside
  // queue tasks.
  static IssueScope* Current();

  Gpu& gpu() { return gpu_; }

  // The stream of `kind`, made to wait (on the GPU) for the queue's earlier
  // tasks and for allocations made on the compute stream the first time
  // the task uses it.
  absl::StatusOr<CUstream> Use(StreamKind kind);

  // Joins the streams the task used into one and returns it: the stream
  // whose completion means the whole task is done (the tail if none was
  // used).
  absl::StatusOr<CUstream> Join();

  // Calls `callback` on the completion thread once the work issued to
  // `stream` so far has completed, in order with the task's other
  // completions (the task itself counts as done only after them). Sets
  // `*recorded` to the CUDA event that marks the point, valid until the
  // callback returns.
  absl::Status OnCompletion(CUstream stream,
                            CompletionThread::Callback callback,
                            CUevent* recorded = nullptr);

 private:
  Gpu& gpu_;
  const CUstream tail_;
  CompletionThread& completions_;
  const int64_t lane_;
  IssueScope* const previous_;
  bool used_[kNumStreamKinds] = {};
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_STREAMS_ISSUE_SCOPE_H_
