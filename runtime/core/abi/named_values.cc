#include "runtime/core/abi/named_values.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pjrtx::abi {

void NamedValues::Assign(std::vector<Attribute> attributes) {
  attributes_ = std::move(attributes);
  values_.clear();
  values_.reserve(attributes_.size());
  for (const Attribute& attribute : attributes_) {
    PJRTX_NamedValue value{};
    value.struct_size = PJRTX_NamedValue_STRUCT_SIZE;
    value.name = attribute.name.c_str();
    value.name_size = attribute.name.size();
    value.type = static_cast<PJRTX_NamedValue_Type>(attribute.value.index());
    value.value_size = 1;
    switch (attribute.value.index()) {
      case PJRTX_NamedValue_kString: {
        const auto& s = std::get<std::string>(attribute.value);
        value.value.string_value = s.c_str();
        value.value_size = s.size();
        break;
      }
      case PJRTX_NamedValue_kInt64:
        value.value.int64_value = std::get<int64_t>(attribute.value);
        break;
      case PJRTX_NamedValue_kInt64List: {
        const auto& list = std::get<std::vector<int64_t>>(attribute.value);
        value.value.int64_array_value = list.data();
        value.value_size = list.size();
        break;
      }
      case PJRTX_NamedValue_kFloat:
        value.value.float_value = std::get<float>(attribute.value);
        break;
      case PJRTX_NamedValue_kBool:
        value.value.bool_value = std::get<bool>(attribute.value);
        break;
    }
    values_.push_back(value);
  }
}

absl::StatusOr<std::vector<Attribute>> ReadNamedValues(
    const PJRTX_NamedValue* values, size_t num_values) {
  std::vector<Attribute> result;
  if (num_values > 0 && values == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Options array is NULL but holds ", num_values, " entries"));
  }
  for (size_t i = 0; i < num_values; ++i) {
    const PJRTX_NamedValue& v = values[i];
    if (v.name == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("Named value ", i, " has a NULL name"));
    }
    Attribute attribute;
    attribute.name.assign(v.name, v.name_size);
    switch (v.type) {
      case PJRTX_NamedValue_kString:
        if (v.value.string_value == nullptr && v.value_size > 0) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Named value '", attribute.name, "' has a NULL string"));
        }
        attribute.value = v.value_size == 0
                              ? std::string()
                              : std::string(v.value.string_value, v.value_size);
        break;
      case PJRTX_NamedValue_kInt64:
        attribute.value = v.value.int64_value;
        break;
      case PJRTX_NamedValue_kInt64List:
        if (v.value.int64_array_value == nullptr && v.value_size > 0) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Named value '", attribute.name, "' has a NULL list"));
        }
        attribute.value = v.value_size == 0
                              ? std::vector<int64_t>()
                              : std::vector<int64_t>(
                                    v.value.int64_array_value,
                                    v.value.int64_array_value + v.value_size);
        break;
      case PJRTX_NamedValue_kFloat:
        attribute.value = v.value.float_value;
        break;
      case PJRTX_NamedValue_kBool:
        attribute.value = v.value.bool_value;
        break;
      default:
        return absl::InvalidArgumentError(
            absl::StrCat("Named value '", attribute.name, "' has unknown type ",
                         static_cast<int>(v.type), "; expected 0..4"));
    }
    result.push_back(std::move(attribute));
  }
  return result;
}

}  // namespace pjrtx::abi
