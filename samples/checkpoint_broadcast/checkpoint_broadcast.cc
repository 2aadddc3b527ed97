// Restoring a checkpoint into every slice of a job: one slice reads it from
// storage and broadcasts it over DCN, against every slice reading it, in
// the same run, with the storage bytes each way counted.
//
//   checkpoint_broadcast [--slices=2] [--topology=v5e:2x2] [--tensors=8]
//                        [--rows=512] [--cols=1024] [--storage-gbps=0.2]
//                        [--checkpoint=PATH] [--plugin=PATH]
//
// Each process is one slice (run without a launcher it starts --slices
// copies through `pjrtx launch`). Process 0 writes the checkpoint (format:
// docs/checkpoint-format.md) unless PATH exists. Every chip restores 1/c of
// every tensor's rows (the FSDP layout of samples/multislice_train).
//   broadcast:  slice 0 reads the file (M bytes) and uploads its chips'
//               rows; each chip position then broadcasts over DCN from
//               slice 0 to the same chip of every other slice.
//   all read:   every slice reads the whole file (s x M bytes) at once.
// Storage is emulated with a total bandwidth (--storage-gbps) shared by
// the slices reading at the same time, as an object store or network file
// system would share it. Every chip's rows are checked against the file's
// contents after each way. Exits 1 unless the broadcast read exactly M
// bytes, all-read s x M, and every chip holds the right values.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "runtime/client/buffer.h"
#include "runtime/client/client.h"
#include "runtime/client/communicator.h"
#include "runtime/client/device.h"
#include "runtime/coordination/job_coordination.h"
#include "samples/checkpoint_broadcast/checkpoint_file.h"
#include "samples/checkpoint_broadcast/emulated_storage.h"
#include "samples/common/job_flags.h"
#include "samples/common/must.h"
#include "samples/common/slice_job.h"
#include "support/status_macros.h"

namespace {

using checkpoint::EmulatedStorage;
using checkpoint::Header;
using checkpoint::TensorEntry;
using pjrtx::client::Buffer;
using pjrtx::client::Client;
using pjrtx::client::Communicator;
using pjrtx::client::Device;
using samples::Fail;
using samples::Must;
using Clock = std::chrono::steady_clock;

constexpr int64_t kTimeoutMs = 120'000;

struct Options {
  samples::JobFlags job = {TPU_EMU_PLUGIN};
  int64_t tensors = 8;
  int64_t rows = 512;
  int64_t cols = 1024;
  float storage_gbps = 0.2f;
  std::string path;  // Default: /tmp/pjrtx_checkpoint_<uid>_<sizes>.ckpt
};

bool ParseArgs(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    bool ok = true;
    if (samples::ConsumeJobFlag(arg, o.job, &ok)) {
    } else if (absl::ConsumePrefix(&arg, "--tensors=")) {
      ok = absl::SimpleAtoi(arg, &o.tensors) && o.tensors >= 1 &&
           o.tensors <= 4096;
    } else if (absl::ConsumePrefix(&arg, "--rows=")) {
      ok = absl::SimpleAtoi(arg, &o.rows) && o.rows >= 1 && o.rows <= 1 << 20;
    } else if (absl::ConsumePrefix(&arg, "--cols=")) {
      ok = absl::SimpleAtoi(arg, &o.cols) && o.cols >= 1 && o.cols <= 1 << 20;
    } else if (absl::ConsumePrefix(&arg, "--storage-gbps=")) {
      ok = absl::SimpleAtof(arg, &o.storage_gbps) && o.storage_gbps >= 0;
    } else if (absl::ConsumePrefix(&arg, "--checkpoint=")) {
      o.path = std::string(arg);
      ok = !o.path.empty();
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr,
                   "checkpoint_broadcast: bad argument '%s'\nusage: "
                   "checkpoint_broadcast [--slices=2] [--topology=v5e:2x2] "
                   "[--tensors=8] [--rows=512] [--cols=1024] "
                   "[--storage-gbps=0.2] [--checkpoint=PATH] "
                   "[--plugin=PATH]\n",
                   argv[i]);
      return false;
    }
  }
  return true;
}

// The checkpoint's values: distinct per tensor and element, exact in f32.
float Expected(int64_t tensor, int64_t element) {
  return static_cast<float>((tensor * 7919 + element * 31) % 65521) * 0.25f;
}

