// A dense array value the CPU engine computes on.
#ifndef PJRTX_RUNTIME_CPU_LITERAL_H_
#define PJRTX_RUNTIME_CPU_LITERAL_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "compiler_stub/ir/element_type.h"

namespace pjrtx::cpu {

using ir::ElementType;
using ir::Shape;

// Row-major, dense, in the storage layout of ir::StorageSize: PRED as one
// byte 0/1; 2- and 4-bit integers unpacked one per byte (sign-extended for
// signed types, zero-extended for unsigned, always within range); F16,
// BF16 and FP8 as raw bits; the rest as their C types.
//
// Copying a Literal shares its storage (like a shared_ptr): kernels never
// write to their inputs, they make new Literals. A view wraps memory the
// Literal does not own (a device buffer); the owner keeps it alive.
class Literal {
 public:
  Literal() = default;
  // Zero-filled owned storage.
  explicit Literal(Shape shape);
  static Literal View(Shape shape, void* data);
  // Owned storage left uninitialized, for results that are written whole:
  // it skips a pass over memory that zero-filling would cost.
  static Literal ForOverwrite(Shape shape);

  const Shape& shape() const { return shape_; }
  ElementType type() const { return shape_.type; }
  const std::vector<int64_t>& dims() const { return shape_.dims; }
  int64_t num_elements() const { return shape_.num_elements(); }
  size_t size_bytes() const { return shape_.size_bytes(); }

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(data_);
  }
  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(data_);
  }

  // Element `i` (row-major linear index) converted, for generic slow
  // paths: integers exactly, floats through double (F16/BF16/FP8 decoded).
  int64_t GetInt(int64_t i) const;    // Integer and PRED types.
  uint64_t GetUInt(int64_t i) const;  // Unsigned and PRED types.
  double GetFloat(int64_t i) const;   // Any type.
  // Stores `value` converted to the element type (integers wrap to the
  // type's width; floats round to nearest even).
  void SetInt(int64_t i, int64_t value);
  void SetFloat(int64_t i, double value);

  // Copies element `src_index` of `src` (same element type) to `i`.
  void CopyElement(int64_t i, const Literal& src, int64_t src_index);

  // Bitwise equality of shape and contents.
  bool BitwiseEquals(const Literal& other) const;

  // Row-major strides in elements.
  std::vector<int64_t> Strides() const;

 private:
  Shape shape_;
  std::shared_ptr<uint8_t[]> owned_;
  uint8_t* data_ = nullptr;
};

// Wraps a value to the range of a 2/4/8/16/32/64-bit integer type (two's
// complement for signed types).
int64_t WrapToType(int64_t value, ElementType type);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_LITERAL_H_
