// The fake libcuda.so.1 behaves like a driver where the plugin could get it
// wrong: versioned lookup, device addresses the host cannot read, stream
// order only through events, event states, host functions, memory limits,
// contexts, modules and sticky faults. It is loaded with dlopen and used
// through cuGetProcAddress_v2, as the plugin does.
//
// Tests that need their own environment (FAKE_CUDA_*) run in a fresh copy
// of this binary (RunChild): the fake reads the environment once.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <future>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

// The entry points, at the versions the plugin pins.
struct Driver {
  PFN_cuGetProcAddress_v12000 GetProcAddress = nullptr;
  PFN_cuGetErrorName_v6000 GetErrorName = nullptr;
  PFN_cuInit_v2000 Init = nullptr;
  PFN_cuDeviceTotalMem_v3020 DeviceTotalMem = nullptr;
  PFN_cuDevicePrimaryCtxRetain_v7000 DevicePrimaryCtxRetain = nullptr;
  PFN_cuDevicePrimaryCtxRelease_v11000 DevicePrimaryCtxRelease = nullptr;
  PFN_cuCtxSetCurrent_v4000 CtxSetCurrent = nullptr;
  PFN_cuCtxGetCurrent_v4000 CtxGetCurrent = nullptr;
  PFN_cuCtxSynchronize_v2000 CtxSynchronize = nullptr;
  PFN_cuMemGetInfo_v3020 MemGetInfo = nullptr;
  PFN_cuMemAlloc_v3020 MemAlloc = nullptr;
  PFN_cuMemFree_v3020 MemFree = nullptr;
  PFN_cuMemFreeAsync_v11020 MemFreeAsync = nullptr;
  PFN_cuMemHostAlloc_v2020 MemHostAlloc = nullptr;
  PFN_cuMemFreeHost_v2000 MemFreeHost = nullptr;
  PFN_cuPointerGetAttribute_v4000 PointerGetAttribute = nullptr;
  PFN_cuMemcpyHtoDAsync_v3020 MemcpyHtoDAsync = nullptr;
  PFN_cuMemcpyDtoHAsync_v3020 MemcpyDtoHAsync = nullptr;
  PFN_cuMemcpyDtoDAsync_v3020 MemcpyDtoDAsync = nullptr;
  PFN_cuMemcpyHtoD_v3020 MemcpyHtoD = nullptr;
  PFN_cuMemcpyDtoH_v3020 MemcpyDtoH = nullptr;
  PFN_cuMemsetD8Async_v3020 MemsetD8Async = nullptr;
  PFN_cuStreamCreate_v2000 StreamCreate = nullptr;
  PFN_cuStreamDestroy_v4000 StreamDestroy = nullptr;
  PFN_cuStreamSynchronize_v2000 StreamSynchronize = nullptr;
  PFN_cuStreamQuery_v2000 StreamQuery = nullptr;
  PFN_cuStreamWaitEvent_v3020 StreamWaitEvent = nullptr;
  PFN_cuLaunchHostFunc_v10000 LaunchHostFunc = nullptr;
  PFN_cuEventCreate_v2000 EventCreate = nullptr;
  PFN_cuEventDestroy_v4000 EventDestroy = nullptr;
  PFN_cuEventRecord_v2000 EventRecord = nullptr;
  PFN_cuEventQuery_v2000 EventQuery = nullptr;
  PFN_cuEventSynchronize_v2000 EventSynchronize = nullptr;
  PFN_cuEventElapsedTime_v2000 EventElapsedTime = nullptr;
  PFN_cuModuleLoadDataEx_v2010 ModuleLoadDataEx = nullptr;
  PFN_cuModuleGetFunction_v2000 ModuleGetFunction = nullptr;
  PFN_cuModuleUnload_v2000 ModuleUnload = nullptr;
  PFN_cuLaunchKernel_v4000 LaunchKernel = nullptr;
};

void* Lookup(PFN_cuGetProcAddress_v12000 get, const char* name, int version) {
  void* function = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
  if (get(name, &function, version, CU_GET_PROC_ADDRESS_DEFAULT, &status) !=
          CUDA_SUCCESS ||
      status != CU_GET_PROC_ADDRESS_SUCCESS || function == nullptr) {
    std::fprintf(stderr, "cannot resolve %s at %d\n", name, version);
    std::abort();
  }
  return function;
}

const Driver* Load() {
  // Random delays before every stream operation, unless a test asks for
  // something else: missing ordering then shows as wrong data.
  setenv("FAKE_CUDA_JITTER_US", "200", /*overwrite=*/0);
  void* library = dlopen(FAKE_CUDA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "dlopen %s: %s\n", FAKE_CUDA_LIBRARY, dlerror());
    std::abort();
  }
  auto* driver = new Driver;
  driver->GetProcAddress = reinterpret_cast<PFN_cuGetProcAddress_v12000>(
      dlsym(library, "cuGetProcAddress_v2"));
  if (driver->GetProcAddress == nullptr) std::abort();
