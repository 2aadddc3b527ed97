// One process of a multi-process collectives job, as a framework would run
// it: started by `pjrtx launch` or `mpirun`, it finds the job's key-value
// store from the launcher's environment, makes its client one part of the
// job and runs communicators over every device of the job.
//
//   collectives_job --plugin=PATH MODE [--layout=slices|hosts|processes]
//                   [--processes-per-host=1] [--topology=v5e:2x2] [--k=1024]
//
// --layout says how the plugin is told its part: `slices` (the TPU
// emulator: one slice of --topology per process, options num_slices and
// slice_index), or, for the CUDA plugin (options num_processes and
// process_index, each process with the GPUs it finds), `hosts` (each
// --processes-per-host consecutive processes on a machine of their own,
// option host_name: a slice each) or
// `processes` (the processes of one machine: one slice, NCCL across
// them).
//
// Modes (each process checks its own ranks and exits 0 when they pass):
//   ops       every kind of collective across processes, against values
//             computed here.
//   counters  the hierarchical all-reduce of M = k*c*s*4 bytes over s
//             slices of c chips moves exactly 2(s-1)/s * M/c bytes per chip
//             over DCN and stages one copy out of and one into each chip
//             (of its shard, M/c), while a naive exchange (every slice's buffer
//             to every other slice) moves (s-1) * M/c per chip. With
//             --layout=processes (one slice) nothing crosses a slice and
//             nothing is staged.
//   kill      the last process kills itself in the middle of an all-reduce;
//             every other rank's event must fail with UNAVAILABLE or
//             DEADLINE_EXCEEDED within the timeout. Survivors report and
//             exit 3 (SIGTERM from the launcher is held off until then).
//   absent    the last process never creates the communicator: every
//             other process's creation fails with DEADLINE_EXCEEDED within
//             the timeout.
//   mismatch  process 0 all-reduces k elements, the others 2k: every rank
//             must fail with INVALID_ARGUMENT (on NCCL across processes,
//             with whatever NCCL reports).
//   compiled  one program with stablehlo.all_reduce, all_gather and
//             replica_id, compiled for every chip of the job and run on
//             the local ones: its collectives meet across processes.

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/client/buffer.h"
#include "runtime/client/client.h"
#include "runtime/client/communicator.h"
#include "runtime/client/device.h"
#include "runtime/client/executable.h"
#include "runtime/client/plugin_library.h"
#include "runtime/coordination/client_key_value.h"
#include "runtime/coordination/job_coordination.h"
#include "runtime/coordination/launch_environment.h"
#include "support/status_macros.h"

namespace {

using pjrtx::client::Buffer;
using pjrtx::client::Client;
using pjrtx::client::Communicator;
using pjrtx::client::Device;
using pjrtx::client::TransferCounters;
using Clock = std::chrono::steady_clock;

constexpr int64_t kTimeoutMs = 20000;
constexpr int64_t kKillTimeoutMs = 4000;

struct Flags {
  std::string plugin;
  std::string mode;
  std::string layout = "slices";
  std::string topology = "v5e:2x2";
  int64_t k = 1024;
  int64_t processes_per_host = 1;  // --layout=hosts.
};

// The process's view of the job, and its verdict.
struct Job {
  int process = 0;
  int processes = 1;
  Client* client = nullptr;
  std::vector<Device> devices;  // Rank r is devices[r].
  std::vector<int64_t> ids;
  // Whether the processes are one slice (processes of one machine), or
  // else how many processes each slice has.
  bool one_slice = false;
  int64_t processes_per_host = 1;
  int failures = 0;

  void Check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    std::fflush(stdout);
    if (!ok) ++failures;
  }
};

// Exact in f32 for every sum and product the checks make.
float Value(int64_t rank, int64_t i) {
  return static_cast<float>(rank + 1) + 0.5f * static_cast<float>(i % 7);
}

