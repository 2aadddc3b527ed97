// Matrix unit benchmark: an N x N x N dot_general compiled and executed
// through the C ABI of a plugin (tpu_emu by default), against oneDNN's
// matmul called directly on the same shapes and types, alternating in the
// same run; OpenBLAS cblas_sgemm is measured beside it for f32 (and its f32
// figure is printed beside bf16, which it has no fast path for).
//
//   dot_bench --plugin=PATH [--option k=v]... [--quick]
//
// Types: f32 x f32 -> f32, and bf16 x bf16 -> f32 (f32 accumulation), at
// N = 256, 512, 1024, 2048 (--quick: 256). The subject's inputs stay on the
// device; each execution gets fresh outputs and is awaited. The anchors'
// primitive and buffers are made once. All sides use the same number of
// threads: oneDNN runs on OpenMP (in this process and in the plugin alike),
// and OpenBLAS is set to OpenMP's thread count.
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "runtime/client/client.h"
#include "runtime/client/executable.h"
#include "tests/bench/benchmark_client.h"
#include "tests/bench/ratio_benchmark.h"

namespace {

using pjrtx::bench::CompareAlternating;
using pjrtx::bench::PrintResult;
using pjrtx::bench::RatioResult;
using pjrtx::client::Client;
using pjrtx::client::Device;
using pjrtx::client::Executable;

// Each timed batch of calls lasts about this long, so that the clock and
// the call overhead are negligible.
constexpr double kBatchSeconds = 0.2;

struct DotType {
  std::string name;
  PJRTX_Buffer_Type buffer_type;
  dnnl::memory::data_type dnnl_type;
  std::string mlir_type;
};

// Round to nearest even, as hardware converts.
uint16_t ToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

std::string DotProgram(int64_t n, const std::string& type) {
  const std::string operand =
      absl::StrCat("tensor<", n, "x", n, "x", type, ">");
  const std::string result = absl::StrCat("tensor<", n, "x", n, "xf32>");
  return absl::StrCat("func.func @main(%a: ", operand, ", %b: ", operand,
                      ") -> ", result,
                      " {\n"
                      "  %0 = stablehlo.dot_general %a, %b, "
                      "contracting_dims = [1] x [0] : (",
                      operand, ", ", operand, ") -> ", result,
                      "\n"
                      "  return %0 : ",
                      result, "\n}\n");
}

struct Free {
  void operator()(void* p) const { std::free(p); }
};
using AlignedFloats = std::unique_ptr<float[], Free>;

// Anchors' arrays start on a cache line, as device buffers and oneDNN's own
// allocations do: AMX and AVX-512 loads across cache lines are slower.
AlignedFloats AlignedCopy(const std::vector<float>& values) {
  const size_t bytes = (values.size() * sizeof(float) + 63) / 64 * 64;
  AlignedFloats copy(static_cast<float*>(std::aligned_alloc(64, bytes)));
  std::memcpy(copy.get(), values.data(), values.size() * sizeof(float));
  return copy;
}

// oneDNN's matmul called directly: plain row-major [n, n] operands in
// memory oneDNN allocates, f32 result, the primitive, memory objects and
// stream made once.
class OneDnnMatmul {
 public:
  // The matmul, or nullptr with `*why_not` saying why oneDNN cannot make
  // one here (bf16 on CPUs without AVX-512, for oneDNN 2.6).
  static std::unique_ptr<OneDnnMatmul> Create(int64_t n,
                                              dnnl::memory::data_type type,
                                              const void* a, const void* b,
                                              std::string* why_not) {
    try {
      return std::unique_ptr<OneDnnMatmul>(new OneDnnMatmul(n, type, a, b));
    } catch (const dnnl::error& e) {
      *why_not = absl::StrCat("oneDNN has no matmul for it on this CPU (",
                              e.what(), ")");
      return nullptr;
    }
  }

