// Data-parallel training across slices, parameters sharded across the
// chips of each slice (FSDP), on the TPU emulator: the shape of large-model
// training at scale, at laptop size.
//
//   multislice_train [--slices=2] [--topology=v5e:2x2] [--steps=40]
//                    [--overlap=on|off] [--dcn-gbps=0.03] [--trace=FILE]
//                    [--layers=4] [--width=256] [--batch=32] [--lr=8]
//                    [--plugin=PATH]
//
// Each process is one slice (started by `pjrtx launch`, mpirun, ...; run
// without a launcher, it starts --slices copies of itself through `pjrtx
// launch`). Each chip holds 1/c of every layer's weights (c chips per
// slice) and trains on its own batches. A step, per chip:
//   all-gather every layer's shards over ICI (the slice's communicator)
//   forward, one program per layer, the batch the only upload
//   backward from the last layer; each layer's gradient, as soon as it is
//   computed, is reduce-scattered over ICI (summing the slice's chips),
//   all-reduced over DCN with the same chip of every other slice (the
//   only bytes between processes, staged once out of and once into the
//   chip), and applied to the chip's shard, while the next layer's
//   gradient is computed (--overlap=on; off runs no collective beside
//   anything else: each all-gather is awaited before the forward, and the
//   gradients are reduced after the whole backward pass, one layer's
//   reduce-scatter and all-reduces awaited before the next layer's).
// Printed per step: the slice's mean loss, step time, H2D / D2H / staging /
// DCN bytes of this process's chips, and MFU: the whole job's model FLOPs
// per step (formula printed) over the step time, against the machine's
// bf16 GEMM peak measured with oneDNN at start-up in the same run. Ends
// with `loss first=<x> last=<y>` and `mfu=<median>`; exits 1 unless the
// loss fell at least 10x and every step moved to and from the host only
// the batch, the loss and the DCN staging. --trace writes a Chrome trace
// (chrome://tracing) per process: one row per chip, compute and collective
// intervals.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "runtime/client/buffer.h"
#include "runtime/client/client.h"
#include "runtime/client/communicator.h"
#include "runtime/client/device.h"
#include "runtime/client/executable.h"
#include "runtime/coordination/job_coordination.h"
#include "samples/common/job_flags.h"
#include "samples/common/must.h"
#include "samples/common/slice_job.h"
#include "samples/multislice_train/gemm_peak.h"
#include "samples/multislice_train/programs.h"

