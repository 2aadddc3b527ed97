// Helpers for the tests of the structural and reduction kernels: building
// Literals from flat value lists, reading them back, and simple regions.
#ifndef PJRTX_TESTS_RUNTIME_CPU_STRUCTURAL_TEST_UTIL_H_
#define PJRTX_TESTS_RUNTIME_CPU_STRUCTURAL_TEST_UTIL_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu::testing {

// A Literal of `type` and `dims` holding the row-major `values`.
inline Literal Ints(ElementType type, std::vector<int64_t> dims,
                    const std::vector<int64_t>& values) {
  Literal literal(Shape{type, std::move(dims)});
  for (size_t i = 0; i < values.size(); ++i) literal.SetInt(i, values[i]);
  return literal;
}
inline Literal Floats(ElementType type, std::vector<int64_t> dims,
                      const std::vector<double>& values) {
  Literal literal(Shape{type, std::move(dims)});
  for (size_t i = 0; i < values.size(); ++i) literal.SetFloat(i, values[i]);
  return literal;
}
inline Literal S64(std::vector<int64_t> dims,
                   const std::vector<int64_t>& values) {
  return Ints(ElementType::kS64, std::move(dims), values);
}
inline Literal S64Scalar(int64_t value) {
  return Ints(ElementType::kS64, {}, {value});
}

// The elements of `literal`, row-major.
inline std::vector<int64_t> IntsOf(const Literal& literal) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    values.push_back(literal.GetInt(i));
  }
  return values;
}
inline std::vector<double> FloatsOf(const Literal& literal) {
  std::vector<double> values;
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    values.push_back(literal.GetFloat(i));
  }
  return values;
}

// A region computing `fn` over pairs (a_k, b_k) of its 2n scalar arguments
// (a_0..a_{n-1}, b_0..b_{n-1}), as reduce and scatter bodies take them;
// integer arithmetic through int64, floats through double.
template <typename IntFn, typename FloatFn>
RegionFn PairwiseRegion(IntFn int_fn, FloatFn float_fn) {
  return [=](absl::Span<const Literal> args)
             -> absl::StatusOr<std::vector<Literal>> {
    const size_t n = args.size() / 2;
    std::vector<Literal> results;
    for (size_t k = 0; k < n; ++k) {
      const Literal& a = args[k];
      const Literal& b = args[n + k];
      Literal result(a.shape());
      if (ir::IsFloat(a.type())) {
        result.SetFloat(0, float_fn(a.GetFloat(0), b.GetFloat(0)));
      } else {
        result.SetInt(0, int_fn(a.GetInt(0), b.GetInt(0)));
      }
      results.push_back(result);
    }
    return results;
  };
}

inline RegionFn AddRegion() {
  return PairwiseRegion([](int64_t a, int64_t b) { return a + b; },
                        [](double a, double b) { return a + b; });
}
inline RegionFn MultiplyRegion() {
  return PairwiseRegion([](int64_t a, int64_t b) { return a * b; },
                        [](double a, double b) { return a * b; });
}

// A comparator region: `fn(args[0], args[1])` on the first pair of values
// (as doubles), a PRED.
template <typename Fn>
RegionFn PredicateRegion(Fn fn) {
  return [=](absl::Span<const Literal> args)
             -> absl::StatusOr<std::vector<Literal>> {
    Literal result(Shape{ElementType::kPred, {}});
    result.SetInt(0, fn(args[0].GetFloat(0), args[1].GetFloat(0)) ? 1 : 0);
    return std::vector<Literal>{result};
  };
}

}  // namespace pjrtx::cpu::testing

#endif  // PJRTX_TESTS_RUNTIME_CPU_STRUCTURAL_TEST_UTIL_H_
