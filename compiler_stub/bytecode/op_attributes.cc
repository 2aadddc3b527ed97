#include "compiler_stub/bytecode/op_attributes.h"

#include <set>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "compiler_stub/bytecode/attribute_conversion.h"
#include "support/status_macros.h"

namespace pjrtx::bytecode {
namespace {

using Kind = DecodedAttribute::Kind;

bool OneOf(const std::string& name,
           std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    if (name == n) return true;
  }
  return false;
}

class OpAttributes {
 public:
  OpAttributes(const std::string& op, const DecodedAttributes& attributes)
      : op_(op.substr(op.find('.') + 1)), attributes_(attributes) {}

  absl::StatusOr<NamedAttributes> Convert() {
    RemoveDefaults();
    PJRTX_RETURN_IF_ERROR(Implode());
    for (const auto& [name, value] : attributes_) {
      if (erased_.count(name)) continue;
      PJRTX_RETURN_IF_ERROR(ConvertOne(name, *value));
    }
    return std::move(out_);
  }

 private:
  const DecodedAttribute* Find(std::string_view name) const {
    for (const auto& [n, value] : attributes_) {
      if (n == name && !erased_.count(n)) return value;
    }
    return nullptr;
  }
  void Erase(std::string_view name) { erased_.insert(std::string(name)); }

  bool Is(std::string_view name, Kind kind, int64_t integer) const {
    const DecodedAttribute* value = Find(name);
    return value != nullptr && value->kind == kind && value->integer == integer;
  }
  bool IsEmpty(std::string_view name, Kind kind) const {
    const DecodedAttribute* value = Find(name);
    if (value == nullptr || value->kind != kind) return false;
    switch (kind) {
      case Kind::kArray:
        return value->elements.empty();
      case Kind::kDictionary:
        return value->entries.empty();
      case Kind::kString:
        return value->text.empty();
      case Kind::kTensor:
        return value->data.empty();
      default:
        return false;
    }
  }
  bool IsSplat(std::string_view name, int64_t splat) const {
    const DecodedAttribute* value = Find(name);
    return value != nullptr && IsSplatTensor(*value, splat);
  }
  bool IsAllDefaultPrecision(std::string_view name) const {
    const DecodedAttribute* value = Find(name);
    if (value == nullptr || value->kind != Kind::kArray) return false;
    for (const DecodedAttribute& element : value->elements) {
      if (element.kind != Kind::kEnum || element.text != "DEFAULT") {
        return false;
      }
    }
    return true;
  }
  void EraseIf(bool condition, std::string_view name) {
    if (condition) Erase(name);
  }

