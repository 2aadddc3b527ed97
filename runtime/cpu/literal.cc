#include "runtime/cpu/literal.h"

#include <cstring>
#include <utility>

#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/storage_pool.h"

namespace pjrtx::cpu {

Literal Literal::ForOverwrite(Shape shape) {
  Literal literal;
  literal.shape_ = std::move(shape);
  literal.owned_ = StoragePool::Shared().Take(literal.shape_.size_bytes());
  literal.data_ = literal.owned_.get();
  return literal;
}

Literal::Literal(Shape shape) : shape_(std::move(shape)) {
  owned_ = StoragePool::Shared().Take(shape_.size_bytes());
  data_ = owned_.get();
  std::memset(data_, 0, shape_.size_bytes());
}

Literal Literal::View(Shape shape, void* data) {
  Literal literal;
  literal.shape_ = std::move(shape);
  literal.data_ = static_cast<uint8_t*>(data);
  return literal;
}

int64_t Literal::GetInt(int64_t i) const {
  return DispatchElementType(type(), [&](auto traits) -> int64_t {
    using Traits = decltype(traits);
    const auto value = Traits::Load(as<typename Traits::Storage>()[i]);
    if constexpr (kIsFloatTraits<Traits>) {
      return FloatToSignedSaturating(value, 64);
    } else {
      // U64 values above INT64_MAX come back as their bit pattern.
      return static_cast<int64_t>(value);
    }
  });
}

uint64_t Literal::GetUInt(int64_t i) const {
  return DispatchElementType(type(), [&](auto traits) -> uint64_t {
    using Traits = decltype(traits);
    const auto value = Traits::Load(as<typename Traits::Storage>()[i]);
    if constexpr (kIsFloatTraits<Traits>) {
      return FloatToUnsignedSaturating(value, 64);
    } else {
      // Negative signed values come back as their two's complement bits.
      return static_cast<uint64_t>(value);
    }
  });
}

double Literal::GetFloat(int64_t i) const {
  return DispatchElementType(type(), [&](auto traits) -> double {
    using Traits = decltype(traits);
    return static_cast<double>(Traits::Load(as<typename Traits::Storage>()[i]));
  });
}

void Literal::SetInt(int64_t i, int64_t value) {
  DispatchElementType(type(), [&](auto traits) {
    using Traits = decltype(traits);
    auto& element = as<typename Traits::Storage>()[i];
    if constexpr (kIsPredTraits<Traits>) {
      element = Traits::Store(value != 0);
    } else if constexpr (kIsIntTraits<Traits>) {
      // The cast wraps modulo the C type; Store wraps 2/4-bit types.
      element = Traits::Store(static_cast<typename Traits::Value>(value));
    } else if constexpr (std::is_same_v<typename Traits::Value, double>) {
      element = static_cast<double>(value);
    } else {
      // Rounding to odd first keeps the final rounding single.
      element = Traits::FromDouble(SignedToDoubleRoundToOdd(value));
    }
  });
}

void Literal::SetFloat(int64_t i, double value) {
  DispatchElementType(type(), [&](auto traits) {
    using Traits = decltype(traits);
    auto& element = as<typename Traits::Storage>()[i];
    if constexpr (kIsPredTraits<Traits>) {
      element = Traits::Store(value != 0);
    } else if constexpr (kIsIntTraits<Traits>) {
      using Value = typename Traits::Value;
      if constexpr (std::is_signed_v<Value>) {
        element =
            static_cast<Value>(FloatToSignedSaturating(value, Traits::kBits));
      } else {
        element =
            static_cast<Value>(FloatToUnsignedSaturating(value, Traits::kBits));
      }
    } else {
      element = Traits::FromDouble(value);
    }
  });
}

void Literal::CopyElement(int64_t i, const Literal& src, int64_t src_index) {
  const size_t size = ir::StorageSize(type());
  std::memcpy(data_ + i * size, src.data_ + src_index * size, size);
}

bool Literal::BitwiseEquals(const Literal& other) const {
  if (shape_ != other.shape_) return false;
  if (data_ == other.data_) return true;
  // A default-constructed Literal has a scalar shape but no storage.
  if (data_ == nullptr || other.data_ == nullptr) return size_bytes() == 0;
  return std::memcmp(data_, other.data_, size_bytes()) == 0;
}

std::vector<int64_t> Literal::Strides() const {
  std::vector<int64_t> strides(shape_.dims.size());
  int64_t stride = 1;
  for (int d = static_cast<int>(strides.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= shape_.dims[d];
  }
  return strides;
}

int64_t WrapToType(int64_t value, ElementType type) {
  const int bits = ir::BitWidth(type);
  if (ir::IsSignedInt(type)) {
    return SignExtend(static_cast<uint64_t>(value), bits);
  }
  if (ir::IsUnsignedInt(type) || type == ElementType::kPred) {
    // PRED wraps as a 1-bit unsigned integer; U64 keeps its bit pattern.
    return static_cast<int64_t>(static_cast<uint64_t>(value) &
                                LowBitsMask(bits));
  }
  return value;  // Floats have no integer range to wrap to.
}

}  // namespace pjrtx::cpu
