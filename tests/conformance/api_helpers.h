// Small helpers over the C ABI for tests: errors, owned handles, events and
// buffers.
//
// Conventions: helpers that perform an operation a test may expect to fail
// return a ScopedError; helpers that only query (devices, dims, stats) record
// a non-fatal gtest failure naming the call if the plugin returns an error
// and return an empty value. Every wait has a deadline (kDeadline by default)
// so that a plugin bug fails a test instead of hanging the suite.

#ifndef PJRTX_TESTS_CONFORMANCE_API_HELPERS_H_
#define PJRTX_TESTS_CONFORMANCE_API_HELPERS_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "named_value_list.h"
#include "pjrtx/pjrtx_c_api.h"
#include "plugin_under_test.h"

namespace pjrtx::conformance {

// How long any single wait in the suite may take before it counts as a hang.
inline constexpr std::chrono::milliseconds kDeadline = std::chrono::seconds(10);

// An argument struct with every byte zero and `struct_size` set.
template <typename Args>
Args ZeroedArgs(size_t struct_size) {
  Args args;
  std::memset(&args, 0, sizeof(args));
  args.struct_size = struct_size;
  return args;
}

// `type` zeroed, with struct_size = type##_STRUCT_SIZE from the header.
#define PJRTX_CONFORMANCE_ARGS(type) \
  ::pjrtx::conformance::ZeroedArgs<type>(type##_STRUCT_SIZE)

// ------------------------------- Errors ---------------------------------

// "INVALID_ARGUMENT", ... ; "code <n>" for a value outside the enum.
std::string ErrorCodeName(PJRTX_Error_Code code);

// Code and message of a plugin error (OK and "" for NULL). A failing
// Error_GetCode yields UNKNOWN.
PJRTX_Error_Code ErrorCode(const PJRTX_Error* error,
                           const PJRTX_Api* api = Api());
std::string ErrorMessage(const PJRTX_Error* error,
                         const PJRTX_Api* api = Api());

// Owns a PJRTX_Error* (destroyed with the table that made it), or holds an
// error the suite itself raised, such as a wait that passed its deadline.
class ScopedError {
 public:
  ScopedError() = default;
  explicit ScopedError(PJRTX_Error* error, const PJRTX_Api* api = Api());
  ScopedError(ScopedError&& other) noexcept;
  ScopedError& operator=(ScopedError&& other) noexcept;
  ~ScopedError();

  // An error the suite raises itself; its message starts with
  // "conformance suite: ".
  static ScopedError SuiteError(PJRTX_Error_Code code,
                                std::string_view message);
  // A suite-made DEADLINE_EXCEEDED error saying what was awaited.
  static ScopedError Timeout(std::string_view what,
                             std::chrono::milliseconds waited);

  bool ok() const { return error_ == nullptr && !local_code_.has_value(); }
  PJRTX_Error_Code code() const;
  std::string message() const;
  // "OK" or "<CODE>: <message>".
  std::string ToString() const;

 private:
  void Reset();

  PJRTX_Error* error_ = nullptr;
  const PJRTX_Api* api_ = nullptr;
  std::optional<PJRTX_Error_Code> local_code_;
  std::string local_message_;
};

// Whether `text` contains `word`, ignoring case, with no letter or digit
// right before or after it (so "8" is not found in "80", nor "C64" in
// "C640").
bool ContainsWord(std::string_view text, std::string_view word);

::testing::AssertionResult IsOk(const ScopedError& error);
// Success if `error` has `code` and its message contains every one of
// `words` (see ContainsWord).
::testing::AssertionResult IsError(const ScopedError& error,
                                   PJRTX_Error_Code code,
                                   const std::vector<std::string>& words = {});
// As IsError, accepting any of `codes`.
::testing::AssertionResult IsErrorOneOf(
    const ScopedError& error, const std::vector<PJRTX_Error_Code>& codes,
    const std::vector<std::string>& words = {});

// `expr` is a PJRTX_Error* of the plugin under test, or a ScopedError.
#define EXPECT_PJRTX_OK(expr) \
  EXPECT_TRUE(                \
      ::pjrtx::conformance::IsOk(::pjrtx::conformance::ScopedError(expr)))
#define ASSERT_PJRTX_OK(expr) \
  ASSERT_TRUE(                \
      ::pjrtx::conformance::IsOk(::pjrtx::conformance::ScopedError(expr)))

// ---------------------------- Owned handles -----------------------------

// Deleters call the Destroy slot of `api` (the plugin under test if NULL)
// and record a test failure if it returns an error.
struct ClientDeleter {
  const PJRTX_Api* api = nullptr;
  void operator()(PJRTX_Client* client) const;
};
struct BufferDeleter {
  const PJRTX_Api* api = nullptr;
  void operator()(PJRTX_Buffer* buffer) const;
};
struct EventDeleter {
  const PJRTX_Api* api = nullptr;
  void operator()(PJRTX_Event* event) const;
};
using ClientPtr = std::unique_ptr<PJRTX_Client, ClientDeleter>;
using BufferPtr = std::unique_ptr<PJRTX_Buffer, BufferDeleter>;
using EventPtr = std::unique_ptr<PJRTX_Event, EventDeleter>;

// --------------------------- Clients, devices ---------------------------

// Creates a client with `options` (the --option values by default).
ScopedError CreateClient(ClientPtr* client,
                         const NamedValueList& options = Plugin().options,
                         const PJRTX_Api* api = Api());

std::vector<PJRTX_Device*> Devices(PJRTX_Client* client,
                                   const PJRTX_Api* api = Api());
std::vector<PJRTX_Device*> AddressableDevices(PJRTX_Client* client,
                                              const PJRTX_Api* api = Api());
std::vector<PJRTX_Memory*> AddressableMemories(PJRTX_Client* client);
int ProcessIndex(PJRTX_Client* client);

PJRTX_DeviceDescription* Description(PJRTX_Device* device);
int64_t DeviceId(PJRTX_Device* device);
bool IsAddressable(PJRTX_Device* device);
std::vector<PJRTX_Memory*> DeviceMemories(PJRTX_Device* device);
PJRTX_Memory* DefaultMemory(PJRTX_Device* device);
PJRTX_Device_MemoryStats_Args MemoryStats(PJRTX_Device* device);
PJRTX_Device_TransferCounters_Args TransferCounters(PJRTX_Device* device);

int64_t DescriptionId(PJRTX_DeviceDescription* description);
int DescriptionProcessIndex(PJRTX_DeviceDescription* description);
std::string DescriptionKind(PJRTX_DeviceDescription* description);

int MemoryId(PJRTX_Memory* memory);
std::string MemoryKind(PJRTX_Memory* memory);
// Memory_AddressableByDevices.
std::vector<PJRTX_Device*> MemoryDevices(PJRTX_Memory* memory);

// -------------------------------- Events --------------------------------

ScopedError CreateEvent(EventPtr* event);
ScopedError SetEvent(PJRTX_Event* event,
                     PJRTX_Error_Code code = PJRTX_Error_Code_OK,
                     std::string_view message = {});
bool IsReady(PJRTX_Event* event);

// Waits (polling Event_IsReady, so that it does not depend on OnReady) until
// `event` is ready or `timeout` passes; then returns Event_Await's result.
ScopedError AwaitEvent(PJRTX_Event* event,
                       std::chrono::milliseconds timeout = kDeadline);

// Polls `condition` until it holds or `timeout` passes; returns its last
// value.
bool PollUntil(const std::function<bool()>& condition,
               std::chrono::milliseconds timeout = kDeadline);

// ------------------------------- Buffers --------------------------------

// Arguments of Client_BufferFromHostBuffer, with the suite's defaults.
struct HostBufferSpec {
  const void* data = nullptr;
  PJRTX_Buffer_Type type = PJRTX_Buffer_Type_F32;
  std::vector<int64_t> dims;
  std::optional<std::vector<int64_t>> byte_strides;
  PJRTX_HostBufferSemantics semantics =
      PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall;
  PJRTX_Device* device = nullptr;
  PJRTX_Memory* memory = nullptr;
  std::vector<PJRTX_Event*> wait_events;
};

// A dense row-major spec with the default semantics (copied during the
// call). Tests adjust the other fields as needed.
HostBufferSpec DenseSpec(const void* data, PJRTX_Buffer_Type type,
                         std::vector<int64_t> dims, PJRTX_Device* device);

// Client_BufferFromHostBuffer. With `done_with_host_buffer` NULL the helper
// waits for that event itself, so the host data may be freed on return;
// zero-copy semantics (2 and 3) need the caller to take the event, since it
// fires only when the buffer's memory is released.
ScopedError BufferFromHost(PJRTX_Client* client, const HostBufferSpec& spec,
                           BufferPtr* buffer,
                           EventPtr* done_with_host_buffer = nullptr);

// Copies `buffer` to host (size query, copy, wait) into `bytes`.
ScopedError ToHost(PJRTX_Buffer* buffer, std::vector<uint8_t>* bytes,
                   const std::vector<PJRTX_Event*>& wait_events = {});
// Starts Buffer_ToHostBuffer into `dst` without waiting.
ScopedError StartToHost(PJRTX_Buffer* buffer, void* dst, size_t dst_size,
                        const std::vector<PJRTX_Event*>& wait_events,
                        EventPtr* event);

ScopedError CopyToDevice(PJRTX_Buffer* buffer, PJRTX_Device* device,
                         BufferPtr* copy,
                         const std::vector<PJRTX_Event*>& wait_events = {});
ScopedError CopyToMemory(PJRTX_Buffer* buffer, PJRTX_Memory* memory,
                         BufferPtr* copy,
                         const std::vector<PJRTX_Event*>& wait_events = {});

ScopedError ReadyEvent(PJRTX_Buffer* buffer, EventPtr* event);
// ReadyEvent, then AwaitEvent.
ScopedError AwaitBufferReady(PJRTX_Buffer* buffer);

std::vector<int64_t> BufferDims(PJRTX_Buffer* buffer);
PJRTX_Buffer_Type BufferElementType(PJRTX_Buffer* buffer);
size_t OnDeviceSize(PJRTX_Buffer* buffer);
PJRTX_Device* BufferDevice(PJRTX_Buffer* buffer);
PJRTX_Memory* BufferMemory(PJRTX_Buffer* buffer);
bool IsDeleted(PJRTX_Buffer* buffer);
ScopedError DeleteBuffer(PJRTX_Buffer* buffer);

// `size` bytes of a pattern that differs between seeds and from its own
// shifted copies, so that a transposed or offset copy shows.
std::vector<uint8_t> PatternBytes(size_t size, uint8_t seed = 0);

// Host memory aligned to 64 bytes, for zero-copy semantics that may alias
// it. Never NULL, even for size 0.
struct AlignedFree {
  void operator()(void* p) const;
};
using AlignedBytes = std::unique_ptr<uint8_t[], AlignedFree>;
AlignedBytes AllocateAligned(size_t size);

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_API_HELPERS_H_
