#include "runtime/cli/run_program_files.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "runtime/cli/npy_element_type.h"
#include "runtime/cli/npy_file.h"
#include "runtime/client/executable.h"
#include "runtime/client/status_from_error.h"
#include "support/status_macros.h"

namespace pjrtx::cli {
namespace {

std::string ShapeText(absl::Span<const int64_t> dims) {
  return absl::StrCat("(", absl::StrJoin(dims, ", "),
                      dims.size() == 1 ? ",)" : ")");
}

// Reads input `i` and checks it against the argument it is passed as.
absl::StatusOr<NpyArray> ReadInput(const std::string& path, size_t i,
                                   PJRTX_Buffer_Type type,
                                   absl::Span<const int64_t> dims) {
  PJRTX_ASSIGN_OR_RETURN(NpyArray array, ReadNpy(path));
  PJRTX_ASSIGN_OR_RETURN(std::string code, NpyCodeOf(type));
  if (!NpyCodeFits(array.code, type) ||
      array.dims != std::vector<int64_t>(dims.begin(), dims.end())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "input ", i, " ('", path, "') holds '", array.code, "' of shape ",
        ShapeText(array.dims), "; the program's argument ", i, " is '", code,
        "' of shape ", ShapeText(dims)));
  }
  return array;
}

}  // namespace

absl::Status RunProgramFiles(const client::Client& client,
                             const ProgramFiles& files, std::ostream& log) {
  std::ifstream in(files.program);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("cannot read '", files.program, "'"));
  }
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  PJRTX_ASSIGN_OR_RETURN(client::Executable executable,
                         client::Executable::Compile(client, text));
  const PJRTX_Api* api = client.api();
  PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Metadata_Args, metadata);
  metadata.executable = executable.handle();
  PJRTX_RETURN_IF_ERROR(
      client::TakeStatus(api, api->LoadedExecutable_Metadata(&metadata)));
  if (metadata.num_devices == 0) {
    return absl::FailedPreconditionError("the client has no device to run on");
  }
  if (files.inputs.size() != metadata.num_inputs) {
    return absl::InvalidArgumentError(
        absl::StrCat("the program takes ", metadata.num_inputs, " arguments; ",
                     files.inputs.size(), " inputs given"));
  }
  const client::Device device(api, metadata.devices[0]);
  std::vector<client::Buffer> arguments;
  for (size_t i = 0; i < files.inputs.size(); ++i) {
    const absl::Span<const int64_t> dims(
        metadata.input_dims + metadata.input_dims_offsets[i],
        metadata.input_ranks[i]);
    PJRTX_ASSIGN_OR_RETURN(
        NpyArray array,
        ReadInput(files.inputs[i], i, metadata.input_types[i], dims));
    PJRTX_ASSIGN_OR_RETURN(
        client::Buffer buffer,
        client.BufferFromHost(array.data.data(), metadata.input_types[i], dims,
                              device));
    arguments.push_back(std::move(buffer));
  }
  std::vector<const client::Buffer*> argument_list;
  for (const client::Buffer& b : arguments) argument_list.push_back(&b);
  PJRTX_ASSIGN_OR_RETURN(client::Executable::Run run,
                         executable.Execute(device, argument_list));
  PJRTX_RETURN_IF_ERROR(run.done.Await());
  std::error_code error;
  std::filesystem::create_directories(files.output_dir, error);
  if (error) {
    return absl::PermissionDeniedError(absl::StrCat(
        "cannot create '", files.output_dir, "': ", error.message()));
  }
  for (size_t i = 0; i < run.outputs.size(); ++i) {
    const client::Buffer& output = run.outputs[i];
    NpyArray array;
    PJRTX_ASSIGN_OR_RETURN(array.code, NpyCodeOf(output.element_type()));
    array.dims = output.dims();
    PJRTX_ASSIGN_OR_RETURN(array.data, output.ToHostSync());
    const std::string path = (std::filesystem::path(files.output_dir) /
                              absl::StrCat("output_", i, ".npy"))
                                 .string();
    PJRTX_RETURN_IF_ERROR(WriteNpy(path, array));
    log << "output " << i << ": '" << array.code << "' of shape "
        << ShapeText(array.dims) << " -> " << path << "\n";
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::cli