  void RemoveDefaults() {
    const std::string& op = op_;
    if (OneOf(op, {"all_gather", "all_reduce", "reduce_scatter",
                   "collective_reduce", "all_to_all", "collective_permute",
                   "collective_broadcast"})) {
      EraseIf(Is("channel_id", Kind::kInteger, 0), "channel_id");
      EraseIf(Is("use_global_device_ids", Kind::kBool, 0),
              "use_global_device_ids");
      EraseIf(Is("has_dynamic_root", Kind::kBool, 0), "has_dynamic_root");
    }
    if (op == "cholesky") EraseIf(Is("lower", Kind::kBool, 0), "lower");
    if (op == "compare") {
      const DecodedAttribute* type = Find("compare_type");
      EraseIf(type != nullptr && type->kind == Kind::kEnum &&
                  type->text == "NOTYPE",
              "compare_type");
    }
    if (op == "composite") {
      EraseIf(Is("version", Kind::kInteger, 0), "version");
      EraseIf(IsEmpty("composite_attributes", Kind::kDictionary),
              "composite_attributes");
    }
    if (op == "convolution" || op == "dynamic_conv") {
      EraseIf(IsSplat("window_strides", 1), "window_strides");
      EraseIf(IsSplat("padding", 0), "padding");
      EraseIf(IsSplat("lhs_dilation", 1), "lhs_dilation");
      EraseIf(IsSplat("rhs_dilation", 1), "rhs_dilation");
      EraseIf(IsSplat("window_reversal", 0), "window_reversal");
    }
    if (op == "convolution" || op == "dynamic_conv" || op == "dot_general" ||
        op == "dot") {
      EraseIf(IsAllDefaultPrecision("precision_config"), "precision_config");
    }
    if (op == "custom_call") {
      EraseIf(Is("has_side_effect", Kind::kBool, 0), "has_side_effect");
      EraseIf(IsEmpty("backend_config", Kind::kString) ||
                  IsEmpty("backend_config", Kind::kDictionary),
              "backend_config");
      const DecodedAttribute* api = Find("api_version");
      EraseIf(api != nullptr && api->kind == Kind::kEnum && api->integer == 1,
              "api_version");
      EraseIf(IsEmpty("called_computations", Kind::kArray),
              "called_computations");
      if (IsEmpty("operand_layouts", Kind::kArray) &&
          IsEmpty("result_layouts", Kind::kArray)) {
        Erase("operand_layouts");
        Erase("result_layouts");
      }
      EraseIf(IsEmpty("output_operand_aliases", Kind::kArray),
              "output_operand_aliases");
      EraseIf(IsEmpty("result_tilings", Kind::kArray), "result_tilings");
    }
    if (op == "dynamic_broadcast_in_dim") {
      EraseIf(IsEmpty("known_expanding_dimensions", Kind::kTensor),
              "known_expanding_dimensions");
      EraseIf(IsEmpty("known_nonexpanding_dimensions", Kind::kTensor),
              "known_nonexpanding_dimensions");
    }
    if (op == "gather" || op == "dynamic_gather" || op == "scatter") {
      EraseIf(Is("indices_are_sorted", Kind::kBool, 0), "indices_are_sorted");
      EraseIf(Is("unique_indices", Kind::kBool, 0), "unique_indices");
    }
    if (op == "infeed") {
      EraseIf(IsEmpty("infeed_config", Kind::kString), "infeed_config");
      EraseIf(IsEmpty("layout", Kind::kArray), "layout");
    }
    if (op == "outfeed") {
      EraseIf(IsEmpty("outfeed_config", Kind::kString), "outfeed_config");
    }
    if (op == "send" || op == "recv") {
      EraseIf(Is("is_host_transfer", Kind::kBool, 0), "is_host_transfer");
      EraseIf(IsEmpty("source_target_pairs", Kind::kTensor),
              "source_target_pairs");
    }
    if (op == "reduce_window" || op == "select_and_scatter") {
      EraseIf(IsSplat("window_strides", 1), "window_strides");
      EraseIf(IsSplat("base_dilations", 1), "base_dilations");
      EraseIf(IsSplat("window_dilations", 1), "window_dilations");
      EraseIf(IsSplat("padding", 0), "padding");
    }
    if (op == "sort") {
      EraseIf(Is("dimension", Kind::kInteger, -1), "dimension");
      EraseIf(Is("is_stable", Kind::kBool, 0), "is_stable");
    }
    if (const DecodedAttribute* accuracy = Find("result_accuracy")) {
      EraseIf(accuracy->kind == Kind::kResultAccuracy && accuracy->real == 0 &&
                  accuracy->real2 == 0 && accuracy->integer == 0 &&
                  accuracy->text == "DEFAULT",
              "result_accuracy");
    }
  }

  absl::StatusOr<int64_t> Int(std::string_view name) {
    const DecodedAttribute* value = Find(name);
    if (value == nullptr || value->kind != Kind::kInteger) {
      return Missing(name, "an integer");
    }
    return value->integer;
  }
  absl::StatusOr<std::vector<int64_t>> Ints(std::string_view name) {
    const DecodedAttribute* value = Find(name);
    if (value == nullptr) return Missing(name, "an integer tensor");
    return TensorIntegers(*value);
  }
  absl::Status Missing(std::string_view name, std::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(
        "vhlo op for stablehlo.", op_, ": attribute ",
        absl::string_view(name.data(), name.size()), " is missing or not ",
        absl::string_view(what.data(), what.size())));
  }

