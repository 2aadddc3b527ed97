// Trains a 2-layer MLP on synthetic data on one device of a PJRT-style
// plugin (by default the TPU emulator), with the parameters resident on the
// device for the whole run.
//
//   mlp_train [PLUGIN.so] [--steps=N] [--print-every=N] [--batch=N]
//             [--lr=F] [--mlir-dir=DIR] [--check-gradients]
//
// The model lives in three hand-written StableHLO files, compiled as three
// executables that each step runs back to back on the device:
//   forward.mlir     (x, y, params)      -> (loss, h, r)
//   backward.mlir    (x, h, r, W2)       -> grads
//   sgd_update.mlir  (params, grads, lr) -> params
// Keeping them separate (instead of one fused train-step program) mirrors
// how a framework splits a step into a forward pass that saves residuals, a
// backward pass that consumes them and an optimizer update; every
// intermediate (h, r, the gradients) is a device buffer that never crosses
// to the host. The update donates the old parameters and the gradients, so
// the new parameters can reuse their memory, and the residuals are donated
// to the backward pass that consumes them.
//
// Per step the host uploads the batch (x and y) and reads back the 4-byte
// loss, nothing else; the device's transfer counters prove it at the end.
// Exits 1 unless the loss fell at least 10x from the first step to the last
// and the counters match exactly (2 on bad arguments). --check-gradients
// instead compares backward.mlir's gradients with central finite differences
// of forward.mlir's loss, and exits 1 on a mismatch.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "runtime/client/buffer.h"
#include "runtime/client/client.h"
#include "runtime/client/device.h"
#include "runtime/client/event_future.h"
#include "runtime/client/executable.h"
#include "support/status_macros.h"

