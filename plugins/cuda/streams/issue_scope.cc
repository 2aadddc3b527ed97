#include "plugins/cuda/streams/issue_scope.h"

#include "plugins/cuda/driver_api/cuda_status.h"
#include "support/status_macros.h"

namespace cuda_plugin {
namespace {

thread_local IssueScope* current_scope = nullptr;

}  // namespace

IssueScope::IssueScope(Gpu& gpu, CUstream tail, CompletionThread& completions,
                       int64_t lane)
    : gpu_(gpu),
      tail_(tail),
      completions_(completions),
      lane_(lane),
      previous_(current_scope) {
  current_scope = this;
}

IssueScope::~IssueScope() { current_scope = previous_; }

IssueScope* IssueScope::Current() { return current_scope; }

absl::StatusOr<CUstream> IssueScope::Use(StreamKind kind) {
  const int index = static_cast<int>(kind);
  CUstream stream = gpu_.stream(kind);
  if (used_[index]) return stream;
  used_[index] = true;
  PJRTX_RETURN_IF_ERROR(gpu_.OrderAfter(stream, tail_));
  const CUstream compute = gpu_.stream(StreamKind::kCompute);
  if (tail_ != compute) PJRTX_RETURN_IF_ERROR(gpu_.OrderAfter(stream, compute));
  return stream;
}

absl::StatusOr<CUstream> IssueScope::Join() {
  // The compute stream when used: the next task most likely computes.
  int primary = -1;
  for (int kind = 0; kind < kNumStreamKinds; ++kind) {
    if (used_[kind]) {
      primary = kind;
      break;
    }
  }
  if (primary < 0) return tail_;
  const CUstream joined = gpu_.stream(static_cast<StreamKind>(primary));
  for (int kind = primary + 1; kind < kNumStreamKinds; ++kind) {
    if (!used_[kind]) continue;
    PJRTX_RETURN_IF_ERROR(
        gpu_.OrderAfter(joined, gpu_.stream(static_cast<StreamKind>(kind))));
  }
  return joined;
}

}  // namespace cuda_plugin

namespace cuda_plugin {

absl::Status IssueScope::OnCompletion(CUstream stream,
                                      CompletionThread::Callback callback,
                                      CUevent* recorded) {
  absl::StatusOr<CUevent> event = gpu_.events().Acquire();
  if (!event.ok()) {
    std::move(callback)(event.status());
    return event.status();
  }
  const CUresult result = gpu_.events().api().cuEventRecord(*event, stream);
  if (result != CUDA_SUCCESS) {
    gpu_.events().Release(*event);
    absl::Status failure =
        CudaStatus(gpu_.events().api(), result, "cuEventRecord");
    std::move(callback)(failure);
    return failure;
  }
  if (recorded != nullptr) *recorded = *event;
  // The wake-up's wait first: once added, the event may be polled complete
  // and recorded again by another task.
  completions_.WakeWhenDone(gpu_, *event);
  completions_.Add(lane_, &gpu_, *event, std::move(callback));
  return absl::OkStatus();
}

}  // namespace cuda_plugin
