#include "compiler_stub/ir/lower.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/attribute_reader.h"
#include "compiler_stub/ir/input_output_alias.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/type_conversion.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

// Names visible in one computation. A name not found here is looked up in
// the enclosing computation's scope and, if found, captured.
//
// The computation is found by index each time: lowering a nested region
// appends computations and may move them, and an enclosing scope captures
// values after that (a region two levels down reading a function value).
class Scope : public ValueScope {
 public:
  Scope(std::vector<Computation>* computations, int index, Scope* parent)
      : computations_(computations), index_(index), parent_(parent) {}

  absl::StatusOr<ScopedValue> Lookup(const mlir::ValueRef& ref) override {
    const std::string key = Key(ref.name, ref.index);
    auto it = values_.find(key);
    if (it != values_.end()) return it->second;
    if (parent_ != nullptr) {
      absl::StatusOr<ScopedValue> outer = parent_->Lookup(ref);
      if (outer.ok()) {
        Computation& c = computation();
        ScopedValue inner{c.num_values++, outer->type};
        c.captures.push_back(outer->id);
        c.capture_parameters.push_back(inner.id);
        values_[key] = inner;
        return inner;
      }
    }
    return ErrorAt(ref.location,
                   absl::StrCat("use of undefined value %", ref.name,
                                ref.index > 0 || multi_.count(ref.name)
                                    ? absl::StrCat("#", ref.index)
                                    : ""));
  }

  absl::Status Define(const std::string& name, int index, int count,
                      ScopedValue value, const mlir::Location& location) {
    if (count > 1) multi_.insert({name, count});
    const std::string key = Key(name, index);
    if (!values_.emplace(key, value).second) {
      return ErrorAt(location,
                     absl::StrCat("value %", name,
                                  count > 1 ? absl::StrCat("#", index) : "",
                                  " is defined twice"));
    }
    return absl::OkStatus();
  }

  Computation& computation() { return (*computations_)[index_]; }

 private:
  static std::string Key(const std::string& name, int index) {
    return absl::StrCat(name, "#", index);
  }

  std::vector<Computation>* computations_;
  int index_;
  Scope* parent_;
  std::map<std::string, ScopedValue> values_;
  std::map<std::string, int> multi_;
};

// The function a call-like op runs, or null for other ops.
const mlir::Attribute* CalleeOf(const mlir::Operation& op) {
  const char* key = nullptr;
  if (op.name == "func.call" || op.name == "call") key = "callee";
  if (op.name == "stablehlo.composite") key = "decomposition";
  if (key == nullptr) return nullptr;
  for (const auto& [name, value] : op.attributes) {
    if (name == key && value.kind == mlir::Attribute::Kind::kSymbolRef) {
      return &value;
    }
  }
  return nullptr;
}

void AddCallees(const mlir::Region& region, std::vector<std::string>* names) {
  for (const mlir::Block& block : region.blocks) {
    for (const mlir::Operation& op : block.operations) {
      if (const mlir::Attribute* callee = CalleeOf(op)) {
        names->push_back(callee->string_value);
      }
      for (const mlir::Region& nested : op.regions) AddCallees(nested, names);
    }
  }
}

// `entry` and the functions it calls, directly or not. A call of an
// undefined function is left for the call's own lowering to report.
std::set<std::string> CalledFunctions(
    const std::map<std::string, const mlir::Function*>& functions,
    const mlir::Function& entry) {
  std::set<std::string> reached = {entry.name};
  std::vector<const mlir::Function*> pending = {&entry};
  while (!pending.empty()) {
    const mlir::Function* f = pending.back();
    pending.pop_back();
    std::vector<std::string> callees;
    AddCallees(f->body, &callees);
    for (const std::string& name : callees) {
      auto it = functions.find(name);
      if (it == functions.end() || !reached.insert(name).second) continue;
      pending.push_back(it->second);
    }
  }
  return reached;
}

// Whether a run of `program` meets the other processes of its launch, or
// at least needs to know its place among them.
bool HasCollectives(const Program& program) {
  for (const Computation& c : program.computations) {
    for (const Instruction& inst : c.instructions) {
      if (IsCollectiveOp(inst.opcode)) return true;
    }
  }
  return false;
}

class Lowerer : public RegionLowerer {
 public:
  Lowerer(const mlir::Module& module, const LowerOptions& options)
      : module_(module), options_(options) {}

