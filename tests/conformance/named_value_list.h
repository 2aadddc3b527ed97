// An owning list of PJRTX_NamedValue entries.
//
// The C ABI passes options and attributes as arrays of PJRTX_NamedValue whose
// strings and lists are borrowed pointers. This class owns that storage so the
// suite can keep a copy of the plugin's attributes after the call that
// returned them, and can build create-option arrays from parsed flags.

#ifndef PJRTX_TESTS_CONFORMANCE_NAMED_VALUE_LIST_H_
#define PJRTX_TESTS_CONFORMANCE_NAMED_VALUE_LIST_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {

// One value, owned. Only the member matching `type` is meaningful.
struct OwnedNamedValue {
  std::string name;
  PJRTX_NamedValue_Type type = PJRTX_NamedValue_kString;
  std::string string_value;
  int64_t int64_value = 0;
  std::vector<int64_t> int64_list_value;
  float float_value = 0.0f;
  bool bool_value = false;

  // The value as text, e.g. `"v5e:2x2"`, `42`, `[1, 2]`, for messages.
  std::string ValueToString() const;
};

// Name of a PJRTX_NamedValue_Type ("string", "int64", ...), for messages.
std::string_view NamedValueTypeName(PJRTX_NamedValue_Type type);

class NamedValueList {
 public:
  NamedValueList() = default;

  // Deep-copies `count` values from a C array (e.g. Plugin_Attributes).
  static NamedValueList Copy(const PJRTX_NamedValue* values, size_t count);

  // Each Set* replaces a value of the same name, so the last one given wins.
  void SetString(std::string_view name, std::string_view value);
  void SetInt64(std::string_view name, int64_t value);
  void SetInt64List(std::string_view name, std::vector<int64_t> value);
  void SetFloat(std::string_view name, float value);
  void SetBool(std::string_view name, bool value);
  void Set(OwnedNamedValue value);
  void Remove(std::string_view name);

  // NULL if absent.
  const OwnedNamedValue* Find(std::string_view name) const;
  const std::vector<OwnedNamedValue>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

  // A C view of the list. The pointers inside borrow from this list and stay
  // valid until it is modified or destroyed.
  std::vector<PJRTX_NamedValue> View() const;

 private:
  std::vector<OwnedNamedValue> entries_;
};

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_NAMED_VALUE_LIST_H_