  // Adds `key = [..]` to `entries` unless empty (the printer omits those).
  absl::Status ListField(std::string_view name, const char* key,
                         NamedAttributes& entries, bool keep_empty = false) {
    if (Find(name) == nullptr && !keep_empty) return absl::OkStatus();
    PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> values, Ints(name));
    if (!values.empty() || keep_empty) {
      entries.emplace_back(key, IntegerList(values));
    }
    Erase(name);
    return absl::OkStatus();
  }
  absl::Status IntField(std::string_view name, const char* key,
                        NamedAttributes& entries) {
    PJRTX_ASSIGN_OR_RETURN(int64_t value, Int(name));
    entries.emplace_back(key, IntegerOf(value, "i64"));
    Erase(name);
    return absl::OkStatus();
  }

  absl::Status Implode() {
    const std::string& op = op_;
    if (op == "convolution" || op == "dynamic_conv") {
      NamedAttributes entries;
      PJRTX_RETURN_IF_ERROR(
          IntField("input_batch_dimension", "input_batch_dimension", entries));
      PJRTX_RETURN_IF_ERROR(IntField("input_feature_dimension",
                                     "input_feature_dimension", entries));
      PJRTX_RETURN_IF_ERROR(ListField("input_spatial_dimensions",
                                      "input_spatial_dimensions", entries,
                                      true));
      PJRTX_RETURN_IF_ERROR(IntField("kernel_input_feature_dimension",
                                     "kernel_input_feature_dimension",
                                     entries));
      PJRTX_RETURN_IF_ERROR(IntField("kernel_output_feature_dimension",
                                     "kernel_output_feature_dimension",
                                     entries));
      PJRTX_RETURN_IF_ERROR(ListField("kernel_spatial_dimensions",
                                      "kernel_spatial_dimensions", entries,
                                      true));
      PJRTX_RETURN_IF_ERROR(IntField("output_batch_dimension",
                                     "output_batch_dimension", entries));
      PJRTX_RETURN_IF_ERROR(IntField("output_feature_dimension",
                                     "output_feature_dimension", entries));
      PJRTX_RETURN_IF_ERROR(ListField("output_spatial_dimensions",
                                      "output_spatial_dimensions", entries,
                                      true));
      out_.emplace_back("dimension_numbers",
                        StablehloStruct("conv", std::move(entries)));
    }
    if (op == "dot_general") {
      NamedAttributes entries;
      PJRTX_RETURN_IF_ERROR(ListField("lhs_batching_dimensions",
                                      "lhs_batching_dimensions", entries));
      PJRTX_RETURN_IF_ERROR(ListField("rhs_batching_dimensions",
                                      "rhs_batching_dimensions", entries));
      PJRTX_RETURN_IF_ERROR(ListField("lhs_contracting_dimensions",
                                      "lhs_contracting_dimensions", entries));
      PJRTX_RETURN_IF_ERROR(ListField("rhs_contracting_dimensions",
                                      "rhs_contracting_dimensions", entries));
      out_.emplace_back("dot_dimension_numbers",
                        StablehloStruct("dot", std::move(entries)));
      PJRTX_RETURN_IF_ERROR(DotAlgorithm());
    }
    if (op == "gather" || op == "dynamic_gather") {
      NamedAttributes entries;
      PJRTX_RETURN_IF_ERROR(ListField("offset_dims", "offset_dims", entries));
      PJRTX_RETURN_IF_ERROR(
          ListField("collapsed_slice_dims", "collapsed_slice_dims", entries));
      PJRTX_RETURN_IF_ERROR(
          ListField("operand_batching_dims", "operand_batching_dims", entries));
      PJRTX_RETURN_IF_ERROR(ListField("start_indices_batching_dims",
                                      "start_indices_batching_dims", entries));
      PJRTX_RETURN_IF_ERROR(
          ListField("start_index_map", "start_index_map", entries));
      PJRTX_RETURN_IF_ERROR(
          IntField("index_vector_dim", "index_vector_dim", entries));
      out_.emplace_back("dimension_numbers",
                        StablehloStruct("gather", std::move(entries)));
    }
    if (op == "scatter") {
      NamedAttributes entries;
      PJRTX_RETURN_IF_ERROR(
          ListField("update_window_dims", "update_window_dims", entries));
      PJRTX_RETURN_IF_ERROR(
          ListField("inserted_window_dims", "inserted_window_dims", entries));
      PJRTX_RETURN_IF_ERROR(
          ListField("input_batching_dims", "input_batching_dims", entries));
      PJRTX_RETURN_IF_ERROR(ListField("scatter_indices_batching_dims",
                                      "scatter_indices_batching_dims",
                                      entries));
      PJRTX_RETURN_IF_ERROR(ListField("scatter_dims_to_operand_dims",
                                      "scatter_dims_to_operand_dims", entries));
      PJRTX_RETURN_IF_ERROR(
          IntField("index_vector_dim", "index_vector_dim", entries));
      out_.emplace_back("scatter_dimension_numbers",
                        StablehloStruct("scatter", std::move(entries)));
    }
    if (op == "send" || op == "recv") {
      NamedAttributes entries;
      PJRTX_RETURN_IF_ERROR(IntField("channel_id", "handle", entries));
      PJRTX_RETURN_IF_ERROR(IntField("channel_type", "type", entries));
      out_.emplace_back("channel_handle",
                        StablehloStruct("channel_handle", std::move(entries)));
    }
    return absl::OkStatus();
  }

  absl::Status DotAlgorithm() {
    const DecodedAttribute* lhs = Find("lhs_precision_type");
    const std::vector<const char*> names = {
        "lhs_precision_type",          "rhs_precision_type",
        "accumulation_type",           "lhs_component_count",
        "rhs_component_count",         "num_primitive_operations",
        "allow_imprecise_accumulation"};
    const bool none = lhs == nullptr ||
                      (lhs->kind == Kind::kType && lhs->type.element == "none");
    if (!none) {
      NamedAttributes entries;
      for (const char* name : names) {
        const DecodedAttribute* value = Find(name);
        if (value == nullptr) return Missing(name, "present");
        PJRTX_ASSIGN_OR_RETURN(mlir::Attribute converted,
                               ConvertAttribute(*value));
        entries.emplace_back(name, std::move(converted));
      }
      out_.emplace_back("algorithm",
                        StablehloStruct("dot_algorithm", std::move(entries)));
    }
    for (const char* name : names) Erase(name);
    return absl::OkStatus();
  }

  bool IsDenseArrayAttribute(const std::string& name) const {
    const std::string& op = op_;
    if (op == "fft") return name == "fft_length";
    if (op == "broadcast") return name == "broadcast_sizes";
    if (op == "dynamic_slice") return name == "slice_sizes";
    if (op == "reverse") return name == "dimensions";
    if (op == "transpose") return name == "permutation";
    if (op == "pad") {
      return OneOf(
          name, {"edge_padding_low", "edge_padding_high", "interior_padding"});
    }
    if (op == "slice") {
      return OneOf(name, {"start_indices", "limit_indices", "strides"});
    }
    if (op == "broadcast_in_dim") return name == "broadcast_dimensions";
    if (op == "dynamic_broadcast_in_dim") {
      return OneOf(name, {"broadcast_dimensions", "known_expanding_dimensions",
                          "known_nonexpanding_dimensions"});
    }
    if (op == "select_and_scatter") {
      return OneOf(name, {"window_dimensions", "window_strides"});
    }
    if (op == "reduce_window") {
      return OneOf(name, {"window_dimensions", "window_strides",
                          "base_dilations", "window_dilations"});
    }
    if (op == "map" || op == "reduce") return name == "dimensions";
    if (op == "gather") return name == "slice_sizes";
    if (op == "convolution" || op == "dynamic_conv") {
      return OneOf(name, {"lhs_dilation", "rhs_dilation", "window_strides",
                          "window_reversal"});
    }
    return false;
  }

  absl::Status ConvertOne(const std::string& name,
                          const DecodedAttribute& value) {
    const std::string& op = op_;
    if (name == "channel_id" &&
        OneOf(op, {"all_gather", "all_reduce", "all_to_all",
                   "collective_permute", "reduce_scatter",
                   "collective_broadcast", "collective_reduce"})) {
      if (value.kind != Kind::kInteger) return Missing(name, "an integer");
      out_.emplace_back(
          "channel_handle",
          StablehloStruct("channel_handle",
                          {{"handle", IntegerOf(value.integer, "i64")},
                           {"type", IntegerOf(0, "i64")}}));
      return absl::OkStatus();
    }
    if ((name == "use_global_device_ids" || name == "has_dynamic_root") &&
        value.kind == Kind::kBool) {
      // A unit attribute in StableHLO: present when true.
      if (value.integer != 0) {
        mlir::Attribute unit;
        unit.text = name;
        out_.emplace_back(name, std::move(unit));
      }
      return absl::OkStatus();
    }
    if ((op == "custom_call" && name == "called_computations") ||
        (op == "composite" && name == "decomposition") ||
        (op == "call" && name == "callee")) {
      PJRTX_ASSIGN_OR_RETURN(mlir::Attribute converted, SymbolRefs(value));
      out_.emplace_back(name, std::move(converted));
      return absl::OkStatus();
    }
    if (IsDenseArrayAttribute(name) && value.kind == Kind::kTensor) {
      PJRTX_ASSIGN_OR_RETURN(
          mlir::Attribute converted,
          DenseArrayOf(value, name == "window_reversal" ? "i1" : "i64"));
      out_.emplace_back(name, std::move(converted));
      return absl::OkStatus();
    }
    PJRTX_ASSIGN_OR_RETURN(mlir::Attribute converted, ConvertAttribute(value));
    out_.emplace_back(name, std::move(converted));
    return absl::OkStatus();
  }

  // Strings naming functions become @refs (arrays of them element-wise).
  static absl::StatusOr<mlir::Attribute> SymbolRefs(
      const DecodedAttribute& value) {
    if (value.kind == Kind::kString) {
      DecodedAttribute symbol = value;
      symbol.kind = Kind::kSymbolRef;
      return ConvertAttribute(symbol);
    }
    if (value.kind == Kind::kArray) {
      mlir::Attribute array;
      array.kind = mlir::Attribute::Kind::kArray;
      for (const DecodedAttribute& element : value.elements) {
        PJRTX_ASSIGN_OR_RETURN(mlir::Attribute converted, SymbolRefs(element));
        array.elements.push_back(std::move(converted));
      }
      return array;
    }
    return ConvertAttribute(value);
  }

  std::string op_;
  const DecodedAttributes& attributes_;
  std::set<std::string> erased_;
  NamedAttributes out_;
};

}  // namespace

absl::StatusOr<NamedAttributes> ConvertOpAttributes(
    const std::string& stablehlo_name, const DecodedAttributes& attributes) {
  return OpAttributes(stablehlo_name, attributes).Convert();
}

}  // namespace pjrtx::bytecode
