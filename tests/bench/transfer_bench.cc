// Transfer benchmark: host->device, device->host and device->device copies
// through the C ABI of a plugin (tpu_emu by default), each against memcpy of
// the same bytes on one thread (the plugin's copy also runs on one worker
// thread), alternating in the same run. Plus the round trip of an event
// through the runtime against a mutex + condition variable ping-pong.
//
//   transfer_bench --plugin=PATH [--option k=v]... [--quick]
//
// Host->device makes a fresh buffer from host memory every iteration with
// kImmutableUntilTransferCompletes (one copy) and waits until it is defined;
// the runtime recycles device memory, so this measures the copy, not page
// faults. Device->host copies into a warm host array. Device->device copies
// to another chip.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/client/client.h"
#include "runtime/client/status_from_error.h"
#include "tests/bench/benchmark_client.h"
#include "tests/bench/ping_pong.h"
#include "tests/bench/ratio_benchmark.h"

namespace {

using pjrtx::bench::CompareAlternating;
using pjrtx::bench::PingPong;
using pjrtx::bench::PrintResult;
using pjrtx::bench::RatioResult;
using pjrtx::client::Client;
using pjrtx::client::TakeStatus;

struct Context {
  const PJRTX_Api* api;
  PJRTX_Client* client;
  PJRTX_Device* device;
  PJRTX_Device* other;
};

bool Ok(const Context& c, PJRTX_Error* error) {
  absl::Status status = TakeStatus(c.api, error);
  if (!status.ok())
    std::fprintf(stderr, "error: %s\n", status.ToString().c_str());
  return status.ok();
}

bool AwaitAndDestroy(const Context& c, PJRTX_Event* event) {
  PJRTX_CLIENT_ARGS(PJRTX_Event_Await_Args, await);
  await.event = event;
  bool ok = Ok(c, c.api->Event_Await(&await));
  PJRTX_CLIENT_ARGS(PJRTX_Event_Destroy_Args, destroy);
  destroy.event = event;
  return Ok(c, c.api->Event_Destroy(&destroy)) && ok;
}

void DestroyBuffer(const Context& c, PJRTX_Buffer* buffer) {
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_Destroy_Args, destroy);
  destroy.buffer = buffer;
  Ok(c, c.api->Buffer_Destroy(&destroy));
}

PJRTX_Buffer* FromHost(const Context& c, const void* data, int64_t bytes,
                       PJRTX_Device* device) {
  PJRTX_CLIENT_ARGS(PJRTX_Client_BufferFromHostBuffer_Args, args);
  args.client = c.client;
  args.data = data;
  args.type = PJRTX_Buffer_Type_U8;
  args.dims = &bytes;
  args.num_dims = 1;
  args.host_buffer_semantics =
      PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes;
  args.device = device;
  if (!Ok(c, c.api->Client_BufferFromHostBuffer(&args))) return nullptr;
  AwaitAndDestroy(c, args.done_with_host_buffer);
  PJRTX_CLIENT_ARGS(PJRTX_Buffer_ReadyEvent_Args, ready);
  ready.buffer = args.buffer;
  if (!Ok(c, c.api->Buffer_ReadyEvent(&ready)) ||
      !AwaitAndDestroy(c, ready.event)) {
    DestroyBuffer(c, args.buffer);
    return nullptr;
  }
  return args.buffer;
}

std::string Bandwidth(double bytes, double seconds) {
  return absl::StrFormat("%.2f", bytes / seconds / 1e9);
}

