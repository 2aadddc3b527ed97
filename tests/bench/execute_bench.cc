// Execution benchmark on a plugin (tpu_emu by default), in one run:
//  (a) the 8-op chain y = ((((x*a+b)-c)*d) max e) min f + g on f32[64 Mi]
//      with scalar constants, fused and unfused, against memcpy of the
//      same bytes; outputs are recycled device memory; one thread each.
//  (a') sum(max(x * a + b, 0)) over the same x, the reduce fused with its
//      producer against fusion off.
//  (b) triangular_solve of f32[n,n] (lower, left side) for n right-hand
//      sides, dispatch included, against forward substitution written
//      plainly in f32 over the same arrays (all right-hand sides of a row
//      at once), one thread each; and the same on complex<f32> against
//      that substitution over std::complex<float>.
//  (b') chlo.erf over f32[n] (lowered to f64 elementwise code, the Taylor
//      series and a 200-level continued fraction) against libm's erff
//      over the same floats, one thread each.
//  (b'') chlo.ragged_dot of f32[m, k] rows in 8 groups with f32[8, k, n]
//      against the dot_general of the same rows with one [k, n] matrix
//      (the work a native kernel would do).
//  (b''') complex arithmetic: exp(z * z) for z = x + iy over f32[n]
//      (the compiler runs complex values as real and imaginary parts)
//      against the same loop over std::complex<float>; and an RFFT of
//      f32[64, 256] (a product with the DFT matrix) against that product
//      written plainly (a precomputed table, the same n^2 work), and an
//      RFFT of f32[16, 4096] (split into DFTs of 64) against a radix-2
//      FFT written plainly; and an FFT of complex<f32>[16, 1031] (a prime
//      length: Bluestein's algorithm) against the same algorithm written
//      plainly with radix-2 FFTs.
//  (c) dispatch of a one-element add: enqueue only, and enqueue + await,
//      against a mutex + condition-variable ping-pong between two threads.
//
//   execute_bench --plugin=PATH [--option k=v]... [--quick]
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/client/client.h"
#include "runtime/client/executable.h"
#include "tests/bench/benchmark_client.h"
#include "tests/bench/ping_pong.h"
#include "tests/bench/ratio_benchmark.h"

