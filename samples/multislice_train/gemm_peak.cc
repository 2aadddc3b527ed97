#include "samples/multislice_train/gemm_peak.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <unordered_map>

#include "oneapi/dnnl/dnnl.hpp"

namespace multislice {

GemmPeak MeasureBf16GemmPeak(int64_t n, int repeats) {
  using dnnl::memory;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const memory::desc operand({n, n}, memory::data_type::bf16,
                             memory::format_tag::ab);
  const memory::desc result({n, n}, memory::data_type::f32,
                            memory::format_tag::ab);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(operand, operand, result),
                                  engine);
  dnnl::matmul matmul(pd);
  memory a(operand, engine), b(operand, engine), c(result, engine);
  // bf16 0x3f80 is 1.0: well-defined inputs, no denormals.
  for (memory* m : {&a, &b}) {
    uint16_t* data = static_cast<uint16_t*>(m->get_data_handle());
    std::fill(data, data + n * n, uint16_t{0x3f80});
  }
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
  GemmPeak peak;
  peak.n = n;
  peak.flops_per_second = 2.0 * n * n * n / best;
  peak.implementation = pd.impl_info_str();
  return peak;
}

}  // namespace multislice
