#include "runtime/core/base/trace_recorder.h"

#include <cstdio>
#include <cstdlib>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace pjrtx {
namespace {

// Trace timestamps count from here, so they stay small and readable; taken
// when the recorder is created, before anything is recorded.
std::chrono::steady_clock::time_point Origin() {
  static const std::chrono::steady_clock::time_point origin =
      std::chrono::steady_clock::now();
  return origin;
}

int64_t NanosSinceOrigin(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t - Origin())
      .count();
}

// Microseconds with nanosecond precision, formatted from integers so that
// no digit is lost to floating point however long the process runs.
std::string Micros(int64_t ns) {
  const bool negative = ns < 0;
  // Negating in unsigned arithmetic is defined even for the minimum.
  const uint64_t magnitude =
      negative ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  return absl::StrFormat("%s%d.%03d", negative ? "-" : "", magnitude / 1000,
                         magnitude % 1000);
}

// Appends `text` as a JSON string literal. Bytes >= 0x80 pass through:
// names are UTF-8.
void AppendJsonString(std::string& out, std::string_view text) {
  out.push_back('"');
  for (char c : text) {
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      case '\b':
        out.append("\\b");
        break;
      case '\f':
        out.append("\\f");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned char>(c));
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

}  // namespace

TraceRecorder* TraceRecorder::Get() {
  // Leaked on purpose: hooks may still record from threads that outlive
  // static destruction, and ~ClientState flushes explicitly.
  static TraceRecorder* const recorder = []() -> TraceRecorder* {
    const char* path = std::getenv("PJRTX_TRACE_FILE");
    if (path == nullptr || *path == '\0') return nullptr;
    return new TraceRecorder(path);
  }();
  return recorder;
}

TraceRecorder::TraceRecorder(std::string path) : path_(std::move(path)) {
  Origin();
}

void TraceRecorder::Record(int64_t device_id, const char* category,
                           std::string name,
                           std::chrono::steady_clock::time_point start,
                           std::chrono::steady_clock::time_point end) {
  Interval interval{device_id, category, std::move(name),
                    NanosSinceOrigin(start), NanosSinceOrigin(end)};
  std::lock_guard<std::mutex> lock(mu_);
  intervals_.push_back(std::move(interval));
}

absl::Status TraceRecorder::Flush() {
  std::lock_guard<std::mutex> flush_lock(flush_mu_);
  // Formatting works on a snapshot, so recording never waits for the file.
  std::vector<Interval> intervals;
  {
    std::lock_guard<std::mutex> lock(mu_);
    intervals = intervals_;
  }
  const int pid = process_index_.load(std::memory_order_relaxed);

  std::string json = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  absl::StrAppendFormat(&json,
                        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,"
                        "\"args\":{\"name\":\"process %d\"}}",
                        pid, pid);
  std::set<int64_t> devices;
  for (const Interval& interval : intervals) {
    devices.insert(interval.device_id);
  }
  for (int64_t device : devices) {
    absl::StrAppendFormat(
        &json,
        ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
        "\"args\":{\"name\":\"chip %d\"}}",
        pid, device, device);
  }
  for (const Interval& interval : intervals) {
    json.append(",\n{\"name\":");
    AppendJsonString(json, interval.name);
    json.append(",\"cat\":");
    AppendJsonString(json, interval.category);
    // A clock that went backwards must not produce a negative duration,
    // which the viewers reject.
    const int64_t dur_ns = interval.end_ns > interval.start_ns
                               ? interval.end_ns - interval.start_ns
                               : 0;
    absl::StrAppend(&json, ",\"ph\":\"X\",\"ts\":", Micros(interval.start_ns),
                    ",\"dur\":", Micros(dur_ns), ",\"pid\":", pid,
                    ",\"tid\":", interval.device_id, "}");
  }
  json.append("\n]}\n");

  std::FILE* file = std::fopen(path_.c_str(), "w");
  if (file == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("Cannot open trace file ", path_, " for writing"));
  }
  const bool written =
      std::fwrite(json.data(), 1, json.size(), file) == json.size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    return absl::UnavailableError(
        absl::StrCat("Cannot write trace file ", path_));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx
