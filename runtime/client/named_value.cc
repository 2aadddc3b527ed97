#include "runtime/client/named_value.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace pjrtx::client {

std::vector<NamedValue> ReadNamedValues(const PJRTX_NamedValue* values,
                                        size_t count) {
  std::vector<NamedValue> result;
  for (size_t i = 0; i < count; ++i) {
    const PJRTX_NamedValue& v = values[i];
    NamedValue out;
    out.name.assign(v.name, v.name_size);
    switch (v.type) {
      case PJRTX_NamedValue_kString:
        out.value = std::string(v.value.string_value, v.value_size);
        break;
      case PJRTX_NamedValue_kInt64:
        out.value = v.value.int64_value;
        break;
      case PJRTX_NamedValue_kInt64List:
        out.value =
            std::vector<int64_t>(v.value.int64_array_value,
                                 v.value.int64_array_value + v.value_size);
        break;
      case PJRTX_NamedValue_kFloat:
        out.value = v.value.float_value;
        break;
      case PJRTX_NamedValue_kBool:
        out.value = v.value.bool_value;
        break;
    }
    result.push_back(std::move(out));
  }
  return result;
}

std::string ValueToString(const Value& value) {
  switch (value.index()) {
    case 0:
      return std::get<std::string>(value);
    case 1:
      return absl::StrCat(std::get<int64_t>(value));
    case 2:
      return absl::StrCat("[", absl::StrJoin(std::get<2>(value), ","), "]");
    case 3:
      return absl::StrCat(std::get<float>(value));
    default:
      return std::get<bool>(value) ? "true" : "false";
  }
}

const char* ValueTypeName(const Value& value) {
  static constexpr const char* kNames[] = {"string", "int64", "int64 list",
                                           "float", "bool"};
  return kNames[value.index()];
}

std::vector<PJRTX_NamedValue> ToCNamedValues(
    const std::vector<NamedValue>& values) {
  std::vector<PJRTX_NamedValue> result;
  for (const NamedValue& nv : values) {
    PJRTX_NamedValue v{};
    v.struct_size = PJRTX_NamedValue_STRUCT_SIZE;
    v.name = nv.name.c_str();
    v.name_size = nv.name.size();
    v.type = static_cast<PJRTX_NamedValue_Type>(nv.value.index());
    v.value_size = 1;
    switch (nv.value.index()) {
      case 0:
        v.value.string_value = std::get<0>(nv.value).c_str();
        v.value_size = std::get<0>(nv.value).size();
        break;
      case 1:
        v.value.int64_value = std::get<1>(nv.value);
        break;
      case 2:
        v.value.int64_array_value = std::get<2>(nv.value).data();
        v.value_size = std::get<2>(nv.value).size();
        break;
      case 3:
        v.value.float_value = std::get<3>(nv.value);
        break;
      case 4:
        v.value.bool_value = std::get<4>(nv.value);
        break;
    }
    result.push_back(v);
  }
  return result;
}

}  // namespace pjrtx::client
