#include "tests/plugins/cuda/ptx_interpreter/literals.h"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/plugins/cuda/ptx_interpreter/soft_float.h"

namespace fake_cuda::ptx {
namespace {

int DigitValue(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return 99;
}

// `digits` in `base`; false when empty, malformed or past 64 bits.
bool ParseUnsigned(std::string_view digits, int base, uint64_t* value) {
  if (digits.empty()) return false;
  uint64_t result = 0;
  for (char ch : digits) {
    const int digit = DigitValue(ch);
    if (digit >= base) return false;
    if (result > (UINT64_MAX - digit) / base) return false;
    result = result * base + digit;
  }
  *value = result;
  return true;
}

bool StartsWith(std::string_view word, std::string_view prefix) {
  return word.size() >= prefix.size() &&
         (word.substr(0, prefix.size()) == prefix);
}

}  // namespace

bool ParseLiteral(std::string_view word, bool negative, Literal* literal) {
  if (word.empty() || word[0] < '0' || word[0] > '9') return false;
  *literal = Literal{};
  literal->negative = negative;
  // Exact float bits.
  if (StartsWith(word, "0f") || StartsWith(word, "0F") ||
      StartsWith(word, "0d") || StartsWith(word, "0D")) {
    const bool is_float = word[1] == 'f' || word[1] == 'F';
    const std::string_view digits = word.substr(2);
    if (digits.size() != (is_float ? 8u : 16u)) return false;
    uint64_t bits = 0;
    if (!ParseUnsigned(digits, 16, &bits)) return false;
    const uint64_t sign = is_float ? uint64_t{1} << 31 : uint64_t{1} << 63;
    literal->kind =
        is_float ? Literal::Kind::kFloatBits : Literal::Kind::kDoubleBits;
    literal->bits = negative ? bits ^ sign : bits;
    return true;
  }
  // Decimal floats.
  const bool hex_or_binary = StartsWith(word, "0x") || StartsWith(word, "0X") ||
                             StartsWith(word, "0b") || StartsWith(word, "0B");
  if (!hex_or_binary && word.find_first_of(".eE") != std::string_view::npos) {
    const std::string text(word);
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return false;
    literal->kind = Literal::Kind::kDecimal;
    literal->decimal = negative ? -value : value;
    return true;
  }
  // Integers.
  if (word.back() == 'U' || word.back() == 'u') word.remove_suffix(1);
  uint64_t value = 0;
  bool parsed;
  if (hex_or_binary) {
    const bool hex = word[1] == 'x' || word[1] == 'X';
    parsed = ParseUnsigned(word.substr(2), hex ? 16 : 2, &value);
  } else if (word.size() > 1 && word[0] == '0') {
    parsed = ParseUnsigned(word.substr(1), 8, &value);
  } else {
    parsed = ParseUnsigned(word, 10, &value);
  }
  if (!parsed) return false;
  literal->kind = Literal::Kind::kInteger;
  literal->bits = negative ? uint64_t{0} - value : value;
  return true;
}

bool EncodeLiteral(const Literal& literal, Type type, Slot* slot) {
  const bool integer = literal.kind == Literal::Kind::kInteger;
  // The literal's value as a double, for float operands.
  double value = literal.decimal;
  if (integer) {
    value = literal.negative
                ? static_cast<double>(static_cast<int64_t>(literal.bits))
                : static_cast<double>(literal.bits);
  } else if (literal.kind == Literal::Kind::kFloatBits) {
    value = std::bit_cast<float>(static_cast<uint32_t>(literal.bits));
  } else if (literal.kind == Literal::Kind::kDoubleBits) {
    value = std::bit_cast<double>(literal.bits);
  }
  switch (type) {
    case Type::kNone:
      return false;
    case Type::kPred:
      if (!integer) return false;
      *slot = literal.bits != 0 ? 1 : 0;
      return true;
    case Type::kF16:
    case Type::kBF16:
      if (integer) {
        *slot = literal.bits & 0xFFFF;
      } else if (type == Type::kF16) {
        *slot = RoundToHalf(value, 0, Rounding::kNearestEven);
      } else {
        *slot = RoundToBFloat16(value, 0, Rounding::kNearestEven);
      }
      return true;
    case Type::kF32:
      *slot = literal.kind == Literal::Kind::kFloatBits
                  ? literal.bits
                  : std::bit_cast<uint32_t>(static_cast<float>(value));
      return true;
    case Type::kF64:
      *slot = literal.kind == Literal::Kind::kDoubleBits
                  ? literal.bits
                  : std::bit_cast<uint64_t>(value);
      return true;
    default:
      break;
  }
  if (!integer) return false;
  const int bits = 8 * SizeOf(type);
  uint64_t truncated =
      bits == 64 ? literal.bits : literal.bits & ((uint64_t{1} << bits) - 1);
  if (IsSigned(type) && bits < 64 && (truncated >> (bits - 1)) != 0) {
    truncated |= ~((uint64_t{1} << bits) - 1);  // As ToSlot extends.
  }
  *slot = truncated;
  return true;
}

}  // namespace fake_cuda::ptx
