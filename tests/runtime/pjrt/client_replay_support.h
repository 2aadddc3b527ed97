// Support for client_replay_test.cc: what a PJRT client needs around the
// raw C API (argument structs, errors, handle ownership, event callbacks),
// written the way a framework writes it, plus the bits of protobuf's wire
// format the replay needs to make compile options and read a device
// assignment. Only runtime/pjrt/pjrt_c_api.h: nothing of the plugin's own
// code, so the replay sees exactly what a framework sees.
#ifndef PJRTX_TESTS_RUNTIME_PJRT_CLIENT_REPLAY_SUPPORT_H_
#define PJRTX_TESTS_RUNTIME_PJRT_CLIENT_REPLAY_SUPPORT_H_

#include <dlfcn.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/pjrt/pjrt_c_api.h"

namespace pjrt_replay {

// An argument struct, zeroed, with `struct_size` set: what a framework
// built against our header passes.
template <typename T>
T MakeArgs(size_t struct_size) {
  static_assert(std::is_trivially_copyable_v<T>);
  T args;
  std::memset(static_cast<void*>(&args), 0, sizeof(args));
  args.struct_size = struct_size;
  return args;
}

#define PJRT_REPLAY_ARGS(type) \
  ::pjrt_replay::MakeArgs<type>(static_cast<size_t>(type##_STRUCT_SIZE))

// A string returned as pointer and size.
inline std::string Str(const char* data, size_t size) {
  return data == nullptr ? std::string() : std::string(data, size);
}

inline const char* CodeName(PJRT_Error_Code code) {
  static const char* const kNames[] = {"OK",
                                       "CANCELLED",
                                       "UNKNOWN",
                                       "INVALID_ARGUMENT",
                                       "DEADLINE_EXCEEDED",
                                       "NOT_FOUND",
                                       "ALREADY_EXISTS",
                                       "PERMISSION_DENIED",
                                       "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION",
                                       "ABORTED",
                                       "OUT_OF_RANGE",
                                       "UNIMPLEMENTED",
                                       "INTERNAL",
                                       "UNAVAILABLE",
                                       "DATA_LOSS",
                                       "UNAUTHENTICATED"};
  const int index = static_cast<int>(code);
  return index >= 0 && index <= 16 ? kNames[index] : "(not a code)";
}

// What a call returned: success, or the code and message of its error.
struct Status {
  bool is_error = false;
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  std::string message;
  bool ok() const { return !is_error; }
};

inline std::ostream& operator<<(std::ostream& os, const Status& status) {
  if (status.ok()) return os << "OK";
  return os << CodeName(status.code) << " (" << static_cast<int>(status.code)
            << "): " << status.message;
}

inline void DestroyError(const PJRT_Api* api, PJRT_Error* error) {
  auto args = PJRT_REPLAY_ARGS(PJRT_Error_Destroy_Args);
  args.error = error;
  api->PJRT_Error_Destroy(&args);
}

// Reads the code and message of `error` and frees it; NULL is success.
inline Status TakeError(const PJRT_Api* api, PJRT_Error* error) {
  Status status;
  if (error == nullptr) return status;
  status.is_error = true;
  auto code = PJRT_REPLAY_ARGS(PJRT_Error_GetCode_Args);
  code.error = error;
  if (PJRT_Error* code_error = api->PJRT_Error_GetCode(&code)) {
    DestroyError(api, code_error);
    status.code = PJRT_Error_Code_UNKNOWN;
    status.message = "[PJRT_Error_GetCode failed] ";
  } else {
    status.code = code.code;
  }
  auto message = PJRT_REPLAY_ARGS(PJRT_Error_Message_Args);
  message.error = error;
  api->PJRT_Error_Message(&message);
  status.message += Str(message.message, message.message_size);
  DestroyError(api, error);
  return status;
}

// Owners of the handles a caller receives; each frees its handle with the
// matching Destroy call, which must succeed.
#define PJRT_REPLAY_DELETER(Name, Type, ArgsType, field, function) \
  struct Name {                                                    \
    const PJRT_Api* api = nullptr;                                 \
    void operator()(Type* handle) const {                          \
      auto args = PJRT_REPLAY_ARGS(ArgsType);                      \
      args.field = handle;                                         \
      Status status = TakeError(api, api->function(&args));        \
      EXPECT_TRUE(status.ok()) << #function ": " << status;        \
    }                                                              \
  }
PJRT_REPLAY_DELETER(EventDeleter, PJRT_Event, PJRT_Event_Destroy_Args, event,
                    PJRT_Event_Destroy);
PJRT_REPLAY_DELETER(BufferDeleter, PJRT_Buffer, PJRT_Buffer_Destroy_Args,
                    buffer, PJRT_Buffer_Destroy);
PJRT_REPLAY_DELETER(ExecutableDeleter, PJRT_Executable,
                    PJRT_Executable_Destroy_Args, executable,
                    PJRT_Executable_Destroy);
PJRT_REPLAY_DELETER(LoadedExecutableDeleter, PJRT_LoadedExecutable,
                    PJRT_LoadedExecutable_Destroy_Args, executable,
                    PJRT_LoadedExecutable_Destroy);
PJRT_REPLAY_DELETER(ClientDeleter, PJRT_Client, PJRT_Client_Destroy_Args,
                    client, PJRT_Client_Destroy);
#undef PJRT_REPLAY_DELETER

using EventPtr = std::unique_ptr<PJRT_Event, EventDeleter>;
using BufferPtr = std::unique_ptr<PJRT_Buffer, BufferDeleter>;
using ExecutablePtr = std::unique_ptr<PJRT_Executable, ExecutableDeleter>;
using LoadedExecutablePtr =
    std::unique_ptr<PJRT_LoadedExecutable, LoadedExecutableDeleter>;
using ClientPtr = std::unique_ptr<PJRT_Client, ClientDeleter>;

// Watches an event through PJRT_Event_OnReady, as a framework turns an
// event into a future. The probe outlives the callback however late it
// comes (the registration holds a reference).
class ReadyProbe {
 public:
  explicit ReadyProbe(const PJRT_Api* api) : api_(api) {}

  // Registers the callback on `event`. With `destroy_event`, the callback
  // destroys the event, as JAX's ConvertCEventToCppFuture does: the caller
  // gives up the event when this returns OK.
  static Status Register(const std::shared_ptr<ReadyProbe>& probe,
                         PJRT_Event* event, bool destroy_event) {
    auto* registration =
        new Registration{probe, destroy_event ? event : nullptr};
    auto args = PJRT_REPLAY_ARGS(PJRT_Event_OnReady_Args);
    args.event = event;
    args.callback = &ReadyProbe::Callback;
    args.user_arg = registration;
    Status status =
        TakeError(probe->api_, probe->api_->PJRT_Event_OnReady(&args));
    if (!status.ok()) delete registration;
    return status;
  }

  // Whether the callback ran within `timeout`.
  bool WaitFor(std::chrono::seconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, timeout, [this] { return calls_ > 0; });
  }
  int calls() {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }
  // The status the callback received.
  Status status() {
    std::lock_guard<std::mutex> lock(mu_);
    return status_;
  }
  std::thread::id thread() {
    std::lock_guard<std::mutex> lock(mu_);
    return thread_;
  }

 private:
  struct Registration {
    std::shared_ptr<ReadyProbe> probe;
    PJRT_Event* event_to_destroy;
  };

  static void Callback(PJRT_Error* error, void* user_arg) {
    std::unique_ptr<Registration> registration(
        static_cast<Registration*>(user_arg));
    ReadyProbe& probe = *registration->probe;
    Status status = TakeError(probe.api_, error);
    if (registration->event_to_destroy != nullptr) {
      EventDeleter{probe.api_}(registration->event_to_destroy);
    }
    {
      std::lock_guard<std::mutex> lock(probe.mu_);
      ++probe.calls_;
      probe.status_ = status;
      probe.thread_ = std::this_thread::get_id();
    }
    probe.cv_.notify_all();
  }

  const PJRT_Api* api_;
  std::mutex mu_;
  std::condition_variable cv_;
  int calls_ = 0;
  Status status_;
  std::thread::id thread_;
};

// ---- Protobuf wire format: just what compile options need. ----

inline void AppendVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

inline void AppendVarintField(std::string& out, int number, uint64_t value) {
  AppendVarint(out, static_cast<uint64_t>(number) << 3);
  AppendVarint(out, value);
}

inline void AppendBytesField(std::string& out, int number,
                             const std::string& payload) {
  AppendVarint(out, (static_cast<uint64_t>(number) << 3) | 2);
  AppendVarint(out, payload.size());
  out += payload;
}

// A serialized xla.CompileOptionsProto (REFERENCE 1.12): field 3
// ExecutableBuildOptionsProto {4 num_replicas, 5 num_partitions,
// 9 DeviceAssignmentProto}, field 4 compile_portable_executable.
// `device_ids` is replica-major (replica r of partition p at
// r * num_partitions + p), or empty for no device assignment.
inline std::string CompileOptionsProto(int num_replicas, int num_partitions,
                                       const std::vector<int64_t>& device_ids,
                                       bool portable = false) {
  std::string build;
  AppendVarintField(build, 4, static_cast<uint64_t>(num_replicas));
  AppendVarintField(build, 5, static_cast<uint64_t>(num_partitions));
  if (!device_ids.empty()) {
    std::string assignment;
    AppendVarintField(assignment, 1, static_cast<uint64_t>(num_replicas));
    AppendVarintField(assignment, 2, static_cast<uint64_t>(num_partitions));
    for (int p = 0; p < num_partitions; ++p) {
      std::string packed;
      for (int r = 0; r < num_replicas; ++r) {
        AppendVarint(
            packed,
            static_cast<uint64_t>(
                device_ids[static_cast<size_t>(r * num_partitions + p)]));
      }
      std::string computation;
      AppendBytesField(computation, 1, packed);
      AppendBytesField(assignment, 3, computation);
    }
    AppendBytesField(build, 9, assignment);
  }
  std::string options;
  AppendBytesField(options, 3, build);
  if (portable) AppendVarintField(options, 4, 1);
  return options;
}

// A decoded xla.DeviceAssignmentProto.
struct DeviceAssignment {
  int64_t replica_count = 0;
  int64_t computation_count = 0;
  // computations[c][r]: the device of replica r of computation c.
  std::vector<std::vector<int64_t>> computations;
};

class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}
  bool done() const { return pos_ >= bytes_.size(); }
  bool Varint(uint64_t* value) {
    *value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size()) return false;
      const uint8_t byte = static_cast<uint8_t>(bytes_[pos_++]);
      *value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  }
  bool Bytes(std::string_view* out) {
    uint64_t size;
    if (!Varint(&size) || size > bytes_.size() - pos_) return false;
    *out = bytes_.substr(pos_, size);
    pos_ += size;
    return true;
  }
  bool Skip(int wire_type) {
    uint64_t ignored;
    std::string_view bytes;
    switch (wire_type) {
      case 0:
        return Varint(&ignored);
      case 1:
        if (bytes_.size() - pos_ < 8) return false;
        pos_ += 8;
        return true;
      case 2:
        return Bytes(&bytes);
      case 5:
        if (bytes_.size() - pos_ < 4) return false;
        pos_ += 4;
        return true;
      default:
        return false;
    }
  }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

