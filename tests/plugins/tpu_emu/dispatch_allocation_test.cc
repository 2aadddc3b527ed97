// Heap allocations per execute of a tiny program through the C ABI, counted
// by replacing the global operator new in this binary (the plugin's
// references resolve to it). Counts every thread: the caller's enqueue, the
// worker's run, and the completion.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <thread>

#include "gtest/gtest.h"
#include "runtime/client/client.h"
#include "runtime/client/executable.h"
#include "runtime/client/plugin_library.h"

namespace {
// Allocations by the thread that calls Execute, and by every other thread
// (the device worker that runs the program and completes the event).
std::atomic<int64_t> caller_allocations{0};
std::atomic<int64_t> worker_allocations{0};
std::atomic<std::thread::id> caller_thread{};
}  // namespace

void* operator new(std::size_t size) {
  (std::this_thread::get_id() == caller_thread.load(std::memory_order_relaxed)
       ? caller_allocations
       : worker_allocations)
      .fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace pjrtx {
namespace {

constexpr char kTinyAdd[] = R"(
func.func @main(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %x, %y : tensor<f32>
  func.return %0 : tensor<f32>
}
)";

TEST(DispatchAllocationTest, TinyExecuteAllocationsPerRun) {
  auto library = client::PluginLibrary::Load(TPU_EMU_PLUGIN);
  ASSERT_TRUE(library.ok()) << library.status();
  auto client =
      client::Client::Create(*library, {{"topology", std::string("v5e:1x1")}});
  ASSERT_TRUE(client.ok()) << client.status();
  const client::Device device = client->addressable_devices()[0];
  auto executable = client::Executable::Compile(*client, kTinyAdd);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const float one = 1.0f;
  auto a = client->BufferFromHost(&one, PJRTX_Buffer_Type_F32, {}, device);
  auto b = client->BufferFromHost(&one, PJRTX_Buffer_Type_F32, {}, device);
  ASSERT_TRUE(a.ok() && b.ok());

  const PJRTX_Api* api = client->api();
  PJRTX_Buffer* arguments[] = {a->handle(), b->handle()};
  PJRTX_Buffer* const* argument_lists[] = {arguments};
  PJRTX_Buffer* outputs[1];
  PJRTX_Buffer** output_lists[] = {outputs};
  PJRTX_Event* done[1];
  PJRTX_Device* devices[] = {device.handle()};
  auto run = [&] {
    PJRTX_LoadedExecutable_Execute_Args args{};
    args.struct_size = PJRTX_LoadedExecutable_Execute_Args_STRUCT_SIZE;
    args.executable = executable->handle();
    args.devices = devices;
    args.num_devices = 1;
    args.argument_lists = argument_lists;
    args.num_args = 2;
    args.output_lists = output_lists;
    args.device_complete_events = done;
    if (api->LoadedExecutable_Execute(&args) != nullptr) return false;
    PJRTX_Event_Await_Args await{};
    await.struct_size = PJRTX_Event_Await_Args_STRUCT_SIZE;
    await.event = done[0];
    const bool ok = api->Event_Await(&await) == nullptr;
    PJRTX_Event_Destroy_Args event_destroy{};
    event_destroy.struct_size = PJRTX_Event_Destroy_Args_STRUCT_SIZE;
    event_destroy.event = done[0];
    api->Event_Destroy(&event_destroy);
    PJRTX_Buffer_Destroy_Args buffer_destroy{};
    buffer_destroy.struct_size = PJRTX_Buffer_Destroy_Args_STRUCT_SIZE;
    buffer_destroy.buffer = outputs[0];
    api->Buffer_Destroy(&buffer_destroy);
    return ok;
  };
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(run());  // Warm caches.
  constexpr int kRuns = 1000;
  caller_thread.store(std::this_thread::get_id());
  const int64_t caller_before = caller_allocations.load();
  const int64_t worker_before = worker_allocations.load();
  for (int i = 0; i < kRuns; ++i) ASSERT_TRUE(run());
  const double caller =
      static_cast<double>(caller_allocations.load() - caller_before) / kRuns;
  const int64_t worker = worker_allocations.load() - worker_before;
  std::printf("allocations per execute: caller %.2f, worker %.2f\n", caller,
              static_cast<double>(worker) / kRuns);
  // The device side -- running the program into the output memory and
  // completing the event -- allocates nothing once warm.
  EXPECT_EQ(worker, 0);
  // The caller's side allocates only the objects a run consists of: the
  // output buffer and completion event handles it hands back, the core
  // buffer and event behind them, the output memory's allocation record
  // (two), the queue entry and its task. The bookkeeping of the call lives
  // inline.
  EXPECT_LE(caller, 8.5);
}

}  // namespace
}  // namespace pjrtx