  bool Run() {
    try {
      matmul_.execute(stream_, args_);
      stream_.wait();
      return true;
    } catch (const dnnl::error& e) {
      std::fprintf(stderr, "error: oneDNN matmul failed: %s\n", e.what());
      return false;
    }
  }

  const float* result() const {
    return static_cast<const float*>(result_.get_data_handle());
  }
  const std::string& implementation() const { return implementation_; }

 private:
  OneDnnMatmul(int64_t n, dnnl::memory::data_type type, const void* a,
               const void* b)
      : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    using dnnl::memory;
    const memory::desc operand({n, n}, type, memory::format_tag::ab);
    const memory::desc result({n, n}, memory::data_type::f32,
                              memory::format_tag::ab);
    dnnl::matmul::primitive_desc pd(
        dnnl::matmul::desc(operand, operand, result), engine_);
    implementation_ = pd.impl_info_str();
    matmul_ = dnnl::matmul(pd);
    memory a_memory(operand, engine_), b_memory(operand, engine_);
    std::memcpy(a_memory.get_data_handle(), a, operand.get_size());
    std::memcpy(b_memory.get_data_handle(), b, operand.get_size());
    result_ = memory(result, engine_);
    args_ = {{DNNL_ARG_SRC, a_memory},
             {DNNL_ARG_WEIGHTS, b_memory},
             {DNNL_ARG_DST, result_}};
    const memory::desc scratchpad = pd.scratchpad_desc();
    if (scratchpad.get_size() > 0) {
      args_.emplace(DNNL_ARG_SCRATCHPAD, memory(scratchpad, engine_));
    }
  }

  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::matmul matmul_;
  dnnl::memory result_;
  std::unordered_map<int, dnnl::memory> args_;
  std::string implementation_;
};

