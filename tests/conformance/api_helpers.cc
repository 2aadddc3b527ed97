#include "api_helpers.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <thread>
#include <utility>

namespace pjrtx::conformance {
namespace {

// Records a failure naming the call if `error` is not OK; returns ok().
bool CheckQuery(PJRTX_Error* raw, std::string_view call,
                const PJRTX_Api* api = Api()) {
  ScopedError error(raw, api);
  if (!error.ok()) ADD_FAILURE() << call << " failed: " << error.ToString();
  return error.ok();
}

std::string WordList(const std::vector<std::string>& words) {
  std::string list;
  for (const std::string& word : words) {
    list += (list.empty() ? "\"" : ", \"") + word + "\"";
  }
  return list;
}

}  // namespace

// ------------------------------- Errors ---------------------------------

std::string ErrorCodeName(PJRTX_Error_Code code) {
  static constexpr const char* kNames[] = {"OK",
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
  if (index < 0 || index >= static_cast<int>(std::size(kNames))) {
    return "code " + std::to_string(index);
  }
  return kNames[index];
}

PJRTX_Error_Code ErrorCode(const PJRTX_Error* error, const PJRTX_Api* api) {
  if (error == nullptr) return PJRTX_Error_Code_OK;
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Error_GetCode_Args);
  args.error = error;
  PJRTX_Error* failure = api->Error_GetCode(&args);
  if (failure != nullptr) {
    auto destroy = PJRTX_CONFORMANCE_ARGS(PJRTX_Error_Destroy_Args);
    destroy.error = failure;
    api->Error_Destroy(&destroy);
    return PJRTX_Error_Code_UNKNOWN;
  }
  return args.code;
}

std::string ErrorMessage(const PJRTX_Error* error, const PJRTX_Api* api) {
  if (error == nullptr) return "";
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Error_Message_Args);
  args.error = error;
  api->Error_Message(&args);
  if (args.message == nullptr) return "";
  return std::string(args.message, args.message_size);
}

ScopedError::ScopedError(PJRTX_Error* error, const PJRTX_Api* api)
    : error_(error), api_(api) {}

ScopedError::ScopedError(ScopedError&& other) noexcept
    : error_(std::exchange(other.error_, nullptr)),
      api_(other.api_),
      local_code_(std::exchange(other.local_code_, std::nullopt)),
      local_message_(std::move(other.local_message_)) {}

ScopedError& ScopedError::operator=(ScopedError&& other) noexcept {
  if (this != &other) {
    Reset();
    error_ = std::exchange(other.error_, nullptr);
    api_ = other.api_;
    local_code_ = std::exchange(other.local_code_, std::nullopt);
    local_message_ = std::move(other.local_message_);
  }
  return *this;
}

ScopedError::~ScopedError() { Reset(); }

void ScopedError::Reset() {
  if (error_ != nullptr) {
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Error_Destroy_Args);
    args.error = error_;
    api_->Error_Destroy(&args);
    error_ = nullptr;
  }
  local_code_.reset();
  local_message_.clear();
}

ScopedError ScopedError::SuiteError(PJRTX_Error_Code code,
                                    std::string_view message) {
  ScopedError error;
  error.local_code_ = code;
  error.local_message_ = "conformance suite: " + std::string(message);
  return error;
}

ScopedError ScopedError::Timeout(std::string_view what,
                                 std::chrono::milliseconds waited) {
  return SuiteError(PJRTX_Error_Code_DEADLINE_EXCEEDED,
                    "gave up after " + std::to_string(waited.count()) +
                        " ms waiting for " + std::string(what));
}

PJRTX_Error_Code ScopedError::code() const {
  if (local_code_.has_value()) return *local_code_;
  return ErrorCode(error_, api_);
}

std::string ScopedError::message() const {
  if (local_code_.has_value()) return local_message_;
  return ErrorMessage(error_, api_);
}

std::string ScopedError::ToString() const {
  if (ok()) return "OK";
  return ErrorCodeName(code()) + ": " + message();
}

bool ContainsWord(std::string_view text, std::string_view word) {
  if (word.empty()) return true;
  auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  auto is_alnum = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
  };
  for (size_t i = 0; i + word.size() <= text.size(); ++i) {
    bool match = true;
    for (size_t j = 0; j < word.size() && match; ++j) {
      match = lower(text[i + j]) == lower(word[j]);
    }
    if (!match) continue;
    // A word starting or ending in punctuation ("-1") needs no boundary on
    // that side.
    const bool open_before =
        i == 0 || !is_alnum(text[i - 1]) || !is_alnum(word.front());
    const size_t end = i + word.size();
    const bool open_after =
        end == text.size() || !is_alnum(text[end]) || !is_alnum(word.back());
    if (open_before && open_after) return true;
  }
  return false;
}

