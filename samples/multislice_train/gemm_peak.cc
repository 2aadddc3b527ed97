#include "samples/multislice_train/gemm_peak.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace multislice {
namespace {

using dnnl::memory;

// oneDNN's matmul of n x n `type` operands into f32, or why it cannot make
// one that is not its (orders of magnitude slower) reference kernel.
std::optional<dnnl::matmul::primitive_desc> FastMatmul(
    const dnnl::engine& engine, int64_t n, memory::data_type type,
    std::string* why_not) {
  try {
    const memory::desc operand({n, n}, type, memory::format_tag::ab);
    const memory::desc result({n, n}, memory::data_type::f32,
                              memory::format_tag::ab);
    dnnl::matmul::primitive_desc pd(
        dnnl::matmul::desc(operand, operand, result), engine);
    if (absl::StartsWith(pd.impl_info_str(), "ref")) {
      *why_not = absl::StrCat("oneDNN has only its reference kernel (",
                              pd.impl_info_str(), ") for it on this CPU");
      return std::nullopt;
    }
    return pd;
  } catch (const dnnl::error& e) {
    *why_not = absl::StrCat("oneDNN has no kernel for it on this CPU (",
                            e.what(), ")");
    return std::nullopt;
  }
}

// Fills an operand with 1.0: well-defined inputs, no denormals.
void FillOnes(memory& m, memory::data_type type, int64_t count) {
  if (type == memory::data_type::bf16) {
    uint16_t* data = static_cast<uint16_t*>(m.get_data_handle());
    std::fill(data, data + count, uint16_t{0x3f80});  // bf16 1.0
  } else {
    float* data = static_cast<float*>(m.get_data_handle());
    std::fill(data, data + count, 1.0f);
  }
}

double BestSeconds(const dnnl::engine& engine,
                   const dnnl::matmul::primitive_desc& pd, int64_t n,
                   memory::data_type type, int repeats) {
  dnnl::stream stream(engine);
  dnnl::matmul matmul(pd);
  memory a(pd.src_desc(), engine), b(pd.weights_desc(), engine),
      c(pd.dst_desc(), engine);
  FillOnes(a, type, n * n);
  FillOnes(b, type, n * n);
  std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}};
  const memory::desc scratchpad = pd.scratchpad_desc();
  if (scratchpad.get_size() > 0) {
    args.emplace(DNNL_ARG_SCRATCHPAD, memory(scratchpad, engine));
  }
  matmul.execute(stream, args);  // Warm-up: kernels generated, pages touched.
  stream.wait();
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    matmul.execute(stream, args);
    stream.wait();
    best = std::min(best, std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }
  return best;
}

}  // namespace

absl::StatusOr<GemmPeak> MeasureGemmPeak(int64_t n, int repeats) {
  try {
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    GemmPeak peak;
    peak.n = n;
    std::string why_not_bf16;
    std::optional<dnnl::matmul::primitive_desc> pd =
        FastMatmul(engine, n, memory::data_type::bf16, &why_not_bf16);
    memory::data_type type = memory::data_type::bf16;
    peak.type = "bf16";
    peak.reason = "oneDNN runs bf16 fast here";
    if (!pd.has_value()) {
      std::string why_not_f32;
      pd = FastMatmul(engine, n, memory::data_type::f32, &why_not_f32);
      if (!pd.has_value()) {
        return absl::UnavailableError(absl::StrCat(
            "no GEMM peak: bf16: ", why_not_bf16, "; f32: ", why_not_f32));
      }
      type = memory::data_type::f32;
      peak.type = "f32";
      peak.reason = absl::StrCat("not bf16: ", why_not_bf16);
    }
    peak.implementation = pd->impl_info_str();
    peak.flops_per_second =
        2.0 * n * n * n / BestSeconds(engine, *pd, n, type, repeats);
    return peak;
  } catch (const dnnl::error& e) {
    return absl::InternalError(
        absl::StrCat("measuring the GEMM peak with oneDNN failed: ", e.what()));
  }
}

}  // namespace multislice
