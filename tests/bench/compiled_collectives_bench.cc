// Collectives inside programs on a plugin (tpu_emu by default, 4 chips of
// v5e:2x2): one program per chip whose stablehlo.all_reduce sums f32[n]
// over the chips, against the same all-reduce through a communicator
// (PJRTX_Communicator_Collective, ring over the in-process ICI) on the same
// buffers, alternating. Also: an all_reduce with 4 dots of 256x256 after it
// that do not need its result, against the same program with the dots
// first needing it (the exchange waits), to show compute proceeding while
// the collective is in flight.
//
//   compiled_collectives_bench --plugin=PATH [--option k=v]... [--quick]
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/client/client.h"
#include "runtime/client/communicator.h"
#include "runtime/client/executable.h"
#include "tests/bench/benchmark_client.h"
#include "tests/bench/ratio_benchmark.h"

namespace {

using pjrtx::bench::CompareAlternating;
using pjrtx::bench::PrintResult;
using pjrtx::bench::RatioResult;
using pjrtx::client::Buffer;
using pjrtx::client::Client;
using pjrtx::client::Communicator;
using pjrtx::client::Device;
using pjrtx::client::Executable;

std::string AllReduceProgram(int64_t n) {
  const std::string t = absl::StrCat("tensor<", n, "xf32>");
  return absl::StrCat("func.func @main(%x: ", t, ") -> ", t, R"( {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<> : tensor<0x0xi64>} : ()",
                      t, ") -> ", t, "\n  func.return %r : ", t, "\n}\n");
}

// An all_reduce of f32[n] and four dots on w; with `overlap` the dots do
// not read the all_reduce's result (they run while it is in flight),
// without it the first dot's input goes through the result, so the
// exchange must finish first.
std::string StepProgram(int64_t n, bool overlap) {
  const std::string t = absl::StrCat("tensor<", n, "xf32>");
  const std::string m = "tensor<256x256xf32>";
  std::string text = absl::StrCat("func.func @main(%x: ", t, ", %w: ", m,
                                  ") -> (", t, ", ", m, R"() {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<> : tensor<0x0xi64>} : ()",
                                  t, ") -> ", t, "\n");
  if (overlap) {
    absl::StrAppend(&text, "  %d0 = stablehlo.add %w, %w : ", m, "\n");
  } else {
    absl::StrAppend(&text, "  %first = stablehlo.slice %r [0:1] : (", t,
                    ") -> tensor<1xf32>\n",
                    "  %f = stablehlo.reshape %first : (tensor<1xf32>) -> "
                    "tensor<f32>\n",
                    "  %fb = stablehlo.broadcast_in_dim %f, dims = [] : "
                    "(tensor<f32>) -> ",
                    m, "\n  %d0 = stablehlo.add %w, %fb : ", m, "\n");
  }
  for (int i = 1; i <= 4; ++i) {
    absl::StrAppend(&text, "  %d", i, " = stablehlo.dot_general %d", i - 1,
                    ", %w, contracting_dims = [1] x [0] : (", m, ", ", m,
                    ") -> ", m, "\n");
  }
  absl::StrAppend(&text, "  func.return %r, %d4 : ", t, ", ", m, "\n}\n");
  return text;
}

// Runs `executable` once on every chip (arguments[chip]) and waits.
bool RunOnAll(const Executable& executable, const std::vector<Device>& chips,
              const std::vector<std::vector<const Buffer*>>& arguments) {
  std::vector<Executable::Run> runs;
  for (size_t c = 0; c < chips.size(); ++c) {
    auto run = executable.Execute(chips[c], arguments[c]);
    if (!run.ok()) {
      std::fprintf(stderr, "execute: %s\n", run.status().ToString().c_str());
      return false;
    }
    runs.push_back(*std::move(run));
  }
  for (const Executable::Run& run : runs) {
    if (absl::Status s = run.done.Await(); !s.ok()) {
      std::fprintf(stderr, "run: %s\n", s.ToString().c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  auto setup = pjrtx::bench::OpenBenchmarkClient(
      argc, argv, {{"topology", std::string("v5e:2x2")}}, &exit_code);
  if (!setup) return exit_code;
  const bool quick = setup->quick;
  Client& client = *setup->client;
  const std::vector<Device> chips = client.addressable_devices();
  std::vector<int64_t> ids;
  for (const Device& d : chips) ids.push_back(d.id());
  const int trials = quick ? 5 : 9;
  bool failed = false;

  auto communicator = Communicator::Create(client, ids);
  if (!communicator.ok()) {
    std::fprintf(stderr, "communicator: %s\n",
                 communicator.status().ToString().c_str());
    return 1;
  }
  std::printf(
      "# all-reduce f32 sum over %zu chips: in a program vs a "
      "communicator (ring, in-process ICI); ratio = communicator "
      "time / program time\n",
      chips.size());
  std::printf("# %12s %12s %14s %14s %8s\n", "size(B)", "count", "program(us)",
              "communicator(us)", "ratio");
  std::vector<int64_t> counts = {2, 1 << 10, 1 << 18};
  if (!quick) counts.push_back(1 << 22);
  for (int64_t n : counts) {
    auto executable = Executable::Compile(client, AllReduceProgram(n));
    if (!executable.ok()) {
      std::fprintf(stderr, "compile: %s\n",
                   executable.status().ToString().c_str());
      return 1;
    }
    std::vector<float> host(n, 1.0f);
    std::vector<Buffer> inputs;
    std::vector<std::vector<const Buffer*>> arguments;
    for (const Device& chip : chips) {
      auto b =
          client.BufferFromHost(host.data(), PJRTX_Buffer_Type_F32, {n}, chip);
      if (!b.ok()) return 1;
      inputs.push_back(*std::move(b));
    }
    std::vector<const Buffer*> all;
    for (const Buffer& b : inputs) {
      arguments.push_back({&b});
      all.push_back(&b);
    }
    const int iterations = n >= (1 << 18) ? 5 : 50;
    RatioResult r = CompareAlternating(
        [&] { return RunOnAll(*executable, chips, arguments); },
        [&] {
          auto result = communicator->AllReduce(all, PJRTX_ReduceOp_SUM);
          if (!result.ok()) return false;
          for (const auto& done : result->done) {
            if (!done.Await().ok()) return false;
          }
          return true;
        },
        iterations, trials, &failed);
    std::printf("  %12lld %12lld %14.1f %14.1f %8.3f\n",
                static_cast<long long>(4 * n), static_cast<long long>(n),
                r.subject_seconds * 1e6, r.anchor_seconds * 1e6,
                r.median_ratio);
    PrintResult(
        absl::StrCat("compiled_collectives.all_reduce.", 4 * n, "B"), r,
        absl::StrFormat("program_us=%.1f communicator_us=%.1f",
                        r.subject_seconds * 1e6, r.anchor_seconds * 1e6));
  }

  // Overlap: the same work, the dots independent of the exchange or not.
  const int64_t n = quick ? (1 << 16) : (1 << 20);
  auto overlapped = Executable::Compile(client, StepProgram(n, true));
  auto serial = Executable::Compile(client, StepProgram(n, false));
  if (!overlapped.ok() || !serial.ok()) {
    std::fprintf(stderr, "compile: %s %s\n",
                 overlapped.status().ToString().c_str(),
                 serial.status().ToString().c_str());
    return 1;
  }
  std::vector<float> x(n, 1.0f), w(256 * 256, 0.001f);
  std::vector<Buffer> buffers;
  std::vector<std::vector<const Buffer*>> arguments(chips.size());
  for (size_t c = 0; c < chips.size(); ++c) {
    auto bx =
        client.BufferFromHost(x.data(), PJRTX_Buffer_Type_F32, {n}, chips[c]);
    auto bw = client.BufferFromHost(w.data(), PJRTX_Buffer_Type_F32, {256, 256},
                                    chips[c]);
    if (!bx.ok() || !bw.ok()) return 1;
    buffers.push_back(*std::move(bx));
    buffers.push_back(*std::move(bw));
  }
  for (size_t c = 0; c < chips.size(); ++c) {
    arguments[c] = {&buffers[2 * c], &buffers[2 * c + 1]};
  }
  RatioResult overlap = CompareAlternating(
      [&] { return RunOnAll(*overlapped, chips, arguments); },
      [&] { return RunOnAll(*serial, chips, arguments); }, quick ? 3 : 10,
      trials, &failed);
  std::printf(
      "# all_reduce of %lld B + 4 dots 256^3 per chip: dots "
      "independent %.1f us, dots after the exchange %.1f us, ratio "
      "%.3f\n",
      static_cast<long long>(4 * n), overlap.subject_seconds * 1e6,
      overlap.anchor_seconds * 1e6, overlap.median_ratio);
  PrintResult("compiled_collectives.overlap_vs_serial", overlap, "");
  return failed ? 1 : 0;
}