::testing::AssertionResult IsOk(const ScopedError& error) {
  if (error.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected OK, got " << error.ToString();
}

::testing::AssertionResult IsError(const ScopedError& error,
                                   PJRTX_Error_Code code,
                                   const std::vector<std::string>& words) {
  return IsErrorOneOf(error, {code}, words);
}

::testing::AssertionResult IsErrorOneOf(
    const ScopedError& error, const std::vector<PJRTX_Error_Code>& codes,
    const std::vector<std::string>& words) {
  std::string expected;
  for (PJRTX_Error_Code code : codes) {
    expected += (expected.empty() ? "" : " or ") + ErrorCodeName(code);
  }
  if (!words.empty()) expected += " with a message naming " + WordList(words);
  if (error.ok()) {
    return ::testing::AssertionFailure()
           << "expected " << expected << ", got OK";
  }
  const PJRTX_Error_Code code = error.code();
  const std::string message = error.message();
  bool code_matches =
      std::find(codes.begin(), codes.end(), code) != codes.end();
  bool words_match = std::all_of(
      words.begin(), words.end(),
      [&](const std::string& word) { return ContainsWord(message, word); });
  if (code_matches && words_match) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected " << expected << ", got " << error.ToString();
}

// ---------------------------- Owned handles -----------------------------

void ClientDeleter::operator()(PJRTX_Client* client) const {
  const PJRTX_Api* table = api != nullptr ? api : Api();
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Destroy_Args);
  args.client = client;
  CheckQuery(table->Client_Destroy(&args), "Client_Destroy", table);
}

void BufferDeleter::operator()(PJRTX_Buffer* buffer) const {
  const PJRTX_Api* table = api != nullptr ? api : Api();
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_Destroy_Args);
  args.buffer = buffer;
  CheckQuery(table->Buffer_Destroy(&args), "Buffer_Destroy", table);
}

void EventDeleter::operator()(PJRTX_Event* event) const {
  const PJRTX_Api* table = api != nullptr ? api : Api();
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Destroy_Args);
  args.event = event;
  CheckQuery(table->Event_Destroy(&args), "Event_Destroy", table);
}

// --------------------------- Clients, devices ---------------------------

ScopedError CreateClient(ClientPtr* client, const NamedValueList& options,
                         const PJRTX_Api* api) {
  const std::vector<PJRTX_NamedValue> view = options.View();
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Create_Args);
  args.create_options = view.data();
  args.num_options = view.size();
  ScopedError error(api->Client_Create(&args), api);
  *client = ClientPtr(args.client, ClientDeleter{api});
  return error;
}

std::vector<PJRTX_Device*> Devices(PJRTX_Client* client, const PJRTX_Api* api) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Devices_Args);
  args.client = client;
  if (!CheckQuery(api->Client_Devices(&args), "Client_Devices", api)) {
    return {};
  }
  return {args.devices, args.devices + args.num_devices};
}

std::vector<PJRTX_Device*> AddressableDevices(PJRTX_Client* client,
                                              const PJRTX_Api* api) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Devices_Args);
  args.client = client;
  if (!CheckQuery(api->Client_AddressableDevices(&args),
                  "Client_AddressableDevices", api)) {
    return {};
  }
  return {args.devices, args.devices + args.num_devices};
}

std::vector<PJRTX_Memory*> AddressableMemories(PJRTX_Client* client) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_AddressableMemories_Args);
  args.client = client;
  if (!CheckQuery(Api()->Client_AddressableMemories(&args),
                  "Client_AddressableMemories")) {
    return {};
  }
  return {args.memories, args.memories + args.num_memories};
}

int ProcessIndex(PJRTX_Client* client) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_ProcessIndex_Args);
  args.client = client;
  CheckQuery(Api()->Client_ProcessIndex(&args), "Client_ProcessIndex");
  return args.process_index;
}

PJRTX_DeviceDescription* Description(PJRTX_Device* device) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Device_GetDescription_Args);
  args.device = device;
  CheckQuery(Api()->Device_GetDescription(&args), "Device_GetDescription");
  return args.device_description;
}

