// fft as products with DFT matrices along each transformed dimension.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/mlir/location_text.h"
#include "compiler_stub/passes/complex_expander.h"
#include "support/status_macros.h"

namespace pjrtx::ir::complex_internal {

ValueRef ComplexExpander::Matrix(int64_t n, int64_t k,
                                 const std::vector<double>& values) {
  std::vector<std::string> rows;
  for (int64_t row = 0; row < n; ++row) {
    std::vector<std::string> entries;
    for (int64_t column = 0; column < k; ++column) {
      entries.push_back(Number(values[row * k + column]));
    }
    rows.push_back(absl::StrCat("[", absl::StrJoin(entries, ", "), "]"));
  }
  const std::string matrix_type = TensorText({n, k}, element_);
  return Emit(absl::StrCat("\"stablehlo.constant\"() {value = dense<[",
                           absl::StrJoin(rows, ", "), "]> : ", matrix_type,
                           "} : () -> ", matrix_type));
}

ValueRef ComplexExpander::Contract(const ValueRef& x, std::vector<int64_t> dims,
                                   int axis, int64_t k,
                                   const ValueRef& constant) {
  const int64_t n = dims[axis];
  const std::string matrix_type = TensorText({n, k}, element_);
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

// The factor of n nearest its square root from below; 1 for a prime.
static int64_t SplitFactor(int64_t n) {
  for (int64_t f = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
       f > 1; --f) {
    if (n % f == 0) return f;
  }
  return 1;
}

// exp(sign pi i m^2 / n), with m^2 mod 2n keeping the angle exact.
static std::complex<double> Chirp(int64_t m, int64_t n, double sign) {
  const double angle =
      M_PI * static_cast<double>((m * m) % (2 * n)) / static_cast<double>(n);
  return std::polar(1.0, sign * angle);
}

// The smallest prime factor of n (n itself for a prime).
static int64_t SmallestFactor(int64_t n) {
  for (int64_t f = 2; f * f <= n; ++f) {
    if (n % f == 0) return f;
  }
  return n;
}

// Multiply-adds of ComplexDft of length n: n^2 for a matrix, n (n1 + n2)
// split; -1 where ComplexDft would need Bluestein's algorithm.
static int64_t DftCost(int64_t n) {
  if (n <= kMaxDftLength) return n * n;
  const int64_t n1 = SplitFactor(n);
  if (n1 == 1) return -1;
  const int64_t a = DftCost(n1), b = DftCost(n / n1);
  if (a < 0 || b < 0) return -1;
  return (n / n1) * a + n1 * b + n;
}

// The DFT of `in` (n values `stride` apart) into `out`, in double
// precision, by recursive decimation in time over n's prime factors:
// Bluestein's constant filter, computed once per program.
static void ReferenceDft(const std::complex<double>* in, size_t stride,
                         size_t n, std::complex<double>* out) {
  const size_t p = static_cast<size_t>(SmallestFactor(static_cast<int64_t>(n)));
  const size_t m = n / p;
  if (m == 1) {
    for (size_t k = 0; k < n; ++k) {
      std::complex<double> sum;
      for (size_t j = 0; j < n; ++j) {
        sum +=
            in[j * stride] * std::polar(1.0, -Angle(static_cast<int64_t>(j),
                                                    static_cast<int64_t>(k),
                                                    static_cast<int64_t>(n)));
      }
      out[k] = sum;
    }
    return;
  }
  // p DFTs of length m over the residues mod p, then combined.
  std::vector<std::complex<double>> parts(n);
  for (size_t r = 0; r < p; ++r) {
    ReferenceDft(in + r * stride, stride * p, m, parts.data() + r * m);
  }
  for (size_t k = 0; k < n; ++k) {
    std::complex<double> sum;
    for (size_t r = 0; r < p; ++r) {
      sum += parts[r * m + k % m] *
             std::polar(1.0,
                        -Angle(static_cast<int64_t>(r), static_cast<int64_t>(k),
                               static_cast<int64_t>(n)));
    }
    out[k] = sum;
  }
}

ValueRef ComplexExpander::Reshape(const ValueRef& x,
                                  const std::vector<int64_t>& from,
                                  const std::vector<int64_t>& to) {
  return Emit(absl::StrCat("\"stablehlo.reshape\"(", RefText(x), ") : (",
                           TensorText(from, element_), ") -> ",
                           TensorText(to, element_)));
}

ValueRef ComplexExpander::Transpose(const ValueRef& x,
                                    const std::vector<int64_t>& from,
                                    const std::vector<int64_t>& permutation) {
  std::vector<int64_t> to;
  for (int64_t d : permutation) to.push_back(from[d]);
  return Emit(absl::StrCat(
      "\"stablehlo.transpose\"(", RefText(x),
      ") {permutation = array<i64: ", absl::StrJoin(permutation, ", "),
      ">} : (", TensorText(from, element_), ") -> ", TensorText(to, element_)));
}

ValueRef ComplexExpander::Slice(const ValueRef& x,
                                const std::vector<int64_t>& from,
                                const std::vector<int64_t>& starts,
                                const std::vector<int64_t>& limits,
                                const std::vector<int64_t>& strides) {
  std::vector<int64_t> to(from.size());
  for (size_t d = 0; d < from.size(); ++d) {
    to[d] = (limits[d] - starts[d] + strides[d] - 1) / strides[d];
  }
  return Emit(absl::StrCat(
      "\"stablehlo.slice\"(", RefText(x),
      ") {start_indices = array<i64: ", absl::StrJoin(starts, ", "),
      ">, limit_indices = array<i64: ", absl::StrJoin(limits, ", "),
      ">, strides = array<i64: ", absl::StrJoin(strides, ", "), ">} : (",
      TensorText(from, element_), ") -> ", TensorText(to, element_)));
}

ValueRef ComplexExpander::SliceLast(const ValueRef& x,
                                    const std::vector<int64_t>& from,
                                    int64_t start, int64_t limit) {
  std::vector<int64_t> starts(from.size(), 0), limits = from;
  starts.back() = start;
  limits.back() = limit;
  return Slice(x, from, starts, limits, std::vector<int64_t>(from.size(), 1));
}

ValueRef ComplexExpander::BroadcastInDim(
    const ValueRef& x, const std::vector<int64_t>& from,
    const std::vector<int64_t>& to, const std::vector<int64_t>& dimensions) {
  return Emit(absl::StrCat(
      "\"stablehlo.broadcast_in_dim\"(", RefText(x),
      ") {broadcast_dimensions = array<i64: ", absl::StrJoin(dimensions, ", "),
      ">} : (", TensorText(from, element_), ") -> ", TensorText(to, element_)));
}

Parts ComplexExpander::FourStepDft(const Parts& x,
                                   const std::vector<int64_t>& dims, int axis,
                                   int64_t n1, bool inverse, bool real_input) {
  // Input index j = j1 + n1 j2 is [.., j2, j1, ..] row-major; output index
  // k = k2 + n2 k1 is [.., k1, k2, ..].
  const int64_t n = dims[axis], n2 = n / n1;
  std::vector<int64_t> split = dims;
  split[axis] = n1;
  split.insert(split.begin() + axis, n2);
  Parts y{Reshape(x.re, dims, split),
          real_input ? x.im : Reshape(x.im, dims, split)};
  y = ComplexDft(y, split, axis, n2, inverse, real_input);  // j2 -> k2.
  // Twiddle w^(j1 k2), broadcast along the other dimensions.
  std::vector<double> re(n2 * n1), im(n2 * n1);
  for (int64_t k2 = 0; k2 < n2; ++k2) {
    for (int64_t j1 = 0; j1 < n1; ++j1) {
      const double angle = Angle(j1, k2, n);
      re[k2 * n1 + j1] = std::cos(angle);
      im[k2 * n1 + j1] = inverse ? std::sin(angle) : -std::sin(angle);
    }
  }
  const std::string split_type = TensorText(split, element_);
  const Parts twiddle{
      BroadcastInDim(Matrix(n2, n1, re), {n2, n1}, split, {axis, axis + 1}),
      BroadcastInDim(Matrix(n2, n1, im), {n2, n1}, split, {axis, axis + 1})};
  type_ = split_type;
  y = Multiply(y, twiddle);
  y = ComplexDft(y, split, axis + 1, n1, inverse);  // j1 -> k1.
  std::vector<int64_t> permutation;
  for (int d = 0; d < static_cast<int>(split.size()); ++d) {
    permutation.push_back(d == axis ? axis + 1 : d == axis + 1 ? axis : d);
  }
  std::vector<int64_t> swapped = split;
  std::swap(swapped[axis], swapped[axis + 1]);
  Parts result{Reshape(Transpose(y.re, split, permutation), swapped, dims),
               Reshape(Transpose(y.im, split, permutation), swapped, dims)};
  type_ = TensorText(dims, element_);
  return result;
}

Parts ComplexExpander::RealDft(const ValueRef& x, std::vector<int64_t>& dims,
                               int64_t n) {
  const int last = static_cast<int>(dims.size()) - 1;
  const int64_t k = n / 2 + 1;
  if (n > kMaxDftLength) {
    // The complex DFT of (x, 0), its first n / 2 + 1 bins.
    Parts full = ComplexDft(Parts{x, ValueRef()}, dims, last, n, false,
                            /*real_input=*/true);
    Parts bins{SliceLast(full.re, dims, 0, k), SliceLast(full.im, dims, 0, k)};
    dims[last] = k;
    return bins;
  }
  std::vector<double> re(n * k), im(n * k);
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t c = 0; c < k; ++c) {
      re[j * k + c] = std::cos(Angle(j, c, n));
      im[j * k + c] = -std::sin(Angle(j, c, n));
    }
  }
  Parts bins{Contract(x, dims, last, k, Matrix(n, k, re)),
             Contract(x, dims, last, k, Matrix(n, k, im))};
  dims[last] = k;
  return bins;
}