namespace {

using pjrtx::client::Buffer;
using pjrtx::client::Client;
using pjrtx::client::Communicator;
using pjrtx::client::Device;
using pjrtx::client::EventFuture;
using pjrtx::client::Executable;
using pjrtx::client::TransferCounters;
using samples::Fail;
using samples::Must;
using Clock = std::chrono::steady_clock;

constexpr int64_t kTimeoutMs = 120'000;
constexpr int64_t kBatchesPerChip = 8;  // Steps cycle through them.
constexpr int64_t kTeacherHidden = 8;

constexpr char kUsage[] =
    "usage: multislice_train [--slices=2] [--topology=v5e:2x2] [--steps=40]\n"
    "                        [--overlap=on|off] [--dcn-gbps=0.03] "
    "[--trace=FILE]\n"
    "                        [--layers=4] [--width=256] [--batch=32] "
    "[--lr=8]\n"
    "                        [--plugin=PATH]\n";

struct Options {
  samples::JobFlags job = {TPU_EMU_PLUGIN};
  int64_t steps = 40;
  bool overlap = true;
  // Per chip. On TPU v5e ICI:DCN is about 64:1 (~200 GB/s per chip per
  // direction against ~3 GB/s); the emulator's in-process ICI moves about
  // 2 GB/s, so 0.03 GB/s keeps that ratio.
  float dcn_gbps = 0.03f;
  std::string trace;
  int64_t layers = 4;
  int64_t width = 256;
  int64_t batch = 32;
  float lr = 8.0f;
};

bool ParseArgs(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    bool ok = true;
    if (samples::ConsumeJobFlag(arg, o.job, &ok)) {
    } else if (absl::ConsumePrefix(&arg, "--steps=")) {
      ok = absl::SimpleAtoi(arg, &o.steps) && o.steps >= 2;
    } else if (absl::ConsumePrefix(&arg, "--overlap=")) {
      ok = arg == "on" || arg == "off";
      o.overlap = arg == "on";
    } else if (absl::ConsumePrefix(&arg, "--dcn-gbps=")) {
      ok = absl::SimpleAtof(arg, &o.dcn_gbps) && o.dcn_gbps >= 0;
    } else if (absl::ConsumePrefix(&arg, "--trace=")) {
      o.trace = std::string(arg);
      ok = !o.trace.empty();
    } else if (absl::ConsumePrefix(&arg, "--layers=")) {
      ok = absl::SimpleAtoi(arg, &o.layers) && o.layers >= 2 && o.layers <= 64;
    } else if (absl::ConsumePrefix(&arg, "--width=")) {
      ok = absl::SimpleAtoi(arg, &o.width) && o.width >= 8 && o.width <= 8192;
    } else if (absl::ConsumePrefix(&arg, "--batch=")) {
      ok = absl::SimpleAtoi(arg, &o.batch) && o.batch >= 1 && o.batch <= 65536;
    } else if (absl::ConsumePrefix(&arg, "--lr=")) {
      ok = absl::SimpleAtof(arg, &o.lr) && o.lr > 0;
    } else {
      std::fprintf(stderr, "multislice_train: unknown argument '%s'\n%s",
                   argv[i], kUsage);
      return false;
    }
    if (!ok) {
      std::fprintf(stderr, "multislice_train: bad value in '%s'\n%s", argv[i],
                   kUsage);
      return false;
    }
  }
  return true;
}

std::vector<float> Normal(std::mt19937& rng, int64_t n, double stddev) {
  std::normal_distribution<float> dist(0.0f, static_cast<float>(stddev));
  std::vector<float> v(n);
  for (float& e : v) e = dist(rng);
  return v;
}

// y = tanh(x U) V for a fixed random teacher, so the targets are a smooth
// nonlinear function of the inputs the student can learn.
struct Teacher {
  std::vector<float> u, v;  // W x T and T x W.
};

void Targets(const Teacher& t, int64_t rows, int64_t width, const float* x,
             float* y) {
  std::vector<float> hidden(kTeacherHidden);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < kTeacherHidden; ++k) {
      float z = 0;
      for (int64_t i = 0; i < width; ++i) {
        z += x[r * width + i] * t.u[i * kTeacherHidden + k];
      }
      hidden[k] = std::tanh(z);
    }
    for (int64_t o = 0; o < width; ++o) {
      float sum = 0;
      for (int64_t k = 0; k < kTeacherHidden; ++k) {
        sum += hidden[k] * t.v[k * width + o];
      }
      y[r * width + o] = sum;
    }
  }
}

struct Programs {
  Executable forward_hidden, forward_last, backward_last, backward_hidden,
      backward_first, update;
};

// One chip of this process.
struct Chip {
  int64_t rank = 0;  // In the job: slice * c + position.
  Device device{nullptr, nullptr};
  std::vector<Buffer> shards;  // Per layer, R x W rows of the weights.
  Buffer lr;
  std::vector<float> x, y;  // kBatchesPerChip batches, B x W each.
};

