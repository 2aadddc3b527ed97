#include "named_value_list.h"

#include <algorithm>
#include <sstream>
#include <utility>

namespace pjrtx::conformance {

std::string OwnedNamedValue::ValueToString() const {
  std::ostringstream out;
  switch (type) {
    case PJRTX_NamedValue_kString:
      out << '"' << string_value << '"';
      break;
    case PJRTX_NamedValue_kInt64:
      out << int64_value;
      break;
    case PJRTX_NamedValue_kInt64List:
      out << '[';
      for (size_t i = 0; i < int64_list_value.size(); ++i) {
        out << (i == 0 ? "" : ", ") << int64_list_value[i];
      }
      out << ']';
      break;
    case PJRTX_NamedValue_kFloat:
      out << float_value;
      break;
    case PJRTX_NamedValue_kBool:
      out << (bool_value ? "true" : "false");
      break;
    default:
      out << "<unknown type " << static_cast<int>(type) << ">";
  }
  return out.str();
}

std::string_view NamedValueTypeName(PJRTX_NamedValue_Type type) {
  switch (type) {
    case PJRTX_NamedValue_kString:
      return "string";
    case PJRTX_NamedValue_kInt64:
      return "int64";
    case PJRTX_NamedValue_kInt64List:
      return "int64 list";
    case PJRTX_NamedValue_kFloat:
      return "float";
    case PJRTX_NamedValue_kBool:
      return "bool";
  }
  return "unknown type";
}

NamedValueList NamedValueList::Copy(const PJRTX_NamedValue* values,
                                    size_t count) {
  NamedValueList list;
  for (size_t i = 0; i < count; ++i) {
    const PJRTX_NamedValue& in = values[i];
    OwnedNamedValue out;
    out.name.assign(in.name, in.name_size);
    out.type = in.type;
    switch (in.type) {
      case PJRTX_NamedValue_kString:
        if (in.value.string_value != nullptr) {
          out.string_value.assign(in.value.string_value, in.value_size);
        }
        break;
      case PJRTX_NamedValue_kInt64:
        out.int64_value = in.value.int64_value;
        break;
      case PJRTX_NamedValue_kInt64List:
        if (in.value.int64_array_value != nullptr) {
          out.int64_list_value.assign(
              in.value.int64_array_value,
              in.value.int64_array_value + in.value_size);
        }
        break;
      case PJRTX_NamedValue_kFloat:
        out.float_value = in.value.float_value;
        break;
      case PJRTX_NamedValue_kBool:
        out.bool_value = in.value.bool_value;
        break;
    }
    // Keep duplicates as published: a copy must not hide a plugin's mistake.
    list.entries_.push_back(std::move(out));
  }
  return list;
}

void NamedValueList::SetString(std::string_view name, std::string_view value) {
  OwnedNamedValue v;
  v.name = name;
  v.type = PJRTX_NamedValue_kString;
  v.string_value = value;
  Set(std::move(v));
}

void NamedValueList::SetInt64(std::string_view name, int64_t value) {
  OwnedNamedValue v;
  v.name = name;
  v.type = PJRTX_NamedValue_kInt64;
  v.int64_value = value;
  Set(std::move(v));
}

void NamedValueList::SetInt64List(std::string_view name,
                                  std::vector<int64_t> value) {
  OwnedNamedValue v;
  v.name = name;
  v.type = PJRTX_NamedValue_kInt64List;
  v.int64_list_value = std::move(value);
  Set(std::move(v));
}

void NamedValueList::SetFloat(std::string_view name, float value) {
  OwnedNamedValue v;
  v.name = name;
  v.type = PJRTX_NamedValue_kFloat;
  v.float_value = value;
  Set(std::move(v));
}

void NamedValueList::SetBool(std::string_view name, bool value) {
  OwnedNamedValue v;
  v.name = name;
  v.type = PJRTX_NamedValue_kBool;
  v.bool_value = value;
  Set(std::move(v));
}

void NamedValueList::Set(OwnedNamedValue value) {
  Remove(value.name);
  entries_.push_back(std::move(value));
}

void NamedValueList::Remove(std::string_view name) {
  std::erase_if(entries_,
                [&](const OwnedNamedValue& v) { return v.name == name; });
}

const OwnedNamedValue* NamedValueList::Find(std::string_view name) const {
  auto it =
      std::find_if(entries_.begin(), entries_.end(),
                   [&](const OwnedNamedValue& v) { return v.name == name; });
  return it == entries_.end() ? nullptr : &*it;
}

std::vector<PJRTX_NamedValue> NamedValueList::View() const {
  std::vector<PJRTX_NamedValue> view;
  view.reserve(entries_.size());
  for (const OwnedNamedValue& v : entries_) {
    PJRTX_NamedValue c{};
    c.struct_size = PJRTX_NamedValue_STRUCT_SIZE;
    c.name = v.name.c_str();
    c.name_size = v.name.size();
    c.type = v.type;
    c.value_size = 1;
    switch (v.type) {
      case PJRTX_NamedValue_kString:
        c.value.string_value = v.string_value.c_str();
        c.value_size = v.string_value.size();
        break;
      case PJRTX_NamedValue_kInt64:
        c.value.int64_value = v.int64_value;
        break;
      case PJRTX_NamedValue_kInt64List:
        c.value.int64_array_value = v.int64_list_value.data();
        c.value_size = v.int64_list_value.size();
        break;
      case PJRTX_NamedValue_kFloat:
        c.value.float_value = v.float_value;
        break;
      case PJRTX_NamedValue_kBool:
        c.value.bool_value = v.bool_value;
        break;
    }
    view.push_back(c);
  }
  return view;
}

}  // namespace pjrtx::conformance