  absl::StatusOr<Program> Run() {
    if (!module_.other_operations.empty()) {
      const mlir::Operation& op = module_.other_operations.front();
      return ErrorAt(op.location, absl::StrCat("unexpected '", op.name,
                                               "' at module level"));
    }
    if (module_.functions.empty()) {
      return ErrorAt(module_.location, "the module defines no function");
    }
    program_.module_name = module_.name;
    for (const auto& [name, value] : module_.attributes) {
      if (value.kind != mlir::Attribute::Kind::kInteger) continue;
      if (name != "mhlo.num_replicas" && name != "mhlo.num_partitions") {
        continue;
      }
      if (value.integer < 1) {
        return ErrorAt(
            value.location.line > 0 ? value.location : module_.location,
            absl::StrCat(name, " is ", value.integer, ", must be >= 1"));
      }
      if (name == "mhlo.num_replicas") program_.num_replicas = value.integer;
      if (name == "mhlo.num_partitions") {
        program_.num_partitions = value.integer;
      }
    }
    std::map<std::string, const mlir::Function*> by_name;
    for (const mlir::Function& f : module_.functions) {
      if (!by_name.emplace(f.name, &f).second) {
        return ErrorAt(f.location,
                       absl::StrCat("function @", f.name, " is defined twice"));
      }
    }
    PJRTX_ASSIGN_OR_RETURN(const mlir::Function* entry,
                           FindEntryFunction(module_, options_.entry));
    // A named entry is one program of a module that may hold others, e.g.
    // the corpus's @main driving its collective functions through
    // interpreter ops; only what the entry runs must compile.
    const std::set<std::string> lowered =
        options_.entry.empty() ? AllFunctions()
                               : CalledFunctions(by_name, *entry);
    // Number every function first, so calls may refer forward.
    for (const mlir::Function& f : module_.functions) {
      if (!lowered.count(f.name)) continue;
      program_.functions[f.name] =
          static_cast<int>(program_.computations.size());
      program_.computations.emplace_back();
    }
    program_.entry = program_.functions[entry->name];
    for (const mlir::Function& f : module_.functions) {
      if (!lowered.count(f.name)) continue;
      PJRTX_RETURN_IF_ERROR(LowerFunction(f, program_.functions[f.name]));
    }
    PJRTX_RETURN_IF_ERROR(CheckCalls());
    PJRTX_ASSIGN_OR_RETURN(
        program_.parameter_aliases,
        ParameterAliases(*entry, program_.computations[program_.entry]));
    program_.has_collectives = HasCollectives(program_);
    return std::move(program_);
  }

  absl::StatusOr<int> LowerRegion(const mlir::Region& region,
                                  const std::string& name,
                                  ValueScope& enclosing) override {
    if (region.blocks.size() != 1) {
      return ErrorAt(region.location,
                     absl::StrCat(name, " must have exactly one block, has ",
                                  region.blocks.size()));
    }
    const int index = static_cast<int>(program_.computations.size());
    program_.computations.emplace_back();
    program_.computations[index].name = name;
    // Regions of ops lowered from a template (template_lowering.h) have
    // a scope of another kind around them; they capture nothing.
    Scope scope(&program_.computations, index,
                dynamic_cast<Scope*>(&enclosing));
    PJRTX_RETURN_IF_ERROR(LowerBlock(region.blocks[0], scope, index,
                                     /*is_entry=*/false, /*function=*/nullptr));
    return index;
  }

  const Program& program() const override { return program_; }
  Computation& computation(int index) override {
    return program_.computations[index];
  }

 private:
  // Calls are checked once every callee is lowered.
  absl::Status CheckCalls() {
    for (const Computation& c : program_.computations) {
      for (const Instruction& inst : c.instructions) {
        if (inst.opcode != OpCode::kCall) continue;
        const Computation& callee =
            program_.computations[inst.attributes.callee];
        if (inst.operand_types != callee.parameter_types ||
            inst.result_types != callee.result_types) {
          return ErrorAt(
              inst.location,
              absl::StrCat(inst.name, " of @", callee.name, " passes ",
                           TypesToString(inst.operand_types), " -> ",
                           TypesToString(inst.result_types), " but @",
                           callee.name, " takes ",
                           TypesToString(callee.parameter_types), " -> ",
                           TypesToString(callee.result_types)));
        }
      }
    }
    return absl::OkStatus();
  }

  std::set<std::string> AllFunctions() const {
    std::set<std::string> names;
    for (const mlir::Function& f : module_.functions) names.insert(f.name);
    return names;
  }

