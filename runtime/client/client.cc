#include "runtime/client/client.h"

#include <cstring>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "runtime/client/status_from_error.h"
#include "support/status_macros.h"

namespace pjrtx::client {
namespace {

absl::StatusOr<Value> ParseTyped(const std::string& name,
                                 const std::string& text,
                                 const Value& prototype) {
  auto bad = [&](const char* expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Option '", name, "' has value '", text, "', expected ", expected));
  };
  switch (prototype.index()) {
    case 0:
      return Value(text);
    case 1: {
      int64_t v;
      if (!absl::SimpleAtoi(text, &v)) return bad("an int64");
      return Value(v);
    }
    case 2: {
      std::vector<int64_t> list;
      if (!text.empty()) {
        for (absl::string_view part : absl::StrSplit(text, ',')) {
          int64_t v;
          if (!absl::SimpleAtoi(part, &v)) {
            return bad("a comma-separated list of int64");
          }
          list.push_back(v);
        }
      }
      return Value(list);
    }
    case 3: {
      float v;
      if (!absl::SimpleAtof(text, &v)) return bad("a float");
      return Value(v);
    }
    default: {
      bool v;
      if (!absl::SimpleAtob(text, &v)) return bad("true or false");
      return Value(v);
    }
  }
}

}  // namespace

absl::StatusOr<std::vector<NamedValue>> Client::ParseOptions(
    const PluginLibrary& library, const std::vector<std::string>& flags) {
  std::vector<NamedValue> options;
  for (const std::string& flag : flags) {
    size_t eq = flag.find('=');
    if (eq == std::string::npos || eq == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Option '", flag, "' is not of the form name=value"));
    }
    std::string name = flag.substr(0, eq);
    std::string text = flag.substr(eq + 1);
    const Value* prototype = nullptr;
    for (const NamedValue& option : library.option_defaults()) {
      if (option.name == name) prototype = &option.value;
    }
    if (prototype == nullptr) {
      options.push_back({name, text});
      continue;
    }
    PJRTX_ASSIGN_OR_RETURN(Value value, ParseTyped(name, text, *prototype));
    options.push_back({name, std::move(value)});
  }
  return options;
}

namespace {

PJRTX_Error* CallbackFailure(PJRTX_CallbackError make_error,
                             const absl::Status& status) {
  const std::string message(status.message());
  return make_error(static_cast<PJRTX_Error_Code>(status.code()),
                    message.data(), message.size());
}

PJRTX_Error* KeyValueGet(PJRTX_KeyValueGetCallback_Args* args) {
  auto* key_value = static_cast<KeyValueCallbacks*>(args->user_arg);
  absl::StatusOr<std::string> value = key_value->get(
      absl::string_view(args->key, args->key_size), args->timeout_in_ms);
  if (!value.ok()) return CallbackFailure(args->callback_error, value.status());
  char* copy = new char[value->size()];
  std::memcpy(copy, value->data(), value->size());
  args->value = copy;
  args->value_size = value->size();
  args->value_deleter_callback = [](char* data) { delete[] data; };
  return nullptr;
}

PJRTX_Error* KeyValuePut(PJRTX_KeyValuePutCallback_Args* args) {
  auto* key_value = static_cast<KeyValueCallbacks*>(args->user_arg);
  absl::Status status =
      key_value->put(absl::string_view(args->key, args->key_size),
                     absl::string_view(args->value, args->value_size));
  if (!status.ok()) return CallbackFailure(args->callback_error, status);
  return nullptr;
}

}  // namespace

absl::StatusOr<Client> Client::Create(std::shared_ptr<PluginLibrary> library,
                                      const std::vector<NamedValue>& options,
                                      KeyValueCallbacks key_value) {
  if ((key_value.get == nullptr) != (key_value.put == nullptr)) {
    return absl::InvalidArgumentError(
        "the key-value callbacks come as a pair: give both get and put, or "
        "neither");
  }
  std::vector<PJRTX_NamedValue> c_options = ToCNamedValues(options);
  PJRTX_CLIENT_ARGS(PJRTX_Client_Create_Args, args);
  args.create_options = c_options.data();
  args.num_options = c_options.size();
  std::unique_ptr<KeyValueCallbacks> callbacks;
  if (key_value.get != nullptr) {
    callbacks = std::make_unique<KeyValueCallbacks>(std::move(key_value));
    args.kv_get_callback = KeyValueGet;
    args.kv_get_user_arg = callbacks.get();
    args.kv_put_callback = KeyValuePut;
    args.kv_put_user_arg = callbacks.get();
  }
  const PJRTX_Api* api = library->api();
  PJRTX_RETURN_IF_ERROR(TakeStatus(api, api->Client_Create(&args)));
  return Client(std::move(library), args.client, std::move(callbacks));
}

Client::Client(Client&& other) noexcept
    : library_(std::move(other.library_)),
      handle_(std::exchange(other.handle_, nullptr)),
      key_value_(std::move(other.key_value_)) {}

Client& Client::operator=(Client&& other) noexcept {
  if (this != &other) {
    this->~Client();
    library_ = std::move(other.library_);
    handle_ = std::exchange(other.handle_, nullptr);
    key_value_ = std::move(other.key_value_);
  }
  return *this;
}

Client::~Client() {
  if (handle_ == nullptr) return;
  PJRTX_CLIENT_ARGS(PJRTX_Client_Destroy_Args, args);
  args.client = handle_;
  TakeStatus(api(), api()->Client_Destroy(&args)).IgnoreError();
  handle_ = nullptr;
}

std::string Client::platform_name() const {
  PJRTX_CLIENT_ARGS(PJRTX_Client_Platform_Args, args);
  args.client = handle_;
  TakeStatus(api(), api()->Client_Platform(&args)).IgnoreError();
  return std::string(args.platform_name, args.platform_name_size);
}

std::string Client::platform_version() const {
  PJRTX_CLIENT_ARGS(PJRTX_Client_Platform_Args, args);
  args.client = handle_;
  TakeStatus(api(), api()->Client_Platform(&args)).IgnoreError();
  return std::string(args.platform_version, args.platform_version_size);
}

int Client::process_index() const {
  PJRTX_CLIENT_ARGS(PJRTX_Client_ProcessIndex_Args, args);
  args.client = handle_;
  TakeStatus(api(), api()->Client_ProcessIndex(&args)).IgnoreError();
  return args.process_index;
}

std::vector<Device> Client::devices() const {
  PJRTX_CLIENT_ARGS(PJRTX_Client_Devices_Args, args);
  args.client = handle_;
  TakeStatus(api(), api()->Client_Devices(&args)).IgnoreError();
  std::vector<Device> devices;
  for (size_t i = 0; i < args.num_devices; ++i) {
    devices.emplace_back(api(), args.devices[i]);
  }
  return devices;
}

std::vector<Device> Client::addressable_devices() const {
  PJRTX_CLIENT_ARGS(PJRTX_Client_Devices_Args, args);
  args.client = handle_;
  TakeStatus(api(), api()->Client_AddressableDevices(&args)).IgnoreError();
  std::vector<Device> devices;
  for (size_t i = 0; i < args.num_devices; ++i) {
    devices.emplace_back(api(), args.devices[i]);
  }
  return devices;
}

std::vector<NamedValue> Client::attributes() const {
  PJRTX_CLIENT_ARGS(PJRTX_Client_Attributes_Args, args);
  args.client = handle_;
  TakeStatus(api(), api()->Client_Attributes(&args)).IgnoreError();
  return ReadNamedValues(args.attributes, args.num_attributes);
}

std::vector<NamedValue> Client::topology_attributes() const {
  PJRTX_CLIENT_ARGS(PJRTX_Client_TopologyDescription_Args, topology);
  topology.client = handle_;
  TakeStatus(api(), api()->Client_TopologyDescription(&topology)).IgnoreError();
  PJRTX_CLIENT_ARGS(PJRTX_TopologyDescription_Attributes_Args, args);
  args.topology = topology.topology;
  TakeStatus(api(), api()->TopologyDescription_Attributes(&args)).IgnoreError();
  return ReadNamedValues(args.attributes, args.num_attributes);
}

absl::StatusOr<Buffer> Client::BufferFromHost(const void* data,
                                              PJRTX_Buffer_Type type,
                                              absl::Span<const int64_t> dims,
                                              const Device& device) const {
  PJRTX_CLIENT_ARGS(PJRTX_Client_BufferFromHostBuffer_Args, args);
  args.client = handle_;
  args.data = data;
  args.type = type;
  args.dims = dims.data();
  args.num_dims = dims.size();
  args.host_buffer_semantics =
      PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall;
  args.device = device.handle();
  PJRTX_RETURN_IF_ERROR(
      TakeStatus(api(), api()->Client_BufferFromHostBuffer(&args)));
  EventFuture done(api(), args.done_with_host_buffer);
  return Buffer(api(), args.buffer);
}

}  // namespace pjrtx::client