absl::StatusOr<Buffer> Upload(const Job& job, const std::vector<float>& data,
                              const Device& device) {
  return job.client->BufferFromHost(data.data(), PJRTX_Buffer_Type_F32,
                                    {static_cast<int64_t>(data.size())},
                                    device);
}

absl::StatusOr<std::vector<float>> Download(const Buffer& buffer) {
  PJRTX_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, buffer.ToHostSync());
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

// Inputs of the local ranks: `count` values of input(rank, i).
template <typename Input>
absl::StatusOr<std::vector<Buffer>> Inputs(const Job& job,
                                           const Communicator& communicator,
                                           const std::vector<Device>& devices,
                                           int64_t count, Input input) {
  std::vector<Buffer> buffers;
  for (int64_t rank : communicator.local_ranks()) {
    std::vector<float> data(count);
    for (int64_t i = 0; i < count; ++i) data[i] = input(rank, i);
    PJRTX_ASSIGN_OR_RETURN(Buffer buffer, Upload(job, data, devices[rank]));
    buffers.push_back(std::move(buffer));
  }
  return buffers;
}

std::vector<const Buffer*> Pointers(const std::vector<Buffer>& buffers) {
  std::vector<const Buffer*> pointers;
  for (const Buffer& buffer : buffers) pointers.push_back(&buffer);
  return pointers;
}

// Awaits every event of `result` and compares each local rank's output
// with expected(rank, i).
template <typename Expected>
void CheckResult(Job& job, const std::string& name,
                 const std::vector<int64_t>& local_ranks,
                 absl::StatusOr<Communicator::Result> result, int64_t count,
                 Expected expected) {
  if (!result.ok()) {
    job.Check(false, absl::StrCat(name, ": ", result.status().ToString()));
    return;
  }
  for (size_t j = 0; j < local_ranks.size(); ++j) {
    const int64_t rank = local_ranks[j];
    absl::Status done = result->done[j].Await();
    if (!done.ok()) {
      job.Check(false,
                absl::StrCat(name, " rank ", rank, ": ", done.ToString()));
      continue;
    }
    absl::StatusOr<std::vector<float>> got = Download(result->outputs[j]);
    if (!got.ok() || static_cast<int64_t>(got->size()) != count) {
      job.Check(false, absl::StrCat(name, " rank ", rank, ": output of ",
                                    got.ok() ? got->size() : 0,
                                    " values, expected ", count));
      continue;
    }
    int64_t wrong = -1;
    for (int64_t i = 0; i < count && wrong < 0; ++i) {
      if ((*got)[i] != expected(rank, i)) wrong = i;
    }
    job.Check(wrong < 0,
              wrong < 0 ? absl::StrCat(name, " rank ", rank)
                        : absl::StrCat(name, " rank ", rank, ": element ",
                                       wrong, " is ", (*got)[wrong],
                                       ", expected ", expected(rank, wrong)));
  }
}

// A communicator over `ids`, or nullopt after reporting why not.
std::optional<Communicator> CreateOver(Job& job,
                                       const std::vector<int64_t>& ids,
                                       int64_t timeout_ms) {
  absl::StatusOr<Communicator> made =
      Communicator::Create(*job.client, ids, timeout_ms);
  if (!made.ok()) {
    job.Check(false, absl::StrCat("create: ", made.status().ToString()));
    return std::nullopt;
  }
  return *std::move(made);
}