std::vector<TensorEntry> Layout(const Options& o) {
  std::vector<TensorEntry> tensors;
  for (int64_t t = 0; t < o.tensors; ++t) {
    tensors.push_back({absl::StrCat("layer", t, ".weight"),
                       PJRTX_Buffer_Type_F32,
                       {o.rows, o.cols},
                       0,
                       0});
  }
  return tensors;
}

absl::Status WriteCheckpoint(const Options& o, const std::string& path) {
  std::vector<TensorEntry> tensors = Layout(o);
  Header layout;
  PJRTX_ASSIGN_OR_RETURN(std::string header,
                         checkpoint::EncodeHeader(tensors, &layout));
  const std::string temporary = absl::StrCat(path, ".tmp", getpid());
  std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
  if (!file) return absl::UnavailableError("cannot create " + temporary);
  file.write(header.data(), static_cast<std::streamsize>(header.size()));
  std::vector<float> values(o.rows * o.cols);
  for (size_t t = 0; t < tensors.size(); ++t) {
    file.seekp(static_cast<std::streamoff>(tensors[t].offset));
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] = Expected(static_cast<int64_t>(t), static_cast<int64_t>(i));
    }
    file.write(reinterpret_cast<const char*>(values.data()),
               static_cast<std::streamsize>(tensors[t].bytes));
  }
  file.close();
  if (!file) return absl::UnavailableError("cannot write " + temporary);
  // Readers never see a half-written file.
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    return absl::UnavailableError("cannot rename " + temporary + " to " + path);
  }
  return absl::OkStatus();
}

// The header, read through `storage` exactly: the fixed part, then each
// time as much more as the decoder says it needs. `encoded` gets its bytes.
absl::StatusOr<Header> ReadHeader(EmulatedStorage& storage,
                                  std::string* encoded) {
  std::vector<uint8_t> prefix(checkpoint::kFixedHeaderBytes);
  absl::Status read = storage.Read(0, absl::MakeSpan(prefix));
  while (read.ok()) {
    uint64_t needed = 0;
    absl::StatusOr<Header> header = checkpoint::DecodeHeader(prefix, &needed);
    if (header.ok()) {
      encoded->assign(prefix.begin(), prefix.end());
      return header;
    }
    if (!absl::IsOutOfRange(header.status()) || needed <= prefix.size()) {
      return header.status();
    }
    const size_t have = prefix.size();
    prefix.resize(needed);
    read = storage.Read(have, absl::MakeSpan(prefix).subspan(have));
  }
  return read;
}

struct Slice {
  int process = 0;
  int processes = 1;
  Client* client = nullptr;
  std::vector<Device> chips;           // This slice's, in order.
  std::vector<Communicator>* columns;  // Per chip position, over slices.
};

// Reads every tensor's rows for this slice's chips and uploads them: one
// chip buffer per (tensor, chip). `uploaded(t)` runs as soon as tensor t's
// buffers are issued, so that they can travel on while the next is read.
absl::StatusOr<std::vector<std::vector<Buffer>>> ReadAndUpload(
    const Slice& slice, EmulatedStorage& storage, const Header& header,
    const std::function<void(size_t, std::vector<Buffer>&)>& uploaded =
        nullptr) {
  const int64_t c = static_cast<int64_t>(slice.chips.size());
  std::vector<std::vector<Buffer>> buffers(header.tensors.size());
  std::vector<uint8_t> data;
  for (size_t t = 0; t < header.tensors.size(); ++t) {
    const TensorEntry& entry = header.tensors[t];
    data.resize(entry.bytes);
    PJRTX_RETURN_IF_ERROR(storage.Read(entry.offset, absl::MakeSpan(data)));
    const int64_t rows = entry.dims[0] / c;
    const size_t shard_bytes = entry.bytes / c;
    for (int64_t j = 0; j < c; ++j) {
      PJRTX_ASSIGN_OR_RETURN(Buffer buffer,
                             slice.client->BufferFromHost(
                                 data.data() + j * shard_bytes, entry.type,
                                 {rows, entry.dims[1]}, slice.chips[j]));
      buffers[t].push_back(std::move(buffer));
    }
    if (uploaded) uploaded(t, buffers[t]);
  }
  return buffers;
}

