// The memory entry points: device allocations (direct and stream-ordered),
// memory pools, pinned host memory and pointer attributes.
#include <sys/mman.h>
#include <unistd.h>

#include "tests/plugins/cuda/fake_cuda/driver.h"
#include "tests/plugins/cuda/fake_cuda/entry_points.h"
#include "tests/plugins/cuda/fake_cuda/memory.h"
#include "tests/plugins/cuda/fake_cuda/stream.h"

namespace fake_cuda {
namespace {

size_t PageRound(size_t bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

CUresult FindPool(CUmemoryPool handle, std::shared_ptr<MemPool>* pool) {
  *pool = Pools().Find(handle);
  return *pool == nullptr ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

// What cuPointerGetAttribute knows about a pointer.
struct PointerInfo {
  bool device = false;
  int ordinal = 0;
  Context* context = nullptr;
  uint64_t start = 0;
  uint64_t size = 0;
  uint64_t id = 0;
  CUmemoryPool pool = nullptr;
};

CUresult Describe(CUdeviceptr pointer, PointerInfo* info) {
  if (DeviceArena* arena = ArenaContaining(pointer); arena != nullptr) {
    Allocation allocation;
    if (!arena->Find(pointer, &allocation)) return CUDA_ERROR_INVALID_VALUE;
    info->device = true;
    info->ordinal = arena->device();
    info->context = DeviceContext(arena->device());
    info->start = allocation.address;
    info->size = allocation.size;
    info->id = allocation.id;
    info->pool = reinterpret_cast<CUmemoryPool>(allocation.pool.get());
    return CUDA_SUCCESS;
  }
  PinnedRange range;
  // Pageable memory the driver never saw: unknown, as on a real driver.
  if (!FindPinned(pointer, 1, &range)) return CUDA_ERROR_INVALID_VALUE;
  info->ordinal = range.context->device;
  info->context = range.context;
  info->start = range.start;
  info->size = range.size;
  info->id = range.id;
  return CUDA_SUCCESS;
}

template <typename T>
CUresult Put(void* data, T value) {
  *static_cast<T*>(data) = value;
  return CUDA_SUCCESS;
}

}  // namespace

void ReleaseContextMemory(Context* context) {
  if (DeviceArena* arena = Arena(context->device); arena != nullptr) {
    arena->FreeAll();
  }
  for (const PinnedRange& range : TakePinned(context)) {
    if (range.allocated) {
      munmap(reinterpret_cast<void*>(range.start), PageRound(range.size));
    }
  }
}

namespace api {

CUresult MemGetInfo(size_t* free, size_t* total) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (free == nullptr || total == nullptr) return CUDA_ERROR_INVALID_VALUE;
  DeviceArena* arena = Arena(context->device);
  *total = arena->limit();
  *free = arena->limit() - arena->used();
  return CUDA_SUCCESS;
}

CUresult MemAlloc(CUdeviceptr* address, size_t bytes) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (address == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return Arena(context->device)->Allocate(bytes, nullptr, address);
}

CUresult MemFree(CUdeviceptr address) {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  // Frees at once, without waiting for queued work that may still use the
  // memory: the plugin must order frees after uses itself.
  DeviceArena* arena = ArenaContaining(address);
  if (arena == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult result = arena->Free(address); result != CUDA_SUCCESS) {
    return result;
  }
  return context->sticky.load();
}

CUresult MemAllocFromPoolAsync(CUdeviceptr* address, size_t bytes,
                               CUmemoryPool pool_handle, CUstream handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (address == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Stream> stream;
  if (CUresult result = FindStream(handle, context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<MemPool> pool;
  if (CUresult result = FindPool(pool_handle, &pool); result != CUDA_SUCCESS) {
    return result;
  }
  DeviceArena* arena = Arena(pool->device());
  if (arena == nullptr) return CUDA_ERROR_INVALID_VALUE;
  // Reserved now; the plugin may use it in stream order from here on.
  return arena->Allocate(bytes, std::move(pool), address);
}

CUresult MemAllocAsync(CUdeviceptr* address, size_t bytes, CUstream handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  CUmemoryPool pool =
      reinterpret_cast<CUmemoryPool>(DefaultPool(context->device).get());
  return MemAllocFromPoolAsync(address, bytes, pool, handle);
}

CUresult MemFreeAsync(CUdeviceptr address, CUstream handle) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  std::shared_ptr<Stream> stream;
  if (CUresult result = FindStream(handle, context, &stream);
      result != CUDA_SUCCESS) {
    return result;
  }
  DeviceArena* arena = ArenaContaining(address);
  if (arena == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult result = arena->MarkFreePending(address);
      result != CUDA_SUCCESS) {
    return result;
  }
  // Freed when the stream gets there: an access ordered after the free
  // (or not ordered at all) then faults.
  stream->Enqueue([arena, address](CUresult error) {
    arena->Free(address, /*queued=*/true);
    return error;
  });
  return CUDA_SUCCESS;
}

CUresult MemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* properties) {
  if (pool == nullptr || properties == nullptr ||
      properties->allocType != CU_MEM_ALLOCATION_TYPE_PINNED) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (properties->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
      properties->handleTypes != CU_MEM_HANDLE_TYPE_NONE) {
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  if (!ValidDevice(properties->location.id)) return CUDA_ERROR_INVALID_DEVICE;
  *pool = Pools().Add<CUmemoryPool>(
      std::make_shared<MemPool>(properties->location.id, /*is_default=*/false));
  return CUDA_SUCCESS;
}

CUresult MemPoolDestroy(CUmemoryPool handle) {
  std::shared_ptr<MemPool> pool;
  if (CUresult result = FindPool(handle, &pool); result != CUDA_SUCCESS) {
    return result;
  }
  if (pool->is_default()) return CUDA_ERROR_INVALID_VALUE;
  // Allocations still out keep the pool alive until they are freed.
  Pools().Take(handle);
  return CUDA_SUCCESS;
}

CUresult MemPoolSetAttribute(CUmemoryPool handle, CUmemPool_attribute attribute,
                             void* value) {
  std::shared_ptr<MemPool> pool;
  if (CUresult result = FindPool(handle, &pool); result != CUDA_SUCCESS) {
    return result;
  }
  return pool->SetAttribute(attribute, value);
}

CUresult MemPoolGetAttribute(CUmemoryPool handle, CUmemPool_attribute attribute,
                             void* value) {
  std::shared_ptr<MemPool> pool;
  if (CUresult result = FindPool(handle, &pool); result != CUDA_SUCCESS) {
    return result;
  }
  return pool->GetAttribute(attribute, value);
}

CUresult MemPoolTrimTo(CUmemoryPool handle, size_t keep) {
  // Nothing is cached, so there is nothing to trim.
  std::shared_ptr<MemPool> pool;
  return FindPool(handle, &pool);
}

CUresult DeviceGetDefaultMemPool(CUmemoryPool* pool, CUdevice device) {
  if (pool == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (!ValidDevice(device)) return CUDA_ERROR_INVALID_DEVICE;
  *pool = reinterpret_cast<CUmemoryPool>(DefaultPool(device).get());
  return CUDA_SUCCESS;
}

CUresult MemHostAlloc(void** pointer, size_t bytes, unsigned flags) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  constexpr unsigned kKnown = CU_MEMHOSTALLOC_PORTABLE |
                              CU_MEMHOSTALLOC_DEVICEMAP |
                              CU_MEMHOSTALLOC_WRITECOMBINED;
  if (pointer == nullptr || bytes == 0 || (flags & ~kKnown) != 0) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  // Pages of its own, so that freeing it returns them.
  void* memory = mmap(nullptr, PageRound(bytes), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return CUDA_ERROR_OUT_OF_MEMORY;
  PinnedRange range;
  range.start = reinterpret_cast<uintptr_t>(memory);
  range.size = bytes;
  range.context = context;
  range.allocated = true;
  range.id = reinterpret_cast<uintptr_t>(memory);
  if (CUresult result = AddPinned(range); result != CUDA_SUCCESS) {
    munmap(memory, PageRound(bytes));
    return result;
  }
  *pointer = memory;
  return CUDA_SUCCESS;
}

CUresult MemFreeHost(void* pointer) {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  PinnedRange range;
  if (!RemovePinned(reinterpret_cast<uintptr_t>(pointer), /*allocated=*/true,
                    &range)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  munmap(pointer, PageRound(range.size));
  return context->sticky.load();
}

CUresult MemHostRegister(void* pointer, size_t bytes, unsigned flags) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  constexpr unsigned kKnown =
      CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
      CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY;
  const auto start = reinterpret_cast<uintptr_t>(pointer);
  if (pointer == nullptr || bytes == 0 || (flags & ~kKnown) != 0 ||
      ArenaContaining(start) != nullptr) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if ((flags & CU_MEMHOSTREGISTER_IOMEMORY) != 0) {
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  PinnedRange range;
  range.start = start;
  range.size = bytes;
  range.context = context;
  range.read_only = (flags & CU_MEMHOSTREGISTER_READ_ONLY) != 0;
  range.id = start;
  return AddPinned(range);
}

CUresult MemHostUnregister(void* pointer) {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  PinnedRange range;
  if (!RemovePinned(reinterpret_cast<uintptr_t>(pointer),
                    /*allocated=*/false, &range)) {
    return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  }
  return context->sticky.load();
}

CUresult MemHostGetDevicePointer(CUdeviceptr* address, void* pointer,
                                 unsigned flags) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  PinnedRange range;
  if (address == nullptr || flags != 0 ||
      !FindPinned(reinterpret_cast<uintptr_t>(pointer), 1, &range)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  // Unified addressing: the device sees pinned memory at its host address.
  *address = reinterpret_cast<uintptr_t>(pointer);
  return CUDA_SUCCESS;
}

CUresult PointerGetAttribute(void* data, CUpointer_attribute attribute,
                             CUdeviceptr pointer) {
  Context* context;
  if (CUresult result = CurrentContext(&context); result != CUDA_SUCCESS) {
    return result;
  }
  if (data == nullptr) return CUDA_ERROR_INVALID_VALUE;
  PointerInfo info;
  if (CUresult result = Describe(pointer, &info); result != CUDA_SUCCESS) {
    return result;
  }
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
      return Put<CUcontext>(data, info.context->handle());
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      return Put<unsigned>(
          data, info.device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST);
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      return Put<CUdeviceptr>(data, pointer);
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      if (info.device) return CUDA_ERROR_INVALID_VALUE;
      return Put<void*>(data, reinterpret_cast<void*>(pointer));
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
      return Put<unsigned long long>(data, info.id);
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
      return Put<int>(data, 0);
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      return Put<int>(data, info.ordinal);
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
      return Put<int>(data, 0);
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      return Put<CUdeviceptr>(data, info.start);
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
      return Put<size_t>(data, info.size);
    case CU_POINTER_ATTRIBUTE_MAPPED:
      return Put<int>(data, 1);
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
      return Put<CUmemoryPool>(data, info.pool);
    default:
      return CUDA_ERROR_NOT_SUPPORTED;
  }
}

CUresult TranslateAddress(CUdeviceptr address, size_t bytes, int write,
                          void** host) {
  if (host == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *host = Translate(address, bytes, write != 0);
  return *host == nullptr ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

}  // namespace api
}  // namespace fake_cuda