int64_t DeviceId(PJRTX_Device* device) {
  PJRTX_DeviceDescription* description = Description(device);
  return description == nullptr ? -1 : DescriptionId(description);
}

bool IsAddressable(PJRTX_Device* device) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Device_IsAddressable_Args);
  args.device = device;
  CheckQuery(Api()->Device_IsAddressable(&args), "Device_IsAddressable");
  return args.is_addressable;
}

std::vector<PJRTX_Memory*> DeviceMemories(PJRTX_Device* device) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Device_AddressableMemories_Args);
  args.device = device;
  if (!CheckQuery(Api()->Device_AddressableMemories(&args),
                  "Device_AddressableMemories")) {
    return {};
  }
  return {args.memories, args.memories + args.num_memories};
}

PJRTX_Memory* DefaultMemory(PJRTX_Device* device) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Device_DefaultMemory_Args);
  args.device = device;
  CheckQuery(Api()->Device_DefaultMemory(&args), "Device_DefaultMemory");
  return args.memory;
}

PJRTX_Device_MemoryStats_Args MemoryStats(PJRTX_Device* device) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Device_MemoryStats_Args);
  args.device = device;
  CheckQuery(Api()->Device_MemoryStats(&args), "Device_MemoryStats");
  return args;
}

PJRTX_Device_TransferCounters_Args TransferCounters(PJRTX_Device* device) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Device_TransferCounters_Args);
  args.device = device;
  CheckQuery(Api()->Device_TransferCounters(&args), "Device_TransferCounters");
  return args;
}

int64_t DescriptionId(PJRTX_DeviceDescription* description) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_DeviceDescription_Id_Args);
  args.device_description = description;
  if (!CheckQuery(Api()->DeviceDescription_Id(&args), "DeviceDescription_Id")) {
    return -1;
  }
  return args.id;
}

int DescriptionProcessIndex(PJRTX_DeviceDescription* description) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_DeviceDescription_ProcessIndex_Args);
  args.device_description = description;
  if (!CheckQuery(Api()->DeviceDescription_ProcessIndex(&args),
                  "DeviceDescription_ProcessIndex")) {
    return -1;
  }
  return args.process_index;
}

std::string DescriptionKind(PJRTX_DeviceDescription* description) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_DeviceDescription_Kind_Args);
  args.device_description = description;
  if (!CheckQuery(Api()->DeviceDescription_Kind(&args),
                  "DeviceDescription_Kind") ||
      args.device_kind == nullptr) {
    return "";
  }
  return std::string(args.device_kind, args.device_kind_size);
}

int MemoryId(PJRTX_Memory* memory) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Memory_Id_Args);
  args.memory = memory;
  if (!CheckQuery(Api()->Memory_Id(&args), "Memory_Id")) return -1;
  return args.id;
}

std::string MemoryKind(PJRTX_Memory* memory) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Memory_Kind_Args);
  args.memory = memory;
  if (!CheckQuery(Api()->Memory_Kind(&args), "Memory_Kind") ||
      args.kind == nullptr) {
    return "";
  }
  return std::string(args.kind, args.kind_size);
}

std::vector<PJRTX_Device*> MemoryDevices(PJRTX_Memory* memory) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Memory_AddressableByDevices_Args);
  args.memory = memory;
  if (!CheckQuery(Api()->Memory_AddressableByDevices(&args),
                  "Memory_AddressableByDevices")) {
    return {};
  }
  return {args.devices, args.devices + args.num_devices};
}

// -------------------------------- Events --------------------------------

ScopedError CreateEvent(EventPtr* event) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Create_Args);
  ScopedError error(Api()->Event_Create(&args));
  *event = EventPtr(args.event);
  return error;
}

ScopedError SetEvent(PJRTX_Event* event, PJRTX_Error_Code code,
                     std::string_view message) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Set_Args);
  args.event = event;
  args.error_code = code;
  args.error_message = message.data();
  args.error_message_size = message.size();
  return ScopedError(Api()->Event_Set(&args));
}

bool IsReady(PJRTX_Event* event) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_IsReady_Args);
  args.event = event;
  CheckQuery(Api()->Event_IsReady(&args), "Event_IsReady");
  return args.is_ready;
}

bool PollUntil(const std::function<bool()>& condition,
               std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::microseconds(10);
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) return condition();
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2,
                                                std::chrono::milliseconds(1));
  }
  return true;
}