ValueRef ComplexExpander::InverseRealDft(const Parts& x,
                                         std::vector<int64_t>& dims,
                                         int64_t n) {
  const int last = static_cast<int>(dims.size()) - 1;
  const int64_t k = n / 2 + 1;
  if (n > kMaxDftLength) {
    // The whole spectrum (the bins above n / 2 are the conjugates of
    // those below), then the complex inverse, whose imaginary part is 0.
    std::vector<int64_t> mirrored_dims = dims;
    mirrored_dims.back() = n - k;
    Parts mirrored;
    for (int part = 0; part < 2; ++part) {
      const ValueRef inner =
          SliceLast(part == 0 ? x.re : x.im, dims, 1, n - k + 1);
      ValueRef reversed =
          Emit(absl::StrCat("\"stablehlo.reverse\"(", RefText(inner),
                            ") {dimensions = array<i64: ", last, ">} : (",
                            TensorText(mirrored_dims, element_), ") -> ",
                            TensorText(mirrored_dims, element_)));
      if (part == 1) {
        type_ = TensorText(mirrored_dims, element_);
        reversed = Op("negate", reversed);
      }
      (part == 0 ? mirrored.re : mirrored.im) = reversed;
    }
    std::vector<int64_t> full_dims = dims;
    full_dims.back() = n;
    Parts full;
    for (int part = 0; part < 2; ++part) {
      (part == 0 ? full.re : full.im) = Emit(absl::StrCat(
          "\"stablehlo.concatenate\"(", RefText(part == 0 ? x.re : x.im), ", ",
          RefText(part == 0 ? mirrored.re : mirrored.im),
          ") {dimension = ", last, " : i64} : (", TensorText(dims, element_),
          ", ", TensorText(mirrored_dims, element_), ") -> ",
          TensorText(full_dims, element_)));
    }
    dims = full_dims;
    return ComplexDft(full, dims, last, n, true).re;
  }
  // Hermitian symmetry: the bins above n/2 are the conjugates of those
  // below, so each inner bin counts twice.
  std::vector<double> re(k * n), im(k * n);
  for (int64_t c = 0; c < k; ++c) {
    const double weight = (c == 0 || 2 * c == n) ? 1.0 : 2.0;
    for (int64_t j = 0; j < n; ++j) {
      re[c * n + j] = weight * std::cos(Angle(c, j, n)) / n;
      im[c * n + j] = -weight * std::sin(Angle(c, j, n)) / n;
    }
  }
  const ValueRef from_re = Contract(x.re, dims, last, n, Matrix(k, n, re));
  const ValueRef from_im = Contract(x.im, dims, last, n, Matrix(k, n, im));
  dims[last] = n;
  type_ = TensorText(dims, element_);
  return Add(from_re, from_im);
}