  absl::Status LowerFunction(const mlir::Function& f, int index) {
    Computation& c = program_.computations[index];
    c.name = f.name;
    for (const mlir::Type& t : f.result_types) {
      PJRTX_ASSIGN_OR_RETURN(ValueType type, ConvertType(t));
      c.result_types.push_back(type);
    }
    if (f.body.blocks.size() != 1) {
      return ErrorAt(f.location, absl::StrCat("function @", f.name,
                                              " must have exactly one block"));
    }
    Scope scope(&program_.computations, index, /*parent=*/nullptr);
    const bool is_entry = index == program_.entry;
    absl::Status status =
        LowerBlock(f.body.blocks[0], scope, index, is_entry, &f);
    if (!status.ok() || !is_entry) return status;
    // Check outputs follow the function's own results.
    Computation& entry = computation(index);
    for (const ScopedValue& v : check_outputs_) {
      entry.results.push_back(v.id);
      entry.result_types.push_back(v.type);
    }
    return absl::OkStatus();
  }

  absl::Status LowerBlock(const mlir::Block& block, Scope& scope, int index,
                          bool is_entry, const mlir::Function* function) {
    // `computation(index)` is re-read after every op: lowering a region
    // appends computations and may move them.
    for (const mlir::BlockArgument& arg : block.arguments) {
      PJRTX_ASSIGN_OR_RETURN(ValueType type, ConvertType(arg.type));
      Computation& c = computation(index);
      const int id = c.num_values++;
      c.parameters.push_back(id);
      c.parameter_types.push_back(type);
      PJRTX_RETURN_IF_ERROR(
          scope.Define(arg.name, 0, 1, ScopedValue{id, type}, arg.location));
    }
    if (function != nullptr &&
        function->arguments.size() != block.arguments.size()) {
      return ErrorAt(function->location,
                     "function arguments and entry block arguments differ");
    }
    bool returned = false;
    for (const mlir::Operation& op : block.operations) {
      if (returned) {
        return ErrorAt(op.location,
                       absl::StrCat("'", op.name, "' after the terminator"));
      }
      if (op.name == "func.return" || op.name == "stablehlo.return" ||
          op.name == "return") {
        PJRTX_RETURN_IF_ERROR(LowerReturn(op, scope, index, function));
        returned = true;
        continue;
      }
      OpContext context{
          op, scope, *this, index,
          is_entry && options_.checks_as_outputs ? &check_outputs_ : nullptr};
      PJRTX_ASSIGN_OR_RETURN(std::vector<ScopedValue> results,
                             LowerOperation(context));
      for (size_t r = 0; r < results.size(); ++r) {
        PJRTX_RETURN_IF_ERROR(scope.Define(op.result_name, static_cast<int>(r),
                                           static_cast<int>(results.size()),
                                           results[r], op.location));
      }
    }
    if (!returned) {
      return ErrorAt(block.location, "block does not end with a return");
    }
    return absl::OkStatus();
  }

  absl::Status LowerReturn(const mlir::Operation& op, Scope& scope, int index,
                           const mlir::Function* function) {
    std::vector<int> ids;
    std::vector<ValueType> types;
    for (const mlir::ValueRef& ref : op.operands) {
      PJRTX_ASSIGN_OR_RETURN(ScopedValue value, scope.Lookup(ref));
      ids.push_back(value.id);
      types.push_back(value.type);
    }
    Computation& c = computation(index);
    if (function != nullptr) {
      if (types != c.result_types) {
        return ErrorAt(
            op.location,
            absl::StrCat("@", function->name, " returns ", TypesToString(types),
                         " but is declared "
                         "to return ",
                         TypesToString(c.result_types)));
      }
    } else {
      c.result_types = types;
    }
    c.results = std::move(ids);
    return absl::OkStatus();
  }

  const mlir::Module& module_;
  const LowerOptions options_;
  Program program_;
  // Values of the entry function's check ops, in program order.
  std::vector<ScopedValue> check_outputs_;
};

}  // namespace

absl::StatusOr<const mlir::Function*> FindEntryFunction(
    const mlir::Module& module, const std::string& requested) {
  const mlir::Function* main = nullptr;
  std::vector<const mlir::Function*> without_arguments;
  for (const mlir::Function& f : module.functions) {
    if (!requested.empty() && f.name == requested) return &f;
    if (f.name == "main") main = &f;
    if (f.arguments.empty()) without_arguments.push_back(&f);
  }
  if (!requested.empty()) {
    return ErrorAt(module.location, absl::StrCat("no function @", requested));
  }
  if (main != nullptr) return main;
  if (without_arguments.size() == 1) return without_arguments[0];
  if (module.functions.size() == 1) return &module.functions[0];
  return ErrorAt(module.location,
                 "cannot tell which function to run: name one @main, or "
                 "give exactly one function without arguments");
}

absl::StatusOr<Program> LowerModule(const mlir::Module& module,
                                    const LowerOptions& options) {
  return Lowerer(module, options).Run();
}

}  // namespace pjrtx::ir
