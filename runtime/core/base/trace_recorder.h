#ifndef PJRTX_RUNTIME_CORE_BASE_TRACE_RECORDER_H_
#define PJRTX_RUNTIME_CORE_BASE_TRACE_RECORDER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace pjrtx {

// Records per-device intervals (programs running, collectives) and writes
// them as a Chrome trace (chrome://tracing, ui.perfetto.dev): one track per
// device, named "chip <global id>", inside one track group per process.
//
// Enabled by the environment variable PJRTX_TRACE_FILE, read once: when it
// is unset or empty Get() returns nullptr, and every hook costs one pointer
// check. Thread-safe: hooks record from device queues and collective
// workers concurrently.
//
// The runtime core is linked into each plugin privately, so two plugins in
// one process each have their own recorder; both rewrite the same file, and
// the last flush wins.
class TraceRecorder {
 public:
  // The process-wide recorder, or nullptr when tracing is off.
  static TraceRecorder* Get();

  // Records [start, end] on `device_id`'s track. `category` must outlive
  // the recorder (a string literal: "compute" or "collective").
  void Record(int64_t device_id, const char* category, std::string name,
              std::chrono::steady_clock::time_point start,
              std::chrono::steady_clock::time_point end);

  // Rewrites the trace file with every interval recorded so far, so that
  // the latest flush holds the whole trace. UNAVAILABLE when the file
  // cannot be written.
  absl::Status Flush();

  // The "pid" of the trace's events; the job's process index, so that the
  // traces of a multi-process job can be merged side by side.
  void set_process_index(int index) {
    process_index_.store(index, std::memory_order_relaxed);
  }

  const std::string& path() const { return path_; }

 private:
  struct Interval {
    int64_t device_id;
    const char* category;
    std::string name;
    // Nanoseconds since the process-wide origin.
    int64_t start_ns;
    int64_t end_ns;
  };

  explicit TraceRecorder(std::string path);

  const std::string path_;
  std::atomic<int> process_index_{0};
  std::mutex mu_;
  std::vector<Interval> intervals_;  // Guarded by mu_.
  // Serializes flushes, so two never write the file at once.
  std::mutex flush_mu_;
};

// Records an interval from construction to destruction on the process-wide
// recorder; does nothing (not even read the clock) when tracing is off.
class ScopedTraceInterval {
 public:
  ScopedTraceInterval(int64_t device_id, const char* category, std::string name)
      : recorder_(TraceRecorder::Get()) {
    if (recorder_ != nullptr) Start(device_id, category, std::move(name));
  }

  // `make_name()` returns the name; it is only called when tracing is on,
  // so hot paths pay nothing to build names nobody records.
  template <typename MakeName,
            typename =
                std::enable_if_t<std::is_invocable_r_v<std::string, MakeName&>>>
  ScopedTraceInterval(int64_t device_id, const char* category,
                      MakeName&& make_name)
      : recorder_(TraceRecorder::Get()) {
    if (recorder_ != nullptr) Start(device_id, category, make_name());
  }

  ~ScopedTraceInterval() {
    if (recorder_ != nullptr) {
      recorder_->Record(device_id_, category_, std::move(name_), start_,
                        std::chrono::steady_clock::now());
    }
  }

  ScopedTraceInterval(const ScopedTraceInterval&) = delete;
  ScopedTraceInterval& operator=(const ScopedTraceInterval&) = delete;

 private:
  void Start(int64_t device_id, const char* category, std::string name) {
    device_id_ = device_id;
    category_ = category;
    name_ = std::move(name);
    // Last, so that building the name is not part of the interval.
    start_ = std::chrono::steady_clock::now();
  }

  TraceRecorder* const recorder_;
  int64_t device_id_ = 0;
  const char* category_ = nullptr;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_TRACE_RECORDER_H_