ValueRef ComplexExpander::AlongAxis(const std::vector<double>& values,
                                    const std::vector<int64_t>& dims,
                                    int axis) {
  std::vector<std::string> entries;
  for (double value : values) entries.push_back(Number(value));
  const std::string table_type =
      TensorText({static_cast<int64_t>(values.size())}, element_);
  const ValueRef table = Emit(absl::StrCat(
      "\"stablehlo.constant\"() {value = dense<[", absl::StrJoin(entries, ", "),
      "]> : ", table_type, "} : () -> ", table_type));
  return BroadcastInDim(table, {static_cast<int64_t>(values.size())}, dims,
                        {axis});
}

Parts ComplexExpander::BluesteinDft(const Parts& x,
                                    const std::vector<int64_t>& dims, int axis,
                                    bool inverse, bool real_input) {
  // jk = (j^2 + k^2 - (k - j)^2) / 2, so with c_m = exp(sign pi i m^2 / n),
  // X_k = c_k sum_j (x_j c_j) conj(c_(k-j)): a convolution, computed as a
  // product of DFTs of a length m >= 2n - 1 that splits.
  const int64_t n = dims[axis];
  // The convolution needs a length m >= 2n - 1: the cheapest to
  // transform from there up to the next power of two (lengths that split
  // well are dense: the first few thousand are enough to look at).
  int64_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  const int64_t last = std::min(m, 2 * n - 1 + 4096);
  int64_t best = DftCost(m);
  for (int64_t candidate = 2 * n - 1; candidate < last; ++candidate) {
    const int64_t cost = DftCost(candidate);
    if (cost >= 0 && cost < best) {
      m = candidate;
      best = cost;
    }
  }
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<double> chirp_re(n), chirp_im(n), out_re(n), out_im(n);
  const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
  for (int64_t j = 0; j < n; ++j) {
    const std::complex<double> c = Chirp(j, n, sign);
    chirp_re[j] = c.real();
    chirp_im[j] = c.imag();
    out_re[j] = c.real() * scale;
    out_im[j] = c.imag() * scale;
  }
  std::vector<std::complex<double>> filter(m);
  for (int64_t j = 0; j < n; ++j) {
    filter[j] = std::conj(Chirp(j, n, sign));
    if (j > 0) filter[m - j] = filter[j];
  }
  std::vector<std::complex<double>> filter_spectrum(m);
  ReferenceDft(filter.data(), 1, m, filter_spectrum.data());
  filter = std::move(filter_spectrum);
  std::vector<double> filter_re(m), filter_im(m);
  for (int64_t j = 0; j < m; ++j) {
    filter_re[j] = filter[j].real();
    filter_im[j] = filter[j].imag();
  }

  type_ = TensorText(dims, element_);
  const Parts chirp{AlongAxis(chirp_re, dims, axis),
                    AlongAxis(chirp_im, dims, axis)};
  const Parts weighted = real_input
                             ? Parts{Mul(x.re, chirp.re), Mul(x.re, chirp.im)}
                             : Multiply(x, chirp);
  // Zeros up to m along the axis.
  std::vector<int64_t> padded = dims;
  padded[axis] = m;
  std::vector<int64_t> zeros(dims.size(), 0), high(dims.size(), 0);
  high[axis] = m - n;
  const std::string scalar = TensorText({}, element_);
  const ValueRef zero = Emit(
      absl::StrCat("\"stablehlo.constant\"() {value = dense<0.0> : ", scalar,
                   "} : () -> ", scalar));
  Parts a;
  for (int part = 0; part < 2; ++part) {
    (part == 0 ? a.re : a.im) = Emit(absl::StrCat(
        "\"stablehlo.pad\"(", RefText(part == 0 ? weighted.re : weighted.im),
        ", ", RefText(zero),
        ") {edge_padding_low = array<i64: ", absl::StrJoin(zeros, ", "),
        ">, edge_padding_high = array<i64: ", absl::StrJoin(high, ", "),
        ">, interior_padding = array<i64: ", absl::StrJoin(zeros, ", "),
        ">} : (", TensorText(dims, element_), ", ", scalar, ") -> ",
        TensorText(padded, element_)));
  }
  std::vector<int64_t> work = padded;
  Parts spectrum = ComplexDft(a, work, axis, m, false);
  type_ = TensorText(padded, element_);
  spectrum = Multiply(spectrum, Parts{AlongAxis(filter_re, padded, axis),
                                      AlongAxis(filter_im, padded, axis)});
  Parts convolution = ComplexDft(spectrum, work, axis, m, true);
  // The first n, times c_k (and 1/n for the inverse).
  std::vector<int64_t> limits = padded;
  limits[axis] = n;
  for (ValueRef* part : {&convolution.re, &convolution.im}) {
    *part = Slice(*part, padded, zeros, limits,
                  std::vector<int64_t>(dims.size(), 1));
  }
  type_ = TensorText(dims, element_);
  return Multiply(convolution, Parts{AlongAxis(out_re, dims, axis),
                                     AlongAxis(out_im, dims, axis)});
}

