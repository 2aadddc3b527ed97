// Modules and kernel launches. A module is PTX text, parsed by the PTX
// interpreter (tests/plugins/cuda/ptx_interpreter); a launch copies the
// parameters by the kernel's parameter sizes at call time and runs the
// kernel on the stream's worker, where its memory accesses go through a
// translator that admits only live allocations of the stream's device and
// pinned host memory. A kernel fault poisons the context
// (CUDA_ERROR_ILLEGAL_ADDRESS), as on a real device.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tests/plugins/cuda/fake_cuda/driver.h"
#include "tests/plugins/cuda/fake_cuda/entry_points.h"
#include "tests/plugins/cuda/fake_cuda/fault_injection.h"
#include "tests/plugins/cuda/fake_cuda/memory.h"
#include "tests/plugins/cuda/fake_cuda/stream.h"
#include "tests/plugins/cuda/ptx_interpreter/ptx_interpreter.h"

namespace fake_cuda {
namespace {

// The newest PTX ISA a CUDA 13.0 driver accepts, and the device's
// architecture, both as major * 10 + minor.
constexpr int kNewestPtxIsa = 90;
constexpr int kDeviceSm = 90;

struct Module {
  Context* context = nullptr;
  std::shared_ptr<const PtxModule> ptx;
  int ptx_version = 0;
  std::mutex mu;
  // cuModuleGetFunction hands out one handle per name.
  std::unordered_map<std::string, CUfunction> functions;  // Guarded by mu.
};

struct Function {
  Context* context = nullptr;
  const Module* module = nullptr;
  // Keeps the kernel alive for launches still queued after an unload.
  std::shared_ptr<const PtxModule> ptx;
  const PtxKernel* kernel = nullptr;
  int ptx_version = 0;
};

HandleTable<Module>& Modules() {
  static auto* modules = new HandleTable<Module>;
  return *modules;
}

HandleTable<Function>& Functions() {
  static auto* functions = new HandleTable<Function>;
  return *functions;
}

// The JIT options the fake honours; the others are accepted and ignored.
struct JitLogs {
  char* error_log = nullptr;
  size_t error_size = 0;
  int error_size_index = -1;
  char* info_log = nullptr;
  size_t info_size = 0;
  int info_size_index = -1;
  int wall_time_index = -1;
  bool verbose = false;
};

CUresult ReadOptions(unsigned count, const CUjit_option* options,
                     void* const* values, JitLogs* logs) {
  if (count > 0 && (options == nullptr || values == nullptr)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  for (unsigned i = 0; i < count; ++i) {
    const auto number = reinterpret_cast<uintptr_t>(values[i]);
    switch (options[i]) {
      case CU_JIT_ERROR_LOG_BUFFER:
        logs->error_log = static_cast<char*>(values[i]);
        break;
      case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
        logs->error_size = number;
        logs->error_size_index = static_cast<int>(i);
        break;
      case CU_JIT_INFO_LOG_BUFFER:
        logs->info_log = static_cast<char*>(values[i]);
        break;
      case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
        logs->info_size = number;
        logs->info_size_index = static_cast<int>(i);
        break;
      case CU_JIT_WALL_TIME:
        logs->wall_time_index = static_cast<int>(i);
        break;
      case CU_JIT_LOG_VERBOSE:
        logs->verbose = number != 0;
        break;
      default:
        if (options[i] < 0 || options[i] >= CU_JIT_NUM_OPTIONS) {
          return CUDA_ERROR_INVALID_VALUE;
        }
        break;
    }
  }
  return CUDA_SUCCESS;
}

// Writes `text` into a log buffer, truncated to its size with the NUL,
// and the number of bytes written back into the size option.
void WriteLog(const std::string& text, char* buffer, size_t size,
              int size_index, void** values) {
  if (buffer == nullptr || size == 0) return;
  const size_t length = std::min(text.size(), size - 1);
  std::memcpy(buffer, text.data(), length);
  buffer[length] = '\0';
  if (size_index >= 0) {
    values[size_index] = reinterpret_cast<void*>(uintptr_t{length});
  }
}

// "X.Y" after `directive` as 10 * X + Y; 0 when absent.
int VersionAfter(std::string_view text, std::string_view directive) {
  const size_t at = text.find(directive);
  if (at == std::string_view::npos) return 0;
  size_t i = at + directive.size();
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  int major = 0;
  int minor = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    major = major * 10 + (text[i] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      minor = minor * 10 + (text[i] - '0');
    }
  }
  return major * 10 + minor;
}

// The sm number of `.target sm_NN`; 0 when absent.
int TargetSm(std::string_view text) {
  const size_t at = text.find(".target");
  if (at == std::string_view::npos) return 0;
  const size_t sm = text.find("sm_", at);
  if (sm == std::string_view::npos) return 0;
  int number = 0;
  for (size_t i = sm + 3; i < text.size() && text[i] >= '0' && text[i] <= '9';
       ++i) {
    number = number * 10 + (text[i] - '0');
  }
  return number;
}

// Parses the image as the driver's JIT would compile it: the result, and
// what the error log gets on failure.
CUresult Compile(const void* image, std::shared_ptr<const PtxModule>* ptx,
                 int* ptx_version, std::string* error_log) {
  // ELF cubins and fatbins hold machine code the fake cannot run.
  static constexpr unsigned char kMagics[][4] = {
      {0x7f, 'E', 'L', 'F'},     // cubin
      {0x50, 0xed, 0x55, 0xba},  // fatbin, 0xBA55ED50 little-endian
      {0xb1, 0x43, 0x62, 0x46},  // fatbin wrapper, 0x466243B1
  };
  const auto* bytes = static_cast<const unsigned char*>(image);
  for (const auto& magic : kMagics) {
    // Byte by byte: a short PTX text ends (NUL) before any mismatch past
    // it could be read.
    size_t i = 0;
    while (i < 4 && bytes[i] == magic[i]) ++i;
    if (i == 4) {
      *error_log =
          "fake_cuda: cubin and fatbin images are not supported; load PTX";
      return CUDA_ERROR_NOT_SUPPORTED;
    }
  }
  const std::string_view text(static_cast<const char*>(image));
  *ptx_version = VersionAfter(text, ".version");
  if (*ptx_version > kNewestPtxIsa) {
    char message[128];
    std::snprintf(message, sizeof(message),
                  "ptxas fatal   : Unsupported .version %d.%d; current "
                  "version is '%d.%d'",
                  *ptx_version / 10, *ptx_version % 10, kNewestPtxIsa / 10,
                  kNewestPtxIsa % 10);
    *error_log = message;
    return CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
  }
  if (TargetSm(text) > kDeviceSm) {
    *error_log =
        "ptxas fatal   : SM version specified by .target is higher than "
        "default SM version assumed";
    return CUDA_ERROR_INVALID_PTX;
  }
#ifdef FAKE_CUDA_HAVE_PTX_INTERPRETER
  std::string error;
  std::unique_ptr<PtxModule> parsed = PtxModule::Parse(text, &error);
  if (parsed == nullptr) {
    *error_log = "ptxas application ptx input, " + error +
                 "\nptxas fatal   : Ptx assembly aborted due to errors";
    return CUDA_ERROR_INVALID_PTX;
  }
  *ptx = std::move(parsed);
  return CUDA_SUCCESS;
#else
  *error_log = "fake_cuda: built without the PTX interpreter";
  return CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
#endif
}

}  // namespace

void ReleaseContextModules(Context* context) {
  Functions().TakeIf([&](const Function& f) { return f.context == context; });
  Modules().TakeIf([&](const Module& m) { return m.context == context; });
}

namespace api {

CUresult ModuleLoadDataEx(CUmodule* module, const void* image,
                          unsigned option_count, CUjit_option* options,
                          void** values) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (module == nullptr || image == nullptr) return CUDA_ERROR_INVALID_VALUE;
  JitLogs logs;
  if (CUresult result = ReadOptions(option_count, options, values, &logs);
      result != CUDA_SUCCESS) {
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  std::shared_ptr<const PtxModule> ptx;
  int ptx_version = 0;
  std::string error_log;
  const CUresult result = Compile(image, &ptx, &ptx_version, &error_log);
  if (logs.wall_time_index >= 0) {
    const float milliseconds = std::chrono::duration<float, std::milli>(
                                   std::chrono::steady_clock::now() - start)
                                   .count();
    values[logs.wall_time_index] = nullptr;
    std::memcpy(&values[logs.wall_time_index], &milliseconds,
                sizeof(milliseconds));
  }
  WriteLog(error_log, logs.error_log, logs.error_size, logs.error_size_index,
           values);
  WriteLog(logs.verbose && result == CUDA_SUCCESS
               ? "ptxas info    : fake_cuda interprets this module on the "
                 "host"
               : "",
           logs.info_log, logs.info_size, logs.info_size_index, values);
  if (result != CUDA_SUCCESS) return result;
  auto loaded = std::make_shared<Module>();
  loaded->context = context;
  loaded->ptx = std::move(ptx);
  loaded->ptx_version = ptx_version;
  *module = Modules().Add<CUmodule>(std::move(loaded));
  return CUDA_SUCCESS;
}

CUresult ModuleLoadData(CUmodule* module, const void* image) {
  return ModuleLoadDataEx(module, image, 0, nullptr, nullptr);
}

CUresult ModuleGetFunction(CUfunction* function, CUmodule handle,
                           const char* name) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (function == nullptr || name == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Module> module = Modules().Find(handle);
  if (module == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  const PtxKernel* kernel = module->ptx->Find(name);
  if (kernel == nullptr) return CUDA_ERROR_NOT_FOUND;
  std::lock_guard<std::mutex> lock(module->mu);
  auto [it, inserted] = module->functions.try_emplace(name, nullptr);
  if (inserted) {
    auto created = std::make_shared<Function>();
    created->context = module->context;
    created->module = module.get();
    created->ptx = module->ptx;
    created->kernel = kernel;
    created->ptx_version = module->ptx_version;
    it->second = Functions().Add<CUfunction>(std::move(created));
  }
  *function = it->second;
  return CUDA_SUCCESS;
}

CUresult ModuleUnload(CUmodule handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<Module> module = Modules().Take(handle);
  if (module == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  // Its functions are invalid from now on; launches already queued keep
  // the parsed module alive.
  Functions().TakeIf(
      [&](const Function& f) { return f.module == module.get(); });
  return context->sticky.load();
}

CUresult LaunchKernel(CUfunction handle, unsigned grid_x, unsigned grid_y,
                      unsigned grid_z, unsigned block_x, unsigned block_y,
                      unsigned block_z, unsigned shared_bytes,
                      CUstream stream_handle, void** parameters, void** extra) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<Function> function = Functions().Find(handle);
  if (function == nullptr || function->context != context) {
    return CUDA_ERROR_INVALID_HANDLE;
  }
  std::shared_ptr<Stream> stream;
  if (CUresult result = FindStream(stream_handle, context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  if (grid_x == 0 || grid_y == 0 || grid_z == 0 || block_x == 0 ||
      block_y == 0 || block_z == 0 || grid_x > 2147483647u || grid_y > 65535 ||
      grid_z > 65535 || block_x > 1024 || block_y > 1024 || block_z > 64 ||
      uint64_t{block_x} * block_y * block_z > 1024 ||
      shared_bytes > 48 * 1024) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  // Packed parameter buffers (CU_LAUNCH_PARAM_BUFFER_POINTER) are not
  // emulated.
  if (extra != nullptr) return CUDA_ERROR_NOT_SUPPORTED;
  const std::vector<size_t>& sizes = function->kernel->param_sizes();
  if (!sizes.empty() && parameters == nullptr) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  // Copied now: the caller's parameter storage need live only for the call.
  std::vector<std::vector<uint8_t>> copied(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (parameters[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
    const auto* bytes = static_cast<const uint8_t*>(parameters[i]);
    copied[i].assign(bytes, bytes + sizes[i]);
  }
  if (LaunchFails()) {
    // An execution failure: like a real one, it poisons the context.
    context->SetSticky(CUDA_ERROR_LAUNCH_FAILED);
    return CUDA_ERROR_LAUNCH_FAILED;
  }
  const Dim3 grid{grid_x, grid_y, grid_z};
  const Dim3 block{block_x, block_y, block_z};
  const int device = context->device;
  stream->Enqueue([function, grid, block, copied = std::move(copied),
                   device](CUresult error) {
    if (error != CUDA_SUCCESS) return error;
    const AddressTranslator translate = [device](uint64_t address,
                                                 size_t size) -> void* {
      return Translate(address, size, /*write=*/true, device);
    };
    std::string what;
    if (!function->kernel->Run(grid, block, copied, translate, &what)) {
      return Fault("kernel %s: %s", function->kernel->name().c_str(),
                   what.c_str());
    }
    return CUDA_SUCCESS;
  });
  return CUDA_SUCCESS;
}

CUresult FuncGetAttribute(int* value, CUfunction_attribute attribute,
                          CUfunction handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (value == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Function> function = Functions().Find(handle);
  if (function == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  switch (attribute) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *value = 1024;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_NUM_REGS:
      *value = 32;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
      *value = function->ptx_version;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
      *value = kDeviceSm;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      *value = 48 * 1024;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      *value = -1;
      return CUDA_SUCCESS;
    default:
      // No shared, constant or local memory; no cluster requirements.
      if (attribute >= 0 && attribute < CU_FUNC_ATTRIBUTE_MAX) {
        *value = 0;
        return CUDA_SUCCESS;
      }
      return CUDA_ERROR_INVALID_VALUE;
  }
}

}  // namespace api
}  // namespace fake_cuda