#define RESOLVE(field, name, version)                        \
  driver->field = reinterpret_cast<PFN_##name##_v##version>( \
      Lookup(driver->GetProcAddress, #name, version))
  RESOLVE(GetErrorName, cuGetErrorName, 6000);
  RESOLVE(Init, cuInit, 2000);
  RESOLVE(DeviceTotalMem, cuDeviceTotalMem, 3020);
  RESOLVE(DevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, 7000);
  RESOLVE(DevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease, 11000);
  RESOLVE(CtxSetCurrent, cuCtxSetCurrent, 4000);
  RESOLVE(CtxGetCurrent, cuCtxGetCurrent, 4000);
  RESOLVE(CtxSynchronize, cuCtxSynchronize, 2000);
  RESOLVE(MemGetInfo, cuMemGetInfo, 3020);
  RESOLVE(MemAlloc, cuMemAlloc, 3020);
  RESOLVE(MemFree, cuMemFree, 3020);
  RESOLVE(MemFreeAsync, cuMemFreeAsync, 11020);
  RESOLVE(MemHostAlloc, cuMemHostAlloc, 2020);
  RESOLVE(MemFreeHost, cuMemFreeHost, 2000);
  RESOLVE(PointerGetAttribute, cuPointerGetAttribute, 4000);
  RESOLVE(MemcpyHtoDAsync, cuMemcpyHtoDAsync, 3020);
  RESOLVE(MemcpyDtoHAsync, cuMemcpyDtoHAsync, 3020);
  RESOLVE(MemcpyDtoDAsync, cuMemcpyDtoDAsync, 3020);
  RESOLVE(MemcpyHtoD, cuMemcpyHtoD, 3020);
  RESOLVE(MemcpyDtoH, cuMemcpyDtoH, 3020);
  RESOLVE(MemsetD8Async, cuMemsetD8Async, 3020);
  RESOLVE(StreamCreate, cuStreamCreate, 2000);
  RESOLVE(StreamDestroy, cuStreamDestroy, 4000);
  RESOLVE(StreamSynchronize, cuStreamSynchronize, 2000);
  RESOLVE(StreamQuery, cuStreamQuery, 2000);
  RESOLVE(StreamWaitEvent, cuStreamWaitEvent, 3020);
  RESOLVE(LaunchHostFunc, cuLaunchHostFunc, 10000);
  RESOLVE(EventCreate, cuEventCreate, 2000);
  RESOLVE(EventDestroy, cuEventDestroy, 4000);
  RESOLVE(EventRecord, cuEventRecord, 2000);
  RESOLVE(EventQuery, cuEventQuery, 2000);
  RESOLVE(EventSynchronize, cuEventSynchronize, 2000);
  RESOLVE(EventElapsedTime, cuEventElapsedTime, 2000);
  RESOLVE(ModuleLoadDataEx, cuModuleLoadDataEx, 2010);
  RESOLVE(ModuleGetFunction, cuModuleGetFunction, 2000);
  RESOLVE(ModuleUnload, cuModuleUnload, 2000);
  RESOLVE(LaunchKernel, cuLaunchKernel, 4000);
#undef RESOLVE
  return driver;
}

const Driver& Cuda() {
  static const Driver* driver = Load();
  return *driver;
}

#define CU_ASSERT_OK(expression) ASSERT_EQ((expression), CUDA_SUCCESS)
#define CU_EXPECT_OK(expression) EXPECT_EQ((expression), CUDA_SUCCESS)