void RunSize(const Context& c, int64_t bytes, int trials, bool* failed) {
  std::vector<char> host(bytes, 1), sink(bytes, 2);
  const int iterations =
      static_cast<int>(std::max<int64_t>(1, (int64_t{64} << 20) / bytes));
  auto memcpy_anchor = [&] {
    std::memcpy(sink.data(), host.data(), bytes);
    return true;
  };
  const std::string size = bytes >= (1 << 20)
                               ? absl::StrCat(bytes >> 20, "MiB")
                               : absl::StrCat(bytes >> 10, "KiB");
  auto report = [&](const std::string& what, const RatioResult& r) {
    PrintResult(
        absl::StrCat("transfer.", what, ".", size), r,
        absl::StrCat("GBps=", Bandwidth(bytes, r.subject_seconds),
                     " memcpy_GBps=", Bandwidth(bytes, r.anchor_seconds)));
  };

  report("h2d", CompareAlternating(
                    [&] {
                      PJRTX_Buffer* b =
                          FromHost(c, host.data(), bytes, c.device);
                      if (b != nullptr) DestroyBuffer(c, b);
                      return b != nullptr;
                    },
                    memcpy_anchor, iterations, trials, failed));

  PJRTX_Buffer* source = FromHost(c, host.data(), bytes, c.device);
  if (source == nullptr) {
    *failed = true;
    return;
  }
  report("d2h", CompareAlternating(
                    [&] {
                      PJRTX_CLIENT_ARGS(PJRTX_Buffer_ToHostBuffer_Args, args);
                      args.src = source;
                      args.dst = sink.data();
                      args.dst_size = sink.size();
                      return Ok(c, c.api->Buffer_ToHostBuffer(&args)) &&
                             AwaitAndDestroy(c, args.event);
                    },
                    memcpy_anchor, iterations, trials, failed));
  report("d2d", CompareAlternating(
                    [&] {
                      PJRTX_CLIENT_ARGS(PJRTX_Buffer_CopyToDevice_Args, args);
                      args.buffer = source;
                      args.dst_device = c.other;
                      if (!Ok(c, c.api->Buffer_CopyToDevice(&args)))
                        return false;
                      PJRTX_CLIENT_ARGS(PJRTX_Buffer_ReadyEvent_Args, ready);
                      ready.buffer = args.dst_buffer;
                      bool ok = Ok(c, c.api->Buffer_ReadyEvent(&ready)) &&
                                AwaitAndDestroy(c, ready.event);
                      DestroyBuffer(c, args.dst_buffer);
                      return ok;
                    },
                    memcpy_anchor, iterations, trials, failed));
  DestroyBuffer(c, source);
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  auto setup = pjrtx::bench::OpenBenchmarkClient(argc, argv, {}, &exit_code);
  if (!setup) return exit_code;
  const bool quick = setup->quick;
  Client* client = setup->client.get();
  auto devices = client->addressable_devices();
  if (devices.size() < 2) {
    std::fprintf(stderr, "error: needs two addressable devices\n");
    return 1;
  }
  Context c{client->api(), client->handle(), devices[0].handle(),
            devices[1].handle()};
  std::printf(
      "transfer_bench: %s, %s; ratio = memcpy time / runtime time "
      "(1 thread each)\n",
      client->platform_name().c_str(), client->platform_version().c_str());
  const int trials = quick ? 5 : 7;
  const int64_t max_size = quick ? (int64_t{1} << 20) : (int64_t{256} << 20);
  bool failed = false;
  for (int64_t bytes = 64 << 10; bytes <= max_size; bytes *= 4) {
    RunSize(c, bytes, trials, &failed);
  }

  // Event round trip: a 4-byte device->host copy enqueued and awaited,
  // against a two-thread ping-pong.
  char value[4] = {0};
  PJRTX_Buffer* tiny = FromHost(c, value, sizeof(value), c.device);
  PingPong ping_pong;
  const int round_trips = quick ? 2000 : 20000;
  RatioResult latency = CompareAlternating(
      [&] {
        PJRTX_CLIENT_ARGS(PJRTX_Buffer_ToHostBuffer_Args, args);
        args.src = tiny;
        args.dst = value;
        args.dst_size = sizeof(value);
        return Ok(c, c.api->Buffer_ToHostBuffer(&args)) &&
               AwaitAndDestroy(c, args.event);
      },
      [&] { return ping_pong.RoundTrip(); }, round_trips / 5, 5, &failed);
  PrintResult(
      "transfer.event_round_trip", latency,
      absl::StrFormat("us=%.2f pingpong_us=%.2f", latency.subject_seconds * 1e6,
                      latency.anchor_seconds * 1e6));
  DestroyBuffer(c, tiny);
  if (failed) {
    std::fprintf(stderr, "error: a transfer failed during the benchmark\n");
    return 1;
  }
  return 0;
}
