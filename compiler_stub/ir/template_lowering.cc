#include "compiler_stub/ir/template_lowering.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/mlir/parser.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

// The template's own names: its arguments (the op's operands) and the
// results of its ops.
class TemplateScope final : public ValueScope {
 public:
  absl::StatusOr<ScopedValue> Lookup(const mlir::ValueRef& ref) override {
    auto it = values_.find(Key(ref.name, ref.index));
    if (it == values_.end()) {
      return absl::InternalError(
          absl::StrCat("template value %", ref.name, " is undefined"));
    }
    return it->second;
  }
  void Define(const std::string& name, int index, ScopedValue value) {
    values_[Key(name, index)] = value;
  }

 private:
  static std::string Key(const std::string& name, int index) {
    return absl::StrCat(name, "#", index);
  }
  std::map<std::string, ScopedValue> values_;
};

// Every op of the template, regions included, at `location`: messages
// name the user's op position, not the template's.
void Relocate(mlir::Region& region, const mlir::Location& location) {
  region.location = location;
  for (mlir::Block& block : region.blocks) {
    block.location = location;
    for (mlir::BlockArgument& argument : block.arguments) {
      argument.location = location;
    }
    for (mlir::Operation& op : block.operations) {
      op.location = location;
      for (mlir::ValueRef& operand : op.operands) operand.location = location;
      for (mlir::Region& nested : op.regions) Relocate(nested, location);
    }
  }
}

}  // namespace

std::string ArrayText(const std::vector<int64_t>& values) {
  return absl::StrCat("array<i64", values.empty() ? "" : ": ",
                      absl::StrJoin(values, ", "), ">");
}

absl::Status LowerFromTemplate(OpState& state, std::string_view function_text,
                               const TemplateEdit& edit) {
  absl::StatusOr<mlir::Module> module = mlir::ParseModule(function_text);
  if (!module.ok() || module->functions.size() != 1 ||
      module->functions[0].body.blocks.size() != 1) {
    return absl::InternalError(
        absl::StrCat(state.op.name, ": its template does not parse: ",
                     module.ok() ? "not one function of one block"
                                 : module.status().ToString()));
  }
  mlir::Function& function = module->functions[0];
  if (edit) {
    if (absl::Status edited = edit(function); !edited.ok()) return edited;
  }
  Relocate(function.body, state.op.location);
  if (function.arguments.size() != state.operands.size()) {
    return absl::InternalError(absl::StrCat(
        state.op.name, ": its template takes ", function.arguments.size(),
        " arguments for ", state.operands.size(), " operands"));
  }
  TemplateScope scope;
  for (size_t i = 0; i < function.arguments.size(); ++i) {
    scope.Define(function.arguments[i].name, 0, state.operands[i]);
  }
  for (const mlir::Operation& op : function.body.blocks[0].operations) {
    if (op.name == "func.return" || op.name == "return") {
      std::vector<ScopedValue> results;
      for (const mlir::ValueRef& ref : op.operands) {
        PJRTX_ASSIGN_OR_RETURN(ScopedValue value, scope.Lookup(ref));
        results.push_back(value);
      }
      state.composed = std::move(results);
      return absl::OkStatus();
    }
    OpContext context{op, scope, state.context.lowerer,
                      state.context.computation, nullptr};
    PJRTX_ASSIGN_OR_RETURN(std::vector<ScopedValue> results,
                           LowerOperation(context));
    for (size_t r = 0; r < results.size(); ++r) {
      scope.Define(op.result_name, static_cast<int>(r), results[r]);
    }
  }
  return absl::InternalError(
      absl::StrCat(state.op.name, ": its template does not return"));
}

}  // namespace pjrtx::ir
