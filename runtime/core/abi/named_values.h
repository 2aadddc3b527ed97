// PJRTX_NamedValue arrays backed by storage they own.
#ifndef PJRTX_RUNTIME_CORE_ABI_NAMED_VALUES_H_
#define PJRTX_RUNTIME_CORE_ABI_NAMED_VALUES_H_

#include <vector>

#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/base/value.h"

namespace pjrtx::abi {

// Owns attributes and exposes them as a PJRTX_NamedValue array whose
// pointers stay valid as long as this object (it is not copyable or movable
// once built, so the pointers cannot dangle).
class NamedValues {
 public:
  NamedValues() = default;
  NamedValues(const NamedValues&) = delete;
  NamedValues& operator=(const NamedValues&) = delete;

  // Replaces the contents. Call once, before publishing the array.
  void Assign(std::vector<Attribute> attributes);

  const PJRTX_NamedValue* data() const { return values_.data(); }
  size_t size() const { return values_.size(); }
  const std::vector<Attribute>& attributes() const { return attributes_; }

 private:
  std::vector<Attribute> attributes_;
  std::vector<PJRTX_NamedValue> values_;
};

// Reads a caller's array. INVALID_ARGUMENT naming the entry when a type is
// unknown or a pointer is NULL.
absl::StatusOr<std::vector<Attribute>> ReadNamedValues(
    const PJRTX_NamedValue* values, size_t num_values);

}  // namespace pjrtx::abi

#endif  // PJRTX_RUNTIME_CORE_ABI_NAMED_VALUES_H_