ScopedError AwaitEvent(PJRTX_Event* event, std::chrono::milliseconds timeout) {
  if (event == nullptr) {
    return ScopedError::SuiteError(PJRTX_Error_Code_UNKNOWN,
                                   "the plugin returned a NULL event");
  }
  if (!PollUntil([&] { return IsReady(event); }, timeout)) {
    return ScopedError::Timeout("an event to become ready", timeout);
  }
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Await_Args);
  args.event = event;
  return ScopedError(Api()->Event_Await(&args));
}

// ------------------------------- Buffers --------------------------------

HostBufferSpec DenseSpec(const void* data, PJRTX_Buffer_Type type,
                         std::vector<int64_t> dims, PJRTX_Device* device) {
  HostBufferSpec spec;
  spec.data = data;
  spec.type = type;
  spec.dims = std::move(dims);
  spec.device = device;
  return spec;
}

ScopedError BufferFromHost(PJRTX_Client* client, const HostBufferSpec& spec,
                           BufferPtr* buffer, EventPtr* done_with_host_buffer) {
  // Point at a valid array even for rank 0, so that the call tests the
  // plugin's handling of num_dims, not of a NULL pointer.
  static constexpr int64_t kNoDims[1] = {0};
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_BufferFromHostBuffer_Args);
  args.client = client;
  args.data = spec.data;
  args.type = spec.type;
  args.dims = spec.dims.empty() ? kNoDims : spec.dims.data();
  args.num_dims = spec.dims.size();
  if (spec.byte_strides.has_value()) {
    args.byte_strides =
        spec.byte_strides->empty() ? kNoDims : spec.byte_strides->data();
    args.num_byte_strides = spec.byte_strides->size();
  }
  args.host_buffer_semantics = spec.semantics;
  args.device = spec.device;
  args.memory = spec.memory;
  args.wait_events = spec.wait_events.data();
  args.num_wait_events = spec.wait_events.size();
  ScopedError error(Api()->Client_BufferFromHostBuffer(&args));
  *buffer = BufferPtr(args.buffer);
  EventPtr done(args.done_with_host_buffer);
  if (done_with_host_buffer != nullptr) {
    *done_with_host_buffer = std::move(done);
  } else if (error.ok() && done != nullptr) {
    const bool zero_copy =
        spec.semantics == PJRTX_HostBufferSemantics_kImmutableZeroCopy ||
        spec.semantics == PJRTX_HostBufferSemantics_kMutableZeroCopy;
    if (zero_copy) {
      ADD_FAILURE() << "BufferFromHost: zero-copy semantics need the caller "
                       "to keep done_with_host_buffer";
    } else {
      ScopedError done_error = AwaitEvent(done.get());
      if (!done_error.ok()) {
        ADD_FAILURE() << "done_with_host_buffer: " << done_error.ToString();
      }
    }
  }
  return error;
}

ScopedError StartToHost(PJRTX_Buffer* buffer, void* dst, size_t dst_size,
                        const std::vector<PJRTX_Event*>& wait_events,
                        EventPtr* event) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_ToHostBuffer_Args);
  args.src = buffer;
  args.dst = dst;
  args.dst_size = dst_size;
  args.wait_events = wait_events.data();
  args.num_wait_events = wait_events.size();
  ScopedError error(Api()->Buffer_ToHostBuffer(&args));
  *event = EventPtr(args.event);
  return error;
}

ScopedError ToHost(PJRTX_Buffer* buffer, std::vector<uint8_t>* bytes,
                   const std::vector<PJRTX_Event*>& wait_events) {
  auto query = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_ToHostBuffer_Args);
  query.src = buffer;
  ScopedError error(Api()->Buffer_ToHostBuffer(&query));
  EventPtr unexpected_event(query.event);
  if (!error.ok()) return error;
  // The destination must outlive the copy. If the copy does not finish in
  // time it is deliberately leaked rather than freed under the plugin. It
  // has at least one byte so that an empty copy is not a size query.
  const size_t size = query.dst_size;
  auto dst = std::make_unique<std::vector<uint8_t>>(std::max<size_t>(size, 1));
  EventPtr event;
  error = StartToHost(buffer, dst->data(), size, wait_events, &event);
  if (!error.ok()) return error;
  error = AwaitEvent(event.get());
  if (event != nullptr && !IsReady(event.get())) {
    static_cast<void>(dst.release());
    return error;
  }
  dst->resize(size);
  *bytes = std::move(*dst);
  return error;
}