void RunOps(Job& job) {
  std::optional<Communicator> made = CreateOver(job, job.ids, kTimeoutMs);
  if (!made.has_value()) return;
  const Communicator& comm = *made;
  const std::vector<int64_t>& local = comm.local_ranks();
  const int64_t n = static_cast<int64_t>(job.ids.size());
  const int64_t count = 4 * n * 37;  // Not a power of two.
  auto sum = [n](int64_t, int64_t i) {
    float total = 0;
    for (int64_t r = 0; r < n; ++r) total += Value(r, i);
    return total;
  };
  auto inputs = Inputs(job, comm, job.devices, count, Value);
  if (!inputs.ok()) {
    job.Check(false, inputs.status().ToString());
    return;
  }
  const std::vector<const Buffer*> in = Pointers(*inputs);
  struct Pinned {
    const char* name;
    PJRTX_CollectiveAlgorithm algorithm;
  };
  for (const Pinned& pinned :
       {Pinned{"auto", PJRTX_CollectiveAlgorithm_AUTO},
        Pinned{"ring", PJRTX_CollectiveAlgorithm_RING},
        Pinned{"halving_doubling", PJRTX_CollectiveAlgorithm_HALVING_DOUBLING},
        Pinned{"hierarchical", PJRTX_CollectiveAlgorithm_HIERARCHICAL}}) {
    Communicator::Options options;
    options.algorithm = pinned.algorithm;
    CheckResult(job, absl::StrCat("all-reduce sum (", pinned.name, ")"), local,
                comm.AllReduce(in, PJRTX_ReduceOp_SUM, options), count, sum);
  }
  CheckResult(job, "all-reduce max", local,
              comm.AllReduce(in, PJRTX_ReduceOp_MAX), count,
              [n](int64_t, int64_t i) { return Value(n - 1, i); });
  const int64_t block = count / n;
  CheckResult(
      job, "reduce-scatter sum", local,
      comm.ReduceScatter(in, PJRTX_ReduceOp_SUM), block,
      [&](int64_t rank, int64_t i) { return sum(0, rank * block + i); });
  CheckResult(
      job, "all-gather", local, comm.AllGather(in), count * n,
      [count](int64_t, int64_t i) { return Value(i / count, i % count); });
  CheckResult(job, "broadcast from the last rank", local,
              comm.Broadcast(in, n - 1), count,
              [n](int64_t, int64_t i) { return Value(n - 1, i); });
  // All-to-all: block j of rank r's output is block r of rank j's input.
  CheckResult(job, "all-to-all", local, comm.AllToAll(in), count,
              [block](int64_t rank, int64_t i) {
                return Value(i / block, rank * block + i % block);
              });
  std::vector<int64_t> send_to;
  std::vector<int64_t> recv_from;
  for (int64_t rank : local) {
    send_to.push_back((rank + 1) % n);
    recv_from.push_back((rank + n - 1) % n);
  }
  CheckResult(
      job, "send/recv ring shift", local, comm.SendRecv(in, send_to, recv_from),
      count,
      [n](int64_t rank, int64_t i) { return Value((rank + n - 1) % n, i); });
}

absl::StatusOr<std::vector<TransferCounters>> Snapshot(
    const std::vector<Device>& devices, const std::vector<int64_t>& ranks) {
  std::vector<TransferCounters> counters;
  for (int64_t rank : ranks) {
    PJRTX_ASSIGN_OR_RETURN(TransferCounters c,
                           devices[rank].transfer_counters());
    counters.push_back(c);
  }
  return counters;
}

// Runs `run` and returns per local rank the counters it moved.
template <typename Run>
absl::StatusOr<std::vector<TransferCounters>> Measure(
    const Job& job, const std::vector<int64_t>& ranks, Run run) {
  PJRTX_ASSIGN_OR_RETURN(auto before, Snapshot(job.devices, ranks));
  if (absl::Status s = run(); !s.ok()) return s;
  PJRTX_ASSIGN_OR_RETURN(auto after, Snapshot(job.devices, ranks));
  for (size_t j = 0; j < ranks.size(); ++j) {
    TransferCounters& a = after[j];
    const TransferCounters& b = before[j];
    a.dcn_sent_bytes -= b.dcn_sent_bytes;
    a.dcn_sent_ops -= b.dcn_sent_ops;
    a.staging_bytes -= b.staging_bytes;
    a.staging_ops -= b.staging_ops;
    a.device_to_host_ops -= b.device_to_host_ops;
    a.host_to_device_ops -= b.host_to_device_ops;
  }
  return after;
}

