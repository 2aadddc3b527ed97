#include "runtime/client/executable.h"

#include <memory>
#include <utility>

#include "runtime/client/status_from_error.h"
#include "support/status_macros.h"

namespace pjrtx::client {

absl::StatusOr<Executable> Executable::Compile(
    const Client& client, const std::string& mlir_text,
    const std::vector<NamedValue>& options) {
  const PJRTX_Api* api = client.api();
  PJRTX_CLIENT_ARGS(PJRTX_Program, program);
  program.code = mlir_text.data();
  program.code_size = mlir_text.size();
  program.format = "mlir";
  program.format_size = 4;
  std::vector<PJRTX_NamedValue> c_options = ToCNamedValues(options);
  PJRTX_CLIENT_ARGS(PJRTX_Client_Compile_Args, args);
  args.client = client.handle();
  args.program = &program;
  args.compile_options = c_options.data();
  args.num_compile_options = c_options.size();
  PJRTX_RETURN_IF_ERROR(TakeStatus(api, api->Client_Compile(&args)));
  return Executable(api, args.executable);
}

absl::StatusOr<Executable> Executable::Deserialize(const Client& client,
                                                   const std::string& bytes) {
  const PJRTX_Api* api = client.api();
  PJRTX_CLIENT_ARGS(PJRTX_Client_DeserializeAndLoad_Args, args);
  args.client = client.handle();
  args.serialized_executable = bytes.data();
  args.serialized_executable_size = bytes.size();
  PJRTX_RETURN_IF_ERROR(TakeStatus(api, api->Client_DeserializeAndLoad(&args)));
  return Executable(api, args.executable);
}

Executable::Executable(Executable&& other) noexcept
    : api_(other.api_), handle_(std::exchange(other.handle_, nullptr)) {}

Executable& Executable::operator=(Executable&& other) noexcept {
  if (this != &other) {
    this->~Executable();
    api_ = other.api_;
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

Executable::~Executable() {
  if (handle_ == nullptr) return;
  PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Destroy_Args, args);
  args.executable = handle_;
  TakeStatus(api_, api_->LoadedExecutable_Destroy(&args)).IgnoreError();
  handle_ = nullptr;
}

std::string Executable::name() const {
  PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Metadata_Args, args);
  args.executable = handle_;
  TakeStatus(api_, api_->LoadedExecutable_Metadata(&args)).IgnoreError();
  return std::string(args.name, args.name_size);
}

size_t Executable::num_outputs() const {
  PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Metadata_Args, args);
  args.executable = handle_;
  TakeStatus(api_, api_->LoadedExecutable_Metadata(&args)).IgnoreError();
  return args.num_outputs;
}

absl::StatusOr<Executable::Run> Executable::Execute(
    const Device& device, const std::vector<const Buffer*>& arguments,
    const std::vector<bool>& donate) const {
  std::vector<PJRTX_Buffer*> handles;
  for (const Buffer* b : arguments) handles.push_back(b->handle());
  PJRTX_Buffer* const* arg_list = handles.data();
  std::vector<PJRTX_Buffer*> outputs(num_outputs(), nullptr);
  PJRTX_Buffer** out_list = outputs.data();
  std::unique_ptr<bool[]> donate_flags;
  if (!donate.empty()) {
    donate_flags.reset(new bool[handles.size()]());
    for (size_t i = 0; i < donate.size() && i < handles.size(); ++i) {
      donate_flags[i] = donate[i];
    }
  }
  PJRTX_Device* device_handle = device.handle();
  PJRTX_Event* done = nullptr;
  PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Execute_Args, args);
  args.executable = handle_;
  args.devices = &device_handle;
  args.num_devices = 1;
  args.argument_lists = &arg_list;
  args.num_args = handles.size();
  args.donate_arguments = donate_flags.get();
  args.output_lists = &out_list;
  args.device_complete_events = &done;
  PJRTX_RETURN_IF_ERROR(
      TakeStatus(api_, api_->LoadedExecutable_Execute(&args)));
  Run run;
  for (PJRTX_Buffer* b : outputs) run.outputs.emplace_back(api_, b);
  run.done = EventFuture(api_, done);
  return run;
}

absl::StatusOr<std::string> Executable::Serialize() const {
  PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Serialize_Args, args);
  args.executable = handle_;
  PJRTX_RETURN_IF_ERROR(
      TakeStatus(api_, api_->LoadedExecutable_Serialize(&args)));
  std::string bytes(args.serialized_bytes, args.serialized_bytes_size);
  args.serialized_executable_deleter(args.serialized_executable);
  return bytes;
}

}  // namespace pjrtx::client
