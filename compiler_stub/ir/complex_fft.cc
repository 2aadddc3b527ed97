// fft as products with DFT matrices along each transformed dimension.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/complex_expander.h"

namespace pjrtx::ir::complex_internal {

ValueRef ComplexExpander::Contract(const ValueRef& x, std::vector<int64_t> dims,
                                   int axis, int64_t k,
                                   const std::vector<double>& matrix) {
  const int64_t n = dims[axis];
  std::vector<std::string> rows;
  for (int64_t row = 0; row < n; ++row) {
    std::vector<std::string> entries;
    for (int64_t column = 0; column < k; ++column) {
      entries.push_back(Number(matrix[row * k + column]));
    }
    rows.push_back(absl::StrCat("[", absl::StrJoin(entries, ", "), "]"));
  }
  const std::string matrix_type = TensorText({n, k}, element_);
  const ValueRef constant = Emit(absl::StrCat(
      "\"stablehlo.constant\"() {value = dense<[", absl::StrJoin(rows, ", "),
      "]> : ", matrix_type, "} : () -> ", matrix_type));
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> moved;  // dot_general puts K last.
  for (int d = 0; d < rank; ++d) {
    if (d != axis) moved.push_back(dims[d]);
  }
  moved.push_back(k);
  const std::string input_type = TensorText(dims, element_);
  const std::string moved_type = TensorText(moved, element_);
  ValueRef product = Emit(absl::StrCat(
      "\"stablehlo.dot_general\"(", RefText(x), ", ", RefText(constant),
      ") {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions "
      "= [",
      axis, "], rhs_contracting_dimensions = [0]>} : (", input_type, ", ",
      matrix_type, ") -> ", moved_type));
  if (axis == rank - 1) return product;
  std::vector<int64_t> permutation;
  for (int d = 0; d < rank; ++d) {
    permutation.push_back(d < axis ? d : d == axis ? rank - 1 : d - 1);
  }
  dims[axis] = k;
  return Emit(absl::StrCat(
      "\"stablehlo.transpose\"(", RefText(product),
      ") {permutation = array<i64: ", absl::StrJoin(permutation, ", "),
      ">} : (", moved_type, ") -> ", TensorText(dims, element_)));
}

// exp(-+2 pi i j k / n) as cos and sin tables, with (j k) mod n keeping
// the angle exact.
static double Angle(int64_t j, int64_t k, int64_t n) {
  return 2 * M_PI * static_cast<double>((j * k) % n) / static_cast<double>(n);
}

Parts ComplexExpander::ComplexDft(const Parts& x, std::vector<int64_t>& dims,
                                  int axis, int64_t n, bool inverse) {
  std::vector<double> re(n * n), im(n * n);
  const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t k = 0; k < n; ++k) {
      const double angle = Angle(j, k, n);
      re[j * n + k] = std::cos(angle) * scale;
      im[j * n + k] = (inverse ? std::sin(angle) : -std::sin(angle)) * scale;
    }
  }
  type_ = TensorText(dims, element_);
  const ValueRef rr = Contract(x.re, dims, axis, n, re);
  const ValueRef ii = Contract(x.im, dims, axis, n, im);
  const ValueRef ri = Contract(x.re, dims, axis, n, im);
  const ValueRef ir = Contract(x.im, dims, axis, n, re);
  return {Sub(rr, ii), Add(ri, ir)};
}

absl::Status ComplexExpander::ExpandFft(Operation& op) {
  std::string kind;
  std::vector<int64_t> lengths;
  for (const auto& [name, value] : op.attributes) {
    if (name == "fft_type") kind = value.body;
    if (name == "fft_length") lengths = value.integers;
  }
  const Type& input = op.operand_types[0];
  std::vector<int64_t> dims = input.dims;
  const int rank = static_cast<int>(dims.size());
  const int count = static_cast<int>(lengths.size());
  if (count < 1 || count > 3 || count > rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        op.location.line, ":", op.location.column, ": ", op.name, " length ",
        count, " must be 1..3 and at most the operand's rank ", rank));
  }
  for (int64_t length : lengths) {
    if (length > kMaxDftLength) {
      return absl::UnimplementedError(absl::StrCat(
          op.location.line, ":", op.location.column, ": ", op.name,
          " of length ", length, ": lengths above ", kMaxDftLength,
          " are not supported (each dimension is a product with its ",
          "DFT matrix)"));
    }
  }
  const bool real_input = kind == "RFFT";
  const bool real_output = kind == "IRFFT";
  for (int j = 0; j < count; ++j) {
    const int64_t want =
        real_output && j == count - 1 ? lengths[j] / 2 + 1 : lengths[j];
    if (lengths[j] <= 0 || dims[rank - count + j] != want) {
      return absl::InvalidArgumentError(
          absl::StrCat(op.location.line, ":", op.location.column, ": ", op.name,
                       " ", kind, " of length ", lengths[j], " needs ", want,
                       " elements along dimension ", rank - count + j, ", got ",
                       dims[rank - count + j]));
    }
  }
  const int last = rank - 1;
  if (kind == "FFT" || kind == "IFFT") {
    absl::StatusOr<Parts> x = PartsOf(op, 0);
    if (!x.ok()) return x.status();
    Parts y = *x;
    for (int j = 0; j < count; ++j) {
      y = ComplexDft(y, dims, rank - count + j, lengths[j], kind == "IFFT");
    }
    Define(op, y);
  } else if (real_input) {
    const int64_t n = lengths[count - 1], k = n / 2 + 1;
    std::vector<double> re(n * k), im(n * k);
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t c = 0; c < k; ++c) {
        re[j * k + c] = std::cos(Angle(j, c, n));
        im[j * k + c] = -std::sin(Angle(j, c, n));
      }
    }
    Parts y{Contract(op.operands[0], dims, last, k, re),
            Contract(op.operands[0], dims, last, k, im)};
    dims[last] = k;
    for (int j = 0; j < count - 1; ++j) {
      y = ComplexDft(y, dims, rank - count + j, lengths[j], false);
    }
    Define(op, y);
  } else if (real_output) {
    absl::StatusOr<Parts> x = PartsOf(op, 0);
    if (!x.ok()) return x.status();
    Parts y = *x;
    for (int j = 0; j < count - 1; ++j) {
      y = ComplexDft(y, dims, rank - count + j, lengths[j], true);
    }
    // Hermitian symmetry: the bins above n/2 are the conjugates of those
    // below, so each inner bin counts twice.
    const int64_t n = lengths[count - 1], k = n / 2 + 1;
    std::vector<double> re(k * n), im(k * n);
    for (int64_t c = 0; c < k; ++c) {
      const double weight = (c == 0 || 2 * c == n) ? 1.0 : 2.0;
      for (int64_t j = 0; j < n; ++j) {
        re[c * n + j] = weight * std::cos(Angle(c, j, n)) / n;
        im[c * n + j] = -weight * std::sin(Angle(c, j, n)) / n;
      }
    }
    const ValueRef from_re = Contract(y.re, dims, last, n, re);
    const ValueRef from_im = Contract(y.im, dims, last, n, im);
    dims[last] = n;
    type_ = TensorText(dims, element_);
    Alias(op, Add(from_re, from_im));
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(op.location.line, ":", op.location.column, ": ", op.name,
                     " type '", kind, "', expected FFT, IFFT, RFFT or IRFFT"));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::ir::complex_internal
