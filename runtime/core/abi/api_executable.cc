// Entry points of compilation and executables (ABI 0.3).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/core/abi/api_support.h"
#include "runtime/core/abi/handles.h"
#include "runtime/core/abi/named_values.h"
#include "runtime/core/base/value.h"
#include "support/status_macros.h"

namespace pjrtx::abi {
namespace {

// The compile options every plugin takes (PJRTX_Client_Compile_Args),
// with their defaults.
const std::vector<OptionSpec>& CompileOptionSchema() {
  static const std::vector<OptionSpec>* const schema =
      new std::vector<OptionSpec>{
          {"entry", std::string(), "function to run; empty: the default"},
          {"checks_as_outputs", false, "test-corpus check ops are outputs"},
          {"fusion", true, "fuse elementwise chains"},
          {"device_assignment", std::vector<int64_t>(),
           "global device ids to run on; empty: every addressable device"},
          {"num_replicas", int64_t{0},
           "replicas of the launch (>= 1); absent: the program's own"},
          {"num_partitions", int64_t{0},
           "partitions of the launch (>= 1); absent: the program's own"},
      };
  return *schema;
}

absl::StatusOr<ExecutableOptions> ReadCompileOptions(
    const PJRTX_NamedValue* values, size_t count) {
  PJRTX_ASSIGN_OR_RETURN(std::vector<Attribute> given,
                         ReadNamedValues(values, count));
  PJRTX_ASSIGN_OR_RETURN(
      OptionSet options,
      OptionSet::Validate(CompileOptionSchema(), given, "compile"));
  ExecutableOptions result;
  result.program.entry = options.GetString("entry");
  result.program.checks_as_outputs = options.GetBool("checks_as_outputs");
  result.program.fusion = options.GetBool("fusion");
  result.device_assignment = options.GetInt64List("device_assignment");
  for (const char* name : {"num_replicas", "num_partitions"}) {
    if (!options.WasGiven(name)) continue;
    const int64_t count = options.GetInt64(name);
    if (count < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Compile option '", name, "' must be >= 1, got ", count));
    }
  }
  result.program.num_replicas = options.GetInt64("num_replicas");
  result.program.num_partitions = options.GetInt64("num_partitions");
  return result;
}

void FillSignatures(const std::vector<ArraySignature>& list,
                    PJRTX_LoadedExecutable::Signatures* out) {
  for (const ArraySignature& s : list) {
    out->types.push_back(s.type);
    out->ranks.push_back(s.dims.size());
    out->offsets.push_back(out->dims.size());
    out->dims.insert(out->dims.end(), s.dims.begin(), s.dims.end());
  }
}

PJRTX_LoadedExecutable* Wrap(PJRTX_Client* client,
                             std::unique_ptr<Executable> executable) {
  auto* handle = new PJRTX_LoadedExecutable();
  handle->client = client;
  for (int d : executable->devices()) {
    handle->devices.push_back(client->devices[d]);
  }
  FillSignatures(executable->inputs(), &handle->inputs);
  FillSignatures(executable->outputs(), &handle->outputs);
  const std::vector<int64_t>& aliases = executable->input_output_aliases();
  for (size_t i = 0; i < executable->inputs().size(); ++i) {
    const int64_t alias = i < aliases.size() ? aliases[i] : kInputNotDonatable;
    handle->input_aliases.push_back(
        alias == kInputNotDonatable ? PJRTX_INPUT_NOT_DONATABLE : alias);
  }
  handle->executable = std::move(executable);
  return handle;
}

PJRTX_Error* ClientCompile(PJRTX_Client_Compile_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_Compile_Args, args);
  args->executable = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  PJRTX_RETURN_ERROR_IF(
      CheckStructSize("PJRTX_Program", args->program,
                      args->program == nullptr ? 0 : args->program->struct_size,
                      PJRTX_Program_STRUCT_SIZE));
  const PJRTX_Program& program = *args->program;
  if (program.code == nullptr && program.code_size > 0) {
    return ToError(absl::InvalidArgumentError("program code is NULL"));
  }
  absl::StatusOr<ExecutableOptions> options =
      ReadCompileOptions(args->compile_options, args->num_compile_options);
  if (!options.ok()) return ToError(options.status());
  std::string format = program.format == nullptr
                           ? "mlir"
                           : std::string(program.format, program.format_size);
  absl::StatusOr<std::unique_ptr<Executable>> executable = Executable::Compile(
      args->client->state, format,
      std::string_view(program.code == nullptr ? "" : program.code,
                       program.code_size),
      *options);
  if (!executable.ok()) return ToError(executable.status());
  args->executable = Wrap(args->client, *std::move(executable));
  return nullptr;
}

PJRTX_Error* ClientDeserializeAndLoad(
    PJRTX_Client_DeserializeAndLoad_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_DeserializeAndLoad_Args, args);
  args->executable = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  if (args->serialized_executable == nullptr) {
    return ToError(absl::InvalidArgumentError("serialized_executable is NULL"));
  }
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      Executable::Deserialize(
          args->client->state,
          std::string_view(args->serialized_executable,
                           args->serialized_executable_size));
  if (!executable.ok()) return ToError(executable.status());
  args->executable = Wrap(args->client, *std::move(executable));
  return nullptr;
}