// Compares every chip's rows with the checkpoint's values.
absl::Status Verify(const Header& header,
                    const std::vector<std::vector<Buffer>>& buffers) {
  for (size_t t = 0; t < buffers.size(); ++t) {
    const int64_t c = static_cast<int64_t>(buffers[t].size());
    const int64_t shard_values =
        header.tensors[t].dims[0] * header.tensors[t].dims[1] / c;
    for (int64_t j = 0; j < c; ++j) {
      PJRTX_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                             buffers[t][j].ToHostSync());
      const float* values = reinterpret_cast<const float*>(bytes.data());
      for (int64_t i = 0; i < shard_values; ++i) {
        const float want =
            Expected(static_cast<int64_t>(t), j * shard_values + i);
        if (values[i] != want) {
          return absl::DataLossError(
              absl::StrCat(header.tensors[t].name, " on chip ", j, ": element ",
                           i, " is ", values[i], ", expected ", want));
        }
      }
    }
  }
  return absl::OkStatus();
}

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Sums `value` over the processes through the store; every process gets
// the sum.
int64_t SumOverProcesses(pjrtx::JobCoordination& job, const std::string& name,
                         int64_t value) {
  if (job.store == nullptr) return value;
  const int processes = job.environment.num_processes;
  Must(job.store->Put(absl::StrCat(name, "/", job.environment.process_id),
                      absl::StrCat(value)),
       name);
  int64_t sum = 0;
  for (int p = 0; p < processes; ++p) {
    const std::string text =
        Must(job.store->Get(absl::StrCat(name, "/", p), kTimeoutMs), name);
    int64_t v = 0;
    if (!absl::SimpleAtoi(text, &v)) Fail(name, absl::InternalError(text));
    sum += v;
  }
  return sum;
}

