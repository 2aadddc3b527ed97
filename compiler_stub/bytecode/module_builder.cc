#include "compiler_stub/bytecode/module_builder.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler_stub/bytecode/attribute_conversion.h"
#include "compiler_stub/bytecode/encoding_reader.h"
#include "compiler_stub/bytecode/op_attributes.h"
#include "compiler_stub/bytecode/type_text.h"
#include "compiler_stub/bytecode/vhlo_ops.h"
#include "support/status_macros.h"

namespace pjrtx::bytecode {
namespace {

using Kind = DecodedAttribute::Kind;

constexpr std::string_view kVhloPrefix = "vhlo.";

// Ops that are identities on one device: their results stand for their
// operands (Shardy's annotations, and the casts between VHLO and builtin
// tensor types that surround them).
bool IsIdentityOp(std::string_view name) {
  return name == "builtin.unrealized_conversion_cast" ||
         name == "sdy.sharding_constraint" || name == "sdy.reshard";
}

struct Value {
  mlir::ValueRef ref;
  mlir::Type type;
};

class Builder {
 public:
  Builder(const BytecodeFile& file, AttributeTable& table)
      : file_(file), table_(table) {}

  absl::StatusOr<mlir::Module> Build(const std::vector<RawOp>& top_level) {
    mlir::Module module;
    for (const RawOp& op : top_level) {
      if (Name(op) != "builtin.module") {
        return absl::InvalidArgumentError(absl::StrCat(
            "expected builtin.module at the top level, found ", Name(op)));
      }
      PJRTX_RETURN_IF_ERROR(BuildModule(op, module));
    }
    return module;
  }

 private:
  const std::string& Name(const RawOp& op) const {
    return file_.op_names[op.name].full_name;
  }

  // Where the op's location says it comes from, for messages. A location
  // that does not decode costs the op its position, not the program.
  mlir::Location SourceLocation(const RawOp& op) {
    absl::StatusOr<const DecodedAttribute*> location =
        table_.Attribute(op.location);
    if (!location.ok() || (*location)->kind != Kind::kLocation) return {};
    return (*location)->location;
  }

