// triangular_solve: forward or back substitution in double whatever the
// element type, all right-hand sides of a batch together (the inner loop
// runs across them, so it vectorizes); each solution element is rounded to
// the type once, when stored, and read back so for the rows after it.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

Literal TriangularSolve(const Literal& a, const Literal& b,
                        const TriangularSolveOptions& options) {
  const int rank = a.shape().rank();
  const int64_t n = a.dims()[rank - 1];
  const int64_t rows = b.dims()[rank - 2];
  const int64_t cols = b.dims()[rank - 1];
  int64_t batches = 1;
  for (int d = 0; d < rank - 2; ++d) batches *= a.dims()[d];
  // Both sides reduce to solving m y = c for each right-hand side c: on
  // the left, m = op(a) and c runs down a column of b; on the right,
  // x op(a) = b transposed gives m = op(a)^T, with c along a row of b.
  const bool transposed = options.transpose_a != !options.left_side;
  const bool forward = options.lower != transposed;
  const int64_t vectors = options.left_side ? cols : rows;
  const int64_t element_step = options.left_side ? cols : 1;
  const int64_t vector_step = options.left_side ? 1 : cols;

  Literal out(b.shape());
  std::vector<double> m(n * n);
  // y[i * vectors + v]: element i of right-hand side v, then of its
  // solution; sums[v]: the terms of the row being solved.
  std::vector<double> y(n * vectors);
  std::vector<double> sums(vectors);
  for (int64_t p = 0; p < batches; ++p) {
    // m's triangle (the one substitution reads) and its diagonal; the
    // other triangle of a is never read.
    const int64_t a_base = p * n * n;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const bool in_triangle = forward ? j < i : j > i;
        const bool diagonal = i == j && !options.unit_diagonal;
        if (!in_triangle && !diagonal) continue;
        const int64_t at = transposed ? j * n + i : i * n + j;
        m[i * n + j] = a.GetFloat(a_base + at);
      }
    }
    const int64_t b_base = p * rows * cols;
    auto position = [&](int64_t i, int64_t v) {
      return b_base + v * vector_step + i * element_step;
    };
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t v = 0; v < vectors; ++v) {
        y[i * vectors + v] = b.GetFloat(position(i, v));
      }
    }
    // y[i] = (c[i] - sum of m[i][j] y[j] over the solved j, ascending)
    // / m[i][i]: the order and roundings the PTX kernel uses too.
    for (int64_t t = 0; t < n; ++t) {
      const int64_t i = forward ? t : n - 1 - t;
      std::fill(sums.begin(), sums.end(), 0.0);
      const int64_t begin = forward ? 0 : i + 1;
      const int64_t end = forward ? i : n;
      for (int64_t j = begin; j < end; ++j) {
        const double factor = m[i * n + j];
        const double* solved = y.data() + j * vectors;
        for (int64_t v = 0; v < vectors; ++v) {
          const double product = factor * solved[v];
          sums[v] += product;
        }
      }
      double* row = y.data() + i * vectors;
      for (int64_t v = 0; v < vectors; ++v) {
        const double residual = row[v] - sums[v];
        const int64_t at = position(i, v);
        out.SetFloat(
            at, options.unit_diagonal ? residual : residual / m[i * n + i]);
        row[v] = out.GetFloat(at);
      }
    }
  }
  return out;
}

}  // namespace pjrtx::cpu