namespace {

using ::pjrtx::client::Buffer;
using ::pjrtx::client::Client;
using ::pjrtx::client::Device;
using ::pjrtx::client::EventFuture;
using ::pjrtx::client::Executable;
using ::pjrtx::client::PluginLibrary;
using ::pjrtx::client::TransferCounters;

// Model sizes; they must match the shapes written in the .mlir files.
constexpr int64_t kFeatures = 16;
constexpr int64_t kHidden = 64;
// The batch size the .mlir files are written for (see RewriteBatch).
constexpr int64_t kFileBatch = 128;
// The training set holds this many batches; steps cycle through them.
constexpr int64_t kBatchesInDataset = 32;

constexpr char kUsage[] =
    "usage: mlp_train [PLUGIN.so] [--steps=N] [--print-every=N] [--batch=N]\n"
    "                 [--lr=F] [--mlir-dir=DIR] [--check-gradients]\n";

struct Options {
  std::string plugin_path = TPU_EMU_PLUGIN;
  std::string mlir_dir = MLP_TRAIN_MLIR_DIR;
  int64_t steps = 300;
  int64_t print_every = 25;
  int64_t batch = kFileBatch;
  float lr = 0.2f;
  bool check_gradients = false;
};

// Parses argv into `options`; on a bad argument prints why and returns false.
bool ParseArgs(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    bool ok = true;
    if (!absl::StartsWith(arg, "--")) {
      options.plugin_path = std::string(arg);
    } else if (absl::ConsumePrefix(&arg, "--steps=")) {
      ok = absl::SimpleAtoi(arg, &options.steps) && options.steps > 0;
    } else if (absl::ConsumePrefix(&arg, "--print-every=")) {
      ok = absl::SimpleAtoi(arg, &options.print_every) &&
           options.print_every > 0;
    } else if (absl::ConsumePrefix(&arg, "--batch=")) {
      ok = absl::SimpleAtoi(arg, &options.batch) && options.batch > 0;
    } else if (absl::ConsumePrefix(&arg, "--lr=")) {
      ok = absl::SimpleAtof(arg, &options.lr) && options.lr > 0;
    } else if (absl::ConsumePrefix(&arg, "--mlir-dir=")) {
      options.mlir_dir = std::string(arg);
    } else if (arg == "--check-gradients") {
      options.check_gradients = true;
    } else {
      std::fprintf(stderr, "mlp_train: unknown argument '%s'\n%s", argv[i],
                   kUsage);
      return false;
    }
    if (!ok) {
      std::fprintf(
          stderr, "mlp_train: bad value in '%s' (want a positive %s)\n%s",
          argv[i], absl::StartsWith(argv[i], "--lr=") ? "number" : "integer",
          kUsage);
      return false;
    }
  }
  return true;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// StableHLO shapes are static, so the files are written for kFileBatch rows
// and every tensor whose leading dimension is the batch is spelled
// tensor<128x...>; no parameter shape starts with 128, and the mean divides
// by get_dimension_size rather than a constant. Rewriting exactly that prefix
// retargets a program to another batch size.
std::string RewriteBatch(const std::string& mlir, int64_t batch) {
  return absl::StrReplaceAll(mlir, {{absl::StrCat("tensor<", kFileBatch, "x"),
                                     absl::StrCat("tensor<", batch, "x")}});
}

absl::StatusOr<Executable> CompileFile(const Client& client,
                                       const Options& options,
                                       const std::string& name) {
  const std::string path = absl::StrCat(options.mlir_dir, "/", name);
  PJRTX_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  absl::StatusOr<Executable> executable =
      Executable::Compile(client, RewriteBatch(text, options.batch));
  if (!executable.ok()) {
    return absl::Status(
        executable.status().code(),
        absl::StrCat(path, ": ", executable.status().message()));
  }
  return executable;
}

// Inputs standard normal; targets from a random "teacher" network of the
// same form, kTeacherHidden tanh units whose pre-activations have standard
// deviation kTeacherScale, where tanh is far from linear. On the default
// 4096 examples the best constant predictor has mean squared error 0.45 and
// the best linear one 0.11 (least squares), so a loss well below 0.1 shows
// the MLP fitting the nonlinearity, not just the linear trend.
constexpr int64_t kTeacherHidden = 4;
constexpr float kTeacherScale = 3.0f;

struct Dataset {
  std::vector<float> x;  // examples x kFeatures, row-major
  std::vector<float> y;  // examples
};

Dataset MakeDataset(int64_t examples, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> u(kFeatures * kTeacherHidden), v(kTeacherHidden);
  for (float& e : u)
    e = normal(rng) * kTeacherScale / std::sqrt(float{kFeatures});
  for (float& e : v) e = normal(rng) / std::sqrt(float{kTeacherHidden});
  Dataset data;
  data.x.resize(examples * kFeatures);
  data.y.resize(examples);
  for (int64_t e = 0; e < examples; ++e) {
    float* x = &data.x[e * kFeatures];
    for (int64_t f = 0; f < kFeatures; ++f) x[f] = normal(rng);
    float y = 0;
    for (int64_t t = 0; t < kTeacherHidden; ++t) {
      float z = 0;
      for (int64_t f = 0; f < kFeatures; ++f) {
        z += x[f] * u[f * kTeacherHidden + t];
      }
      y += v[t] * std::tanh(z);
    }
    data.y[e] = y;
  }
  return data;
}

// W1, b1, W2, b2 in the order the programs take them.
struct HostParams {
  std::vector<float> w1, b1, w2, b2;
};

// Weights normal with variance 1/fan_in, so pre-activations start at unit
// scale and tanh is neither saturated nor linear; biases zero.
HostParams InitParams(std::mt19937& rng) {
  auto normal = [&rng](int64_t n, double fan_in) {
    std::normal_distribution<float> dist(0.0f, 1.0f / std::sqrt(fan_in));
    std::vector<float> v(n);
    for (float& e : v) e = dist(rng);
    return v;
  };
  return {normal(kFeatures * kHidden, kFeatures), std::vector<float>(kHidden),
          normal(kHidden, kHidden), std::vector<float>(1)};
}

const std::vector<std::vector<int64_t>>& ParamDims() {
  static const auto* dims = new std::vector<std::vector<int64_t>>{
      {kFeatures, kHidden}, {kHidden}, {kHidden, 1}, {1}};
  return *dims;
}

absl::StatusOr<Buffer> Upload(const Client& client, const Device& device,
                              const float* data,
                              const std::vector<int64_t>& dims) {
  return client.BufferFromHost(data, PJRTX_Buffer_Type_F32, dims, device);
}

absl::StatusOr<std::vector<Buffer>> UploadParams(const Client& client,
                                                 const Device& device,
                                                 const HostParams& params) {
  const std::vector<float>* host[] = {&params.w1, &params.b1, &params.w2,
                                      &params.b2};
  std::vector<Buffer> buffers;
  for (int i = 0; i < 4; ++i) {
    PJRTX_ASSIGN_OR_RETURN(
        Buffer buffer, Upload(client, device, host[i]->data(), ParamDims()[i]));
    buffers.push_back(std::move(buffer));
  }
  return buffers;
}

absl::StatusOr<std::vector<float>> ToHostFloats(const Buffer& buffer) {
  PJRTX_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, buffer.ToHostSync());
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

struct Programs {
  Executable forward, backward, sgd_update;
};

// One batch on the device.
struct Batch {
  Buffer x, y;
};

absl::StatusOr<Batch> UploadBatch(const Client& client, const Device& device,
                                  const Dataset& data, int64_t batch,
                                  int64_t index) {
  const int64_t first = (index % kBatchesInDataset) * batch;
  PJRTX_ASSIGN_OR_RETURN(
      Buffer x,
      Upload(client, device, &data.x[first * kFeatures], {batch, kFeatures}));
  PJRTX_ASSIGN_OR_RETURN(Buffer y,
                         Upload(client, device, &data.y[first], {batch, 1}));
  return Batch{std::move(x), std::move(y)};
}

// Runs forward.mlir; outputs are (loss, h, r).
absl::StatusOr<Executable::Run> Forward(const Programs& programs,
                                        const Device& device,
                                        const Batch& batch,
                                        const std::vector<Buffer>& params) {
  return programs.forward.Execute(device, {&batch.x, &batch.y, &params[0],
                                           &params[1], &params[2], &params[3]});
}

// Runs backward.mlir on a forward run's residuals, donating them (nothing
// else reads them); outputs are the gradients in parameter order.
absl::StatusOr<Executable::Run> Backward(const Programs& programs,
                                         const Device& device,
                                         const Batch& batch,
                                         const Executable::Run& forward,
                                         const std::vector<Buffer>& params) {
  return programs.backward.Execute(
      device, {&batch.x, &forward.outputs[1], &forward.outputs[2], &params[2]},
      {false, true, true, false});
}

// Central differences of forward.mlir's loss at a few entries of each
// parameter against backward.mlir's gradient there. In f32 with a loss of
// order 1, eps = 1e-2 keeps the rounding error (~1e-7 / eps) and the
// truncation error (~eps^2) both far below the tolerance.
int CheckGradients(const Client& client, const Device& device,
                   const Programs& programs, const Dataset& data,
                   const Options& options, HostParams host) {
  constexpr float kEps = 1e-2f;
  constexpr int kEntriesPerParam = 6;
  auto params = UploadParams(client, device, host);
  auto batch = UploadBatch(client, device, data, options.batch, 0);
  if (!params.ok() || !batch.ok()) {
    std::fprintf(
        stderr, "mlp_train: upload failed: %s\n",
        (params.ok() ? batch.status() : params.status()).ToString().c_str());
    return 1;
  }
  auto forward = Forward(programs, device, *batch, *params);
  if (!forward.ok()) {
    std::fprintf(stderr, "mlp_train: forward: %s\n",
                 forward.status().ToString().c_str());
    return 1;
  }
  auto backward = Backward(programs, device, *batch, *forward, *params);
  if (!backward.ok()) {
    std::fprintf(stderr, "mlp_train: backward: %s\n",
                 backward.status().ToString().c_str());
    return 1;
  }
  // The loss of the current host parameters, via a fresh upload.
  auto loss_at = [&]() -> absl::StatusOr<float> {
    PJRTX_ASSIGN_OR_RETURN(auto perturbed, UploadParams(client, device, host));
    PJRTX_ASSIGN_OR_RETURN(auto run,
                           Forward(programs, device, *batch, perturbed));
    PJRTX_ASSIGN_OR_RETURN(auto loss, ToHostFloats(run.outputs[0]));
    return loss[0];
  };
  const char* names[] = {"W1", "b1", "W2", "b2"};
  std::vector<float>* values[] = {&host.w1, &host.b1, &host.w2, &host.b2};
  bool all_ok = true;
  for (int p = 0; p < 4; ++p) {
    auto grad = ToHostFloats(backward->outputs[p]);
    if (!grad.ok()) {
      std::fprintf(stderr, "mlp_train: backward: %s\n",
                   grad.status().ToString().c_str());
      return 1;
    }
    float scale = 0;
    for (float g : *grad) scale = std::max(scale, std::abs(g));
    const int64_t n = static_cast<int64_t>(grad->size());
    double worst = 0;
    for (int k = 0; k < std::min<int64_t>(kEntriesPerParam, n); ++k) {
      // Spread the probed entries over the tensor.
      const int64_t i = k * n / std::min<int64_t>(kEntriesPerParam, n);
      float& value = (*values[p])[i];
      const float saved = value;
      value = saved + kEps;
      auto plus = loss_at();
      value = saved - kEps;
      auto minus = loss_at();
      value = saved;
      if (!plus.ok() || !minus.ok()) {
        std::fprintf(
            stderr, "mlp_train: forward: %s\n",
            (plus.ok() ? minus.status() : plus.status()).ToString().c_str());
        return 1;
      }
      const double numeric = (double{*plus} - *minus) / (2.0 * kEps);
      worst = std::max(worst, std::abs(numeric - (*grad)[i]) / scale);
    }
    const bool ok = worst < 1e-2;
    all_ok = all_ok && ok;
    std::printf(
        "gradient %-2s max |grad| %.4g, worst finite-difference error %.2g "
        "of that: %s\n",
        names[p], scale, worst, ok ? "ok" : "MISMATCH");
  }
  return all_ok ? 0 : 1;
}

int Train(const Client& client, const Device& device, const Programs& programs,
          const Dataset& data, const Options& options, const HostParams& host) {
  // Parameters and the learning rate are uploaded once, before the counters
  // are read; from then on they live on the device.
  auto params = UploadParams(client, device, host);
  auto lr = Upload(client, device, &options.lr, {});
  if (!params.ok() || !lr.ok()) {
    std::fprintf(
        stderr, "mlp_train: upload failed: %s\n",
        (params.ok() ? lr.status() : params.status()).ToString().c_str());
    return 1;
  }
  auto before = device.transfer_counters();
  if (!before.ok()) {
    std::fprintf(stderr, "mlp_train: transfer counters: %s\n",
                 before.status().ToString().c_str());
    return 1;
  }

  // Steps are dispatched without waiting for the previous one: each loss is
  // copied into `losses` asynchronously and awaited kStepsInFlight steps
  // later, which keeps the device busy while bounding the memory held by
  // queued steps (the host would otherwise race arbitrarily far ahead).
  constexpr size_t kStepsInFlight = 4;
  std::vector<float> losses(options.steps);
  std::deque<EventFuture> loss_ready;  // steps [reported, step)
  int64_t reported = 0;
  auto fail = [&loss_ready](const char* what, const absl::Status& status) {
    // Copies still queued write into `losses`: let them land before it goes.
    for (const EventFuture& ready : loss_ready) ready.Await().IgnoreError();
    std::fprintf(stderr, "mlp_train: %s: %s\n", what,
                 status.ToString().c_str());
    return 1;
  };
  // Waits for the oldest step's loss and prints it if it is due.
  auto report_oldest = [&]() {
    absl::Status status = loss_ready.front().Await();
    loss_ready.pop_front();
    if (status.ok() && (reported % options.print_every == 0 ||
                        reported == options.steps - 1)) {
      std::printf("step %4lld  loss %.6f\n", static_cast<long long>(reported),
                  losses[reported]);
    }
    ++reported;
    return status;
  };
  const auto start = std::chrono::steady_clock::now();
  for (int64_t step = 0; step < options.steps; ++step) {
    if (loss_ready.size() == kStepsInFlight) {
      if (absl::Status s = report_oldest(); !s.ok()) return fail("step", s);
    }
    auto batch = UploadBatch(client, device, data, options.batch, step);
    if (!batch.ok()) return fail("batch upload", batch.status());
    auto forward = Forward(programs, device, *batch, *params);
    if (!forward.ok()) return fail("forward", forward.status());
    auto backward = Backward(programs, device, *batch, *forward, *params);
    if (!backward.ok()) return fail("backward", backward.status());
    auto update = programs.sgd_update.Execute(
        device,
        {&(*params)[0], &(*params)[1], &(*params)[2], &(*params)[3],
         &backward->outputs[0], &backward->outputs[1], &backward->outputs[2],
         &backward->outputs[3], &*lr},
        {true, true, true, true, true, true, true, true, false});
    if (!update.ok()) return fail("sgd_update", update.status());
    *params = std::move(update->outputs);

    auto copy = forward->outputs[0].ToHost(&losses[step], sizeof(float));
    if (!copy.ok()) return fail("loss readback", copy.status());
    loss_ready.push_back(*std::move(copy));
  }
  while (!loss_ready.empty()) {
    if (absl::Status s = report_oldest(); !s.ok()) return fail("step", s);
  }
  // The last update is not read back, so wait for it too: its time belongs
  // to the steps.
  for (const Buffer& param : *params) {
    if (absl::Status s = param.ReadyEvent().Await(); !s.ok()) {
      return fail("sgd_update", s);
    }
  }
  const std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;

  auto after = device.transfer_counters();
  if (!after.ok()) return fail("transfer counters", after.status());
  const int64_t steps = options.steps;
  const int64_t batch_bytes =
      options.batch * (kFeatures + 1) * static_cast<int64_t>(sizeof(float));
  const int64_t loss_bytes = sizeof(float);
  const TransferCounters& a = *after;
  const TransferCounters& b = *before;
  const int64_t h2d = a.host_to_device_bytes - b.host_to_device_bytes;
  const int64_t d2h = a.device_to_host_bytes - b.device_to_host_bytes;
  const int64_t h2d_ops = a.host_to_device_ops - b.host_to_device_ops;
  const int64_t d2h_ops = a.device_to_host_ops - b.device_to_host_ops;

  std::printf("loss first=%.6f last=%.6f\n", losses.front(), losses.back());
  std::printf("time per step: %.3f ms\n", elapsed.count() / steps);
  std::printf(
      "per step: host-to-device %.1f bytes in %.1f copies (batch x and y: "
      "%lld bytes), device-to-host %.1f bytes in %.1f copies (loss: %lld "
      "bytes)\n",
      static_cast<double>(h2d) / steps, static_cast<double>(h2d_ops) / steps,
      static_cast<long long>(batch_bytes), static_cast<double>(d2h) / steps,
      static_cast<double>(d2h_ops) / steps, static_cast<long long>(loss_bytes));

  int status = 0;
  if (h2d != steps * batch_bytes || h2d_ops != 2 * steps ||
      d2h != steps * loss_bytes || d2h_ops != steps) {
    std::fprintf(stderr,
                 "mlp_train: FAIL: per-step host transfers are not exactly "
                 "the batch in and the loss out\n");
    status = 1;
  }
  if (!(losses.back() * 10 <= losses.front())) {
    std::fprintf(stderr,
                 "mlp_train: FAIL: the loss did not fall 10x (first %g, last "
                 "%g)\n",
                 losses.front(), losses.back());
    status = 1;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, options)) return 2;