  // Inherent attributes (named by `inherent`, from properties or the
  // attribute dictionary) and the discardable rest.
  absl::Status CollectAttributes(const RawOp& op,
                                 const std::vector<std::string>& inherent,
                                 bool optional_properties,
                                 DecodedAttributes* inherent_out,
                                 DecodedAttributes* discardable_out) {
    if (op.properties.has_value()) {
      const size_t index = static_cast<size_t>(*op.properties);
      EncodingReader reader(file_.properties[index],
                            file_.properties_offsets[index]);
      for (const std::string& name : inherent) {
        if (optional_properties) {
          uint64_t attribute = 0;
          bool present = false;
          PJRTX_RETURN_IF_ERROR(
              reader.ReadVarIntWithFlag(&attribute, &present));
          if (!present) continue;
          PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* value,
                                 table_.Attribute(attribute));
          inherent_out->emplace_back(name, value);
          continue;
        }
        PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* value,
                               table_.ReadAttribute(reader));
        inherent_out->emplace_back(name, value);
      }
      if (!reader.empty()) {
        return reader.Error(absl::StrCat("properties of ", Name(op),
                                         " hold more than its ",
                                         inherent.size(), " attributes"));
      }
    }
    if (op.attributes.has_value()) {
      PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* dictionary,
                             table_.Attribute(*op.attributes));
      if (dictionary->kind != Kind::kDictionary) {
        return absl::InvalidArgumentError(
            absl::StrCat("attributes of ", Name(op), " are not a dictionary"));
      }
      for (const auto& [name, value] : dictionary->entries) {
        bool is_inherent = false;
        for (const std::string& n : inherent) is_inherent |= n == name;
        (is_inherent ? inherent_out : discardable_out)
            ->emplace_back(name, &value);
      }
    }
    return absl::OkStatus();
  }

  static absl::StatusOr<NamedAttributes> ConvertAll(
      const DecodedAttributes& attributes) {
    NamedAttributes out;
    for (const auto& [name, value] : attributes) {
      PJRTX_ASSIGN_OR_RETURN(mlir::Attribute converted,
                             ConvertAttribute(*value));
      out.emplace_back(name, std::move(converted));
    }
    return out;
  }

  static const DecodedAttribute* Find(const DecodedAttributes& attributes,
                                      std::string_view name) {
    for (const auto& [n, value] : attributes) {
      if (n == name) return value;
    }
    return nullptr;
  }

  absl::Status BuildModule(const RawOp& op, mlir::Module& module) {
    DecodedAttributes inherent;
    DecodedAttributes discardable;
    PJRTX_RETURN_IF_ERROR(CollectAttributes(op, {"sym_name", "sym_visibility"},
                                            /*optional_properties=*/true,
                                            &inherent, &discardable));
    if (const DecodedAttribute* name = Find(inherent, "sym_name")) {
      module.name = name->text;
    }
    module.location = SourceLocation(op);
    PJRTX_ASSIGN_OR_RETURN(module.attributes, ConvertAll(discardable));
    if (op.regions.size() != 1 || op.regions[0].blocks.size() > 1) {
      return absl::InvalidArgumentError(
          "builtin.module must have one region of at most one block");
    }
    if (op.regions[0].blocks.empty()) return absl::OkStatus();
    for (const RawOp& child : op.regions[0].blocks[0].operations) {
      const std::string& name = Name(child);
      if (name == "vhlo.func_v1" || name == "func.func") {
        PJRTX_ASSIGN_OR_RETURN(mlir::Function function, BuildFunction(child));
        module.functions.push_back(std::move(function));
      } else if (name == "sdy.mesh") {
        // Meshes only name devices for Shardy's annotations.
        continue;
      } else {
        std::vector<mlir::Operation> ops;
        PJRTX_RETURN_IF_ERROR(BuildOp(child, false, ops));
        for (mlir::Operation& o : ops) {
          module.other_operations.push_back(std::move(o));
        }
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<mlir::Function> BuildFunction(const RawOp& op) {
    const VhloOp* vhlo = FindVhloOp("func_v1");
    std::vector<std::string> inherent_names = PropertiesOrder(*vhlo);
    DecodedAttributes inherent;
    DecodedAttributes discardable;
    PJRTX_RETURN_IF_ERROR(
        CollectAttributes(op, inherent_names, false, &inherent, &discardable));
    mlir::Function function;
    const DecodedAttribute* name = Find(inherent, "sym_name");
    const DecodedAttribute* type = Find(inherent, "function_type");
    if (name == nullptr || type == nullptr ||
        type->type.kind != mlir::Type::Kind::kFunction) {
      return absl::InvalidArgumentError(
          "function without a name or a function type");
    }
    function.name = name->text;
    function.location = SourceLocation(op);
    if (const DecodedAttribute* visibility = Find(inherent, "sym_visibility")) {
      function.visibility = visibility->text;
    }
    const mlir::Type& signature = type->type;
    auto attribute_lists =
        [&](const char* key,
            size_t count) -> absl::StatusOr<std::vector<NamedAttributes>> {
      std::vector<NamedAttributes> lists(count);
      const DecodedAttribute* array = Find(inherent, key);
      if (array == nullptr || array->kind != Kind::kArray ||
          array->elements.empty()) {
        return lists;
      }
      if (array->elements.size() != count) {
        return absl::InvalidArgumentError(absl::StrCat(
            "function @", function.name, " has ", array->elements.size(), " ",
            key, " for ", count, " values"));
      }
      for (size_t i = 0; i < count; ++i) {
        const DecodedAttribute& dictionary = array->elements[i];
        if (dictionary.kind != Kind::kDictionary) {
          return absl::InvalidArgumentError(absl::StrCat(
              key, " of @", function.name, " are not dictionaries"));
        }
        DecodedAttributes entries;
        for (const auto& [n, v] : dictionary.entries) {
          entries.emplace_back(n, &v);
        }
        PJRTX_ASSIGN_OR_RETURN(lists[i], ConvertAll(entries));
      }
      return lists;
    };
    PJRTX_ASSIGN_OR_RETURN(
        std::vector<NamedAttributes> argument_attributes,
        attribute_lists("arg_attrs", signature.elements.size()));
    PJRTX_ASSIGN_OR_RETURN(
        function.result_attributes,
        attribute_lists("res_attrs", signature.results.size()));
    function.result_types = signature.results;
    PJRTX_ASSIGN_OR_RETURN(function.attributes, ConvertAll(discardable));

    if (op.regions.size() != 1) {
      return absl::InvalidArgumentError("function without one region");
    }
    const RawRegion& body = op.regions[0];
    if (body.blocks.empty()) {
      for (size_t i = 0; i < signature.elements.size(); ++i) {
        mlir::FunctionArgument argument;
        argument.type = signature.elements[i];
        argument.attributes = std::move(argument_attributes[i]);
        function.arguments.push_back(std::move(argument));
      }
      return function;
    }
    const RawBlock& entry = body.blocks[0];
    if (entry.argument_types.size() != signature.elements.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("function @", function.name, " body has ",
                       entry.argument_types.size(), " arguments, its type ",
                       signature.elements.size()));
    }
    PJRTX_RETURN_IF_ERROR(
        BuildRegion(body, /*in_function=*/true, &function.body));
    for (size_t i = 0; i < signature.elements.size(); ++i) {
      const mlir::BlockArgument& block_argument =
          function.body.blocks[0].arguments[i];
      mlir::FunctionArgument argument;
      argument.name = block_argument.name;
      argument.type = block_argument.type;
      argument.attributes = std::move(argument_attributes[i]);
      function.arguments.push_back(std::move(argument));
    }
    return function;
  }

  absl::Status BuildRegion(const RawRegion& raw, bool in_function,
                           mlir::Region* region) {
    for (const RawBlock& raw_block : raw.blocks) {
      mlir::Block block;
      if (!region->blocks.empty()) {
        block.label = absl::StrCat("bb", region->blocks.size());
      }
      PJRTX_RETURN_IF_ERROR(DefineArguments(raw_block, &block.arguments));
      for (const RawOp& op : raw_block.operations) {
        PJRTX_RETURN_IF_ERROR(BuildOp(op, in_function, block.operations));
      }
      region->blocks.push_back(std::move(block));
    }
    return absl::OkStatus();
  }

  absl::Status DefineArguments(const RawBlock& block,
                               std::vector<mlir::BlockArgument>* out) {
    for (size_t i = 0; i < block.argument_types.size(); ++i) {
      PJRTX_ASSIGN_OR_RETURN(const mlir::Type* type,
                             table_.Type(block.argument_types[i]));
      mlir::BlockArgument argument;
      argument.name = absl::StrCat("arg", block.first_argument_id + i);
      argument.type = *type;
      Value value;
      value.ref.name = argument.name;
      value.type = *type;
      values_[block.first_argument_id + i] = value;
      if (out != nullptr) out->push_back(std::move(argument));
    }
    return absl::OkStatus();
  }

  // Operand uses get the op's location, as in text, where a use is
  // written inside its op.
  absl::Status Operands(const RawOp& raw, mlir::Operation& op) {
    for (uint64_t id : raw.operand_ids) {
      auto found = values_.find(id);
      if (found == values_.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            Name(raw), " uses a value defined in a region it cannot see"));
      }
      op.operands.push_back(found->second.ref);
      op.operands.back().location = op.location;
      op.operand_types.push_back(found->second.type);
    }
    return absl::OkStatus();
  }

  absl::Status Results(const RawOp& raw, mlir::Operation& op) {
    for (size_t i = 0; i < raw.result_types.size(); ++i) {
      PJRTX_ASSIGN_OR_RETURN(const mlir::Type* type,
                             table_.Type(raw.result_types[i]));
      op.result_types.push_back(*type);
    }
    op.num_results = static_cast<int>(op.result_types.size());
    if (op.num_results > 0) {
      op.result_name = absl::StrCat(raw.first_result_id);
      for (int i = 0; i < op.num_results; ++i) {
        Value value;
        value.ref.name = op.result_name;
        value.ref.index = i;
        value.type = op.result_types[i];
        values_[raw.first_result_id + i] = value;
      }
    }
    return absl::OkStatus();
  }

  // Appends the op (or, for ops that vanish on one device, what stands for
  // it) to `out`.
  absl::Status BuildOp(const RawOp& raw, bool in_function,
                       std::vector<mlir::Operation>& out) {
    const std::string& name = Name(raw);
    if (IsIdentityOp(name)) {
      if (raw.operand_ids.size() != raw.result_types.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            name, " with ", raw.operand_ids.size(), " operands and ",
            raw.result_types.size(), " results"));
      }
      for (size_t i = 0; i < raw.operand_ids.size(); ++i) {
        auto found = values_.find(raw.operand_ids[i]);
        if (found == values_.end()) {
          return absl::InvalidArgumentError(
              absl::StrCat(name, " uses an undefined value"));
        }
        PJRTX_ASSIGN_OR_RETURN(const mlir::Type* type,
                               table_.Type(raw.result_types[i]));
        Value value = found->second;
        value.type = *type;
        values_[raw.first_result_id + i] = value;
      }
      return absl::OkStatus();
    }
    if (name == "sdy.manual_computation" && IsSingleDeviceManual(raw)) {
      return InlineManual(raw, out);
    }

    mlir::Operation op;
    op.location = SourceLocation(raw);
    PJRTX_RETURN_IF_ERROR(Operands(raw, op));
    PJRTX_RETURN_IF_ERROR(Results(raw, op));
    if (name.compare(0, kVhloPrefix.size(), kVhloPrefix) == 0) {
      const std::string versioned = name.substr(kVhloPrefix.size());
      const VhloOp* vhlo = FindVhloOp(versioned);
      if (vhlo == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("unknown VHLO op '", name,
                         "': this reader handles the VHLO ops of StableHLO ",
                         kOldestVhloVersion.ToString(), " to ",
                         kNewestVhloVersion.ToString()));
      }
      op.name = vhlo->stablehlo;
      if (versioned == "return_v1" && in_function) op.name = "func.return";
      DecodedAttributes inherent;
      DecodedAttributes discardable;
      PJRTX_RETURN_IF_ERROR(CollectAttributes(raw, PropertiesOrder(*vhlo),
                                              false, &inherent, &discardable));
      PJRTX_ASSIGN_OR_RETURN(op.attributes,
                             ConvertOpAttributes(op.name, inherent));
      PJRTX_ASSIGN_OR_RETURN(NamedAttributes rest, ConvertAll(discardable));
      for (auto& entry : rest) op.attributes.push_back(std::move(entry));
    } else {
      // Another dialect's op (unversioned StableHLO, func, Shardy): kept
      // under its own name with its attributes as decoded.
      op.name = name;
      if (name == "func.return" && !in_function) op.name = "stablehlo.return";
      DecodedAttributes discardable;
      DecodedAttributes ignored;
      absl::Status status =
          CollectAttributes(raw, {}, false, &ignored, &discardable);
      // The layout of another dialect's properties is not known here; an
      // op whose properties cannot be read keeps its other attributes.
      if (!status.ok() && raw.attributes.has_value()) {
        discardable.clear();
        RawOp without_properties = raw;
        without_properties.properties.reset();
        without_properties.regions.clear();
        PJRTX_RETURN_IF_ERROR(CollectAttributes(without_properties, {}, false,
                                                &ignored, &discardable));
      }
      PJRTX_ASSIGN_OR_RETURN(op.attributes, ConvertAll(discardable));
    }
    for (const RawRegion& raw_region : raw.regions) {
      mlir::Region region;
      PJRTX_RETURN_IF_ERROR(BuildRegion(raw_region, false, &region));
      op.regions.push_back(std::move(region));
    }
    out.push_back(std::move(op));
    return absl::OkStatus();
  }

  // Whether the body sees its operands whole (no axis splits them), which
  // is when inlining it is exact; otherwise it stays an op, for a
  // partitioner to handle.
  bool IsSingleDeviceManual(const RawOp& raw) {
    if (raw.regions.size() != 1 || raw.regions[0].blocks.size() != 1) {
      return true;  // InlineManual reports the malformed op.
    }
    const RawBlock& block = raw.regions[0].blocks[0];
    if (block.argument_types.size() != raw.operand_ids.size()) return true;
    for (size_t i = 0; i < raw.operand_ids.size(); ++i) {
      auto found = values_.find(raw.operand_ids[i]);
      absl::StatusOr<const mlir::Type*> type =
          table_.Type(block.argument_types[i]);
      if (found == values_.end() || !type.ok()) return true;
      if (TypeText(found->second.type) != TypeText(**type)) return false;
    }
    return true;
  }

  // sdy.manual_computation on one device: its body runs on the operands
  // themselves, and its results are what its sdy.return returns.
  absl::Status InlineManual(const RawOp& raw,
                            std::vector<mlir::Operation>& out) {
    if (raw.regions.size() != 1 || raw.regions[0].blocks.size() != 1) {
      return absl::InvalidArgumentError(
          "sdy.manual_computation without one single-block region");
    }
    const RawBlock& block = raw.regions[0].blocks[0];
    if (block.argument_types.size() != raw.operand_ids.size()) {
      return absl::InvalidArgumentError(
          "sdy.manual_computation block arguments do not match operands");
    }
    for (size_t i = 0; i < raw.operand_ids.size(); ++i) {
      auto found = values_.find(raw.operand_ids[i]);
      if (found == values_.end()) {
        return absl::InvalidArgumentError(
            "sdy.manual_computation uses an undefined value");
      }
      values_[block.first_argument_id + i] = found->second;
    }
    for (const RawOp& op : block.operations) {
      if (Name(op) == "sdy.return") {
        if (op.operand_ids.size() != raw.result_types.size()) {
          return absl::InvalidArgumentError(
              "sdy.return does not return one value per result");
        }
        for (size_t i = 0; i < op.operand_ids.size(); ++i) {
          auto found = values_.find(op.operand_ids[i]);
          if (found == values_.end()) {
            return absl::InvalidArgumentError(
                "sdy.return returns an undefined value");
          }
          values_[raw.first_result_id + i] = found->second;
        }
        continue;
      }
      PJRTX_RETURN_IF_ERROR(BuildOp(op, false, out));
    }
    return absl::OkStatus();
  }

  const BytecodeFile& file_;
  AttributeTable& table_;
  std::unordered_map<uint64_t, Value> values_;
};

}  // namespace

absl::StatusOr<mlir::Module> BuildModule(const BytecodeFile& file,
                                         AttributeTable& table,
                                         const std::vector<RawOp>& top_level) {
  return Builder(file, table).Build(top_level);
}

}  // namespace pjrtx::bytecode
