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
// GEMM peak measured with oneDNN at start-up in the same run (bf16 where
// the CPU runs it fast, f32 otherwise; the header says which and why). Ends
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

// --trace: one file per process, trace.json -> trace.<process>.json.
void TraceToFile(std::string path, int process, int processes) {
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

// The machine's GEMM peak (bf16 where the CPU runs it fast, else f32),
// what MFU is measured against.
struct Peak {
  double flops_per_second = 0;
  std::string line;  // How it was measured; process 0 only.
};

// Measured by one process while the others wait, so that it has the whole
// machine; the others read it from the job's store.
Peak SharePeak(pjrtx::JobCoordination& job, int process) {
  Peak peak;
  if (process == 0) {
    const multislice::GemmPeak measured =
        Must(multislice::MeasureGemmPeak(), "GEMM peak");
    peak.flops_per_second = measured.flops_per_second;
    peak.line =
        absl::StrCat(measured.type, " GEMM peak: ", peak.flops_per_second / 1e9,
                     " GFLOP/s (oneDNN ", measured.implementation, ", ",
                     measured.n, "^3, default threads; ", measured.reason, ")");
    if (job.store != nullptr) {
      Must(job.store->Put("multislice/peak",
                          absl::StrCat(peak.flops_per_second)),
           "peak");
    }
  } else {
    const std::string text =
        Must(job.store->Get("multislice/peak", kTimeoutMs), "peak");
    if (!absl::SimpleAtod(text, &peak.flops_per_second)) {
      Fail("peak", absl::InternalError(text));
    }
  }
  return peak;
}

// The job's shape: c chips per slice, s slices; each chip holds `rows` of
// every layer's W x W weights.
struct Sizes {
  int64_t c = 0, s = 0;
  int64_t width = 0, batch = 0, layers = 0, rows = 0;
};

// What this process trains with.
struct Model {
  Sizes sizes;
  // The slice's chips (ICI), and each chip position across slices (DCN).
  Communicator ici;
  std::vector<Communicator> dcn;
  Programs programs;
  std::vector<Chip> chips;
};

Communicator CreateIci(Client& client, const std::vector<Device>& local) {
  std::vector<int64_t> slice_ids;
  for (const Device& d : local) slice_ids.push_back(d.id());
  return Must(Communicator::Create(client, slice_ids, kTimeoutMs), "ICI");
}

// Per chip position, the chips at it in every slice.
std::vector<Communicator> CreateDcn(Client& client, const Sizes& sizes) {
  const std::vector<Device> devices = client.devices();
  std::vector<Communicator> dcn;
  for (int64_t position = 0; position < sizes.c; ++position) {
    std::vector<int64_t> column;
    for (int64_t slice = 0; slice < sizes.s; ++slice) {
      column.push_back(devices[slice * sizes.c + position].id());
    }
    dcn.push_back(
        Must(Communicator::Create(client, column, kTimeoutMs), "DCN"));
  }
  return dcn;
}

Programs CompilePrograms(Client& client, const Sizes& sizes) {
  const multislice::ProgramTexts texts =
      multislice::MakePrograms(sizes.batch, sizes.width, sizes.rows);
  auto compile = [&](const std::string& text, const char* name) {
    return Must(Executable::Compile(client, text), name);
  };
  return Programs{compile(texts.forward_hidden, "forward_hidden"),
                  compile(texts.forward_last, "forward_last"),
                  compile(texts.backward_last, "backward_last"),
                  compile(texts.backward_hidden, "backward_hidden"),
                  compile(texts.backward_first, "backward_first"),
                  compile(texts.update, "update")};
}

// The same initial weights and teacher in every process; data of its own
// on every chip of the job.
std::vector<Chip> CreateChips(Client& client, const std::vector<Device>& local,
                              const Sizes& sizes, const Options& options,
                              int process) {
  const int64_t width = sizes.width, rows = sizes.rows;
  std::mt19937 rng(1234);
  Teacher teacher{Normal(rng, width * kTeacherHidden, 2.0 / std::sqrt(width)),
                  Normal(rng, kTeacherHidden * width,
                         1.0 / std::sqrt(double{kTeacherHidden}))};
  std::vector<std::vector<float>> weights;
  for (int64_t l = 0; l < sizes.layers; ++l) {
    weights.push_back(Normal(rng, width * width, 1.0 / std::sqrt(width)));
  }
  // Every chip's batch gradient is summed over the c chips of its slice
  // and the s slices; the step is their mean.
  const float lr = options.lr / static_cast<float>(sizes.c * sizes.s);
  std::vector<Chip> chips(sizes.c);
  for (int64_t j = 0; j < sizes.c; ++j) {
    Chip& chip = chips[j];
    chip.rank = process * sizes.c + j;
    chip.device = local[j];
    for (int64_t l = 0; l < sizes.layers; ++l) {
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
    chip.x = Normal(data_rng, kBatchesPerChip * sizes.batch * width, 1.0);
    chip.y.resize(chip.x.size());
    Targets(teacher, kBatchesPerChip * sizes.batch, width, chip.x.data(),
            chip.y.data());
  }
  return chips;
}

// Communicators (every process creates them in the same order), programs
// and this process's chips with their shards and data.
Model SetUpModel(Client& client, const Options& options, int process,
                 int processes) {
  const std::vector<Device> local = client.addressable_devices();
  Sizes sizes;
  sizes.c = static_cast<int64_t>(local.size());
  sizes.s = processes;
  sizes.width = options.width;
  sizes.batch = options.batch;
  sizes.layers = options.layers;
  if (sizes.width % sizes.c != 0) {
    Fail("sizes", absl::InvalidArgumentError(absl::StrCat(
                      "--width=", sizes.width, " must be a multiple of the ",
                      sizes.c, " chips of a slice, which each hold 1/", sizes.c,
                      " of every layer's rows")));
  }
  sizes.rows = sizes.width / sizes.c;
  Communicator ici = CreateIci(client, local);
  std::vector<Communicator> dcn = CreateDcn(client, sizes);
  Programs programs = CompilePrograms(client, sizes);
  std::vector<Chip> chips = CreateChips(client, local, sizes, options, process);
  return Model{sizes, std::move(ici), std::move(dcn), std::move(programs),
               std::move(chips)};
}

void PrintHeader(const Options& options, const Sizes& sizes, const Peak& peak,
                 double flops_per_step) {
  std::printf("%s\n", peak.line.c_str());
  std::printf(
      "multislice_train: %lld slice(s) x %lld chips (%s), %lld layers of "
      "%lldx%lld, batch %lld per chip, overlap %s, DCN %s\n",
      static_cast<long long>(sizes.s), static_cast<long long>(sizes.c),
      options.job.topology.c_str(), static_cast<long long>(sizes.layers),
      static_cast<long long>(sizes.width), static_cast<long long>(sizes.width),
      static_cast<long long>(sizes.batch), options.overlap ? "on" : "off",
      options.dcn_gbps > 0
          ? absl::StrCat(options.dcn_gbps, " GB/s per chip").c_str()
          : "uncapped");
  std::printf(
      "model FLOPs/step = 2*B*W^2*(L + 2L - 1) per chip x chips = "
      "2*%lld*%lld^2*%lld x %lld = %.4g; MFU = that / step time / peak\n",
      static_cast<long long>(sizes.batch), static_cast<long long>(sizes.width),
      static_cast<long long>(3 * sizes.layers - 1),
      static_cast<long long>(sizes.c * sizes.s), flops_per_step);
  std::fflush(stdout);
}

// Full weights for this step, per layer, gathered from the slice's shards.
std::vector<Communicator::Result> GatherWeights(const Model& model,
                                                bool overlap) {
  std::vector<Communicator::Result> full;
  for (int64_t l = 0; l < model.sizes.layers; ++l) {
    std::vector<const Buffer*> shards;
    for (const Chip& chip : model.chips) shards.push_back(&chip.shards[l]);
    full.push_back(Must(model.ici.AllGather(shards), "all-gather"));
    if (!overlap) {
      for (const EventFuture& done : full.back().done) {
        Must(done.Await(), "all-gather");
      }
    }
  }
  return full;
}

// What the forward pass leaves for the backward one, per chip j.
struct ForwardPass {
  std::vector<std::vector<Buffer>> activations;  // [j][l]: layer l's input.
  std::vector<Buffer> loss, residual;
};

ForwardPass Forward(const Model& model, const std::vector<Buffer>& x,
                    const std::vector<Buffer>& y,
                    const std::vector<Communicator::Result>& full) {
  const int64_t c = model.sizes.c, layers = model.sizes.layers;
  ForwardPass pass;
  pass.activations.resize(c);
  pass.loss.resize(c);
  pass.residual.resize(c);
  for (int64_t j = 0; j < c; ++j) {
    const Device& device = model.chips[j].device;
    const Buffer* input = &x[j];
    for (int64_t l = 0; l + 1 < layers; ++l) {
      auto run = Must(model.programs.forward_hidden.Execute(
                          device, {input, &full[l].outputs[j]}),
                      "forward");
      pass.activations[j].push_back(std::move(run.outputs[0]));
      input = &pass.activations[j].back();
    }
    auto last = Must(model.programs.forward_last.Execute(
                         device, {input, &full[layers - 1].outputs[j], &y[j]}),
                     "forward");
    pass.loss[j] = std::move(last.outputs[0]);
    pass.residual[j] = std::move(last.outputs[1]);
  }
  return pass;
}

// Reduces each layer's gradient (one per chip) across the job: ICI
// reduce-scatter, then DCN all-reduce per chip. Collectives run on the
// communicators' threads, beside the chips' program queues.
class GradientReduction {
 public:
  explicit GradientReduction(const Model& model)
      : model_(model), reduced_(model.sizes.layers) {}

  void Reduce(int64_t l, std::vector<Buffer>& gradient) {
    const int64_t c = model_.sizes.c;
    std::vector<const Buffer*> grads;
    for (Buffer& g : gradient) grads.push_back(&g);
    Communicator::Options donate_all;
    donate_all.donate.assign(c, true);
    reduced_[l].push_back(
        Must(model_.ici.ReduceScatter(grads, PJRTX_ReduceOp_SUM, donate_all),
             "reduce-scatter"));
    if (model_.sizes.s == 1) return;
    for (int64_t j = 0; j < c; ++j) {
      Communicator::Options donate;
      donate.donate = {true};
      reduced_[l].push_back(
          Must(model_.dcn[j].AllReduce({&reduced_[l][0].outputs[j]},
                                       PJRTX_ReduceOp_SUM, donate),
               "all-reduce"));
    }
  }

  // Waits for layer l's collectives.
  void Await(int64_t l) const {
    for (const Communicator::Result& result : reduced_[l]) {
      for (const EventFuture& done : result.done) {
        Must(done.Await(), "gradient reduction");
      }
    }
  }

  // Layer l's gradient for chip j's shard, summed over the job.
  const Buffer* ShardGradient(int64_t l, int64_t j) const {
    return model_.sizes.s == 1 ? &reduced_[l][0].outputs[j]
                               : &reduced_[l][1 + j].outputs[0];
  }

 private:
  const Model& model_;
  std::vector<std::vector<Communicator::Result>> reduced_;
};

// Backward, last layer first; with `overlap`, each layer's gradient is
// reduced as soon as it is computed. Returns when every chip's last
// backward program is done.
std::vector<EventFuture> Backward(const Model& model,
                                  const std::vector<Buffer>& x,
                                  const ForwardPass& pass,
                                  const std::vector<Communicator::Result>& full,
                                  bool overlap, GradientReduction& reduction,
                                  std::vector<std::vector<Buffer>>& gradient) {
  const int64_t c = model.sizes.c, layers = model.sizes.layers;
  const Programs& programs = model.programs;
  std::vector<Buffer> upstream(c);  // d loss / d (input of layer l+1).
  std::vector<EventFuture> backward_done(c);
  for (int64_t l = layers - 1; l >= 0; --l) {
    for (int64_t j = 0; j < c; ++j) {
      const Device& device = model.chips[j].device;
      const Buffer& input = l == 0 ? x[j] : pass.activations[j][l - 1];
      Executable::Run run;
      if (l == layers - 1) {
        run =
            Must(programs.backward_last.Execute(
                     device, {&input, &pass.residual[j], &full[l].outputs[j]}),
                 "backward");
      } else if (l > 0) {
        run = Must(programs.backward_hidden.Execute(
                       device, {&input, &pass.activations[j][l], &upstream[j],
                                &full[l].outputs[j]}),
                   "backward");
      } else {
        run = Must(programs.backward_first.Execute(
                       device, {&input, &pass.activations[j][0], &upstream[j]}),
                   "backward");
      }
      gradient[l].push_back(std::move(run.outputs[0]));
      if (l > 0) upstream[j] = std::move(run.outputs[1]);
      backward_done[j] = std::move(run.done);
    }
    if (overlap) reduction.Reduce(l, gradient[l]);
  }
  return backward_done;
}

// Applies layer l's reduced gradient to the shards. Enqueued after the
// whole backward pass: a chip runs its programs in order, so an update
// waiting for the network would hold up the backward programs behind it.
void Update(Model& model, const GradientReduction& reduction, int64_t l) {
  for (int64_t j = 0; j < model.sizes.c; ++j) {
    Chip& chip = model.chips[j];
    auto run =
        Must(model.programs.update.Execute(
                 chip.device,
                 {&chip.shards[l], reduction.ShardGradient(l, j), &chip.lr},
                 {true, true, false}),
             "update");
    chip.shards[l] = std::move(run.outputs[0]);
  }
}

// One step as measured.
struct StepResult {
  double loss = 0;  // The slice's mean.
  double seconds = 0;
  int64_t h2d = 0, d2h = 0, staging = 0, dcn = 0;  // Bytes, all chips.
  // Moved to and from the host only the batch, the loss and the staging.
  bool only_expected = true;
};

StepResult TrainStep(Client& client, Model& model, bool overlap, int64_t step) {
  const Sizes& sizes = model.sizes;
  const int64_t c = sizes.c, layers = sizes.layers;
  const int64_t batch_values = sizes.batch * sizes.width;
  const TransferCounters before = Sum(model.chips);
  const Clock::time_point start = Clock::now();
  const int64_t slot = step % kBatchesPerChip;
  std::vector<Buffer> x, y;
  for (Chip& chip : model.chips) {
    x.push_back(Must(client.BufferFromHost(
                         &chip.x[slot * batch_values], PJRTX_Buffer_Type_F32,
                         {sizes.batch, sizes.width}, chip.device),
                     "batch"));
    y.push_back(Must(client.BufferFromHost(
                         &chip.y[slot * batch_values], PJRTX_Buffer_Type_F32,
                         {sizes.batch, sizes.width}, chip.device),
                     "targets"));
  }
  const std::vector<Communicator::Result> full = GatherWeights(model, overlap);
  ForwardPass pass = Forward(model, x, y, full);
  std::vector<float> loss_values(c);
  std::vector<EventFuture> loss_read;
  for (int64_t j = 0; j < c; ++j) {
    loss_read.push_back(
        Must(pass.loss[j].ToHost(&loss_values[j], sizeof(float)), "loss"));
  }

  // gradient[l][j]: layer l's on chip j.
  GradientReduction reduction(model);
  std::vector<std::vector<Buffer>> gradient(layers);
  const std::vector<EventFuture> backward_done =
      Backward(model, x, pass, full, overlap, reduction, gradient);
  if (!overlap) {
    // Nothing travels until the whole backward pass is done.
    for (const EventFuture& done : backward_done) {
      Must(done.Await(), "backward");
    }
    // One collective at a time: each waits for the one before it.
    for (int64_t l = layers - 1; l >= 0; --l) {
      reduction.Reduce(l, gradient[l]);
      reduction.Await(l);
    }
  }
  for (int64_t l = layers - 1; l >= 0; --l) Update(model, reduction, l);
  for (Chip& chip : model.chips) {
    for (const Buffer& shard : chip.shards) {
      Must(shard.ReadyEvent().Await(), "step");
    }
  }
  for (const EventFuture& read : loss_read) Must(read.Await(), "loss");

  StepResult result;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const TransferCounters after = Sum(model.chips);
  result.h2d = after.host_to_device_bytes - before.host_to_device_bytes;
  result.d2h = after.device_to_host_bytes - before.device_to_host_bytes;
  result.staging = after.staging_bytes - before.staging_bytes;
  result.dcn = after.dcn_sent_bytes - before.dcn_sent_bytes;
  // Staging is as much out of the chips as back in (all-reduce).
  const int64_t batch_bytes = 2 * c * batch_values * 4;
  result.only_expected = result.h2d == batch_bytes + result.staging / 2 &&
                         result.d2h == 4 * c + result.staging / 2;
  float mean_loss = 0;
  for (float v : loss_values) mean_loss += v / static_cast<float>(c);
  result.loss = mean_loss;
  return result;
}

void PrintStep(int64_t step, const StepResult& result, double mfu) {
  std::printf(
      "step %3lld loss %.5f  %7.2f ms  h2d %lld  d2h %lld  staging %lld  "
      "dcn %lld  mfu %.4f%s\n",
      static_cast<long long>(step), result.loss, result.seconds * 1e3,
      static_cast<long long>(result.h2d), static_cast<long long>(result.d2h),
      static_cast<long long>(result.staging),
      static_cast<long long>(result.dcn), mfu,
      result.only_expected ? "" : "  (unexpected host transfers)");
  std::fflush(stdout);
}

// Prints the run's summary and returns the exit code: 1 unless the loss
// fell at least 10x and every step moved only what it should.
int Report(int process, const std::vector<StepResult>& steps,
           const std::vector<double>& mfus) {
  std::vector<double> step_seconds;
  int bad_steps = 0;
  for (const StepResult& step : steps) {
    step_seconds.push_back(step.seconds);
    if (!step.only_expected) ++bad_steps;
  }
  // Steps after the first two (compilation caches, first allocations),
  // when there are more.
  const size_t warm_up = step_seconds.size() > 2 ? 2 : 0;
  const std::vector<double> steady(step_seconds.begin() + warm_up,
                                   step_seconds.end());
  const std::vector<double> steady_mfu(mfus.begin() + warm_up, mfus.end());
  const double first = steps.front().loss;
  const double last = steps.back().loss;
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
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, options)) return 2;
  pjrtx::JobCoordination job =
      samples::JoinSliceJob(options.job, PJRTX_CLI, argc, argv);
  const int process = job.environment.process_id;
  const int processes = job.environment.num_processes;
  if (!options.trace.empty()) TraceToFile(options.trace, process, processes);
  const Peak peak = SharePeak(job, process);

  Client client = samples::CreateSliceClient(options.job, job,
                                             {{"dcn_gbps", options.dcn_gbps}});
  Model model = SetUpModel(client, options, process, processes);
  const Sizes& sizes = model.sizes;
  const int64_t flops_per_chip =
      multislice::ModelFlopsPerChip(sizes.batch, sizes.width, sizes.layers);
  const double flops_per_step =
      static_cast<double>(flops_per_chip) * sizes.c * sizes.s;
  if (process == 0) PrintHeader(options, sizes, peak, flops_per_step);

  std::vector<StepResult> steps;
  std::vector<double> mfus;
  for (int64_t step = 0; step < options.steps; ++step) {
    steps.push_back(TrainStep(client, model, options.overlap, step));
    mfus.push_back(flops_per_step / steps.back().seconds /
                   peak.flops_per_second);
    if (process == 0) PrintStep(step, steps.back(), mfus.back());
  }

  const int exit_code = Report(process, steps, mfus);
  std::fflush(stdout);
  Must(pjrtx::LeaveJob(job, kTimeoutMs), "leaving the job");
  return exit_code;
}
