// mov, selp, setp and testp: moving values and making predicates.
#include <cmath>
#include <concepts>
#include <type_traits>

#include "tests/plugins/cuda/ptx_interpreter/compute_functions.h"
#include "tests/plugins/cuda/ptx_interpreter/float_values.h"

namespace fake_cuda::ptx {
namespace {

template <typename T>
void RunMove(const Instruction& in, Slot* s) {
  s[in.d] = ToSlot(FromSlot<T>(s[in.a]));
}

template <typename T>
void RunSelect(const Instruction& in, Slot* s) {
  s[in.d] = ToSlot(FromSlot<bool>(s[in.c]) ? FromSlot<T>(s[in.a])
                                           : FromSlot<T>(s[in.b]));
}

template <Comparison kComparison, IntegerValue T>
bool CompareIntegers(T a, T b) {
  using U = std::make_unsigned_t<T>;
  switch (kComparison) {
    case Comparison::kEq:
      return a == b;
    case Comparison::kNe:
      return a != b;
    case Comparison::kLt:
      return a < b;
    case Comparison::kLe:
      return a <= b;
    case Comparison::kGt:
      return a > b;
    case Comparison::kGe:
      return a >= b;
    case Comparison::kLo:
      return static_cast<U>(a) < static_cast<U>(b);
    case Comparison::kLs:
      return static_cast<U>(a) <= static_cast<U>(b);
    case Comparison::kHi:
      return static_cast<U>(a) > static_cast<U>(b);
    case Comparison::kHs:
      return static_cast<U>(a) >= static_cast<U>(b);
    default:
      return false;
  }
}

template <Comparison kComparison, FloatValue T>
bool CompareFloats(T a, T b) {
  const auto x = Native(a);
  const auto y = Native(b);
  const bool unordered = std::isnan(x) || std::isnan(y);
  // C++ comparisons are false on NaN, which is what the ordered forms
  // want (except ne).
  switch (kComparison) {
    case Comparison::kEq:
      return x == y;
    case Comparison::kNe:
      return !unordered && x != y;
    case Comparison::kLt:
      return x < y;
    case Comparison::kLe:
      return x <= y;
    case Comparison::kGt:
      return x > y;
    case Comparison::kGe:
      return x >= y;
    case Comparison::kEqu:
      return unordered || x == y;
    case Comparison::kNeu:
      return x != y;
    case Comparison::kLtu:
      return unordered || x < y;
    case Comparison::kLeu:
      return unordered || x <= y;
    case Comparison::kGtu:
      return unordered || x > y;
    case Comparison::kGeu:
      return unordered || x >= y;
    case Comparison::kNum:
      return !unordered;
    case Comparison::kNan:
      return unordered;
    default:
      return false;
  }
}

template <Comparison kComparison, typename T>
constexpr bool CompareSupports() {
  if constexpr (IntegerValue<T>) {
    return kComparison <= Comparison::kHs;
  } else if constexpr (FloatValue<T>) {
    return kComparison <= Comparison::kGe || kComparison >= Comparison::kEqu;
  } else {
    return false;
  }
}

template <Comparison kComparison, typename T>
void RunCompare(const Instruction& in, Slot* s) {
  T a = FromSlot<T>(s[in.a]);
  T b = FromSlot<T>(s[in.b]);
  bool result;
  if constexpr (IntegerValue<T>) {
    result = CompareIntegers<kComparison>(a, b);
  } else {
    if (in.ftz) {
      a = Flush(a);
      b = Flush(b);
    }
    result = CompareFloats<kComparison>(a, b);
  }
  switch (static_cast<Combine>(in.combine)) {
    case Combine::kNone:
      break;
    case Combine::kAnd:
      result = result && FromSlot<bool>(s[in.c]);
      break;
    case Combine::kOr:
      result = result || FromSlot<bool>(s[in.c]);
      break;
    case Combine::kXor:
      result = result != FromSlot<bool>(s[in.c]);
      break;
  }
  s[in.d] = ToSlot(result);
}

template <FloatClass kClass, FloatValue T>
void RunTest(const Instruction& in, Slot* s) {
  const T value = FromSlot<T>(s[in.a]);
  const int category = std::fpclassify(Native(value));
  bool result = false;
  switch (kClass) {
    case FloatClass::kFinite:
      result = category != FP_INFINITE && category != FP_NAN;
      break;
    case FloatClass::kInfinite:
      result = category == FP_INFINITE;
      break;
    case FloatClass::kNumber:
      result = category != FP_NAN;
      break;
    case FloatClass::kNotANumber:
      result = category == FP_NAN;
      break;
    case FloatClass::kNormal:
      result = category == FP_NORMAL;
      break;
    case FloatClass::kSubnormal:
      result = category == FP_SUBNORMAL;
      break;
  }
  s[in.d] = ToSlot(result);
}

template <Comparison kComparison>
ComputeFn SelectCompare(Type type) {
  return VisitType<ComputeFn>(type, nullptr, [](auto tag) -> ComputeFn {
    using T = typename decltype(tag)::type;
    if constexpr (CompareSupports<kComparison, T>()) {
      return &RunCompare<kComparison, T>;
    } else {
      return nullptr;
    }
  });
}

template <FloatClass kClass>
ComputeFn SelectTest(Type type) {
  if (type == Type::kF32) return &RunTest<kClass, float>;
  if (type == Type::kF64) return &RunTest<kClass, double>;
  return nullptr;
}

}  // namespace

ComputeFn MoveOperation(Type type) {
  return VisitType<ComputeFn>(type, nullptr, [](auto tag) -> ComputeFn {
    return &RunMove<typename decltype(tag)::type>;
  });
}

ComputeFn SelectOperation(Type type) {
  return VisitType<ComputeFn>(type, nullptr, [](auto tag) -> ComputeFn {
    using T = typename decltype(tag)::type;
    if constexpr (std::same_as<T, bool>) {
      return nullptr;
    } else {
      return &RunSelect<T>;
    }
  });
}

ComputeFn CompareOperation(Comparison comparison, Type type) {
  switch (comparison) {
    case Comparison::kEq:
      return SelectCompare<Comparison::kEq>(type);
    case Comparison::kNe:
      return SelectCompare<Comparison::kNe>(type);
    case Comparison::kLt:
      return SelectCompare<Comparison::kLt>(type);
    case Comparison::kLe:
      return SelectCompare<Comparison::kLe>(type);
    case Comparison::kGt:
      return SelectCompare<Comparison::kGt>(type);
    case Comparison::kGe:
      return SelectCompare<Comparison::kGe>(type);
    case Comparison::kLo:
      return SelectCompare<Comparison::kLo>(type);
    case Comparison::kLs:
      return SelectCompare<Comparison::kLs>(type);
    case Comparison::kHi:
      return SelectCompare<Comparison::kHi>(type);
    case Comparison::kHs:
      return SelectCompare<Comparison::kHs>(type);
    case Comparison::kEqu:
      return SelectCompare<Comparison::kEqu>(type);
    case Comparison::kNeu:
      return SelectCompare<Comparison::kNeu>(type);
    case Comparison::kLtu:
      return SelectCompare<Comparison::kLtu>(type);
    case Comparison::kLeu:
      return SelectCompare<Comparison::kLeu>(type);
    case Comparison::kGtu:
      return SelectCompare<Comparison::kGtu>(type);
    case Comparison::kGeu:
      return SelectCompare<Comparison::kGeu>(type);
    case Comparison::kNum:
      return SelectCompare<Comparison::kNum>(type);
    case Comparison::kNan:
      return SelectCompare<Comparison::kNan>(type);
  }
  return nullptr;
}

ComputeFn TestOperation(FloatClass float_class, Type type) {
  switch (float_class) {
    case FloatClass::kFinite:
      return SelectTest<FloatClass::kFinite>(type);
    case FloatClass::kInfinite:
      return SelectTest<FloatClass::kInfinite>(type);
    case FloatClass::kNumber:
      return SelectTest<FloatClass::kNumber>(type);
    case FloatClass::kNotANumber:
      return SelectTest<FloatClass::kNotANumber>(type);
    case FloatClass::kNormal:
      return SelectTest<FloatClass::kNormal>(type);
    case FloatClass::kSubnormal:
      return SelectTest<FloatClass::kSubnormal>(type);
  }
  return nullptr;
}

}  // namespace fake_cuda::ptx