namespace {

using pjrtx::bench::CompareAlternating;
using pjrtx::bench::PingPong;
using pjrtx::bench::PrintResult;
using pjrtx::bench::RatioResult;
using pjrtx::client::Buffer;
using pjrtx::client::Client;
using pjrtx::client::Device;
using pjrtx::client::Executable;
using pjrtx::client::NamedValue;

std::string ChainProgram(int64_t n) {
  const std::string t = absl::StrCat("tensor<", n, "xf32>");
  std::string text =
      absl::StrCat("func.func @main(%x: ", t, ") -> ", t, " {\n");
  const char* names[] = {"a", "b", "c", "d", "e", "f", "g"};
  const char* values[] = {"1.5", "0.25", "0.125", "0.75", "-2.0", "2.0", "0.5"};
  for (int i = 0; i < 7; ++i) {
    absl::StrAppend(&text, "  %", names[i], "0 = stablehlo.constant dense<",
                    values[i], "> : tensor<f32>\n  %", names[i],
                    " = stablehlo.broadcast_in_dim %", names[i],
                    "0, dims = [] : (tensor<f32>) -> ", t, "\n");
  }
  absl::StrAppend(&text, "  %1 = stablehlo.multiply %x, %a : ", t, "\n",
                  "  %2 = stablehlo.add %1, %b : ", t, "\n",
                  "  %3 = stablehlo.subtract %2, %c : ", t, "\n",
                  "  %4 = stablehlo.multiply %3, %d : ", t, "\n",
                  "  %5 = stablehlo.maximum %4, %e : ", t, "\n",
                  "  %6 = stablehlo.minimum %5, %f : ", t, "\n",
                  "  %7 = stablehlo.add %6, %g : ", t, "\n",
                  "  func.return %7 : ", t, "\n}\n");
  return text;
}

// sum(max(x * 1.5 + 0.25, 0)) over f32[n]: a reduction whose input is an
// elementwise chain.
std::string ReduceProgram(int64_t n) {
  const std::string t = absl::StrCat("tensor<", n, "xf32>");
  return absl::StrCat(
      "func.func @main(%x: ", t, ") -> tensor<f32> {\n",
      "  %a0 = stablehlo.constant dense<1.5> : tensor<f32>\n",
      "  %b0 = stablehlo.constant dense<0.25> : tensor<f32>\n",
      "  %z0 = stablehlo.constant dense<0.0> : tensor<f32>\n",
      "  %a = stablehlo.broadcast_in_dim %a0, dims = [] : (tensor<f32>) -> ", t,
      "\n",
      "  %b = stablehlo.broadcast_in_dim %b0, dims = [] : (tensor<f32>) -> ", t,
      "\n",
      "  %z = stablehlo.broadcast_in_dim %z0, dims = [] : (tensor<f32>) -> ", t,
      "\n", "  %1 = stablehlo.multiply %x, %a : ", t, "\n",
      "  %2 = stablehlo.add %1, %b : ", t, "\n",
      "  %3 = stablehlo.maximum %2, %z : ", t, "\n",
      "  %r = stablehlo.reduce(%3 init: %z0) applies stablehlo.add across "
      "dimensions = [0] : (",
      t, ", tensor<f32>) -> tensor<f32>\n",
      "  func.return %r : tensor<f32>\n}\n");
}

// `element`: f32 or complex<f32>.
std::string TriangularSolveProgram(int64_t n,
                                   const std::string& element = "f32") {
  const std::string t = absl::StrCat("tensor<", n, "x", n, "x", element, ">");
  return absl::StrCat(
      "func.func @main(%a: ", t, ", %b: ", t, ") -> ", t, " {\n",
      "  %x = \"stablehlo.triangular_solve\"(%a, %b) {left_side = true, "
      "lower = true, unit_diagonal = false, transpose_a = "
      "#stablehlo<transpose NO_TRANSPOSE>} : (",
      t, ", ", t, ") -> ", t, "\n  func.return %x : ", t, "\n}\n");
}

// x = a^-1 b for lower-triangular a (n x n) and b (n x k), row by row; T
// is float or std::complex<float>.
template <typename T>
void ForwardSubstitution(const T* a, const T* b, T* x, int64_t n, int64_t k) {
  for (int64_t i = 0; i < n; ++i) {
    T* row = x + i * k;
    std::copy(b + i * k, b + (i + 1) * k, row);
    for (int64_t j = 0; j < i; ++j) {
      const T factor = a[i * n + j];
      const T* solved = x + j * k;
      for (int64_t v = 0; v < k; ++v) row[v] -= factor * solved[v];
    }
    const T diagonal = a[i * n + i];
    for (int64_t v = 0; v < k; ++v) row[v] /= diagonal;
  }
}

std::string ErfProgram(int64_t n) {
  const std::string t = absl::StrCat("tensor<", n, "xf32>");
  return absl::StrCat("func.func @main(%x: ", t, ") -> ", t, " {\n",
                      "  %0 = \"chlo.erf\"(%x) : (", t, ") -> ", t, "\n",
                      "  func.return %0 : ", t, "\n}\n");
}

// exp(z * z) for z = x + iy, as its real and imaginary parts.
std::string ComplexProgram(int64_t n) {
  const std::string t = absl::StrCat("tensor<", n, "xf32>");
  const std::string c = absl::StrCat("tensor<", n, "xcomplex<f32>>");
  return absl::StrCat("func.func @main(%x: ", t, ", %y: ", t, ") -> (", t, ", ",
                      t, ") {\n", "  %z = stablehlo.complex %x, %y : ", c, "\n",
                      "  %w = stablehlo.multiply %z, %z : ", c, "\n",
                      "  %e = stablehlo.exponential %w : ", c, "\n",
                      "  %re = stablehlo.real %e : (", c, ") -> ", t, "\n",
                      "  %im = stablehlo.imag %e : (", c, ") -> ", t, "\n",
                      "  func.return %re, %im : ", t, ", ", t, "\n}\n");
}

// The RFFT of each row of f32[rows, n], as real and imaginary parts.
std::string RfftProgram(int64_t rows, int64_t n) {
  const std::string t = absl::StrCat("tensor<", rows, "x", n, "xf32>");
  const std::string o = absl::StrCat("tensor<", rows, "x", n / 2 + 1, "xf32>");
  const std::string c =
      absl::StrCat("tensor<", rows, "x", n / 2 + 1, "xcomplex<f32>>");
  return absl::StrCat("func.func @main(%x: ", t, ") -> (", o, ", ", o, ") {\n",
                      "  %f = stablehlo.fft %x, type = RFFT, length = [", n,
                      "] : (", t, ") -> ", c, "\n",
                      "  %re = stablehlo.real %f : (", c, ") -> ", o, "\n",
                      "  %im = stablehlo.imag %f : (", c, ") -> ", o, "\n",
                      "  func.return %re, %im : ", o, ", ", o, "\n}\n");
}

// The DFT of the n values at `in` (real or complex, n a power of two)
// into `out`:
// bit-reversed order, then log2(n) butterfly passes with the precomputed
// roots w^j, j < n / 2.
template <typename T>
void RadixTwoFft(const T* in, const std::vector<std::complex<float>>& roots,
                 std::vector<std::complex<float>>& out) {
  const size_t n = out.size();
  int bits = 0;
  while ((size_t{1} << bits) < n) ++bits;
  for (size_t i = 0; i < n; ++i) {
    size_t reversed = 0;
    for (int b = 0; b < bits; ++b) reversed |= ((i >> b) & 1) << (bits - 1 - b);
    out[reversed] = in[i];
  }
  for (size_t half = 1; half < n; half *= 2) {
    const size_t step = n / (2 * half);
    for (size_t start = 0; start < n; start += 2 * half) {
      for (size_t j = 0; j < half; ++j) {
        const std::complex<float> t = roots[j * step] * out[start + j + half];
        out[start + j + half] = out[start + j] - t;
        out[start + j] += t;
      }
    }
  }
}

// The FFT of each row of complex<f32>[rows, n].
std::string FftProgram(int64_t rows, int64_t n) {
  const std::string c = absl::StrCat("tensor<", rows, "x", n, "xcomplex<f32>>");
  return absl::StrCat("func.func @main(%x: ", c, ") -> ", c, " {\n",
                      "  %f = stablehlo.fft %x, type = FFT, length = [", n,
                      "] : (", c, ") -> ", c, "\n  func.return %f : ", c,
                      "\n}\n");
}

// Bluestein's algorithm written plainly, for one row of n values: the
// input times the chirp, padded to the power of two m = work.size(), its
// FFT times the filter's (precomputed) spectrum, the inverse FFT (as the
// conjugate of the FFT of the conjugate), times the chirp again.
void PlainBluestein(const std::complex<float>* in,
                    const std::vector<std::complex<float>>& chirp,
                    const std::vector<std::complex<float>>& filter_spectrum,
                    const std::vector<std::complex<float>>& roots,
                    std::vector<std::complex<float>>& work,
                    std::vector<std::complex<float>>& spectrum,
                    std::complex<float>* out) {
  const size_t n = chirp.size(), m = work.size();
  std::fill(work.begin(), work.end(), std::complex<float>());
  for (size_t j = 0; j < n; ++j) work[j] = in[j] * chirp[j];
  RadixTwoFft(work.data(), roots, spectrum);
  for (size_t k = 0; k < m; ++k) {
    spectrum[k] = std::conj(spectrum[k] * filter_spectrum[k]);
  }
  RadixTwoFft(spectrum.data(), roots, work);
  const float scale = 1.0f / static_cast<float>(m);
  for (size_t k = 0; k < n; ++k) out[k] = std::conj(work[k]) * scale * chirp[k];
}

// ragged_dot of [m, k] rows in `groups` equal groups with [groups, k, n],
// or (groups == 0) the plain dot_general with one [k, n] matrix.
std::string RaggedDotProgram(int64_t m, int64_t k, int64_t n, int64_t groups) {
  const std::string l = absl::StrCat("tensor<", m, "x", k, "xf32>");
  const std::string o = absl::StrCat("tensor<", m, "x", n, "xf32>");
  if (groups == 0) {
    const std::string r = absl::StrCat("tensor<", k, "x", n, "xf32>");
    return absl::StrCat(
        "func.func @main(%l: ", l, ", %r: ", r, ") -> ", o, " {\n",
        "  %0 = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (",
        l, ", ", r, ") -> ", o, "\n  func.return %0 : ", o, "\n}\n");
  }
  const std::string r =
      absl::StrCat("tensor<", groups, "x", k, "x", n, "xf32>");
  const std::string g = absl::StrCat("tensor<", groups, "xi32>");
  return absl::StrCat(
      "func.func @main(%l: ", l, ", %r: ", r, ") -> ", o, " {\n",
      "  %g = stablehlo.constant dense<", m / groups, "> : ", g, "\n",
      "  %0 = \"chlo.ragged_dot\"(%l, %r, %g) {ragged_dot_dimension_numbers "
      "= #chlo.ragged_dot<lhs_batching_dimensions = [], "
      "rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], "
      "rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], "
      "rhs_group_dimensions = [0]>} : (",
      l, ", ", r, ", ", g, ") -> ", o, "\n  func.return %0 : ", o, "\n}\n");
}

constexpr char kTinyAdd[] = R"(
func.func @main(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %x, %y : tensor<f32>
  func.return %0 : tensor<f32>
}
)";