absl::Status AwaitAll(const Communicator::Result& result) {
  for (const auto& done : result.done) {
    if (absl::Status s = done.Await(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

void RunCounters(Job& job, int64_t k) {
  std::optional<Communicator> made = CreateOver(job, job.ids, kTimeoutMs);
  if (!made.has_value()) return;
  const Communicator& comm = *made;
  const std::vector<int64_t> local = comm.local_ranks();
  // Slices of c chips, each of `per_slice` processes (numbered in order).
  const int64_t per_slice =
      job.one_slice ? job.processes : job.processes_per_host;
  const int64_t s = job.processes / per_slice;
  const int64_t local_chips = static_cast<int64_t>(local.size());
  const int64_t c = local_chips * per_slice;
  const int64_t n = static_cast<int64_t>(job.ids.size());
  const int64_t count = k * c * s;
  const int64_t m = count * 4;  // M, bytes.
  auto inputs = Inputs(job, comm, job.devices, count, Value);
  if (!inputs.ok()) {
    job.Check(false, inputs.status().ToString());
    return;
  }
  Communicator::Options options;
  options.algorithm = PJRTX_CollectiveAlgorithm_HIERARCHICAL;
  absl::StatusOr<Communicator::Result> result;
  auto hierarchical = Measure(job, local, [&] {
    result = comm.AllReduce(Pointers(*inputs), PJRTX_ReduceOp_SUM, options);
    return result.ok() ? AwaitAll(*result) : result.status();
  });
  if (!hierarchical.ok()) {
    job.Check(false, absl::StrCat("hierarchical all-reduce: ",
                                  hierarchical.status().ToString()));
    return;
  }
  CheckResult(job, "hierarchical all-reduce values", local, std::move(result),
              count, [n](int64_t, int64_t i) {
                float total = 0;
                for (int64_t r = 0; r < n; ++r) total += Value(r, i);
                return total;
              });

  // The naive scheme: chip r of every slice sends its 1/c of the slice's
  // buffer to chip r of every other slice (an all-gather over DCN). This
  // process's chips are at positions first_position.. of its slice.
  const int64_t first_position = job.process % per_slice * local_chips;
  std::vector<Communicator> columns;
  for (int64_t j = 0; j < local_chips; ++j) {
    const int64_t position = first_position + j;
    std::vector<int64_t> column;
    for (int64_t slice = 0; slice < s; ++slice) {
      column.push_back(job.ids[slice * c + position]);
    }
    absl::StatusOr<Communicator> column_comm =
        Communicator::Create(*job.client, column, kTimeoutMs);
    if (!column_comm.ok()) {
      job.Check(false, absl::StrCat("create column ", position, ": ",
                                    column_comm.status().ToString()));
      return;
    }
    columns.push_back(*std::move(column_comm));
  }
  std::vector<Buffer> shards;
  for (int64_t j = 0; j < local_chips; ++j) {
    const int64_t rank = job.process * local_chips + j;
    std::vector<float> shard(count / c, 1.0f);
    absl::StatusOr<Buffer> buffer = Upload(job, shard, job.devices[rank]);
    if (!buffer.ok()) {
      job.Check(false, buffer.status().ToString());
      return;
    }
    shards.push_back(*std::move(buffer));
  }
  auto naive = Measure(job, local, [&]() -> absl::Status {
    std::vector<Communicator::Result> results;
    for (int64_t j = 0; j < local_chips; ++j) {
      PJRTX_ASSIGN_OR_RETURN(auto gathered, columns[j].AllGather({&shards[j]}));
      results.push_back(std::move(gathered));
    }
    for (const auto& r : results) {
      if (absl::Status st = AwaitAll(r); !st.ok()) return st;
    }
    return absl::OkStatus();
  });
  if (!naive.ok()) {
    job.Check(false,
              absl::StrCat("naive exchange: ", naive.status().ToString()));
    return;
  }

  const int64_t want_hierarchical = 2 * (s - 1) * m / (s * c);
  const int64_t want_naive = (s - 1) * m / c;
  const int64_t want_staging_ops = s > 1 ? 2 : 0;
  for (size_t j = 0; j < local.size(); ++j) {
    const TransferCounters& h = (*hierarchical)[j];
    const TransferCounters& v = (*naive)[j];
    std::printf(
        "COUNTERS s=%lld c=%lld M=%lld rank=%lld hierarchical_dcn_bytes=%lld "
        "(2(s-1)/s*M/c=%lld, 2M/c=%lld) staging_ops=%lld staging_bytes=%lld "
        "naive_dcn_bytes=%lld ((s-1)*M/c=%lld)\n",
        static_cast<long long>(s), static_cast<long long>(c),
        static_cast<long long>(m), static_cast<long long>(local[j]),
        static_cast<long long>(h.dcn_sent_bytes),
        static_cast<long long>(want_hierarchical),
        static_cast<long long>(2 * m / c),
        static_cast<long long>(h.staging_ops),
        static_cast<long long>(h.staging_bytes),
        static_cast<long long>(v.dcn_sent_bytes),
        static_cast<long long>(want_naive));
    const std::string rank = absl::StrCat("rank ", local[j]);
    job.Check(h.dcn_sent_bytes == want_hierarchical,
              absl::StrCat(rank, ": hierarchical DCN bytes = 2(s-1)/s*M/c"));
    job.Check(h.dcn_sent_bytes <= 2 * m / c,
              absl::StrCat(rank, ": hierarchical DCN bytes <= 2M/c"));
    job.Check(h.staging_ops == want_staging_ops &&
                  h.device_to_host_ops == want_staging_ops / 2 &&
                  h.host_to_device_ops == want_staging_ops / 2,
              absl::StrCat(rank, ": ", want_staging_ops / 2,
                           " device-to-host and ", want_staging_ops / 2,
                           " host-to-device staging copies (got ",
                           h.staging_ops, " staging ops)"));
    job.Check(h.staging_bytes == (s > 1 ? 2 * m / c : 0),
              absl::StrCat(rank,
                           ": staged bytes are the chip's shard, M/c, "
                           "each way"));
    job.Check(v.dcn_sent_bytes == want_naive,
              absl::StrCat(rank, ": naive DCN bytes = (s-1)*M/c"));
  }
}

volatile sig_atomic_t g_terminate_requested = 0;

void RunAbsent(Job& job) {
  if (job.process == job.processes - 1) {
    std::printf("absent: not creating the communicator\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::milliseconds(kKillTimeoutMs) +
                                std::chrono::seconds(3));
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<Communicator> made =
      Communicator::Create(*job.client, job.ids, kKillTimeoutMs);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  job.Check(absl::IsDeadlineExceeded(made.status()) &&
                seconds < kKillTimeoutMs / 1000.0 + 2.0,
            absl::StrCat("creating a communicator without the last process "
                         "fails with DEADLINE_EXCEEDED within the timeout (",
                         kKillTimeoutMs / 1000.0, " s) after ", seconds,
                         " s: ", made.status().ToString()));
}

void RunKill(Job& job) {
  std::optional<Communicator> made = CreateOver(job, job.ids, kKillTimeoutMs);
  if (!made.has_value()) return;
  const Communicator& comm = *made;
  const bool victim = job.process == job.processes - 1;
  const int64_t count = 1 << 18;  // 1 MiB.
  auto inputs = Inputs(job, comm, job.devices, count, Value);
  if (!inputs.ok()) {
    job.Check(false, inputs.status().ToString());
    return;
  }
  // The launcher stops the others once the victim is gone; they hold off
  // its SIGTERM until they have seen and reported their failure.
  if (!victim) {
    signal(SIGTERM, [](int) { g_terminate_requested = 1; });
  }
  for (int iteration = 0; iteration < 1000; ++iteration) {
    const auto start = Clock::now();
    auto result = comm.AllReduce(Pointers(*inputs), PJRTX_ReduceOp_SUM);
    if (!result.ok()) {
      job.Check(false, result.status().ToString());
      return;
    }
    if (victim && iteration == 3) {
      std::printf("killing myself in the middle of all-reduce %d\n", iteration);
      std::fflush(stdout);
      raise(SIGKILL);
    }
    for (size_t j = 0; j < result->done.size(); ++j) {
      absl::Status status = result->done[j].Await();
      if (status.ok()) continue;
      const double seconds =
          std::chrono::duration<double>(Clock::now() - start).count();
      const bool expected =
          absl::IsUnavailable(status) || absl::IsDeadlineExceeded(status);
      job.Check(expected && seconds < kKillTimeoutMs / 1000.0 + 2.0,
                absl::StrCat("rank ", comm.local_ranks()[j],
                             ": the all-reduce failed after ", seconds,
                             " s (timeout ", kKillTimeoutMs / 1000.0,
                             " s): ", status.ToString()));
      for (size_t rest = j + 1; rest < result->done.size(); ++rest) {
        absl::Status other = result->done[rest].Await();
        job.Check(!other.ok(),
                  absl::StrCat("rank ", comm.local_ranks()[rest],
                               ": failed too: ", other.ToString()));
      }
      std::printf("survivor done%s\n",
                  g_terminate_requested ? " (SIGTERM held off)" : "");
      std::fflush(stdout);
      _exit(job.failures == 0 ? 3 : 1);
    }
  }
  job.Check(false, "the all-reduces never failed although a peer was killed");
}

void RunMismatch(Job& job, int64_t k) {
  std::optional<Communicator> made = CreateOver(job, job.ids, kTimeoutMs);
  if (!made.has_value()) return;
  const Communicator& comm = *made;
  const int64_t count =
      (job.process == 0 ? 1 : 2) * k * static_cast<int64_t>(job.ids.size());
  auto inputs = Inputs(job, comm, job.devices, count, Value);
  if (!inputs.ok()) {
    job.Check(false, inputs.status().ToString());
    return;
  }
  auto result = comm.AllReduce(Pointers(*inputs), PJRTX_ReduceOp_SUM);
  if (!result.ok()) {
    job.Check(false, result.status().ToString());
    return;
  }
  for (size_t j = 0; j < result->done.size(); ++j) {
    absl::Status status = result->done[j].Await();
    if (job.one_slice) {
      // NCCL across processes: no rank sees the others' sizes, so the
      // failure is whatever NCCL reports (the fake names the disagreement;
      // a real one would time out).
      job.Check(!status.ok(), absl::StrCat("rank ", comm.local_ranks()[j],
                                           ": mismatched all-reduce fails: ",
                                           status.ToString()));
      continue;
    }
    job.Check(absl::IsInvalidArgument(status),
              absl::StrCat("rank ", comm.local_ranks()[j],
                           ": mismatched all-reduce fails with "
                           "INVALID_ARGUMENT: ",
                           status.ToString()));
  }
}

int Usage(const char* problem) {
  std::fprintf(stderr,
               "%s\nusage: collectives_job --plugin=PATH "
               "ops|counters|kill|absent|mismatch|compiled "
               "[--layout=slices|hosts|processes] "
               "[--topology=v5e:2x2] [--k=1024]\n",
               problem);
  return 2;
}

}  // namespace

// Program collectives over every chip of the job: replica r holds
// x[i] = Value(r, i); all_reduce sums them, all_gather collects each
// replica's x[0] and its replica id.
void RunCompiled(Job& job) {
  const int64_t n = static_cast<int64_t>(job.ids.size());
  constexpr int64_t kCount = 64;
  const std::string program =
      absl::StrCat(R"(
func.func @main(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<)",
                   n, R"(xf32>, tensor<)", n, R"(xui32>) {
  %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<64xf32>) -> tensor<64xf32>
  %first = stablehlo.slice %x [0:1] : (tensor<64xf32>) -> tensor<1xf32>
  %firsts = "stablehlo.all_gather"(%first) {all_gather_dim = 0 : i64,
      replica_groups = dense<> : tensor<0x0xi64>} : (tensor<1xf32>) -> tensor<)",
                   n, R"(xf32>
  %id = stablehlo.replica_id : tensor<ui32>
  %id1 = stablehlo.reshape %id : (tensor<ui32>) -> tensor<1xui32>
  %ids = "stablehlo.all_gather"(%id1) {all_gather_dim = 0 : i64,
      replica_groups = dense<> : tensor<0x0xi64>} : (tensor<1xui32>) -> tensor<)",
                   n, R"(xui32>
  return %sum, %firsts, %ids : tensor<64xf32>, tensor<)",
                   n, R"(xf32>, tensor<)", n, R"(xui32>
})");
  absl::StatusOr<pjrtx::client::Executable> executable =
      pjrtx::client::Executable::Compile(*job.client, program,
                                         {{"device_assignment", job.ids}});
  if (!executable.ok()) {
    job.Check(false, absl::StrCat("compile: ", executable.status().ToString()));
    return;
  }
  std::vector<Buffer> inputs;
  std::vector<int64_t> replicas;
  std::vector<pjrtx::client::Executable::Run> runs;
  for (int64_t r = 0; r < n; ++r) {
    if (!job.devices[r].is_addressable()) continue;
    std::vector<float> data(kCount);
    for (int64_t i = 0; i < kCount; ++i) data[i] = Value(r, i);
    absl::StatusOr<Buffer> input = Upload(job, data, job.devices[r]);
    if (!input.ok()) {
      job.Check(false, input.status().ToString());
      return;
    }
    absl::StatusOr<pjrtx::client::Executable::Run> run =
        executable->Execute(job.devices[r], {&*input});
    if (!run.ok()) {
      job.Check(false, absl::StrCat("execute: ", run.status().ToString()));
      return;
    }
    inputs.push_back(*std::move(input));
    replicas.push_back(r);
    runs.push_back(*std::move(run));
  }
  for (size_t j = 0; j < runs.size(); ++j) {
    const int64_t r = replicas[j];
    absl::Status done = runs[j].done.Await();
    if (!done.ok()) {
      job.Check(false, absl::StrCat("replica ", r, ": ", done.ToString()));
      continue;
    }
    absl::StatusOr<std::vector<float>> sum = Download(runs[j].outputs[0]);
    absl::StatusOr<std::vector<float>> firsts = Download(runs[j].outputs[1]);
    absl::StatusOr<std::vector<uint8_t>> ids = runs[j].outputs[2].ToHostSync();
    bool ok = sum.ok() && firsts.ok() && ids.ok() &&
              static_cast<int64_t>(ids->size()) == 4 * n;
    for (int64_t i = 0; ok && i < kCount; ++i) {
      float total = 0;
      for (int64_t q = 0; q < n; ++q) total += Value(q, i);
      ok = (*sum)[i] == total;
    }
    for (int64_t q = 0; ok && q < n; ++q) {
      uint32_t id;
      std::memcpy(&id, ids->data() + 4 * q, 4);
      ok = (*firsts)[q] == Value(q, 0) && id == static_cast<uint32_t>(q);
    }
    job.Check(ok, absl::StrCat("compiled all_reduce and all_gather, replica ",
                               r, " of ", n));
  }
}