// Runs FakeCudaChild.DISABLED_<name> in a fresh process of this binary with
// `environment` added, and expects it to pass.
void RunChild(const std::string& name,
              const std::vector<std::string>& environment) {
  // Everything the child needs is built before fork: the parent has
  // threads, so the child may only exec.
  std::vector<std::string> variables(environment);
  for (char** variable = environ; *variable != nullptr; ++variable) {
    variables.emplace_back(*variable);
  }
  std::vector<char*> envp;
  for (std::string& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  std::string filter = "--gtest_filter=FakeCudaChild.DISABLED_" + name;
  std::string also = "--gtest_also_run_disabled_tests";
  std::string self = "/proc/self/exe";
  char* argv[] = {self.data(), filter.data(), also.data(), nullptr};
  int output[2];
  ASSERT_EQ(pipe(output), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    dup2(output[1], STDOUT_FILENO);
    dup2(output[1], STDERR_FILENO);
    execve(argv[0], argv, envp.data());
    _exit(127);
  }
  close(output[1]);
  std::string text;
  char buffer[4096];
  ssize_t got;
  while ((got = read(output[0], buffer, sizeof(buffer))) > 0) {
    text.append(buffer, static_cast<size_t>(got));
  }
  close(output[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << text;
  EXPECT_NE(text.find("[  PASSED  ] 1 test."), std::string::npos) << text;
}

// Holds streams back until Open(): a host function that waits, so that
// what is queued behind it runs only once the test has set things up.
class HostGate {
 public:
  HostGate() : opened_(open_.get_future().share()) {}
  ~HostGate() { Open(); }
  CUresult Block(CUstream stream) {
    return Cuda().LaunchHostFunc(
        stream,
        [](void* data) {
          static_cast<std::shared_future<void>*>(data)->wait();
        },
        &opened_);
  }
  void Open() {
    if (!open_called_) open_.set_value();
    open_called_ = true;
  }

 private:
  std::promise<void> open_;
  std::shared_future<void> opened_;
  bool open_called_ = false;
};

// Device 0's primary context, current on the test's thread.
class FakeCudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CU_ASSERT_OK(Cuda().Init(0));
    CU_ASSERT_OK(Cuda().DevicePrimaryCtxRetain(&context_, 0));
    CU_ASSERT_OK(Cuda().CtxSetCurrent(context_));
  }
  void TearDown() override {
    Cuda().CtxSetCurrent(nullptr);
    CU_EXPECT_OK(Cuda().DevicePrimaryCtxRelease(0));
  }

  CUcontext context_ = nullptr;
};

using FakeCudaChild = FakeCudaTest;

TEST(FakeCudaLookupTest, ResolvesTheAbiOfTheRequestedVersion) {
  const Driver& cuda = Cuda();
  CU_ASSERT_OK(cuda.Init(0));
  void* old_sync = nullptr;
  void* new_sync = nullptr;
  CUdriverProcAddressQueryResult status;
  CU_ASSERT_OK(
      cuda.GetProcAddress("cuCtxSynchronize", &old_sync, 2000, 0, &status));
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SUCCESS);
  CU_ASSERT_OK(
      cuda.GetProcAddress("cuCtxSynchronize", &new_sync, 13000, 0, &status));
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SUCCESS);
  ASSERT_NE(old_sync, nullptr);
  ASSERT_NE(new_sync, nullptr);
  EXPECT_NE(old_sync, new_sync);
  // Between the two ABIs a request gets the older one.
  void* between = nullptr;
  CU_ASSERT_OK(
      cuda.GetProcAddress("cuCtxSynchronize", &between, 12090, 0, &status));
  EXPECT_EQ(between, old_sync);

  CUcontext context;
  CU_ASSERT_OK(cuda.DevicePrimaryCtxRetain(&context, 0));
  CU_ASSERT_OK(cuda.CtxSetCurrent(context));
  EXPECT_EQ(reinterpret_cast<PFN_cuCtxSynchronize_v2000>(old_sync)(),
            CUDA_SUCCESS);
  // The CUDA 13 ABI reads its context argument: a bogus one is refused
  // even though a context is current.
  auto sync13 = reinterpret_cast<PFN_cuCtxSynchronize_v13000>(new_sync);
  EXPECT_EQ(sync13(context), CUDA_SUCCESS);
  EXPECT_EQ(sync13(nullptr), CUDA_SUCCESS);
  EXPECT_EQ(sync13(reinterpret_cast<CUcontext>(&status)),
            CUDA_ERROR_INVALID_CONTEXT);

  // cuCtxGetDevice at 13000 names the context's device, not the current
  // one's.
  auto get_device = reinterpret_cast<PFN_cuCtxGetDevice_v13000>(
      Lookup(cuda.GetProcAddress, "cuCtxGetDevice", 13000));
  CUcontext second;
  CU_ASSERT_OK(cuda.DevicePrimaryCtxRetain(&second, 1));
  CUdevice device = -1;
  CU_EXPECT_OK(get_device(&device, second));
  EXPECT_EQ(device, 1);
  auto get_device_old = reinterpret_cast<PFN_cuCtxGetDevice_v2000>(
      Lookup(cuda.GetProcAddress, "cuCtxGetDevice", 2000));
  CU_EXPECT_OK(get_device_old(&device));
  EXPECT_EQ(device, 0);
  CU_EXPECT_OK(cuda.DevicePrimaryCtxRelease(1));

  // The 32-bit cuMemAlloc of CUDA 2.0 is another function, which fails.
  void* alloc_v1 = Lookup(cuda.GetProcAddress, "cuMemAlloc", 2000);
  void* alloc_v2 = Lookup(cuda.GetProcAddress, "cuMemAlloc", 3020);
  EXPECT_NE(alloc_v1, alloc_v2);
  EXPECT_EQ(Lookup(cuda.GetProcAddress, "cuMemAlloc", 12000), alloc_v2);
  unsigned int small_pointer = 0;
  EXPECT_EQ(reinterpret_cast<CUresult (*)(unsigned int*, unsigned int)>(
                alloc_v1)(&small_pointer, 16),
            CUDA_ERROR_NOT_SUPPORTED);
  cuda.CtxSetCurrent(nullptr);
  CU_EXPECT_OK(cuda.DevicePrimaryCtxRelease(0));

  // Above the driver's version: refused.
  void* function = &status;
  EXPECT_EQ(cuda.GetProcAddress("cuInit", &function, 13010, 0, &status),
            CUDA_ERROR_INVALID_VALUE);
  // Unknown: SUCCESS with NULL.
  function = &status;
  CU_EXPECT_OK(
      cuda.GetProcAddress("cuNoSuchFunction", &function, 12000, 0, &status));
  EXPECT_EQ(function, nullptr);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  // Known, but newer than the version asked for.
  function = &status;
  CU_EXPECT_OK(
      cuda.GetProcAddress("cuLaunchHostFunc", &function, 9020, 0, &status));
  EXPECT_EQ(function, nullptr);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
}