  auto library = PluginLibrary::Load(options.plugin_path);
  if (!library.ok()) {
    std::fprintf(stderr, "mlp_train: cannot load plugin %s: %s\n",
                 options.plugin_path.c_str(),
                 library.status().ToString().c_str());
    return 1;
  }
  auto client = Client::Create(*library, {});
  if (!client.ok()) {
    std::fprintf(stderr, "mlp_train: cannot create a client: %s\n",
                 client.status().ToString().c_str());
    return 1;
  }
  std::vector<Device> devices = client->addressable_devices();
  if (devices.empty()) {
    std::fprintf(stderr, "mlp_train: the plugin has no addressable device\n");
    return 1;
  }
  const Device& device = devices.front();

  absl::StatusOr<Executable> programs[3];
  const char* files[] = {"forward.mlir", "backward.mlir", "sgd_update.mlir"};
  for (int i = 0; i < 3; ++i) {
    programs[i] = CompileFile(*client, options, files[i]);
    if (!programs[i].ok()) {
      std::fprintf(stderr, "mlp_train: %s\n",
                   programs[i].status().ToString().c_str());
      return 1;
    }
  }
  const Programs compiled{*std::move(programs[0]), *std::move(programs[1]),
                          *std::move(programs[2])};

  std::mt19937 rng(20240611);
  const Dataset data = MakeDataset(kBatchesInDataset * options.batch, rng);
  const HostParams params = InitParams(rng);
  std::printf("mlp_train: %s, batch %lld, %lld -> %lld -> 1, lr %g\n",
              device.ToString().c_str(), static_cast<long long>(options.batch),
              static_cast<long long>(kFeatures),
              static_cast<long long>(kHidden), options.lr);
  if (options.check_gradients) {
    return CheckGradients(*client, device, compiled, data, options, params);
  }
  return Train(*client, device, compiled, data, options, params);
}