int main(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (absl::StartsWith(arg, "--plugin=")) {
      flags.plugin = arg.substr(9);
    } else if (absl::StartsWith(arg, "--layout=")) {
      flags.layout = arg.substr(9);
      if (flags.layout != "slices" && flags.layout != "hosts" &&
          flags.layout != "processes") {
        return Usage("--layout wants 'slices', 'hosts' or 'processes'");
      }
    } else if (absl::StartsWith(arg, "--topology=")) {
      flags.topology = arg.substr(11);
    } else if (absl::StartsWith(arg, "--processes-per-host=")) {
      if (!absl::SimpleAtoi(arg.substr(21), &flags.processes_per_host) ||
          flags.processes_per_host < 1) {
        return Usage("--processes-per-host wants a positive integer");
      }
    } else if (absl::StartsWith(arg, "--k=")) {
      if (!absl::SimpleAtoi(arg.substr(4), &flags.k) || flags.k < 1) {
        return Usage("--k wants a positive integer");
      }
    } else if (absl::StartsWith(arg, "--")) {
      return Usage(("unknown flag " + arg).c_str());
    } else {
      flags.mode = arg;
    }
  }
  if (flags.plugin.empty() || flags.mode.empty()) {
    return Usage("--plugin and a mode are required");
  }

  absl::StatusOr<pjrtx::LaunchEnvironment> environment =
      pjrtx::DetectLaunchEnvironment();
  if (!environment.ok()) return Usage(environment.status().ToString().c_str());
  absl::StatusOr<pjrtx::JobCoordination> coordination =
      pjrtx::JoinJob(*environment, kTimeoutMs);
  if (!coordination.ok()) {
    std::fprintf(stderr, "error: %s\n",
                 coordination.status().ToString().c_str());
    return 1;
  }
  auto library = pjrtx::client::PluginLibrary::Load(flags.plugin);
  if (!library.ok()) {
    std::fprintf(stderr, "error: %s\n", library.status().ToString().c_str());
    return 1;
  }
  const int process = environment->process_id;
  const int processes = environment->num_processes;
  std::vector<pjrtx::client::NamedValue> options;
  if (flags.layout == "slices") {
    options = {{"topology", flags.topology},
               {"num_slices", int64_t{processes}},
               {"slice_index", int64_t{process}}};
  } else {
    options = {{"num_processes", int64_t{processes}},
               {"process_index", int64_t{process}}};
    if (flags.layout == "hosts") {
      options.push_back(
          {"host_name",
           absl::StrCat("host-", process / flags.processes_per_host)});
    }
  }
  absl::StatusOr<Client> client =
      Client::Create(*library, options,
                     pjrtx::KeyValueCallbacksFor(coordination->store.get()));
  if (!client.ok()) {
    std::fprintf(stderr, "error: %s\n", client.status().ToString().c_str());
    return 1;
  }
  Job job;
  job.process = process;
  job.processes = processes;
  job.client = &*client;
  job.one_slice = flags.layout == "processes";
  job.processes_per_host =
      flags.layout == "hosts" ? flags.processes_per_host : 1;
  job.devices = client->devices();
  for (const Device& device : job.devices) job.ids.push_back(device.id());
  std::printf("process %d of %d (%s launch), %zu devices in the job\n", process,
              processes, environment->launcher.c_str(), job.ids.size());

  if (flags.mode == "ops") {
    RunOps(job);
  } else if (flags.mode == "counters") {
    RunCounters(job, flags.k);
  } else if (flags.mode == "absent") {
    RunAbsent(job);
  } else if (flags.mode == "kill") {
    RunKill(job);
  } else if (flags.mode == "mismatch") {
    RunMismatch(job, flags.k);
  } else if (flags.mode == "compiled") {
    RunCompiled(job);
  } else {
    return Usage(("unknown mode " + flags.mode).c_str());
  }
  // The coordinator (process 0) stays until everyone is done with it.
  if (absl::Status left = pjrtx::LeaveJob(*coordination, kTimeoutMs);
      !left.ok()) {
    job.Check(false, left.ToString());
  }
  std::printf("%s: %d failure(s)\n", flags.mode.c_str(), job.failures);
  return job.failures == 0 ? 0 : 1;
}