TransferCounters Sum(const std::vector<Chip>& chips) {
  TransferCounters total;
  for (const Chip& chip : chips) {
    TransferCounters c = Must(chip.device.transfer_counters(), "counters");
    total.host_to_device_bytes += c.host_to_device_bytes;
    total.device_to_host_bytes += c.device_to_host_bytes;
    total.staging_bytes += c.staging_bytes;
    total.dcn_sent_bytes += c.dcn_sent_bytes;
    total.dcn_received_bytes += c.dcn_received_bytes;
  }
  return total;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, options)) return 2;
  pjrtx::JobCoordination job =
      samples::JoinSliceJob(options.job, PJRTX_CLI, argc, argv);
  const int process = job.environment.process_id;
  const int processes = job.environment.num_processes;
  if (!options.trace.empty()) {
    // One file per process: trace.json -> trace.<process>.json.
    std::string path = options.trace;
    if (processes > 1) {
      const size_t dot = path.rfind('.');
      const std::string suffix = absl::StrCat(".", process);
      if (dot == std::string::npos || dot < path.rfind('/') + 1) {
        path += suffix;
      } else {
        path.insert(dot, suffix);
      }
    }
    setenv("PJRTX_TRACE_FILE", path.c_str(), 1);
  }
  // The machine's peak, measured by one process while the others wait, so
  // that it has the whole machine.
  double peak = 0;
  std::string peak_line;
  if (process == 0) {
    const multislice::GemmPeak measured = multislice::MeasureBf16GemmPeak();
    peak = measured.flops_per_second;
    peak_line = absl::StrCat("bf16 GEMM peak: ", peak / 1e9,
                             " GFLOP/s (oneDNN ", measured.implementation, ", ",
                             measured.n, "^3, default threads)");
    if (job.store != nullptr) {
      Must(job.store->Put("multislice/peak", absl::StrCat(peak)), "peak");
    }
  } else {
    const std::string text =
        Must(job.store->Get("multislice/peak", kTimeoutMs), "peak");
    if (!absl::SimpleAtod(text, &peak)) Fail("peak", absl::InternalError(text));
  }

  Client client = samples::CreateSliceClient(options.job, job,
                                             {{"dcn_gbps", options.dcn_gbps}});
  const std::vector<Device> devices = client.devices();
  const std::vector<Device> local = client.addressable_devices();
  const int64_t c = static_cast<int64_t>(local.size());
  const int64_t s = processes;
  const int64_t width = options.width;
  const int64_t batch = options.batch;
  const int64_t layers = options.layers;
  if (width % c != 0) {
    Fail("sizes", absl::InvalidArgumentError(absl::StrCat(
                      "--width=", width, " must be a multiple of the ", c,
                      " chips of a slice, which each hold 1/", c,
                      " of every layer's rows")));
  }
  const int64_t rows = width / c;

  // Communicators: the slice's chips (ICI), and each chip position across
  // slices (DCN). Every process creates them in the same order.
  std::vector<int64_t> slice_ids;
  for (const Device& d : local) slice_ids.push_back(d.id());
  Communicator ici =
      Must(Communicator::Create(client, slice_ids, kTimeoutMs), "ICI");
  std::vector<Communicator> dcn;
  for (int64_t position = 0; position < c; ++position) {
    std::vector<int64_t> column;
    for (int64_t slice = 0; slice < s; ++slice) {
      column.push_back(devices[slice * c + position].id());
    }
    dcn.push_back(
        Must(Communicator::Create(client, column, kTimeoutMs), "DCN"));
  }

  const multislice::ProgramTexts texts =
      multislice::MakePrograms(batch, width, rows);
  auto compile = [&](const std::string& text, const char* name) {
    return Must(Executable::Compile(client, text), name);
  };
  Programs programs{compile(texts.forward_hidden, "forward_hidden"),
                    compile(texts.forward_last, "forward_last"),
                    compile(texts.backward_last, "backward_last"),
                    compile(texts.backward_hidden, "backward_hidden"),
                    compile(texts.backward_first, "backward_first"),
                    compile(texts.update, "update")};

  // The same initial weights and teacher in every process; data of its own
  // on every chip of the job.
  std::mt19937 rng(1234);
  Teacher teacher{Normal(rng, width * kTeacherHidden, 2.0 / std::sqrt(width)),
                  Normal(rng, kTeacherHidden * width,
                         1.0 / std::sqrt(double{kTeacherHidden}))};
  std::vector<std::vector<float>> weights;
  for (int64_t l = 0; l < layers; ++l) {
    weights.push_back(Normal(rng, width * width, 1.0 / std::sqrt(width)));
  }
  // Every chip's batch gradient is summed over the c chips of its slice
  // and the s slices; the step is their mean.
  const float lr = options.lr / static_cast<float>(c * s);
  std::vector<Chip> chips(c);
  for (int64_t j = 0; j < c; ++j) {
    Chip& chip = chips[j];
    chip.rank = process * c + j;
    chip.device = local[j];
    for (int64_t l = 0; l < layers; ++l) {
      chip.shards.push_back(
          Must(client.BufferFromHost(&weights[l][j * rows * width],
                                     PJRTX_Buffer_Type_F32, {rows, width},
                                     chip.device),
               "weights"));
    }
    chip.lr =
        Must(client.BufferFromHost(&lr, PJRTX_Buffer_Type_F32, {}, chip.device),
             "lr");
    std::mt19937 data_rng(static_cast<uint32_t>(100 + chip.rank));
    chip.x = Normal(data_rng, kBatchesPerChip * batch * width, 1.0);
    chip.y.resize(chip.x.size());
    Targets(teacher, kBatchesPerChip * batch, width, chip.x.data(),
            chip.y.data());
  }

  const int64_t flops_per_chip =
      multislice::ModelFlopsPerChip(batch, width, layers);
  const double flops_per_step = static_cast<double>(flops_per_chip) * c * s;
  if (process == 0) {
    std::printf("%s\n", peak_line.c_str());
    std::printf(
        "multislice_train: %lld slice(s) x %lld chips (%s), %lld layers of "
        "%lldx%lld, batch %lld per chip, overlap %s, DCN %s\n",
        static_cast<long long>(s), static_cast<long long>(c),
        options.job.topology.c_str(), static_cast<long long>(layers),
        static_cast<long long>(width), static_cast<long long>(width),
        static_cast<long long>(batch), options.overlap ? "on" : "off",
        options.dcn_gbps > 0
            ? absl::StrCat(options.dcn_gbps, " GB/s per chip").c_str()
            : "uncapped");
    std::printf(
        "model FLOPs/step = 2*B*W^2*(L + 2L - 1) per chip x chips = "
        "2*%lld*%lld^2*%lld x %lld = %.4g; MFU = that / step time / peak\n",
        static_cast<long long>(batch), static_cast<long long>(width),
        static_cast<long long>(3 * layers - 1), static_cast<long long>(c * s),
        flops_per_step);
    std::fflush(stdout);
  }

  const int64_t batch_values = batch * width;
  std::vector<double> losses, mfus, step_seconds;
  int bad_steps = 0;
  for (int64_t step = 0; step < options.steps; ++step) {
    const TransferCounters before = Sum(chips);
    const Clock::time_point start = Clock::now();
    const int64_t slot = step % kBatchesPerChip;
    std::vector<Buffer> x, y;
    for (Chip& chip : chips) {
      x.push_back(Must(client.BufferFromHost(&chip.x[slot * batch_values],
                                             PJRTX_Buffer_Type_F32,
                                             {batch, width}, chip.device),
                       "batch"));
      y.push_back(Must(client.BufferFromHost(&chip.y[slot * batch_values],
                                             PJRTX_Buffer_Type_F32,
                                             {batch, width}, chip.device),
                       "targets"));
    }
    // Full weights for this step, gathered from the slice's shards.
    std::vector<Communicator::Result> full;
    for (int64_t l = 0; l < layers; ++l) {
      std::vector<const Buffer*> shards;
      for (Chip& chip : chips) shards.push_back(&chip.shards[l]);
      full.push_back(Must(ici.AllGather(shards), "all-gather"));
      if (!options.overlap) {
        for (const EventFuture& done : full.back().done) {
          Must(done.Await(), "all-gather");
        }
      }
    }
    // Forward: activations[j][l] is the input of layer l on chip j.
    std::vector<std::vector<Buffer>> activations(c);
    std::vector<Buffer> loss(c), residual(c);
    for (int64_t j = 0; j < c; ++j) {
      const Device& device = chips[j].device;
      const Buffer* input = &x[j];
      for (int64_t l = 0; l + 1 < layers; ++l) {
        auto run = Must(programs.forward_hidden.Execute(
                            device, {input, &full[l].outputs[j]}),
                        "forward");
        activations[j].push_back(std::move(run.outputs[0]));
        input = &activations[j].back();
      }
      auto last =
          Must(programs.forward_last.Execute(
                   device, {input, &full[layers - 1].outputs[j], &y[j]}),
               "forward");
      loss[j] = std::move(last.outputs[0]);
      residual[j] = std::move(last.outputs[1]);
    }
    std::vector<float> loss_values(c);
    std::vector<EventFuture> loss_read;
    for (int64_t j = 0; j < c; ++j) {
      loss_read.push_back(
          Must(loss[j].ToHost(&loss_values[j], sizeof(float)), "loss"));
    }

    // Reduces layer l's gradient (one per chip) across the job: ICI
    // reduce-scatter, then DCN all-reduce per chip. Collectives run on the
    // communicators' threads, beside the chips' program queues.
    std::vector<std::vector<Communicator::Result>> reduced(layers);
    auto reduce = [&](int64_t l, std::vector<Buffer>& gradient) {
      std::vector<const Buffer*> grads;
      for (Buffer& g : gradient) grads.push_back(&g);
      Communicator::Options donate_all;
      donate_all.donate.assign(c, true);
      reduced[l].push_back(
          Must(ici.ReduceScatter(grads, PJRTX_ReduceOp_SUM, donate_all),
               "reduce-scatter"));
      if (s == 1) return;
      for (int64_t j = 0; j < c; ++j) {
        Communicator::Options donate;
        donate.donate = {true};
        reduced[l].push_back(Must(dcn[j].AllReduce({&reduced[l][0].outputs[j]},
                                                   PJRTX_ReduceOp_SUM, donate),
                                  "all-reduce"));
      }
    };
    // Applies layer l's reduced gradient to the shards. Enqueued after the
    // whole backward pass: a chip runs its programs in order, so an update
    // waiting for the network would hold up the backward programs behind
    // it.
    auto update = [&](int64_t l) {
      for (int64_t j = 0; j < c; ++j) {
        const Buffer* shard_gradient =
            s == 1 ? &reduced[l][0].outputs[j] : &reduced[l][1 + j].outputs[0];
        auto run = Must(programs.update.Execute(
                            chips[j].device,
                            {&chips[j].shards[l], shard_gradient, &chips[j].lr},
                            {true, true, false}),
                        "update");
        chips[j].shards[l] = std::move(run.outputs[0]);
      }
    };

    // Backward, last layer first. gradient[l][j]: layer l's on chip j.
    std::vector<std::vector<Buffer>> gradient(layers);
    std::vector<Buffer> upstream(c);  // d loss / d (input of layer l+1).
    std::vector<EventFuture> backward_done(c);
    for (int64_t l = layers - 1; l >= 0; --l) {
      for (int64_t j = 0; j < c; ++j) {
        const Device& device = chips[j].device;
        const Buffer& input = l == 0 ? x[j] : activations[j][l - 1];
        Executable::Run run;
        if (l == layers - 1) {
          run = Must(programs.backward_last.Execute(
                         device, {&input, &residual[j], &full[l].outputs[j]}),
                     "backward");
        } else if (l > 0) {
          run = Must(programs.backward_hidden.Execute(
                         device, {&input, &activations[j][l], &upstream[j],
                                  &full[l].outputs[j]}),
                     "backward");
        } else {
          run = Must(programs.backward_first.Execute(
                         device, {&input, &activations[j][0], &upstream[j]}),
                     "backward");
        }
        gradient[l].push_back(std::move(run.outputs[0]));
        if (l > 0) upstream[j] = std::move(run.outputs[1]);
        backward_done[j] = std::move(run.done);
      }
      if (options.overlap) reduce(l, gradient[l]);
    }
    if (!options.overlap) {
      // Nothing travels until the whole backward pass is done.
      for (const EventFuture& done : backward_done) {
        Must(done.Await(), "backward");
      }
      // One collective at a time: each waits for the one before it.
      for (int64_t l = layers - 1; l >= 0; --l) {
        reduce(l, gradient[l]);
        for (const Communicator::Result& result : reduced[l]) {
          for (const EventFuture& done : result.done) {
            Must(done.Await(), "gradient reduction");
          }
        }
      }
    }
    for (int64_t l = layers - 1; l >= 0; --l) update(l);
    for (Chip& chip : chips) {
      for (const Buffer& shard : chip.shards) {
        Must(shard.ReadyEvent().Await(), "step");
      }
    }
    for (const EventFuture& read : loss_read) Must(read.Await(), "loss");
    const double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();

    const TransferCounters after = Sum(chips);
    const int64_t h2d =
        after.host_to_device_bytes - before.host_to_device_bytes;
    const int64_t d2h =
        after.device_to_host_bytes - before.device_to_host_bytes;
    const int64_t staging = after.staging_bytes - before.staging_bytes;
    const int64_t dcn_bytes = after.dcn_sent_bytes - before.dcn_sent_bytes;
    // Staging is as much out of the chips as back in (all-reduce).
    const int64_t batch_bytes = 2 * c * batch_values * 4;
    const bool only_expected =
        h2d == batch_bytes + staging / 2 && d2h == 4 * c + staging / 2;
    if (!only_expected) ++bad_steps;
    float mean_loss = 0;
    for (float v : loss_values) mean_loss += v / static_cast<float>(c);
    const double mfu = flops_per_step / seconds / peak;
    losses.push_back(mean_loss);
    step_seconds.push_back(seconds);
    mfus.push_back(mfu);
    if (process == 0) {
      std::printf(
          "step %3lld loss %.5f  %7.2f ms  h2d %lld  d2h %lld  staging %lld  "
          "dcn %lld  mfu %.4f%s\n",
          static_cast<long long>(step), mean_loss, seconds * 1e3,
          static_cast<long long>(h2d), static_cast<long long>(d2h),
          static_cast<long long>(staging), static_cast<long long>(dcn_bytes),
          mfu, only_expected ? "" : "  (unexpected host transfers)");
      std::fflush(stdout);
    }
  }

  // Steps after the first two (compilation caches, first allocations),
  // when there are more.
  const size_t warm_up = step_seconds.size() > 2 ? 2 : 0;
  const std::vector<double> steady(step_seconds.begin() + warm_up,
                                   step_seconds.end());
  const std::vector<double> steady_mfu(mfus.begin() + warm_up, mfus.end());
  const double first = losses.front();
  const double last = losses.back();
  std::printf("slice %d: loss first=%.6f last=%.6f\n", process, first, last);
  std::printf("slice %d: step_ms=%.3f mfu=%.6f\n", process,
              Median(steady) * 1e3, Median(steady_mfu));
  if (process == 0) {
    std::printf("loss first=%.6f last=%.6f\nmfu=%.6f\n", first, last,
                Median(steady_mfu));
  }
  int exit_code = 0;
  if (!(last * 10 <= first)) {
    std::fprintf(stderr, "multislice_train: the loss fell %.2fx, not 10x\n",
                 first / last);
    exit_code = 1;
  }
  if (bad_steps > 0) {
    std::fprintf(stderr,
                 "multislice_train: %d step(s) moved more between host and "
                 "chips than the batch, the loss and the DCN staging\n",
                 bad_steps);
    exit_code = 1;
  }
  std::fflush(stdout);
  Must(pjrtx::LeaveJob(job, kTimeoutMs), "leaving the job");
  return exit_code;
}