ScopedError CopyToDevice(PJRTX_Buffer* buffer, PJRTX_Device* device,
                         BufferPtr* copy,
                         const std::vector<PJRTX_Event*>& wait_events) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_CopyToDevice_Args);
  args.buffer = buffer;
  args.dst_device = device;
  args.wait_events = wait_events.data();
  args.num_wait_events = wait_events.size();
  ScopedError error(Api()->Buffer_CopyToDevice(&args));
  *copy = BufferPtr(args.dst_buffer);
  return error;
}

ScopedError CopyToMemory(PJRTX_Buffer* buffer, PJRTX_Memory* memory,
                         BufferPtr* copy,
                         const std::vector<PJRTX_Event*>& wait_events) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_CopyToMemory_Args);
  args.buffer = buffer;
  args.dst_memory = memory;
  args.wait_events = wait_events.data();
  args.num_wait_events = wait_events.size();
  ScopedError error(Api()->Buffer_CopyToMemory(&args));
  *copy = BufferPtr(args.dst_buffer);
  return error;
}

ScopedError ReadyEvent(PJRTX_Buffer* buffer, EventPtr* event) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_ReadyEvent_Args);
  args.buffer = buffer;
  ScopedError error(Api()->Buffer_ReadyEvent(&args));
  *event = EventPtr(args.event);
  return error;
}

ScopedError AwaitBufferReady(PJRTX_Buffer* buffer) {
  EventPtr event;
  ScopedError error = ReadyEvent(buffer, &event);
  if (!error.ok()) return error;
  return AwaitEvent(event.get());
}

std::vector<int64_t> BufferDims(PJRTX_Buffer* buffer) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_Dimensions_Args);
  args.buffer = buffer;
  if (!CheckQuery(Api()->Buffer_Dimensions(&args), "Buffer_Dimensions") ||
      args.dims == nullptr) {
    return {};
  }
  return {args.dims, args.dims + args.num_dims};
}

PJRTX_Buffer_Type BufferElementType(PJRTX_Buffer* buffer) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_ElementType_Args);
  args.buffer = buffer;
  CheckQuery(Api()->Buffer_ElementType(&args), "Buffer_ElementType");
  return args.type;
}

size_t OnDeviceSize(PJRTX_Buffer* buffer) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_OnDeviceSizeInBytes_Args);
  args.buffer = buffer;
  CheckQuery(Api()->Buffer_OnDeviceSizeInBytes(&args),
             "Buffer_OnDeviceSizeInBytes");
  return args.on_device_size_in_bytes;
}

PJRTX_Device* BufferDevice(PJRTX_Buffer* buffer) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_Device_Args);
  args.buffer = buffer;
  CheckQuery(Api()->Buffer_Device(&args), "Buffer_Device");
  return args.device;
}

PJRTX_Memory* BufferMemory(PJRTX_Buffer* buffer) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_Memory_Args);
  args.buffer = buffer;
  CheckQuery(Api()->Buffer_Memory(&args), "Buffer_Memory");
  return args.memory;
}

bool IsDeleted(PJRTX_Buffer* buffer) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_IsDeleted_Args);
  args.buffer = buffer;
  CheckQuery(Api()->Buffer_IsDeleted(&args), "Buffer_IsDeleted");
  return args.is_deleted;
}

ScopedError DeleteBuffer(PJRTX_Buffer* buffer) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_Delete_Args);
  args.buffer = buffer;
  return ScopedError(Api()->Buffer_Delete(&args));
}

std::vector<uint8_t> PatternBytes(size_t size, uint8_t seed) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) {
    // 131 is odd, so consecutive bytes differ; the i / 251 term keeps long
    // buffers from repeating with a period of 256.
    bytes[i] = static_cast<uint8_t>(i * 131 + i / 251 + seed * 17 + 1);
  }
  return bytes;
}

void AlignedFree::operator()(void* p) const { std::free(p); }

AlignedBytes AllocateAligned(size_t size) {
  constexpr size_t kAlignment = 64;
  const size_t rounded = std::max<size_t>(
      kAlignment, (size + kAlignment - 1) / kAlignment * kAlignment);
  return AlignedBytes(
      static_cast<uint8_t*>(std::aligned_alloc(kAlignment, rounded)));
}

}  // namespace pjrtx::conformance