TEST_F(FakeCudaTest, DeviceAddressesAreNotHostReadable) {
  CUdeviceptr device = 0;
  CU_ASSERT_OK(Cuda().MemAlloc(&device, 4096));
  std::vector<char> bytes(4096, 7);
  CU_ASSERT_OK(Cuda().MemcpyHtoD(device, bytes.data(), bytes.size()));
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Die of the signal itself, not of a sanitizer's report of it.
    signal(SIGSEGV, SIG_DFL);
    const volatile char* host = reinterpret_cast<const char*>(device);
    const char byte = *host;
    _exit(byte == 7 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
      << "a host read of a device address did not fault (status " << status
      << ")";
  CU_EXPECT_OK(Cuda().MemFree(device));
}

TEST_F(FakeCudaTest, PointerAttributesTellDeviceFromHost) {
  CUdeviceptr device = 0;
  CU_ASSERT_OK(Cuda().MemAlloc(&device, 1000));
  void* pinned = nullptr;
  CU_ASSERT_OK(Cuda().MemHostAlloc(&pinned, 1000, 0));
  unsigned type = 0;
  CU_EXPECT_OK(Cuda().PointerGetAttribute(
      &type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, device + 999));
  EXPECT_EQ(type, CU_MEMORYTYPE_DEVICE);
  CU_EXPECT_OK(
      Cuda().PointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 reinterpret_cast<CUdeviceptr>(pinned)));
  EXPECT_EQ(type, CU_MEMORYTYPE_HOST);
  int ordinal = -1;
  CU_EXPECT_OK(Cuda().PointerGetAttribute(
      &ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, device));
  EXPECT_EQ(ordinal, 0);
  CUcontext owner = nullptr;
  CU_EXPECT_OK(
      Cuda().PointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, device));
  EXPECT_EQ(owner, context_);
  int pageable = 0;
  EXPECT_EQ(
      Cuda().PointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 reinterpret_cast<CUdeviceptr>(&pageable)),
      CUDA_ERROR_INVALID_VALUE);
  // Past the end of the allocation (into its red zone).
  EXPECT_EQ(Cuda().PointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                       device + 1000),
            CUDA_ERROR_INVALID_VALUE);

  // Another device's memory lies elsewhere and says so.
  CUcontext second;
  CU_ASSERT_OK(Cuda().DevicePrimaryCtxRetain(&second, 1));
  CU_ASSERT_OK(Cuda().CtxSetCurrent(second));
  CUdeviceptr other = 0;
  CU_ASSERT_OK(Cuda().MemAlloc(&other, 1000));
  CU_EXPECT_OK(Cuda().PointerGetAttribute(
      &ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, other));
  EXPECT_EQ(ordinal, 1);
  CU_EXPECT_OK(Cuda().MemFree(other));
  CU_ASSERT_OK(Cuda().CtxSetCurrent(context_));
  CU_EXPECT_OK(Cuda().DevicePrimaryCtxRelease(1));

  CU_EXPECT_OK(Cuda().MemFree(device));
  CU_EXPECT_OK(Cuda().MemFreeHost(pinned));
}