inline std::optional<DeviceAssignment> ParseDeviceAssignment(
    std::string_view bytes) {
  DeviceAssignment assignment;
  WireReader reader(bytes);
  while (!reader.done()) {
    uint64_t key;
    if (!reader.Varint(&key)) return std::nullopt;
    const int number = static_cast<int>(key >> 3);
    const int wire = static_cast<int>(key & 7);
    uint64_t value;
    if (number == 1 && wire == 0) {
      if (!reader.Varint(&value)) return std::nullopt;
      assignment.replica_count = static_cast<int64_t>(value);
    } else if (number == 2 && wire == 0) {
      if (!reader.Varint(&value)) return std::nullopt;
      assignment.computation_count = static_cast<int64_t>(value);
    } else if (number == 3 && wire == 2) {
      std::string_view computation;
      if (!reader.Bytes(&computation)) return std::nullopt;
      std::vector<int64_t> ids;
      WireReader inner(computation);
      while (!inner.done()) {
        uint64_t inner_key;
        if (!inner.Varint(&inner_key)) return std::nullopt;
        if ((inner_key >> 3) == 1 && (inner_key & 7) == 2) {  // packed
          std::string_view packed;
          if (!inner.Bytes(&packed)) return std::nullopt;
          WireReader ids_reader(packed);
          while (!ids_reader.done()) {
            if (!ids_reader.Varint(&value)) return std::nullopt;
            ids.push_back(static_cast<int64_t>(value));
          }
        } else if ((inner_key >> 3) == 1 && (inner_key & 7) == 0) {
          if (!inner.Varint(&value)) return std::nullopt;
          ids.push_back(static_cast<int64_t>(value));
        } else if (!inner.Skip(static_cast<int>(inner_key & 7))) {
          return std::nullopt;
        }
      }
      assignment.computations.push_back(std::move(ids));
    } else if (!reader.Skip(wire)) {
      return std::nullopt;
    }
  }
  return assignment;
}

