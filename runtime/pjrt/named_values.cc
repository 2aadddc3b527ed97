#include "runtime/pjrt/named_values.h"

#include <optional>
#include <utility>

#include "absl/strings/string_view.h"

namespace pjrtx::pjrt {
namespace {

// The schema's type for option `name`, or -1 if the schema has no such
// option.
int SchemaType(absl::string_view name, const PJRTX_NamedValue* schema,
               size_t schema_size) {
  for (size_t i = 0; i < schema_size; ++i) {
    if (absl::string_view(schema[i].name, schema[i].name_size) == name) {
      return schema[i].type;
    }
  }
  return -1;
}

// The options JAX gives every plugin of a multi-process job
// (jax.distributed), declared by the plugin or not, and the pjrtx option
// each stands for ("": none).
std::optional<absl::string_view> JobOptionTarget(absl::string_view name) {
  static constexpr std::pair<absl::string_view, absl::string_view> kTargets[] =
      {{"node_id", "process_index"},
       {"num_nodes", "num_processes"},
       {"partition_index", ""}};
  for (const auto& [option, target] : kTargets) {
    if (option == name) return target;
  }
  return std::nullopt;
}

}  // namespace

std::vector<PJRT_NamedValue> ToPjrtAttributes(const PJRTX_NamedValue* values,
                                              size_t num_values) {
  std::vector<PJRT_NamedValue> result;
  result.reserve(num_values);
  for (size_t i = 0; i < num_values; ++i) {
    const PJRTX_NamedValue& in = values[i];
    PJRT_NamedValue out{};
    out.struct_size = PJRT_NamedValue_STRUCT_SIZE;
    out.name = in.name;
    out.name_size = in.name_size;
    out.value_size = in.value_size;
    switch (in.type) {
      case PJRTX_NamedValue_kString:
        out.type = PJRT_NamedValue_kString;
        out.string_value = in.value.string_value;
        break;
      case PJRTX_NamedValue_kInt64:
        out.type = PJRT_NamedValue_kInt64;
        out.int64_value = in.value.int64_value;
        break;
      case PJRTX_NamedValue_kInt64List:
        out.type = PJRT_NamedValue_kInt64List;
        out.int64_array_value = in.value.int64_array_value;
        break;
      case PJRTX_NamedValue_kBool:
        out.type = PJRT_NamedValue_kInt64;
        out.int64_value = in.value.bool_value ? 1 : 0;
        out.value_size = 1;
        break;
      case PJRTX_NamedValue_kFloat:
        continue;
    }
    result.push_back(out);
  }
  return result;
}

std::vector<PJRTX_NamedValue> ToPjrtxOptions(const PJRT_NamedValue* options,
                                             size_t num_options,
                                             const PJRTX_NamedValue* schema,
                                             size_t schema_size) {
  auto declared = [&](absl::string_view name) {
    return SchemaType(name, schema, schema_size) >= 0;
  };
  auto given = [&](absl::string_view name) {
    for (size_t i = 0; i < num_options; ++i) {
      if (options[i].name != nullptr &&
          absl::string_view(options[i].name, options[i].name_size) == name) {
        return true;
      }
    }
    return false;
  };
  std::vector<PJRTX_NamedValue> result;
  result.reserve(num_options);
  for (size_t i = 0; i < num_options; ++i) {
    const PJRT_NamedValue& in = options[i];
    PJRTX_NamedValue out{};
    out.struct_size = PJRTX_NamedValue_STRUCT_SIZE;
    out.name = in.name;
    out.name_size = in.name_size;
    out.type = static_cast<PJRTX_NamedValue_Type>(in.type);
    out.value_size = in.value_size;
    if (in.name != nullptr) {
      const absl::string_view name(in.name, in.name_size);
      if (std::optional<absl::string_view> target = JobOptionTarget(name);
          target.has_value() && !declared(name)) {
        if (!declared(*target) || given(*target)) continue;
        out.name = target->data();
        out.name_size = target->size();
      }
    }
    switch (in.type) {
      case PJRT_NamedValue_kString:
        out.value.string_value = in.string_value;
        break;
      case PJRT_NamedValue_kInt64:
        out.value.int64_value = in.int64_value;
        if (SchemaType(absl::string_view(out.name, out.name_size), schema,
                       schema_size) == PJRTX_NamedValue_kFloat) {
          out.type = PJRTX_NamedValue_kFloat;
          out.value.float_value = static_cast<float>(in.int64_value);
        }
        break;
      case PJRT_NamedValue_kInt64List:
        out.value.int64_array_value = in.int64_array_value;
        break;
      case PJRT_NamedValue_kFloat:
        out.value.float_value = in.float_value;
        break;
      case PJRT_NamedValue_kBool:
        out.value.bool_value = in.bool_value;
        break;
    }
    result.push_back(out);
  }
  return result;
}

}  // namespace pjrtx::pjrt