TEST_F(FakeCudaTest, CopiesTakePinnedHostMemoryAndRefuseUnknownAddresses) {
  CUstream stream;
  CU_ASSERT_OK(Cuda().StreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr device = 0;
  CU_ASSERT_OK(Cuda().MemAlloc(&device, 256));
  void* pinned = nullptr;
  CU_ASSERT_OK(Cuda().MemHostAlloc(&pinned, 256, 0));
  std::memset(pinned, 0x5a, 256);
  // Pinned host memory where a CUdeviceptr is expected: fine.
  const auto pinned_address = reinterpret_cast<CUdeviceptr>(pinned);
  CU_EXPECT_OK(Cuda().MemcpyDtoDAsync(device, pinned_address, 256, stream));
  std::vector<unsigned char> back(256);
  CU_EXPECT_OK(Cuda().MemcpyDtoHAsync(back.data(), device, 256, stream));
  EXPECT_EQ(back[0], 0x5a);
  EXPECT_EQ(back[255], 0x5a);
  // Pageable memory passed as a CUdeviceptr, an overrun, a freed
  // allocation, a device address passed as host memory: refused.
  std::vector<unsigned char> pageable(256);
  EXPECT_EQ(
      Cuda().MemcpyDtoDAsync(
          device, reinterpret_cast<CUdeviceptr>(pageable.data()), 16, stream),
      CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(Cuda().MemcpyHtoDAsync(device + 128, pageable.data(), 129, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(Cuda().MemcpyHtoDAsync(device, reinterpret_cast<void*>(device), 16,
                                   stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(Cuda().MemcpyHtoDAsync(device, pageable.data(), 16, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  CU_EXPECT_OK(Cuda().StreamSynchronize(stream));
  CU_EXPECT_OK(Cuda().MemFree(device));
  EXPECT_EQ(Cuda().MemcpyHtoD(device, pageable.data(), 16),
            CUDA_ERROR_INVALID_VALUE);
  CU_EXPECT_OK(Cuda().MemFreeHost(pinned));
  CU_EXPECT_OK(Cuda().StreamDestroy(stream));
}

TEST(FakeCudaStreamTest, EventsAloneOrderThreeStreams) {
  RunChild("EventsAloneOrderThreeStreams",
           {"FAKE_CUDA_SLOW_MS=40", "FAKE_CUDA_SLOW_STREAM=0"});
}

// Upload on a slow stream, device-to-device copy on a second, download on
// a third, ordered by events only: without the waits, the later copies
// would run before the upload.
TEST_F(FakeCudaChild, DISABLED_EventsAloneOrderThreeStreams) {
  constexpr size_t kBytes = 1 << 16;
  CUstream upload, copy, download, other;
  CU_ASSERT_OK(Cuda().StreamCreate(&upload, CU_STREAM_NON_BLOCKING));  // Slow.
  CU_ASSERT_OK(Cuda().StreamCreate(&copy, CU_STREAM_NON_BLOCKING));
  CU_ASSERT_OK(Cuda().StreamCreate(&download, CU_STREAM_NON_BLOCKING));
  CU_ASSERT_OK(Cuda().StreamCreate(&other, CU_STREAM_NON_BLOCKING));
  CUevent uploaded, copied, done;
  CU_ASSERT_OK(Cuda().EventCreate(&uploaded, CU_EVENT_DISABLE_TIMING));
  CU_ASSERT_OK(Cuda().EventCreate(&copied, CU_EVENT_DISABLE_TIMING));
  CU_ASSERT_OK(Cuda().EventCreate(&done, 0));
  CUdeviceptr first, second;
  CU_ASSERT_OK(Cuda().MemAlloc(&first, kBytes));
  CU_ASSERT_OK(Cuda().MemAlloc(&second, kBytes));
  void* source;
  void* result;
  CU_ASSERT_OK(Cuda().MemHostAlloc(&source, kBytes, 0));
  CU_ASSERT_OK(Cuda().MemHostAlloc(&result, kBytes, 0));
  for (size_t i = 0; i < kBytes; ++i) {
    static_cast<unsigned char*>(source)[i] =
        static_cast<unsigned char>(i * 7 + 1);
  }
  std::memset(result, 0, kBytes);

  // The waits run only after the events were recorded again below.
  HostGate gate;
  CU_ASSERT_OK(gate.Block(copy));
  CU_ASSERT_OK(gate.Block(download));
  CU_ASSERT_OK(Cuda().MemcpyHtoDAsync(first, source, kBytes, upload));
  CU_ASSERT_OK(Cuda().EventRecord(uploaded, upload));
  CU_ASSERT_OK(Cuda().StreamWaitEvent(copy, uploaded, 0));
  CU_ASSERT_OK(Cuda().MemcpyDtoDAsync(second, first, kBytes, copy));
  CU_ASSERT_OK(Cuda().EventRecord(copied, copy));
  CU_ASSERT_OK(Cuda().StreamWaitEvent(download, copied, 0));
  CU_ASSERT_OK(Cuda().MemcpyDtoHAsync(result, second, kBytes, download));
  CU_ASSERT_OK(Cuda().EventRecord(done, download));
  // Recording the events again, on a stream where they complete at once,
  // must not release the waits already queued.
  CU_ASSERT_OK(Cuda().EventRecord(uploaded, other));
  CU_ASSERT_OK(Cuda().EventRecord(copied, other));
  CU_ASSERT_OK(Cuda().StreamSynchronize(other));
  gate.Open();

  CU_ASSERT_OK(Cuda().EventSynchronize(done));
  EXPECT_EQ(std::memcmp(source, result, kBytes), 0)
      << "the copies ran out of event order";
  CU_EXPECT_OK(Cuda().CtxSynchronize());
  for (CUevent event : {uploaded, copied, done}) {
    CU_EXPECT_OK(Cuda().EventDestroy(event));
  }
  for (CUstream stream : {upload, copy, download, other}) {
    CU_EXPECT_OK(Cuda().StreamDestroy(stream));
  }
  CU_EXPECT_OK(Cuda().MemFree(first));
  CU_EXPECT_OK(Cuda().MemFree(second));
  CU_EXPECT_OK(Cuda().MemFreeHost(source));
  CU_EXPECT_OK(Cuda().MemFreeHost(result));
}

TEST(FakeCudaStreamTest, PendingEventIsNotReadyOnASlowStream) {
  RunChild("PendingEventIsNotReadyOnASlowStream",
           {"FAKE_CUDA_SLOW_MS=500", "FAKE_CUDA_JITTER_US=0"});
}

TEST_F(FakeCudaChild, DISABLED_PendingEventIsNotReadyOnASlowStream) {
  CUstream stream;
  CU_ASSERT_OK(Cuda().StreamCreate(&stream, 0));
  CUdeviceptr device;
  CU_ASSERT_OK(Cuda().MemAlloc(&device, 64));
  CUevent event;
  CU_ASSERT_OK(Cuda().EventCreate(&event, 0));
  const auto start = std::chrono::steady_clock::now();
  CU_ASSERT_OK(Cuda().MemsetD8Async(device, 1, 64, stream));
  CU_ASSERT_OK(Cuda().EventRecord(event, stream));
  // Each operation waits 500 ms first: still pending a while later.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(Cuda().EventQuery(event), CUDA_ERROR_NOT_READY);
  EXPECT_EQ(Cuda().StreamQuery(stream), CUDA_ERROR_NOT_READY);
  float milliseconds = 0;
  EXPECT_EQ(Cuda().EventElapsedTime(&milliseconds, event, event),
            CUDA_ERROR_NOT_READY);
  CU_EXPECT_OK(Cuda().EventSynchronize(event));
  // Two operations of at least 500 ms each.
  EXPECT_GE(std::chrono::steady_clock::now() - start,
            std::chrono::milliseconds(1000));
  CU_EXPECT_OK(Cuda().EventQuery(event));
  CU_EXPECT_OK(Cuda().StreamSynchronize(stream));
  CU_EXPECT_OK(Cuda().StreamQuery(stream));
  CU_EXPECT_OK(Cuda().EventDestroy(event));
  CU_EXPECT_OK(Cuda().StreamDestroy(stream));
  CU_EXPECT_OK(Cuda().MemFree(device));
}

TEST_F(FakeCudaTest, PendingEventIsNotReadyBehindABlockedStream) {
  CUstream stream;
  CU_ASSERT_OK(Cuda().StreamCreate(&stream, 0));
  CUevent event;
  CU_ASSERT_OK(Cuda().EventCreate(&event, 0));
  HostGate gate;
  CU_ASSERT_OK(gate.Block(stream));
  CU_ASSERT_OK(Cuda().EventRecord(event, stream));
  EXPECT_EQ(Cuda().EventQuery(event), CUDA_ERROR_NOT_READY);
  EXPECT_EQ(Cuda().StreamQuery(stream), CUDA_ERROR_NOT_READY);
  gate.Open();
  CU_EXPECT_OK(Cuda().EventSynchronize(event));
  CU_EXPECT_OK(Cuda().EventQuery(event));
  CU_EXPECT_OK(Cuda().EventDestroy(event));
  CU_EXPECT_OK(Cuda().StreamDestroy(stream));
}

TEST_F(FakeCudaTest, NeverRecordedEventIsComplete) {
  CUevent event;
  CU_ASSERT_OK(Cuda().EventCreate(&event, 0));
  CU_EXPECT_OK(Cuda().EventQuery(event));
  CU_EXPECT_OK(Cuda().EventSynchronize(event));
  // A wait on it waits for nothing.
  CUstream stream;
  CU_ASSERT_OK(Cuda().StreamCreate(&stream, 0));
  CU_EXPECT_OK(Cuda().StreamWaitEvent(stream, event, 0));
  CU_EXPECT_OK(Cuda().StreamSynchronize(stream));
  // But it has no time.
  float milliseconds = 0;
  EXPECT_EQ(Cuda().EventElapsedTime(&milliseconds, event, event),
            CUDA_ERROR_INVALID_HANDLE);
  CU_EXPECT_OK(Cuda().EventDestroy(event));
  CU_EXPECT_OK(Cuda().StreamDestroy(stream));
}

struct HostCall {
  std::thread::id thread;
  CUresult get_current = CUDA_SUCCESS;
  CUresult query = CUDA_SUCCESS;
  CUstream stream = nullptr;
  std::atomic<bool> ran{false};
};

TEST_F(FakeCudaTest, HostFunctionsRunOnADriverThreadWithoutDriverCalls) {
  CUstream stream;
  CU_ASSERT_OK(Cuda().StreamCreate(&stream, 0));
  HostCall call;
  call.stream = stream;
  CU_ASSERT_OK(Cuda().LaunchHostFunc(
      stream,
      [](void* data) {
        auto* call = static_cast<HostCall*>(data);
        call->thread = std::this_thread::get_id();
        CUcontext context;
        call->get_current = Cuda().CtxGetCurrent(&context);
        call->query = Cuda().StreamQuery(call->stream);
        call->ran = true;
      },
      &call));
  CU_ASSERT_OK(Cuda().StreamSynchronize(stream));
  ASSERT_TRUE(call.ran);
  EXPECT_NE(call.thread, std::this_thread::get_id());
  EXPECT_EQ(call.get_current, CUDA_ERROR_NOT_PERMITTED);
  EXPECT_EQ(call.query, CUDA_ERROR_NOT_PERMITTED);
  CU_EXPECT_OK(Cuda().StreamDestroy(stream));
}

TEST_F(FakeCudaTest, CallsWithoutACurrentContextFail) {
  CUresult alloc = CUDA_SUCCESS;
  CUresult stream_create = CUDA_SUCCESS;
  CUresult event_create = CUDA_SUCCESS;
  CUresult after_set = CUDA_ERROR_UNKNOWN;
  CUcontext context = context_;
  std::thread worker([&] {
    CUdeviceptr device;
    alloc = Cuda().MemAlloc(&device, 16);
    CUstream stream;
    stream_create = Cuda().StreamCreate(&stream, 0);
    CUevent event;
    event_create = Cuda().EventCreate(&event, 0);
    if (Cuda().CtxSetCurrent(context) == CUDA_SUCCESS) {
      after_set = Cuda().MemAlloc(&device, 16);
      if (after_set == CUDA_SUCCESS) Cuda().MemFree(device);
    }
  });
  worker.join();
  EXPECT_EQ(alloc, CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(stream_create, CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(event_create, CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(after_set, CUDA_SUCCESS);
}

TEST(FakeCudaMemoryTest, OutOfMemoryPastTheLimit) {
  RunChild("OutOfMemoryPastTheLimit", {"FAKE_CUDA_MEMORY_BYTES=1M"});
}

TEST_F(FakeCudaChild, DISABLED_OutOfMemoryPastTheLimit) {
  size_t total = 0;
  CU_ASSERT_OK(Cuda().DeviceTotalMem(&total, 0));
  EXPECT_EQ(total, size_t{1} << 20);
  size_t free = 0;
  CU_ASSERT_OK(Cuda().MemGetInfo(&free, &total));
  EXPECT_EQ(free, size_t{1} << 20);
  CUdeviceptr half, other, more;
  CU_ASSERT_OK(Cuda().MemAlloc(&half, 512 << 10));
  CU_ASSERT_OK(Cuda().MemAlloc(&other, 512 << 10));
  EXPECT_EQ(Cuda().MemAlloc(&more, 1), CUDA_ERROR_OUT_OF_MEMORY);
  CU_ASSERT_OK(Cuda().MemGetInfo(&free, &total));
  EXPECT_EQ(free, 0u);
  CU_EXPECT_OK(Cuda().MemFree(half));
  CU_EXPECT_OK(Cuda().MemAlloc(&more, 1));
  CU_EXPECT_OK(Cuda().MemFree(more));
  CU_EXPECT_OK(Cuda().MemFree(other));
}

TEST(FakeCudaFaultTest, AllocationsFailAfterTheCount) {
  RunChild("AllocationsFailAfterTheCount", {"FAKE_CUDA_FAIL_ALLOC_AFTER=2"});
}

TEST_F(FakeCudaChild, DISABLED_AllocationsFailAfterTheCount) {
  CUdeviceptr first, second, third;
  CU_ASSERT_OK(Cuda().MemAlloc(&first, 16));
  CU_ASSERT_OK(Cuda().MemAlloc(&second, 16));
  EXPECT_EQ(Cuda().MemAlloc(&third, 16), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(Cuda().MemAlloc(&third, 16), CUDA_ERROR_OUT_OF_MEMORY);
  CU_EXPECT_OK(Cuda().MemFree(first));
  CU_EXPECT_OK(Cuda().MemFree(second));
}

TEST(FakeCudaFaultTest, NamedEntryPointFailsAfterTheCount) {
  RunChild("NamedEntryPointFailsAfterTheCount",
           {"FAKE_CUDA_FAIL_AFTER=cuStreamCreate:1"});
}

TEST_F(FakeCudaChild, DISABLED_NamedEntryPointFailsAfterTheCount) {
  CUstream first, second;
  CU_ASSERT_OK(Cuda().StreamCreate(&first, 0));
  EXPECT_EQ(Cuda().StreamCreate(&second, 0), CUDA_ERROR_UNKNOWN);
  const char* name = nullptr;
  CU_EXPECT_OK(Cuda().GetErrorName(CUDA_ERROR_UNKNOWN, &name));
  EXPECT_STREQ(name, "CUDA_ERROR_UNKNOWN");
  CU_EXPECT_OK(Cuda().StreamDestroy(first));
}

TEST(FakeCudaFaultTest, DeviceFaultIsStickyAndSkipsHostFunctions) {
  RunChild("DeviceFaultIsStickyAndSkipsHostFunctions", {});
}

// A memset after the stream-ordered free of its buffer faults when the
// stream gets there; the host function queued behind it never runs, and
// the context stays poisoned until its last release.
TEST_F(FakeCudaChild, DISABLED_DeviceFaultIsStickyAndSkipsHostFunctions) {
  CUstream stream;
  CU_ASSERT_OK(Cuda().StreamCreate(&stream, 0));
  CUdeviceptr device;
  CU_ASSERT_OK(Cuda().MemAlloc(&device, 64));
  HostGate gate;
  CU_ASSERT_OK(gate.Block(stream));
  std::atomic<bool> ran{false};
  CU_ASSERT_OK(Cuda().MemFreeAsync(device, stream));
  CU_ASSERT_OK(Cuda().MemsetD8Async(device, 0, 64, stream));
  CU_ASSERT_OK(Cuda().LaunchHostFunc(
      stream, [](void* data) { *static_cast<std::atomic<bool>*>(data) = true; },
      &ran));
  gate.Open();
  EXPECT_EQ(Cuda().StreamSynchronize(stream), CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_FALSE(ran);
  CUdeviceptr more;
  EXPECT_EQ(Cuda().MemAlloc(&more, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_EQ(Cuda().CtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
  Cuda().StreamDestroy(stream);
  // A fresh primary context is clean.
  CU_ASSERT_OK(Cuda().DevicePrimaryCtxRelease(0));
  CU_ASSERT_OK(Cuda().DevicePrimaryCtxRetain(&context_, 0));
  CU_ASSERT_OK(Cuda().CtxSetCurrent(context_));
  CU_EXPECT_OK(Cuda().MemAlloc(&more, 16));
  CU_EXPECT_OK(Cuda().MemFree(more));
}

TEST_F(FakeCudaTest, NewerPtxThanTheDriverIsRefused) {
  const char* ptx =
      ".version 9.1\n.target sm_90\n.address_size 64\n"
      ".visible .entry k()\n{\n  ret;\n}\n";
  char log[256] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(uintptr_t{sizeof(log)})};
  CUmodule module;
  EXPECT_EQ(Cuda().ModuleLoadDataEx(&module, ptx, 2, options, values),
            CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
  EXPECT_NE(std::strstr(log, "Unsupported .version 9.1"), nullptr) << log;
}

#ifdef FAKE_CUDA_HAVE_PTX_INTERPRETER

// out0[i] = in0[i] + in1[i] for i < n, in the shape the PTX emitter
// (compiler_stub/ptx) gives its kernels: a grid-stride loop.
constexpr char kAddPtx[] = R"(.version 7.8
.target sm_90
.address_size 64

.visible .entry add_f32(
  .param .u64 in0,
  .param .u64 in1,
  .param .u64 out0,
  .param .u64 n
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<14>;

  ld.param.u64 %rd0, [in0];
  cvta.to.global.u64 %rd1, %rd0;
  ld.param.u64 %rd2, [in1];
  cvta.to.global.u64 %rd3, %rd2;
  ld.param.u64 %rd4, [out0];
  cvta.to.global.u64 %rd5, %rd4;
  ld.param.u64 %rd6, [n];
  mov.u32 %r0, %ctaid.x;
  mov.u32 %r1, %ntid.x;
  mov.u32 %r2, %tid.x;
  cvt.u64.u32 %rd7, %r2;
  mad.wide.u32 %rd8, %r0, %r1, %rd7;
  mov.u32 %r3, %nctaid.x;
  mul.wide.u32 %rd9, %r3, %r1;
  setp.ge.u64 %p0, %rd8, %rd6;
  @%p0 bra $L__done;
$L__loop:
  shl.b64 %rd10, %rd8, 2;
  add.u64 %rd11, %rd1, %rd10;
  ld.global.f32 %f0, [%rd11];
  add.u64 %rd12, %rd3, %rd10;
  ld.global.f32 %f1, [%rd12];
  add.rn.f32 %f2, %f0, %f1;
  add.u64 %rd13, %rd5, %rd10;
  st.global.f32 [%rd13], %f2;
  add.u64 %rd8, %rd8, %rd9;
  setp.lt.u64 %p1, %rd8, %rd6;
  @%p1 bra $L__loop;
$L__done:
  ret;
}
)";

// Loads kAddPtx and launches it over `n` elements of three buffers of
// `elements` floats; returns the launch's stream (synchronized by the
// caller) in `*stream`.
void LaunchAdd(CUfunction add, CUstream stream, CUdeviceptr a, CUdeviceptr b,
               CUdeviceptr c, uint64_t n, CUresult* result) {
  void* parameters[] = {&a, &b, &c, &n};
  *result = Cuda().LaunchKernel(add, 3, 1, 1, 64, 1, 1, 0, stream, parameters,
                                nullptr);
}

TEST_F(FakeCudaTest, RunsAPtxKernel) {
  char error_log[512] = {};
  char info_log[512] = {};
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {
      error_log, reinterpret_cast<void*>(uintptr_t{sizeof(error_log)}),
      info_log, reinterpret_cast<void*>(uintptr_t{sizeof(info_log)})};
  CUmodule module;
  ASSERT_EQ(Cuda().ModuleLoadDataEx(&module, kAddPtx, 4, options, values),
            CUDA_SUCCESS)
      << error_log;
  CUfunction add;
  CU_ASSERT_OK(Cuda().ModuleGetFunction(&add, module, "add_f32"));
  CUfunction missing;
  EXPECT_EQ(Cuda().ModuleGetFunction(&missing, module, "sub_f32"),
            CUDA_ERROR_NOT_FOUND);

  constexpr size_t kCount = 1000;
  std::vector<float> a(kCount), b(kCount), c(kCount, -1.0f);
  for (size_t i = 0; i < kCount; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i) + 1.0f;
  }
  CUstream stream;
  CU_ASSERT_OK(Cuda().StreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr da, db, dc;
  const size_t bytes = kCount * sizeof(float);
  CU_ASSERT_OK(Cuda().MemAlloc(&da, bytes));
  CU_ASSERT_OK(Cuda().MemAlloc(&db, bytes));
  CU_ASSERT_OK(Cuda().MemAlloc(&dc, bytes));
  CU_ASSERT_OK(Cuda().MemcpyHtoDAsync(da, a.data(), bytes, stream));
  CU_ASSERT_OK(Cuda().MemcpyHtoDAsync(db, b.data(), bytes, stream));
  CUresult launched;
  LaunchAdd(add, stream, da, db, dc, kCount, &launched);
  CU_ASSERT_OK(launched);
  CU_ASSERT_OK(Cuda().MemcpyDtoHAsync(c.data(), dc, bytes, stream));
  CU_ASSERT_OK(Cuda().StreamSynchronize(stream));
  for (size_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
  }
  CU_EXPECT_OK(Cuda().ModuleUnload(module));
  EXPECT_EQ(
      Cuda().LaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr),
      CUDA_ERROR_INVALID_HANDLE);
  for (CUdeviceptr buffer : {da, db, dc}) CU_EXPECT_OK(Cuda().MemFree(buffer));
  CU_EXPECT_OK(Cuda().StreamDestroy(stream));
}

TEST_F(FakeCudaTest, InvalidPtxFailsWithTheErrorLog) {
  char log[512] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(uintptr_t{sizeof(log)})};
  const char* ptx =
      ".version 7.8\n.target sm_90\n.address_size 64\n"
      ".visible .entry k()\n{\n  frobnicate.u32 %r0;\n  ret;\n}\n";
  CUmodule module;
  EXPECT_EQ(Cuda().ModuleLoadDataEx(&module, ptx, 2, options, values),
            CUDA_ERROR_INVALID_PTX);
  EXPECT_NE(std::strstr(log, "line"), nullptr) << log;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[1]), std::strlen(log));
}

TEST(FakeCudaKernelTest, KernelFaultIsSticky) {
  RunChild("KernelFaultIsSticky", {});
}

TEST_F(FakeCudaChild, DISABLED_KernelFaultIsSticky) {
  CUmodule module;
  CU_ASSERT_OK(Cuda().ModuleLoadDataEx(&module, kAddPtx, 0, nullptr, nullptr));
  CUfunction add;
  CU_ASSERT_OK(Cuda().ModuleGetFunction(&add, module, "add_f32"));
  CUstream stream;
  CU_ASSERT_OK(Cuda().StreamCreate(&stream, 0));
  CUdeviceptr a, b, c;
  CU_ASSERT_OK(Cuda().MemAlloc(&a, 64 * sizeof(float)));
  CU_ASSERT_OK(Cuda().MemAlloc(&b, 64 * sizeof(float)));
  CU_ASSERT_OK(Cuda().MemAlloc(&c, 64 * sizeof(float)));
  CU_ASSERT_OK(Cuda().MemsetD8Async(a, 0, 64 * sizeof(float), stream));
  CU_ASSERT_OK(Cuda().MemsetD8Async(b, 0, 64 * sizeof(float), stream));
  // Twice as many elements as the buffers hold.
  CUresult launched;
  LaunchAdd(add, stream, a, b, c, 128, &launched);
  CU_ASSERT_OK(launched);
  EXPECT_EQ(Cuda().StreamSynchronize(stream), CUDA_ERROR_ILLEGAL_ADDRESS);
  CUdeviceptr more;
  EXPECT_EQ(Cuda().MemAlloc(&more, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
}

TEST(FakeCudaKernelTest, LaunchFailureIsInjected) {
  RunChild("LaunchFailureIsInjected", {"FAKE_CUDA_FAIL_LAUNCH=1"});
}

TEST_F(FakeCudaChild, DISABLED_LaunchFailureIsInjected) {
  CUmodule module;
  CU_ASSERT_OK(Cuda().ModuleLoadDataEx(&module, kAddPtx, 0, nullptr, nullptr));
  CUfunction add;
  CU_ASSERT_OK(Cuda().ModuleGetFunction(&add, module, "add_f32"));
  CUstream stream;
  CU_ASSERT_OK(Cuda().StreamCreate(&stream, 0));
  CUdeviceptr a;
  CU_ASSERT_OK(Cuda().MemAlloc(&a, 64));
  CUresult launched;
  LaunchAdd(add, stream, a, a, a, 0, &launched);
  EXPECT_EQ(launched, CUDA_ERROR_LAUNCH_FAILED);
}

#endif  // FAKE_CUDA_HAVE_PTX_INTERPRETER

}  // namespace
