#include "plugins/cuda/driver_api/cuda_status.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace cuda_plugin {

absl::Status CudaStatus(const DriverApi& api, CUresult result,
                        const char* call) {
  if (result == CUDA_SUCCESS) return absl::OkStatus();
  // The call's text up to its argument list: "cuMemAllocFromPoolAsync".
  absl::string_view name(call);
  name = name.substr(0, name.find('('));
  const std::string message = absl::StrCat(name, ": ", ErrorText(api, result));
  switch (result) {
    case CUDA_ERROR_OUT_OF_MEMORY:
      return absl::ResourceExhaustedError(message);
    case CUDA_ERROR_INVALID_VALUE:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_NOT_FOUND:
      return absl::InvalidArgumentError(message);
    case CUDA_ERROR_NOT_SUPPORTED:
      return absl::UnimplementedError(message);
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_DEVICE_UNAVAILABLE:
      return absl::UnavailableError(message);
    default:
      return absl::InternalError(message);
  }
}

}  // namespace cuda_plugin