PJRTX_Error* ExecutableDestroy(PJRTX_LoadedExecutable_Destroy_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_LoadedExecutable_Destroy_Args, args);
  if (args->executable == nullptr) return nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->executable, "executable"));
  delete args->executable;
  return nullptr;
}

PJRTX_Error* ExecutableMetadata(PJRTX_LoadedExecutable_Metadata_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_LoadedExecutable_Metadata_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->executable, "executable"));
  const PJRTX_LoadedExecutable& e = *args->executable;
  args->name = e.executable->name().c_str();
  args->name_size = e.executable->name().size();
  args->devices = e.devices.data();
  args->num_devices = e.devices.size();
  args->num_inputs = e.inputs.types.size();
  args->input_types = e.inputs.types.data();
  args->input_ranks = e.inputs.ranks.data();
  args->input_dims_offsets = e.inputs.offsets.data();
  args->input_dims = e.inputs.dims.data();
  args->num_outputs = e.outputs.types.size();
  args->output_types = e.outputs.types.data();
  args->output_ranks = e.outputs.ranks.data();
  args->output_dims_offsets = e.outputs.offsets.data();
  args->output_dims = e.outputs.dims.data();
  return nullptr;
}

PJRTX_Error* ExecutableInputAliases(
    PJRTX_LoadedExecutable_InputAliases_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_LoadedExecutable_InputAliases_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->executable, "executable"));
  args->aliases = args->executable->input_aliases.data();
  args->num_inputs = args->executable->input_aliases.size();
  return nullptr;
}