double Seconds(const std::function<bool()>& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

int Iterations(const std::function<bool()>& fn) {
  fn();  // Warm.
  return std::clamp(static_cast<int>(kBatchSeconds / Seconds(fn)), 1, 1000);
}

std::string Gflops(int64_t n, double seconds) {
  return absl::StrFormat("%.1f", 2.0 * n * n * n / seconds / 1e9);
}

// Runs type `type` at size `n`; returns false on any failure. OpenBLAS is
// measured when `*openblas_seconds` is 0 (once per size: its f32 figure
// stands beside every type).
bool RunSize(const Client& client, const Device& device, const DotType& type,
             int64_t n, int trials, double* openblas_seconds) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> a(n * n), b(n * n);
  for (float& x : a) x = uniform(rng);
  for (float& x : b) x = uniform(rng);
  std::vector<uint16_t> a16, b16;
  const void* a_data = a.data();
  const void* b_data = b.data();
  if (type.buffer_type == PJRTX_Buffer_Type_BF16) {
    for (float x : a) a16.push_back(ToBf16(x));
    for (float x : b) b16.push_back(ToBf16(x));
    a_data = a16.data();
    b_data = b16.data();
  }

  auto executable = Executable::Compile(client, DotProgram(n, type.mlir_type));
  auto a_buffer =
      client.BufferFromHost(a_data, type.buffer_type, {n, n}, device);
  auto b_buffer =
      client.BufferFromHost(b_data, type.buffer_type, {n, n}, device);
  if (!executable.ok() || !a_buffer.ok() || !b_buffer.ok()) {
    std::fprintf(stderr, "error: setting up dot.%s.%lld failed\n",
                 type.name.c_str(), static_cast<long long>(n));
    return false;
  }
  auto subject = [&] {
    auto run = executable->Execute(device, {&*a_buffer, &*b_buffer});
    return run.ok() && run->done.Await().ok();
  };
  std::string why_not;
  const std::unique_ptr<OneDnnMatmul> onednn =
      OneDnnMatmul::Create(n, type.dnnl_type, a_data, b_data, &why_not);
  if (onednn == nullptr) {
    // The anchor is missing, not the subject: nothing to compare with.
    std::printf("SKIP dot.%s.%lld: %s\n", type.name.c_str(),
                static_cast<long long>(n), why_not.c_str());
    return true;
  }
  auto onednn_anchor = [&] { return onednn->Run(); };
  const AlignedFloats blas_a = AlignedCopy(a), blas_b = AlignedCopy(b);
  AlignedFloats blas_c = AlignedCopy(std::vector<float>(n * n));
  auto openblas_anchor = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                blas_a.get(), n, blas_b.get(), n, 0.0f, blas_c.get(), n);
    return true;
  };

  // The subject must compute what oneDNN does.
  auto run = executable->Execute(device, {&*a_buffer, &*b_buffer});
  if (!run.ok() || !run->done.Await().ok() || !onednn->Run()) return false;
  auto bytes = run->outputs[0].ToHostSync();
  if (!bytes.ok() || bytes->size() != a.size() * sizeof(float)) {
    return false;
  }
  const float* subject_c = reinterpret_cast<const float*>(bytes->data());
  const float* onednn_c = onednn->result();
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::abs(subject_c[i] - onednn_c[i]) > 1e-3f * std::sqrt(n)) {
      std::fprintf(stderr, "error: dot.%s.%lld element %zu: %g, oneDNN %g\n",
                   type.name.c_str(), static_cast<long long>(n), i,
                   subject_c[i], onednn_c[i]);
      return false;
    }
  }

  bool failed = false;
  const RatioResult vs_onednn = CompareAlternating(
      subject, onednn_anchor, Iterations(onednn_anchor), trials, &failed);
  if (*openblas_seconds == 0) {
    *openblas_seconds =
        CompareAlternating(subject, openblas_anchor,
                           Iterations(openblas_anchor), trials, &failed)
            .anchor_seconds;
    // OpenBLAS's threads spin for a while after a call; let them sleep
    // before the next measurement.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  PrintResult(
      absl::StrCat("dot.", type.name, ".", n), vs_onednn,
      absl::StrCat("GFLOPs=", Gflops(n, vs_onednn.subject_seconds),
                   " onednn_GFLOPs=", Gflops(n, vs_onednn.anchor_seconds),
                   " openblas_GFLOPs=", Gflops(n, *openblas_seconds),
                   " onednn_impl=", onednn->implementation()));
  return !failed;
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  auto setup = pjrtx::bench::OpenBenchmarkClient(argc, argv, {}, &exit_code);
  if (!setup) return exit_code;
  const bool quick = setup->quick;
  Client* client = setup->client.get();
  auto devices = client->addressable_devices();
  if (devices.empty()) {
    std::fprintf(stderr, "error: no addressable device\n");
    return 1;
  }
  const int threads = omp_get_max_threads();
  openblas_set_num_threads(threads);
  std::printf(
      "dot_bench: %s, %s; threads=%d (OpenMP for oneDNN here and in the "
      "plugin, OpenBLAS set to match); ratio = oneDNN time / runtime time\n",
      client->platform_name().c_str(), client->platform_version().c_str(),
      threads);
  const DotType types[] = {
      {"f32", PJRTX_Buffer_Type_F32, dnnl::memory::data_type::f32, "f32"},
      {"bf16", PJRTX_Buffer_Type_BF16, dnnl::memory::data_type::bf16, "bf16"},
  };
  const int trials = quick ? 5 : 7;
  const int64_t max_n = quick ? 256 : 2048;
  bool ok = true;
  for (int64_t n = 256; n <= max_n; n *= 2) {
    double openblas_seconds = 0;
    for (const DotType& type : types) {
      ok = RunSize(*client, devices[0], type, n, trials, &openblas_seconds) &&
           ok;
    }
  }
  if (!ok) {
    std::fprintf(stderr, "error: a dot failed during the benchmark\n");
    return 1;
  }
  return 0;
}
