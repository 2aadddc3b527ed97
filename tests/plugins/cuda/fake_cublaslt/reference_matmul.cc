#include "tests/plugins/cuda/fake_cublaslt/reference_matmul.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace fake_cublaslt {
namespace {

float FromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// E4M3FN: 1 sign, 4 exponent (bias 7), 3 mantissa bits; no infinities,
// S.1111.111 is NaN.
float DecodeE4M3(uint8_t bits) {
  const float sign = (bits & 0x80) != 0 ? -1.0f : 1.0f;
  const int exponent = (bits >> 3) & 0xF;
  const int mantissa = bits & 0x7;
  if (exponent == 0xF && mantissa == 0x7) {
    return std::numeric_limits<float>::quiet_NaN();
  }
  if (exponent == 0) return sign * std::ldexp(mantissa / 8.0f, -6);
  return sign * std::ldexp(1.0f + mantissa / 8.0f, exponent - 7);
}

}  // namespace

size_t ElementBytes(Element type) {
  switch (type) {
    case Element::kF32:
      return 4;
    case Element::kBF16:
      return 2;
    case Element::kF8E4M3:
      return 1;
  }
  return 0;
}

float Decode(Element type, const void* base, int64_t index) {
  const auto* bytes = static_cast<const uint8_t*>(base);
  switch (type) {
    case Element::kF32: {
      float value;
      std::memcpy(&value, bytes + index * 4, sizeof(value));
      return value;
    }
    case Element::kBF16: {
      uint16_t bits;
      std::memcpy(&bits, bytes + index * 2, sizeof(bits));
      return FromBits(uint32_t{bits} << 16);
    }
    case Element::kF8E4M3:
      return DecodeE4M3(bytes[index]);
  }
  return 0;
}

void Encode(Element type, void* base, int64_t index, float value) {
  auto* bytes = static_cast<uint8_t*>(base);
  if (type == Element::kF32) {
    std::memcpy(bytes + index * 4, &value, sizeof(value));
    return;
  }
  // bf16, rounded to nearest even; NaN stays a quiet NaN.
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint16_t half =
      std::isnan(value)
          ? uint16_t{0x7FC0}
          : static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
  std::memcpy(bytes + index * 2, &half, sizeof(half));
}

uint64_t Extent(const Matrix& matrix, int64_t batch) {
  if (matrix.rows == 0 || matrix.cols == 0 || batch == 0) return 0;
  return static_cast<uint64_t>(batch - 1) * matrix.stride +
         (matrix.cols - 1) * static_cast<uint64_t>(matrix.ld) + matrix.rows;
}

void Matmul(const Matrix& a, const Matrix& b, const Matrix& c, void* d,
            const Matrix& d_layout, int64_t batch, float alpha, float beta,
            float scale_a, float scale_b) {
  const uint64_t m = d_layout.rows;
  const uint64_t n = d_layout.cols;
  const uint64_t k = a.transposed ? a.rows : a.cols;
  // Each batch's op(A) by rows and op(B) by columns, decoded and scaled
  // once: rows i of op(A) at [i * k], columns j of op(B) at [j * k].
  std::vector<float> a_rows(m * k), b_cols(n * k);
  for (int64_t p = 0; p < batch; ++p) {
    const int64_t a_base = p * a.stride;
    const int64_t b_base = p * b.stride;
    const int64_t c_base = p * c.stride;
    const int64_t d_base = p * d_layout.stride;
    for (uint64_t i = 0; i < m; ++i) {
      for (uint64_t l = 0; l < k; ++l) {
        // op(A)(i, l).
        const int64_t index = a.transposed ? l + i * a.ld : i + l * a.ld;
        a_rows[i * k + l] = scale_a * Decode(a.type, a.data, a_base + index);
      }
    }
    for (uint64_t j = 0; j < n; ++j) {
      for (uint64_t l = 0; l < k; ++l) {
        // op(B)(l, j).
        const int64_t index = b.transposed ? j + l * b.ld : l + j * b.ld;
        b_cols[j * k + l] = scale_b * Decode(b.type, b.data, b_base + index);
      }
    }
    for (uint64_t j = 0; j < n; ++j) {
      for (uint64_t i = 0; i < m; ++i) {
        float sum = 0.0f;
        for (uint64_t l = 0; l < k; ++l) {
          sum += a_rows[i * k + l] * b_cols[j * k + l];
        }
        float value = alpha * sum;
        if (beta != 0.0f) {
          value += beta * Decode(c.type, c.data, c_base + i + j * c.ld);
        }
        Encode(d_layout.type, d, d_base + i + j * d_layout.ld, value);
      }
    }
  }
}

}  // namespace fake_cublaslt
