#include "compiler_stub/ir/input_output_alias.h"

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/attribute_reader.h"

namespace pjrtx::ir {
namespace {

constexpr char kAliasingOutput[] = "tf.aliasing_output";
constexpr char kBufferDonor[] = "jax.buffer_donor";

}  // namespace

absl::StatusOr<std::vector<int64_t>> ParameterAliases(
    const mlir::Function& function, const Computation& lowered) {
  std::vector<int64_t> aliases(function.arguments.size(), kNotDonated);
  std::vector<bool> donors(function.arguments.size(), false);
  std::set<int64_t> aliased_results;
  for (size_t i = 0; i < function.arguments.size(); ++i) {
    const mlir::FunctionArgument& argument = function.arguments[i];
    const std::string where =
        absl::StrCat("argument ", i, " of @", function.name);
    for (const auto& [name, value] : argument.attributes) {
      if (name == kBufferDonor) {
        const bool donor =
            value.kind == mlir::Attribute::Kind::kUnit ||
            (value.kind == mlir::Attribute::Kind::kBool && value.bool_value);
        if (value.kind != mlir::Attribute::Kind::kUnit &&
            value.kind != mlir::Attribute::Kind::kBool) {
          return ErrorAt(
              argument.location,
              absl::StrCat(where, ": ", kBufferDonor, " must be a boolean"));
        }
        donors[i] = donor;
        continue;
      }
      if (name != kAliasingOutput) continue;
      if (value.kind != mlir::Attribute::Kind::kInteger) {
        return ErrorAt(argument.location,
                       absl::StrCat(where, ": ", kAliasingOutput,
                                    " must be an integer result index"));
      }
      const int64_t result = value.integer;
      const int64_t num_results =
          static_cast<int64_t>(function.result_types.size());
      if (result < 0 || result >= num_results) {
        return ErrorAt(argument.location,
                       absl::StrCat(where, ": ", kAliasingOutput, " = ", result,
                                    " names no result; @", function.name,
                                    " has ", num_results));
      }
      if (!aliased_results.insert(result).second) {
        return ErrorAt(argument.location,
                       absl::StrCat(where, ": result ", result,
                                    " is already aliased by another argument"));
      }
      if (i < lowered.parameter_types.size() &&
          static_cast<size_t>(result) < lowered.result_types.size() &&
          lowered.parameter_types[i] != lowered.result_types[result]) {
        return ErrorAt(
            argument.location,
            absl::StrCat(where, " is ", lowered.parameter_types[i].ToString(),
                         " but the result it aliases (", kAliasingOutput, " = ",
                         result, ") is ",
                         lowered.result_types[result].ToString()));
      }
      aliases[i] = result;
    }
  }
  for (size_t i = 0; i < aliases.size(); ++i) {
    if (!donors[i] || aliases[i] != kNotDonated ||
        i >= lowered.parameter_types.size()) {
      continue;
    }
    for (size_t r = 0;
         r < function.result_types.size() && r < lowered.result_types.size();
         ++r) {
      if (!aliased_results.count(r) &&
          lowered.result_types[r] == lowered.parameter_types[i]) {
        aliased_results.insert(r);
        aliases[i] = static_cast<int64_t>(r);
        break;
      }
    }
  }
  return aliases;
}

}  // namespace pjrtx::ir