bool RunOnce(const Executable& executable, const Device& device,
             const std::vector<const Buffer*>& args) {
  auto run = executable.Execute(device, args);
  if (!run.ok()) {
    std::fprintf(stderr, "error: %s\n", run.status().ToString().c_str());
    return false;
  }
  return run->done.Await().ok();
}

// (b): the triangular_solve of `a` and `rhs` (m x m each, of T: float or
// std::complex<float>, `element` its MLIR spelling) on a chip against
// ForwardSubstitution of the same arrays; nullopt after printing why if
// it cannot start.
template <typename T>
std::optional<RatioResult> CompareTriangularSolve(
    Client& client, const Device& device, int64_t m, const std::string& element,
    PJRTX_Buffer_Type type, const std::vector<T>& a, const std::vector<T>& rhs,
    int trials, bool* failed) {
  auto solve = Executable::Compile(client, TriangularSolveProgram(m, element));
  if (!solve.ok()) {
    std::fprintf(stderr, "error: %s\n", solve.status().ToString().c_str());
    return std::nullopt;
  }
  auto a_buffer = client.BufferFromHost(a.data(), type, {m, m}, device);
  auto b_buffer = client.BufferFromHost(rhs.data(), type, {m, m}, device);
  if (!a_buffer.ok() || !b_buffer.ok()) {
    std::fprintf(stderr, "error: could not upload the %s system\n",
                 element.c_str());
    return std::nullopt;
  }
  std::vector<T> solution(m * m);
  return CompareAlternating(
      [&] {
        return RunOnce(*solve, device, {&*a_buffer, &*b_buffer});
      },
      [&] {
        ForwardSubstitution(a.data(), rhs.data(), solution.data(), m, m);
        return true;
      },
      1, trials, failed);
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  // The baselines run on one thread, so the engine's loops must too (set
  // before the plugin reads it), unless the caller chose otherwise.
  setenv("PJRTX_CPU_THREADS", "1", /*overwrite=*/0);
  // One chip with room for the 64 Mi-element chain and its intermediates.
  auto setup = pjrtx::bench::OpenBenchmarkClient(
      argc, argv,
      {{"topology", std::string("v5e:1x1")}, {"hbm_bytes", int64_t{4} << 30}},
      &exit_code);
  if (!setup) return exit_code;
  const bool quick = setup->quick;
  Client* client = setup->client.get();
  const Device device = client->addressable_devices()[0];
  bool failed = false;
  std::printf("execute_bench: %s %s; one thread on each side\n",
              client->platform_name().c_str(),
              client->platform_version().c_str());

  // (a) The fused chain.
  const int64_t n = quick ? (int64_t{1} << 20) : (int64_t{64} << 20);
  const std::string chain = ChainProgram(n);
  auto fused = Executable::Compile(*client, chain);
  auto unfused = Executable::Compile(*client, chain, {{"fusion", false}});
  if (!fused.ok() || !unfused.ok()) {
    std::fprintf(stderr, "error: %s %s\n", fused.status().ToString().c_str(),
                 unfused.status().ToString().c_str());
    return 1;
  }
  std::vector<float> host(n);
  for (int64_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000) / 7;
  auto x =
      client->BufferFromHost(host.data(), PJRTX_Buffer_Type_F32, {n}, device);
  if (!x.ok()) {
    std::fprintf(stderr, "error: %s\n", x.status().ToString().c_str());
    return 1;
  }
  std::vector<float> sink(n);
  auto memcpy_anchor = [&] {
    std::memcpy(sink.data(), host.data(), n * sizeof(float));
    return true;
  };
  const double bytes = static_cast<double>(n) * sizeof(float);
  auto report = [&](const std::string& name, const RatioResult& r) {
    PrintResult(name, r,
                absl::StrFormat("GBps=%.2f memcpy_GBps=%.2f ms=%.2f",
                                bytes / r.subject_seconds / 1e9,
                                bytes / r.anchor_seconds / 1e9,
                                r.subject_seconds * 1e3));
  };
  const int trials = 5;
  RatioResult fused_r =
      CompareAlternating([&] { return RunOnce(*fused, device, {&*x}); },
                         memcpy_anchor, 1, trials, &failed);
  report("execute.chain8_fused_vs_memcpy", fused_r);
  RatioResult unfused_r =
      CompareAlternating([&] { return RunOnce(*unfused, device, {&*x}); },
                         memcpy_anchor, 1, trials, &failed);
  report("execute.chain8_unfused_vs_memcpy", unfused_r);
  RatioResult speedup = CompareAlternating(
      [&] { return RunOnce(*fused, device, {&*x}); },
      [&] { return RunOnce(*unfused, device, {&*x}); }, 1, trials, &failed);
  PrintResult("execute.chain8_fused_vs_unfused", speedup,
              absl::StrFormat("fused_ms=%.2f unfused_ms=%.2f",
                              speedup.subject_seconds * 1e3,
                              speedup.anchor_seconds * 1e3));

  // (a') A reduction taking in its elementwise producer, against the same
  // program with fusion off (which materializes the 256 MiB input).
  {
    const std::string reduce = ReduceProgram(n);
    auto fused_reduce = Executable::Compile(*client, reduce);
    auto unfused_reduce =
        Executable::Compile(*client, reduce, {{"fusion", false}});
    if (!fused_reduce.ok() || !unfused_reduce.ok()) {
      std::fprintf(stderr, "error: %s %s\n",
                   fused_reduce.status().ToString().c_str(),
                   unfused_reduce.status().ToString().c_str());
      return 1;
    }
    RatioResult r = CompareAlternating(
        [&] { return RunOnce(*fused_reduce, device, {&*x}); },
        [&] { return RunOnce(*unfused_reduce, device, {&*x}); }, 1, trials,
        &failed);
    PrintResult(
        "execute.reduce_of_chain_fused_vs_unfused", r,
        absl::StrFormat("fused_ms=%.2f unfused_ms=%.2f",
                        r.subject_seconds * 1e3, r.anchor_seconds * 1e3));
  }

  // (b) triangular_solve against plain forward substitution, in f32 and in
  // complex<f32> (one real solve of twice the size).
  {
    const int64_t m = quick ? 128 : 512;
    // A well-conditioned lower triangle (diagonal 2, small entries below).
    std::vector<float> a(m * m, 0.0f), rhs(m * m);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < i; ++j) {
        a[i * m + j] = static_cast<float>((i * 7 + j * 3) % 11) / (11.0f * m);
      }
      a[i * m + i] = 2.0f;
    }
    for (int64_t i = 0; i < m * m; ++i) rhs[i] = static_cast<float>(i % 13);
    std::optional<RatioResult> r =
        CompareTriangularSolve(*client, device, m, "f32", PJRTX_Buffer_Type_F32,
                               a, rhs, trials, &failed);
    if (!r) return 1;
    // n^2 k / 2 multiply-adds of two flops each.
    const double flops = static_cast<double>(m) * m * m;
    PrintResult(
        absl::StrCat("execute.triangular_solve_", m, "_vs_plain_substitution"),
        *r,
        absl::StrFormat("ms=%.2f plain_ms=%.2f GFLOPs=%.2f",
                        r->subject_seconds * 1e3, r->anchor_seconds * 1e3,
                        flops / r->subject_seconds / 1e9));

    using Complex = std::complex<float>;
    const int64_t n = quick ? 64 : 256;
    std::vector<Complex> c(n * n), c_rhs(n * n);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < i; ++j) {
        c[i * n + j] = Complex((i * 7 + j * 3) % 11, (i + 5 * j) % 7) /
                       (11.0f * static_cast<float>(n));
      }
      c[i * n + i] = Complex(2.0f, 1.0f);
    }
    for (int64_t i = 0; i < n * n; ++i) {
      c_rhs[i] = Complex(static_cast<float>(i % 13), static_cast<float>(i % 5));
    }
    r = CompareTriangularSolve(*client, device, n, "complex<f32>",
                               PJRTX_Buffer_Type_C64, c, c_rhs, trials,
                               &failed);
    if (!r) return 1;
    PrintResult(
        absl::StrCat("execute.complex_triangular_solve_", n,
                     "_vs_std_complex_substitution"),
        *r,
        absl::StrFormat("ms=%.2f std_complex_ms=%.2f", r->subject_seconds * 1e3,
                        r->anchor_seconds * 1e3));
  }

  // (b') chlo.erf against libm.
  {
    const int64_t m = quick ? (int64_t{1} << 14) : (int64_t{1} << 20);
    auto erf = Executable::Compile(*client, ErfProgram(m));
    if (!erf.ok()) {
      std::fprintf(stderr, "error: %s\n", erf.status().ToString().c_str());
      return 1;
    }
    std::vector<float> in(m), out(m);
    for (int64_t i = 0; i < m; ++i) {
      in[i] = static_cast<float>(i % 2001 - 1000) / 250.0f;  // [-4, 4].
    }
    auto x_buffer =
        client->BufferFromHost(in.data(), PJRTX_Buffer_Type_F32, {m}, device);
    if (!x_buffer.ok()) {
      std::fprintf(stderr, "error: %s\n", x_buffer.status().ToString().c_str());
      return 1;
    }
    RatioResult r =
        CompareAlternating([&] { return RunOnce(*erf, device, {&*x_buffer}); },
                           [&] {
                             for (int64_t i = 0; i < m; ++i)
                               out[i] = std::erf(in[i]);
                             return true;
                           },
                           1, trials, &failed);
    PrintResult(absl::StrCat("execute.chlo_erf_", m, "_vs_libm_erff"), r,
                absl::StrFormat("ns_per_element=%.2f libm_ns=%.2f",
                                r.subject_seconds * 1e9 / m,
                                r.anchor_seconds * 1e9 / m));
  }

  // (b''') complex arithmetic against std::complex, and an RFFT against
  // its DFT product written plainly.
  {
    const int64_t m = quick ? (int64_t{1} << 14) : (int64_t{1} << 20);
    auto program = Executable::Compile(*client, ComplexProgram(m));
    if (!program.ok()) {
      std::fprintf(stderr, "error: %s\n", program.status().ToString().c_str());
      return 1;
    }
    std::vector<float> x(m), y(m), re(m), im(m);
    for (int64_t i = 0; i < m; ++i) {
      x[i] = static_cast<float>(i % 997) / 997.0f - 0.5f;
      y[i] = static_cast<float>(i % 991) / 991.0f * 2.0f - 1.0f;
    }
    auto x_buffer =
        client->BufferFromHost(x.data(), PJRTX_Buffer_Type_F32, {m}, device);
    auto y_buffer =
        client->BufferFromHost(y.data(), PJRTX_Buffer_Type_F32, {m}, device);
    if (!x_buffer.ok() || !y_buffer.ok()) {
      std::fprintf(stderr, "error: complex benchmark inputs\n");
      return 1;
    }
    RatioResult r = CompareAlternating(
        [&] {
          return RunOnce(*program, device, {&*x_buffer, &*y_buffer});
        },
        [&] {
          for (int64_t i = 0; i < m; ++i) {
            const std::complex<float> z(x[i], y[i]);
            const std::complex<float> e = std::exp(z * z);
            re[i] = e.real();
            im[i] = e.imag();
          }
          return true;
        },
        1, trials, &failed);
    PrintResult(
        absl::StrCat("execute.complex_exp_square_", m, "_vs_std_complex"), r,
        absl::StrFormat("ns_per_element=%.2f std_complex_ns=%.2f",
                        r.subject_seconds * 1e9 / m,
                        r.anchor_seconds * 1e9 / m));

    const int64_t rows = 64, n = 256, k = n / 2 + 1;
    auto rfft = Executable::Compile(*client, RfftProgram(rows, n));
    if (!rfft.ok()) {
      std::fprintf(stderr, "error: %s\n", rfft.status().ToString().c_str());
      return 1;
    }
    std::vector<float> signal(rows * n), table_re(n * k), table_im(n * k);
    std::vector<float> out_re(rows * k), out_im(rows * k);
    for (int64_t i = 0; i < rows * n; ++i) {
      signal[i] = std::sin(0.37f * static_cast<float>(i));
    }
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t c = 0; c < k; ++c) {
        const double angle = 2 * M_PI * static_cast<double>((j * c) % n) / n;
        table_re[j * k + c] = static_cast<float>(std::cos(angle));
        table_im[j * k + c] = static_cast<float>(-std::sin(angle));
      }
    }
    auto signal_buffer = client->BufferFromHost(
        signal.data(), PJRTX_Buffer_Type_F32, {rows, n}, device);
    if (!signal_buffer.ok()) {
      std::fprintf(stderr, "error: %s\n",
                   signal_buffer.status().ToString().c_str());
      return 1;
    }
    RatioResult f = CompareAlternating(
        [&] { return RunOnce(*rfft, device, {&*signal_buffer}); },
        [&] {
          for (int64_t row = 0; row < rows; ++row) {
            float* o_re = out_re.data() + row * k;
            float* o_im = out_im.data() + row * k;
            std::fill(o_re, o_re + k, 0.0f);
            std::fill(o_im, o_im + k, 0.0f);
            for (int64_t j = 0; j < n; ++j) {
              const float v = signal[row * n + j];
              const float* t_re = table_re.data() + j * k;
              const float* t_im = table_im.data() + j * k;
              for (int64_t c = 0; c < k; ++c) {
                o_re[c] += v * t_re[c];
                o_im[c] += v * t_im[c];
              }
            }
          }
          return true;
        },
        1, trials, &failed);
    PrintResult(
        absl::StrCat("execute.rfft_", rows, "x", n, "_vs_plain_dft"), f,
        absl::StrFormat("us=%.1f plain_us=%.1f", f.subject_seconds * 1e6,
                        f.anchor_seconds * 1e6));

    // A length that splits (4096 = 64 x 64) against a radix-2 FFT written
    // plainly over std::complex<float>.
    const int64_t long_rows = 16, long_n = 4096;
    auto long_rfft =
        Executable::Compile(*client, RfftProgram(long_rows, long_n));
    if (!long_rfft.ok()) {
      std::fprintf(stderr, "error: %s\n",
                   long_rfft.status().ToString().c_str());
      return 1;
    }
    std::vector<float> long_signal(long_rows * long_n);
    for (int64_t i = 0; i < long_rows * long_n; ++i) {
      long_signal[i] = std::sin(0.37f * static_cast<float>(i));
    }
    auto long_buffer = client->BufferFromHost(
        long_signal.data(), PJRTX_Buffer_Type_F32, {long_rows, long_n}, device);
    if (!long_buffer.ok()) {
      std::fprintf(stderr, "error: %s\n",
                   long_buffer.status().ToString().c_str());
      return 1;
    }
    std::vector<std::complex<float>> line(long_n), roots(long_n / 2);
    for (int64_t j = 0; j < long_n / 2; ++j) {
      roots[j] = std::polar(1.0f, static_cast<float>(-2 * M_PI * j / long_n));
    }
    RatioResult g = CompareAlternating(
        [&] { return RunOnce(*long_rfft, device, {&*long_buffer}); },
        [&] {
          for (int64_t row = 0; row < long_rows; ++row) {
            RadixTwoFft(long_signal.data() + row * long_n, roots, line);
          }
          return true;
        },
        1, trials, &failed);
    PrintResult(
        absl::StrCat("execute.rfft_", long_rows, "x", long_n,
                     "_vs_plain_radix2_fft"),
        g,
        absl::StrFormat("us=%.1f radix2_us=%.1f", g.subject_seconds * 1e6,
                        g.anchor_seconds * 1e6));
  }

  // (b''') an FFT of a prime length (Bluestein's algorithm, the
  // convolution by DFTs of length 4096) against the same algorithm written
  // plainly over std::complex<float> with radix-2 FFTs.
  {
    const int64_t rows = 16, n = 1031, m = 4096;
    auto fft = Executable::Compile(*client, FftProgram(rows, n));
    if (!fft.ok()) {
      std::fprintf(stderr, "error: %s\n", fft.status().ToString().c_str());
      return 1;
    }
    using Complex = std::complex<float>;
    std::vector<Complex> signal(rows * n), result(rows * n);
    for (int64_t i = 0; i < rows * n; ++i) {
      signal[i] = Complex(std::sin(0.37f * static_cast<float>(i)),
                          std::cos(0.11f * static_cast<float>(i)));
    }
    std::vector<Complex> chirp(n), filter(m), roots(m / 2), work(m),
        spectrum(m);
    for (int64_t j = 0; j < n; ++j) {
      const double angle = M_PI * static_cast<double>((j * j) % (2 * n)) /
                           static_cast<double>(n);
      chirp[j] = Complex(static_cast<float>(std::cos(angle)),
                         static_cast<float>(-std::sin(angle)));
      filter[j] = std::conj(chirp[j]);
      if (j > 0) filter[m - j] = filter[j];
    }
    for (int64_t j = 0; j < m / 2; ++j) {
      roots[j] = std::polar(1.0f, static_cast<float>(-2 * M_PI * j / m));
    }
    std::vector<Complex> filter_spectrum(m);
    RadixTwoFft(filter.data(), roots, filter_spectrum);
    auto buffer = client->BufferFromHost(signal.data(), PJRTX_Buffer_Type_C64,
                                         {rows, n}, device);
    if (!buffer.ok()) {
      std::fprintf(stderr, "error: %s\n", buffer.status().ToString().c_str());
      return 1;
    }
    RatioResult r = CompareAlternating(
        [&] { return RunOnce(*fft, device, {&*buffer}); },
        [&] {
          for (int64_t row = 0; row < rows; ++row) {
            PlainBluestein(signal.data() + row * n, chirp, filter_spectrum,
                           roots, work, spectrum, result.data() + row * n);
          }
          return true;
        },
        1, trials, &failed);
    PrintResult(
        absl::StrCat("execute.fft_prime_", rows, "x", n, "_vs_plain_bluestein"),
        r,
        absl::StrFormat("us=%.1f plain_us=%.1f", r.subject_seconds * 1e6,
                        r.anchor_seconds * 1e6));
  }

  // (b'') ragged_dot against the dot_general of its rows' own work.
  {
    const int64_t m = quick ? 128 : 1024, k = quick ? 64 : 512,
                  n = quick ? 64 : 512, groups = 8;
    auto ragged =
        Executable::Compile(*client, RaggedDotProgram(m, k, n, groups));
    auto plain = Executable::Compile(*client, RaggedDotProgram(m, k, n, 0));
    if (!ragged.ok() || !plain.ok()) {
      std::fprintf(stderr, "error: %s %s\n", ragged.status().ToString().c_str(),
                   plain.status().ToString().c_str());
      return 1;
    }
    std::vector<float> lhs(m * k), rhs(groups * k * n);
    for (size_t i = 0; i < lhs.size(); ++i) lhs[i] = (i % 7) * 0.25f;
    for (size_t i = 0; i < rhs.size(); ++i) rhs[i] = (i % 5) * 0.5f;
    auto l = client->BufferFromHost(lhs.data(), PJRTX_Buffer_Type_F32, {m, k},
                                    device);
    auto r = client->BufferFromHost(rhs.data(), PJRTX_Buffer_Type_F32,
                                    {groups, k, n}, device);
    auto r1 = client->BufferFromHost(rhs.data(), PJRTX_Buffer_Type_F32, {k, n},
                                     device);
    if (!l.ok() || !r.ok() || !r1.ok()) {
      std::fprintf(stderr, "error: could not upload the ragged_dot operands\n");
      return 1;
    }
    RatioResult result = CompareAlternating(
        [&] {
          return RunOnce(*ragged, device, {&*l, &*r});
        },
        [&] {
          return RunOnce(*plain, device, {&*l, &*r1});
        },
        1, trials, &failed);
    PrintResult(
        absl::StrCat("execute.ragged_dot_", m, "x", k, "x", n, "_", groups,
                     "groups_vs_dot_general"),
        result,
        absl::StrFormat("ms=%.2f dot_ms=%.2f", result.subject_seconds * 1e3,
                        result.anchor_seconds * 1e3));
  }

  // (c) Dispatch of a one-element add.
  auto tiny = Executable::Compile(*client, kTinyAdd);
  float one = 1.0f;
  auto a = client->BufferFromHost(&one, PJRTX_Buffer_Type_F32, {}, device);
  auto b = client->BufferFromHost(&one, PJRTX_Buffer_Type_F32, {}, device);
  if (!tiny.ok() || !a.ok() || !b.ok()) {
    std::fprintf(stderr, "error: could not set up the dispatch benchmark\n");
    return 1;
  }
  PingPong ping_pong;
  const int round_trips = quick ? 2000 : 10000;
  RatioResult await_r = CompareAlternating(
      [&] {
        return RunOnce(*tiny, device, {&*a, &*b});
      },
      [&] { return ping_pong.RoundTrip(); }, round_trips / 5, 5, &failed);
  PrintResult("execute.dispatch_enqueue_await_vs_pingpong", await_r,
              absl::StrFormat("us=%.2f pingpong_us=%.2f x_pingpong=%.2f",
                              await_r.subject_seconds * 1e6,
                              await_r.anchor_seconds * 1e6,
                              1.0 / await_r.median_ratio));
  // Enqueue only: the caller's cost; completions drain between trials.
  std::vector<Executable::Run> pending;
  pending.reserve(round_trips);
  RatioResult enqueue_r = CompareAlternating(
      [&] {
        auto run = tiny->Execute(device, {&*a, &*b});
        if (!run.ok()) return false;
        pending.push_back(*std::move(run));
        return true;
      },
      [&] {
        for (auto& p : pending) p.done.Await().IgnoreError();
        pending.clear();
        return ping_pong.RoundTrip();
      },
      round_trips / 5, 5, &failed);
  for (auto& p : pending) p.done.Await().IgnoreError();
  PrintResult("execute.dispatch_enqueue_vs_pingpong", enqueue_r,
              absl::StrFormat("us=%.2f", enqueue_r.subject_seconds * 1e6));
  if (failed) {
    std::fprintf(stderr, "error: an execution failed during the benchmark\n");
    return 1;
  }
  return 0;
}
