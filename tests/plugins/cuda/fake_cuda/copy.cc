// The copy and memset entry points. Every address is checked when the
// call is made (INVALID_VALUE for memory that is neither a live device
// allocation nor pinned host memory where a CUdeviceptr is expected), and
// again when the stream runs the operation: memory freed in between is a
// device fault (CUDA_ERROR_ILLEGAL_ADDRESS, sticky), like a real access to
// an unmapped address.
#include <atomic>
#include <cinttypes>
#include <cstring>
#include <memory>
#include <vector>

#include "tests/plugins/cuda/fake_cuda/driver.h"
#include "tests/plugins/cuda/fake_cuda/entry_points.h"
#include "tests/plugins/cuda/fake_cuda/memory.h"
#include "tests/plugins/cuda/fake_cuda/stream.h"

namespace fake_cuda {
namespace {

// The common start of the asynchronous calls: a current context that is
// not poisoned and a stream of it.
CUresult EnterAsync(CUstream handle, Context** context,
                    std::shared_ptr<Stream>* stream) {
  if (CUresult result = CurrentContext(context); result != CUDA_SUCCESS) {
    return result;
  }
  return FindStream(handle, *context, stream);
}

// The common start of the copies between host and device memory: as
// EnterAsync, then, for a copy of any bytes, the device side a live
// allocation and the host side a host pointer (`*pinned` says whether it
// is pinned, which decides when the copy reads or writes it).
CUresult EnterHostCopy(CUstream handle, CUdeviceptr device_side,
                       const void* host_side, size_t bytes, bool to_host,
                       std::shared_ptr<Stream>* stream, bool* pinned) {
  Context* context;
  if (CUresult result = EnterAsync(handle, &context, stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  if (bytes == 0) return CUDA_SUCCESS;
  int device;
  if (CUresult result =
          CheckDevicePointer(device_side, bytes, /*write=*/!to_host, &device);
      result != CUDA_SUCCESS) {
    return result;
  }
  return CheckHostPointer(host_side, bytes, /*write=*/to_host, pinned);
}

// Copies between two addresses the fake translates when the operation
// runs (device memory or pinned host memory).
CUresult CopyTranslated(const char* what, uint64_t destination, uint64_t source,
                        size_t bytes) {
  void* to = Translate(destination, bytes, /*write=*/true);
  if (to == nullptr) {
    return Fault("%s: destination 0x%" PRIx64 " (%zu bytes) is not live", what,
                 destination, bytes);
  }
  const void* from = Translate(source, bytes, /*write=*/false);
  if (from == nullptr) {
    return Fault("%s: source 0x%" PRIx64 " (%zu bytes) is not live", what,
                 source, bytes);
  }
  std::memmove(to, from, bytes);
  return CUDA_SUCCESS;
}

uint64_t Address(const void* pointer) {
  return reinterpret_cast<uintptr_t>(pointer);
}

std::atomic<uint64_t> registered_uploads{0};
std::atomic<uint64_t> registered_downloads{0};

// Counts a copy whose pinned host side is a cuMemHostRegister range.
void CountIfRegistered(const void* host, size_t bytes,
                       std::atomic<uint64_t>& counter) {
  PinnedRange range;
  if (FindPinned(Address(host), bytes, &range) && !range.allocated) {
    counter.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace

namespace api {

CUresult MemcpyHtoDAsync(CUdeviceptr destination, const void* source,
                         size_t bytes, CUstream handle) {
  std::shared_ptr<Stream> stream;
  bool pinned = false;
  if (CUresult result = EnterHostCopy(handle, destination, source, bytes,
                                      /*to_host=*/false, &stream, &pinned);
      result != CUDA_SUCCESS || bytes == 0) {
    return result;
  }
  if (pinned) {
    CountIfRegistered(source, bytes, registered_uploads);
    // Read when the stream gets there: the plugin must keep the buffer
    // unchanged until then.
    stream->Enqueue([destination, source, bytes](CUresult error) {
      if (error != CUDA_SUCCESS) return error;
      return CopyTranslated("cuMemcpyHtoDAsync", destination, Address(source),
                            bytes);
    });
    return CUDA_SUCCESS;
  }
  // Pageable memory is consumed before the call returns, as a real
  // driver stages it.
  auto staged = std::make_shared<std::vector<uint8_t>>(
      static_cast<const uint8_t*>(source),
      static_cast<const uint8_t*>(source) + bytes);
  stream->Enqueue([destination, staged](CUresult error) {
    if (error != CUDA_SUCCESS) return error;
    void* to = Translate(destination, staged->size(), /*write=*/true);
    if (to == nullptr) {
      return Fault("cuMemcpyHtoDAsync: destination 0x%" PRIx64
                   " (%zu bytes) is not live",
                   static_cast<uint64_t>(destination), staged->size());
    }
    std::memcpy(to, staged->data(), staged->size());
    return CUDA_SUCCESS;
  });
  return CUDA_SUCCESS;
}

CUresult MemcpyDtoHAsync(void* destination, CUdeviceptr source, size_t bytes,
                         CUstream handle) {
  std::shared_ptr<Stream> stream;
  bool pinned = false;
  if (CUresult result = EnterHostCopy(handle, source, destination, bytes,
                                      /*to_host=*/true, &stream, &pinned);
      result != CUDA_SUCCESS || bytes == 0) {
    return result;
  }
  if (pinned) {
    CountIfRegistered(destination, bytes, registered_downloads);
    stream->Enqueue([destination, source, bytes](CUresult error) {
      if (error != CUDA_SUCCESS) return error;
      return CopyTranslated("cuMemcpyDtoHAsync", Address(destination), source,
                            bytes);
    });
    return CUDA_SUCCESS;
  }
  // To pageable memory the call returns only once the copy is done.
  const uint64_t ticket =
      stream->Enqueue([destination, source, bytes](CUresult error) {
        if (error != CUDA_SUCCESS) return error;
        const void* from = Translate(source, bytes, /*write=*/false);
        if (from == nullptr) {
          return Fault("cuMemcpyDtoHAsync: source 0x%" PRIx64
                       " (%zu bytes) is not live",
                       static_cast<uint64_t>(source), bytes);
        }
        std::memcpy(destination, from, bytes);
        return CUDA_SUCCESS;
      });
  return stream->WaitFor(ticket);
}

CUresult MemcpyDtoDAsync(CUdeviceptr destination, CUdeviceptr source,
                         size_t bytes, CUstream handle) {
  Context* context;
  std::shared_ptr<Stream> stream;
  if (CUresult result = EnterAsync(handle, &context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  if (bytes == 0) return CUDA_SUCCESS;
  int device;
  if (CUresult result =
          CheckDevicePointer(destination, bytes, /*write=*/true, &device);
      result != CUDA_SUCCESS) {
    return result;
  }
  if (CUresult result =
          CheckDevicePointer(source, bytes, /*write=*/false, &device);
      result != CUDA_SUCCESS) {
    return result;
  }
  stream->Enqueue([destination, source, bytes](CUresult error) {
    if (error != CUDA_SUCCESS) return error;
    return CopyTranslated("cuMemcpyDtoDAsync", destination, source, bytes);
  });
  return CUDA_SUCCESS;
}

CUresult MemcpyPeerAsync(CUdeviceptr destination, CUcontext destination_context,
                         CUdeviceptr source, CUcontext source_context,
                         size_t bytes, CUstream handle) {
  Context* context;
  std::shared_ptr<Stream> stream;
  if (CUresult result = EnterAsync(handle, &context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  Context* to = FromHandle(destination_context);
  Context* from = FromHandle(source_context);
  if (to == nullptr || from == nullptr || !to->alive.load() ||
      !from->alive.load()) {
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  if (bytes == 0) return CUDA_SUCCESS;
  // Each address must be device memory of its context's device.
  int device;
  if (CheckDevicePointer(destination, bytes, /*write=*/true, &device) !=
          CUDA_SUCCESS ||
      device != to->device) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (CheckDevicePointer(source, bytes, /*write=*/false, &device) !=
          CUDA_SUCCESS ||
      device != from->device) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  stream->Enqueue([destination, source, bytes](CUresult error) {
    if (error != CUDA_SUCCESS) return error;
    return CopyTranslated("cuMemcpyPeerAsync", destination, source, bytes);
  });
  return CUDA_SUCCESS;
}

// The synchronous copies run on the legacy NULL stream: they wait for the
// work queued on the context's blocking streams (not for streams created
// with CU_STREAM_NON_BLOCKING), then copy on the caller's thread.
CUresult MemcpyHtoD(CUdeviceptr destination, const void* source, size_t bytes) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (bytes == 0) return CUDA_SUCCESS;
  int device;
  bool pinned;
  if (CUresult result =
          CheckDevicePointer(destination, bytes, /*write=*/true, &device);
      result != CUDA_SUCCESS) {
    return result;
  }
  if (CUresult result =
          CheckHostPointer(source, bytes, /*write=*/false, &pinned);
      result != CUDA_SUCCESS) {
    return result;
  }
  WaitForBlockingStreams(context);
  if (CUresult sticky = context->sticky.load(); sticky != CUDA_SUCCESS) {
    return sticky;
  }
  void* to = Translate(destination, bytes, /*write=*/true);
  if (to == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(to, source, bytes);
  return CUDA_SUCCESS;
}

CUresult MemcpyDtoH(void* destination, CUdeviceptr source, size_t bytes) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (bytes == 0) return CUDA_SUCCESS;
  int device;
  bool pinned;
  if (CUresult result =
          CheckDevicePointer(source, bytes, /*write=*/false, &device);
      result != CUDA_SUCCESS) {
    return result;
  }
  if (CUresult result =
          CheckHostPointer(destination, bytes, /*write=*/true, &pinned);
      result != CUDA_SUCCESS) {
    return result;
  }
  WaitForBlockingStreams(context);
  if (CUresult sticky = context->sticky.load(); sticky != CUDA_SUCCESS) {
    return sticky;
  }
  const void* from = Translate(source, bytes, /*write=*/false);
  if (from == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(destination, from, bytes);
  return CUDA_SUCCESS;
}

CUresult MemsetD8Async(CUdeviceptr destination, unsigned char value,
                       size_t count, CUstream handle) {
  Context* context;
  std::shared_ptr<Stream> stream;
  if (CUresult result = EnterAsync(handle, &context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  if (count == 0) return CUDA_SUCCESS;
  int device;
  if (CUresult result =
          CheckDevicePointer(destination, count, /*write=*/true, &device);
      result != CUDA_SUCCESS) {
    return result;
  }
  stream->Enqueue([destination, value, count](CUresult error) {
    if (error != CUDA_SUCCESS) return error;
    void* to = Translate(destination, count, /*write=*/true);
    if (to == nullptr) {
      return Fault("cuMemsetD8Async: destination 0x%" PRIx64
                   " (%zu bytes) is not live",
                   static_cast<uint64_t>(destination), count);
    }
    std::memset(to, value, count);
    return CUDA_SUCCESS;
  });
  return CUDA_SUCCESS;
}

CUresult RegisteredHostCopies(uint64_t* uploads, uint64_t* downloads) {
  if (uploads == nullptr || downloads == nullptr) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *uploads = registered_uploads.load();
  *downloads = registered_downloads.load();
  return CUDA_SUCCESS;
}

}  // namespace api
}  // namespace fake_cuda