Parts ComplexExpander::ComplexDft(const Parts& x, std::vector<int64_t>& dims,
                                  int axis, int64_t n, bool inverse,
                                  bool real_input) {
  if (n > kMaxDftLength) {
    const int64_t n1 = SplitFactor(n);
    if (n1 > 1) return FourStepDft(x, dims, axis, n1, inverse, real_input);
    return BluesteinDft(x, dims, axis, inverse, real_input);
  }
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
  const ValueRef re_matrix = Matrix(n, n, re);
  const ValueRef im_matrix = Matrix(n, n, im);
  const ValueRef rr = Contract(x.re, dims, axis, n, re_matrix);
  const ValueRef ri = Contract(x.re, dims, axis, n, im_matrix);
  if (real_input) return {rr, ri};
  const ValueRef ii = Contract(x.im, dims, axis, n, im_matrix);
  const ValueRef ir = Contract(x.im, dims, axis, n, re_matrix);
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
        mlir::LocationText(op.location), ": ", op.name, " length ", count,
        " must be 1..3 and at most the operand's rank ", rank));
  }
  const bool real_input = kind == "RFFT";
  const bool real_output = kind == "IRFFT";
  for (int j = 0; j < count; ++j) {
    const int64_t want =
        real_output && j == count - 1 ? lengths[j] / 2 + 1 : lengths[j];
    if (lengths[j] <= 0 || dims[rank - count + j] != want) {
      return absl::InvalidArgumentError(
          absl::StrCat(mlir::LocationText(op.location), ": ", op.name, " ",
                       kind, " of length ", lengths[j], " needs ", want,
                       " elements along dimension ", rank - count + j, ", got ",
                       dims[rank - count + j]));
    }
  }
  if (kind == "FFT" || kind == "IFFT") {
    PJRTX_ASSIGN_OR_RETURN(Parts y, PartsOf(op, 0));
    for (int j = 0; j < count; ++j) {
      y = ComplexDft(y, dims, rank - count + j, lengths[j], kind == "IFFT");
    }
    Define(op, y);
  } else if (real_input) {
    Parts y = RealDft(op.operands[0], dims, lengths[count - 1]);
    for (int j = 0; j < count - 1; ++j) {
      y = ComplexDft(y, dims, rank - count + j, lengths[j], false);
    }
    Define(op, y);
  } else if (real_output) {
    PJRTX_ASSIGN_OR_RETURN(Parts y, PartsOf(op, 0));
    for (int j = 0; j < count - 1; ++j) {
      y = ComplexDft(y, dims, rank - count + j, lengths[j], true);
    }
    Alias(op, InverseRealDft(y, dims, lengths[count - 1]));
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(mlir::LocationText(op.location), ": ", op.name, " type '",
                     kind, "', expected FFT, IFFT, RFFT or IRFFT"));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::ir::complex_internal
