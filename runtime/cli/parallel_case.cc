#include "runtime/cli/parallel_case.h"

#include <map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/lower.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/type_conversion.h"
#include "compiler_stub/mlir/parser.h"
#include "support/status_macros.h"

namespace pjrtx::cli {
namespace {

absl::Status Unsupported(const mlir::Location& where,
                         const std::string& message) {
  return absl::UnimplementedError(
      absl::StrCat(where.line, ":", where.column, ": ", message));
}

// Whether `op` or an op nested in its regions is a host-transfer
// send/recv.
bool HasHostTransfer(const mlir::Operation& op) {
  if (op.name == "stablehlo.send" || op.name == "stablehlo.recv") {
    for (const auto& [name, value] : op.attributes) {
      if (name == "is_host_transfer" && value.bool_value) return true;
    }
  }
  for (const mlir::Region& region : op.regions) {
    for (const mlir::Block& block : region.blocks) {
      for (const mlir::Operation& nested : block.operations) {
        if (HasHostTransfer(nested)) return true;
      }
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<ParallelCase> ReadParallelCase(const std::string& text) {
  PJRTX_ASSIGN_OR_RETURN(mlir::Module module, mlir::ParseModule(text));
  PJRTX_ASSIGN_OR_RETURN(const mlir::Function* entry,
                         ir::FindEntryFunction(module, ""));
  std::map<std::string, const mlir::Function*> functions;
  for (const mlir::Function& f : module.functions) functions[f.name] = &f;

  // Constants (and tokens) the entry defines, by name.
  std::map<std::string, ParallelInput> constants;
  std::map<std::string, bool> tokens;
  const mlir::Operation* launch = nullptr;
  for (const mlir::Operation& op : entry->body.blocks.at(0).operations) {
    if (op.name == "stablehlo.constant" && op.result_types.size() == 1) {
      PJRTX_ASSIGN_OR_RETURN(ir::ValueType type,
                             ir::ConvertType(op.result_types[0]));
      for (const auto& [name, value] : op.attributes) {
        if (name != "value") continue;
        PJRTX_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                               ir::DenseToBytes(value, type.shape));
        constants[op.result_name] = {type.shape, std::move(bytes)};
      }
    } else if (op.name == "stablehlo.after_all") {
      tokens[op.result_name] = true;
    } else if (op.name == "interpreter.run_parallel") {
      if (launch != nullptr) {
        return Unsupported(op.location,
                           "a second interpreter.run_parallel in one case");
      }
      launch = &op;
    } else if (!absl::StartsWith(op.name, "check.") &&
               op.name != "func.return" && op.name != "return") {
      return Unsupported(op.location,
                         absl::StrCat("the entry function computes with ",
                                      op.name, " around run_parallel"));
    }
  }
  if (launch == nullptr) {
    return absl::InvalidArgumentError(
        "the case has no interpreter.run_parallel");
  }

  ParallelCase result;
  const mlir::Attribute* programs = nullptr;
  for (const auto& [name, value] : launch->attributes) {
    if (name == "programs") programs = &value;
  }
  if (programs == nullptr || programs->kind != mlir::Attribute::Kind::kArray ||
      programs->elements.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(launch->location.line,
                     ": run_parallel needs programs = [[@f, ...], ...]"));
  }
  result.num_replicas = static_cast<int64_t>(programs->elements.size());
  for (const mlir::Attribute& row : programs->elements) {
    if (row.kind != mlir::Attribute::Kind::kArray ||
        static_cast<int64_t>(row.elements.size()) !=
            static_cast<int64_t>(programs->elements[0].elements.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          launch->location.line,
          ": run_parallel's programs must be rows of equal length"));
    }
    for (const mlir::Attribute& symbol : row.elements) {
      if (symbol.kind != mlir::Attribute::Kind::kSymbolRef ||
          !functions.count(symbol.string_value)) {
        return absl::InvalidArgumentError(
            absl::StrCat(launch->location.line, ": run_parallel names ",
                         symbol.text, ", which is not a function of the case"));
      }
      result.programs.push_back(symbol.string_value);
    }
  }
  result.num_partitions =
      static_cast<int64_t>(programs->elements[0].elements.size());

  // Operands and results are the processes' lists, concatenated.
  size_t next_operand = 0;
  int next_result = 0;
  for (const std::string& name : result.programs) {
    const mlir::Function& f = *functions[name];
    for (const mlir::Block& block : f.body.blocks) {
      for (const mlir::Operation& op : block.operations) {
        if (HasHostTransfer(op)) {
          return Unsupported(op.location,
                             "send/recv with is_host_transfer move data "
                             "between a program and its host, which has no "
                             "host channel here");
        }
      }
    }
    std::vector<ParallelInput> arguments;
    for (const mlir::FunctionArgument& argument : f.arguments) {
      if (next_operand >= launch->operands.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            launch->location.line, ": run_parallel has too few operands for ",
            "the arguments of its programs"));
      }
      const mlir::ValueRef& ref = launch->operands[next_operand++];
      if (tokens.count(ref.name)) {
        return Unsupported(argument.location,
                           absl::StrCat("@", name,
                                        " takes a token from the host; "
                                        "entry functions take tensors only"));
      }
      auto constant = constants.find(ref.name);
      if (constant == constants.end() || ref.index != 0) {
        return Unsupported(ref.location,
                           absl::StrCat("run_parallel operand %", ref.name,
                                        " is not a constant"));
      }
      arguments.push_back(constant->second);
    }
    result.arguments.push_back(std::move(arguments));
    result.num_results.push_back(static_cast<int>(f.result_types.size()));
    next_result += static_cast<int>(f.result_types.size());
  }
  if (next_operand != launch->operands.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        launch->location.line, ": run_parallel has ", launch->operands.size(),
        " operands; its programs take ", next_operand));
  }

  PJRTX_ASSIGN_OR_RETURN(std::vector<Check> checks, ReadChecks(text));
  for (Check& check : checks) {
    std::vector<int> indices;
    for (const auto& [name, index] : check.values) {
      if (name != launch->result_name || index >= next_result) {
        return Unsupported(launch->location,
                           absl::StrCat("line ", check.line, " checks %", name,
                                        ", not a result of run_parallel"));
      }
      indices.push_back(index);
    }
    result.checked_results.push_back(std::move(indices));
    result.checks.push_back(std::move(check));
  }
  return result;
}

}  // namespace pjrtx::cli
