// What one PJRT C API header says about the ABI, as plain data.
//
// The project's header (runtime/pjrt/pjrt_c_api.h) and OpenXLA's declare
// the same names, so no translation unit can include both. Each is compiled
// into its own unit, which walks pjrt_layout_entries.inc and records every
// size, offset, type and value in a LayoutTable; the test compares tables.

#ifndef PJRTX_TESTS_RUNTIME_PJRT_PJRT_LAYOUT_TABLE_H_
#define PJRTX_TESTS_RUNTIME_PJRT_PJRT_LAYOUT_TABLE_H_

#include <cstdint>
#include <map>
#include <string>

namespace pjrtx::pjrt_layout {

struct LayoutTable {
  // False when the header could not be compiled in; `unavailable_reason`
  // then says why and the maps are empty.
  bool available = false;
  std::string unavailable_reason;
  // Sizes, alignments, offsets, member counts and enumerator values, keyed
  // by the functions below.
  std::map<std::string, int64_t> numbers;
  // Demangled C++ types of fields, slots and enum underlying types.
  std::map<std::string, std::string> types;
};

// The tables of the project's header and of the upstream copy.
LayoutTable OurLayout();
LayoutTable UpstreamLayout();

// Keys of LayoutTable::numbers.
inline std::string SizeofKey(const std::string& type) {
  return "sizeof(" + type + ")";
}
inline std::string AlignofKey(const std::string& type) {
  return "alignof(" + type + ")";
}
inline std::string StructSizeKey(const std::string& type) {
  return type + "_STRUCT_SIZE";
}
// How many initializers the struct takes in aggregate initialization: its
// members, an anonymous union counting once.
inline std::string MemberCountKey(const std::string& type) {
  return "member count of " + type;
}
inline std::string OffsetKey(const std::string& type,
                             const std::string& member) {
  return "offsetof(" + type + ", " + member + ")";
}
inline std::string MemberSizeKey(const std::string& type,
                                 const std::string& member) {
  return "sizeof(" + type + "::" + member + ")";
}
inline std::string MemberAlignofKey(const std::string& type,
                                    const std::string& member) {
  return "alignof(" + type + "::" + member + ")";
}
inline std::string EnumeratorKey(const std::string& enumerator) {
  return enumerator;
}

// Keys of LayoutTable::types.
inline std::string MemberTypeKey(const std::string& type,
                                 const std::string& member) {
  return "type of " + type + "::" + member;
}
inline std::string UnderlyingTypeKey(const std::string& enum_type) {
  return "underlying type of " + enum_type;
}

}  // namespace pjrtx::pjrt_layout

#endif  // PJRTX_TESTS_RUNTIME_PJRT_PJRT_LAYOUT_TABLE_H_