void Barrier(pjrtx::JobCoordination& job, const std::string& name) {
  if (job.store == nullptr) return;
  Must(job.store->Barrier(name, job.environment.num_processes, kTimeoutMs),
       name);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, options)) return 2;
  pjrtx::JobCoordination job =
      samples::JoinSliceJob(options.job, PJRTX_CLI, argc, argv);
  const int process = job.environment.process_id;
  const int s = job.environment.num_processes;
  Client client = samples::CreateSliceClient(options.job, job);
  const std::vector<Device> devices = client.devices();
  Slice slice;
  slice.process = process;
  slice.processes = s;
  slice.client = &client;
  slice.chips = client.addressable_devices();
  const int64_t c = static_cast<int64_t>(slice.chips.size());
  if (options.rows % c != 0) {
    Fail("sizes", absl::InvalidArgumentError(absl::StrCat(
                      "--rows=", options.rows, " must be a multiple of the ", c,
                      " chips of a slice")));
  }
  std::vector<Communicator> columns;
  for (int64_t position = 0; position < c; ++position) {
    std::vector<int64_t> ids;
    for (int64_t other = 0; other < s; ++other) {
      ids.push_back(devices[other * c + position].id());
    }
    columns.push_back(
        Must(Communicator::Create(client, ids, kTimeoutMs), "communicator"));
  }
  slice.columns = &columns;

  std::string path = options.path;
  if (path.empty()) {
    path =
        absl::StrCat("/tmp/pjrtx_checkpoint_", getuid(), "_", options.tensors,
                     "x", options.rows, "x", options.cols, ".ckpt");
  }
  if (process == 0 && access(path.c_str(), R_OK) != 0) {
    Must(WriteCheckpoint(options, path), "writing the checkpoint");
  }
  Barrier(job, "checkpoint/written");
  const double bandwidth = options.storage_gbps * 1e9;

  // Way 1: slice 0 reads, then broadcasts over DCN.
  Barrier(job, "checkpoint/broadcast/start");
  Clock::time_point start = Clock::now();
  EmulatedStorage one_reader(path, bandwidth, 1);
  Header header;
  std::vector<std::vector<Buffer>> restored;
  // Per tensor, per chip: the broadcast from slice 0's chip. Issued as
  // soon as slice 0 has uploaded the tensor, so reading the next tensor
  // overlaps sending this one.
  std::vector<std::vector<Communicator::Result>> sent;
  auto broadcast = [&](size_t t, std::vector<Buffer>& chips) {
    for (size_t j = 0; j < chips.size(); ++j) {
      sent[t].push_back(
          Must(columns[j].Broadcast({&chips[j]}, /*root=*/0), "broadcast"));
    }
  };
  if (process == 0) {
    std::string encoded;
    header = Must(ReadHeader(one_reader, &encoded), "checkpoint header");
    if (job.store != nullptr) {
      // The other slices learn the layout from slice 0, not from storage.
      Must(job.store->Put("checkpoint/header", encoded), "header");
    }
    sent.resize(header.tensors.size());
    restored = Must(
        ReadAndUpload(
            slice, one_reader, header,
            s > 1 ? std::function<void(size_t, std::vector<Buffer>&)>(broadcast)
                  : nullptr),
        "reading");
  } else {
    const std::string encoded =
        Must(job.store->Get("checkpoint/header", kTimeoutMs), "header");
    header = Must(
        checkpoint::DecodeHeader(absl::MakeConstSpan(
            reinterpret_cast<const uint8_t*>(encoded.data()), encoded.size())),
        "header");
    // Receivers pass buffers of the right shape; their contents are unused.
    restored.resize(header.tensors.size());
    sent.resize(header.tensors.size());
    for (size_t t = 0; t < header.tensors.size(); ++t) {
      const TensorEntry& entry = header.tensors[t];
      std::vector<float> zeros(entry.dims[0] / c * entry.dims[1]);
      for (int64_t j = 0; j < c; ++j) {
        restored[t].push_back(
            Must(client.BufferFromHost(zeros.data(), entry.type,
                                       {entry.dims[0] / c, entry.dims[1]},
                                       slice.chips[j]),
                 "receive buffer"));
      }
      broadcast(t, restored[t]);
    }
  }
  for (size_t t = 0; t < sent.size(); ++t) {
    for (size_t j = 0; j < sent[t].size(); ++j) {
      Must(sent[t][j].done[0].Await(), "broadcast");
      restored[t][j] = std::move(sent[t][j].outputs[0]);
    }
  }
  const double broadcast_seconds = Seconds(start);
  Must(Verify(header, restored), "after the broadcast");
  const int64_t broadcast_bytes =
      SumOverProcesses(job, "checkpoint/broadcast/bytes",
                       static_cast<int64_t>(one_reader.bytes_read()));
  restored.clear();

  // Way 2: every slice reads the whole checkpoint.
  Barrier(job, "checkpoint/all/start");
  start = Clock::now();
  EmulatedStorage shared(path, bandwidth, s);
  std::string encoded_again;
  const Header own =
      Must(ReadHeader(shared, &encoded_again), "checkpoint header");
  restored = Must(ReadAndUpload(slice, shared, own), "reading");
  for (auto& tensor : restored) {
    for (Buffer& buffer : tensor) Must(buffer.ReadyEvent().Await(), "upload");
  }
  const double all_seconds = Seconds(start);
  Must(Verify(own, restored), "after every slice read");
  const int64_t all_bytes = SumOverProcesses(
      job, "checkpoint/all/bytes", static_cast<int64_t>(shared.bytes_read()));

  const int64_t m = static_cast<int64_t>(header.payload_bytes());
  int exit_code = 0;
  if (process == 0) {
    std::printf(
        "checkpoint %s: %lld tensors, M = %lld bytes (header and tensors); "
        "%d slice(s) of %lld "
        "chips; storage %.3g GB/s shared\n",
        path.c_str(), static_cast<long long>(header.tensors.size()),
        static_cast<long long>(m), s, static_cast<long long>(c),
        options.storage_gbps);
    std::printf(
        "broadcast: storage bytes read %lld (M), %.3f s\n"
        "all read:  storage bytes read %lld (%lld x M), %.3f s\n"
        "broadcast time / all-read time = %.3f\n",
        static_cast<long long>(broadcast_bytes), broadcast_seconds,
        static_cast<long long>(all_bytes),
        static_cast<long long>(all_bytes / (m > 0 ? m : 1)), all_seconds,
        broadcast_seconds / all_seconds);
    if (broadcast_bytes != m) {
      std::fprintf(stderr,
                   "checkpoint_broadcast: the broadcast read %lld storage "
                   "bytes, expected M = %lld\n",
                   static_cast<long long>(broadcast_bytes),
                   static_cast<long long>(m));
      exit_code = 1;
    }
    if (all_bytes != s * m) {
      std::fprintf(stderr,
                   "checkpoint_broadcast: every slice reading read %lld "
                   "storage bytes, expected s x M = %lld\n",
                   static_cast<long long>(all_bytes),
                   static_cast<long long>(s * m));
      exit_code = 1;
    }
  }
  Must(pjrtx::LeaveJob(job, kTimeoutMs), "leaving the job");
  return exit_code;
}