// ---- Element encodings. ----

// bfloat16 of a float that bfloat16 holds exactly.
inline uint16_t ToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);
}

inline float FromBf16(uint16_t value) {
  const uint32_t bits = static_cast<uint32_t>(value) << 16;
  float result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

// Whether a sanitizer runtime is in the process: dlopen with RTLD_DEEPBIND
// aborts under ASan/TSan/MSan ("incompatible with sanitizer runtime").
// __SANITIZE_ADDRESS__ says so for instrumented code; the ASan+UBSan build
// compiles test code uninstrumented (tests/CMakeLists.txt) but links the
// runtime, so the build says so too (PJRT_REPLAY_SANITIZER_RUNTIME) and,
// last, the runtime's own symbols do.
inline bool SanitizerRuntimeLoaded() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || \
    defined(PJRT_REPLAY_SANITIZER_RUNTIME)
  return true;
#else
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
  return true;
#endif
#endif
  return dlsym(RTLD_DEFAULT, "__asan_init") != nullptr ||
         dlsym(RTLD_DEFAULT, "__tsan_init") != nullptr ||
         dlsym(RTLD_DEFAULT, "__msan_init") != nullptr;
#endif
}

}  // namespace pjrt_replay

#endif  // PJRTX_TESTS_RUNTIME_PJRT_CLIENT_REPLAY_SUPPORT_H_