PJRTX_Error* ExecutableExecute(PJRTX_LoadedExecutable_Execute_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_LoadedExecutable_Execute_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->executable, "executable"));
  PJRTX_LoadedExecutable& e = *args->executable;
  const size_t num_devices =
      args->devices == nullptr ? e.devices.size() : args->num_devices;
  if (num_devices == 0) {
    return ToError(absl::InvalidArgumentError("Execute on zero devices"));
  }
  if (args->output_lists == nullptr) {
    return ToError(absl::InvalidArgumentError(
        "output_lists is NULL; pass one array of num_outputs entries per "
        "device"));
  }
  if (args->num_args > 0 && args->argument_lists == nullptr) {
    return ToError(absl::InvalidArgumentError(absl::StrCat(
        "argument_lists is NULL but num_args is ", args->num_args)));
  }
  // Inline storage: a call over a few devices and arguments allocates only
  // the handles it returns.
  SmallVector<int> devices;
  SmallVector<SmallVector<Buffer*>> arguments(num_devices);
  for (size_t d = 0; d < num_devices; ++d) {
    PJRTX_Device* device =
        args->devices == nullptr ? e.devices[d] : args->devices[d];
    PJRTX_RETURN_ERROR_IF(CheckHandle(device, "devices", d));
    if (device->client != e.client) {
      return ToError(absl::InvalidArgumentError(
          "A device belongs to another client than the executable"));
    }
    devices.push_back(device->index);
    if (args->output_lists[d] == nullptr && !e.outputs.types.empty()) {
      return ToError(absl::InvalidArgumentError(
          absl::StrCat("output_lists[", d, "] is NULL")));
    }
    if (args->num_args > 0 && args->argument_lists[d] == nullptr) {
      return ToError(absl::InvalidArgumentError(
          absl::StrCat("argument_lists[", d, "] is NULL")));
    }
    for (size_t i = 0; i < args->num_args; ++i) {
      PJRTX_Buffer* buffer = args->argument_lists[d][i];
      PJRTX_RETURN_ERROR_IF(CheckHandle(buffer, "argument_lists", d, i));
      if (buffer->client != e.client) {
        return ToError(absl::InvalidArgumentError(
            absl::StrCat("Argument ", i, " belongs to another client")));
      }
      arguments[d].push_back(buffer->buffer.get());
    }
  }
  absl::Span<const bool> donate;
  if (args->donate_arguments != nullptr) {
    donate = absl::MakeConstSpan(args->donate_arguments, args->num_args);
  }
  std::vector<EventRef> wait_for;  // Empty allocates nothing.
  PJRTX_RETURN_ERROR_IF(
      ReadWaitEvents(args->wait_events, args->num_wait_events, &wait_for));
  SmallVector<absl::Span<Buffer* const>> argument_spans(arguments.begin(),
                                                        arguments.end());
  absl::StatusOr<Executable::Runs> runs = e.executable->Execute(
      devices, argument_spans, donate, wait_for, args->launch_id);
  if (!runs.ok()) return ToError(runs.status());
  for (size_t d = 0; d < runs->size(); ++d) {
    Executable::Run& run = (*runs)[d];
    for (size_t o = 0; o < run.outputs.size(); ++o) {
      auto* buffer = new PJRTX_Buffer();
      buffer->client = e.client;
      buffer->buffer = std::move(run.outputs[o]);
      args->output_lists[d][o] = buffer;
    }
    if (args->device_complete_events != nullptr) {
      auto* event = new PJRTX_Event();
      event->event = run.done;
      args->device_complete_events[d] = event;
    }
  }
  return nullptr;
}

struct SerializedBytes {
  std::string bytes;
};

PJRTX_Error* ExecutableSerialize(PJRTX_LoadedExecutable_Serialize_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_LoadedExecutable_Serialize_Args, args);
  args->serialized_bytes = nullptr;
  args->serialized_bytes_size = 0;
  args->serialized_executable = nullptr;
  args->serialized_executable_deleter = nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->executable, "executable"));
  auto* serialized =
      new SerializedBytes{args->executable->executable->Serialize()};
  args->serialized_bytes = serialized->bytes.data();
  args->serialized_bytes_size = serialized->bytes.size();
  args->serialized_executable = serialized;
  args->serialized_executable_deleter = [](void* p) {
    delete static_cast<SerializedBytes*>(p);
  };
  return nullptr;
}

}  // namespace

void FillExecutableSlots(PJRTX_Api& api) {
  api.Client_Compile = ClientCompile;
  api.Client_DeserializeAndLoad = ClientDeserializeAndLoad;
  api.LoadedExecutable_Destroy = ExecutableDestroy;
  api.LoadedExecutable_Metadata = ExecutableMetadata;
  api.LoadedExecutable_InputAliases = ExecutableInputAliases;
  api.LoadedExecutable_Execute = ExecutableExecute;
  api.LoadedExecutable_Serialize = ExecutableSerialize;
}

}  // namespace pjrtx::abi
