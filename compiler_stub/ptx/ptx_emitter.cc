#include "compiler_stub/ptx/ptx_emitter.h"

#include <algorithm>
#include <bit>
#include <map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/ptx/instruction_emitter.h"
#include "compiler_stub/ptx/ptx_builder.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
namespace {

using ir::ElementType;

class KernelEmitter {
 public:
  KernelEmitter(const FusedKernel& kernel, const PtxTarget& target)
      : kernel_(kernel), target_(target), instructions_(builder_, target.sm) {}

  absl::StatusOr<std::string> Run(int target_isa) {
    for (const FusedInput& input : kernel_.inputs) {
      PJRTX_RETURN_IF_ERROR(CheckType(input.shape.type));
    }
    for (const FusedOutput& output : kernel_.outputs) {
      PJRTX_RETURN_IF_ERROR(CheckType(output.shape.type));
    }
    const std::string n = EmitPrologue();
    const std::string done = builder_.NewRegister(RegisterClass::kPred);
    builder_.Emit("setp.ge.u64", {done, index_, n});
    builder_.Emit(absl::StrCat("@", done, " bra"), {"$L__done"});
    builder_.EmitLabel("$L__loop");
    PJRTX_RETURN_IF_ERROR(EmitElement());
    builder_.Emit("add.u64", {index_, index_, stride_});
    const std::string more = builder_.NewRegister(RegisterClass::kPred);
    builder_.Emit("setp.lt.u64", {more, index_, n});
    builder_.Emit(absl::StrCat("@", more, " bra"), {"$L__loop"});
    builder_.EmitLabel("$L__done");
    builder_.Emit("ret", {});
    return Module(
        std::max({kMinimumIsa, target_isa, instructions_.required_isa()}));
  }

 private:
  absl::Status CheckType(ElementType type) const {
    if (RegisterClassFor(type)) return absl::OkStatus();
    return absl::UnimplementedError(
        absl::StrCat(kernel_.name, ": ", ir::ElementTypeToMlir(type),
                     " elements are not supported by the PTX emitter"));
  }

  absl::Status Unknown(int value) const {
    return absl::InvalidArgumentError(
        absl::StrCat(kernel_.name, ": value ", value,
                     " is neither an input nor computed before its use"));
  }

  // Reads the parameters and starts index_ and stride_; loads the scalar
  // inputs, which are the same for every element. Returns the register of
  // n.
  std::string EmitPrologue() {
    for (size_t i = 0; i < kernel_.inputs.size(); ++i) {
      input_addresses_.push_back(GlobalPointer(absl::StrCat("in", i)));
    }
    for (size_t i = 0; i < kernel_.outputs.size(); ++i) {
      output_addresses_.push_back(GlobalPointer(absl::StrCat("out", i)));
    }
    parameters_.push_back("n");
    const std::string n = builder_.NewRegister(RegisterClass::kB64);
    builder_.Emit("ld.param.u64", {n, "[n]"});
    StartIndexAndStride();
    for (size_t i = 0; i < kernel_.inputs.size(); ++i) {
      const FusedInput& input = kernel_.inputs[i];
      if (input.is_scalar) {
        values_[input.value] =
            Load(input.shape.type, absl::StrCat("[", input_addresses_[i], "]"));
      }
    }
    return n;
  }

  // The loop body: element index_ of every output, from element index_ of
  // the per-element inputs and the scalars.
  absl::Status EmitElement() {
    for (size_t i = 0; i < kernel_.inputs.size(); ++i) {
      const FusedInput& input = kernel_.inputs[i];
      if (!input.is_scalar) {
        values_[input.value] =
            Load(input.shape.type,
                 ElementAddress(input_addresses_[i], input.shape.type));
      }
    }
    for (const ir::Instruction& instruction : kernel_.instructions) {
      std::vector<Register> operands;
      for (int value : instruction.operands) {
        auto it = values_.find(value);
        if (it == values_.end()) return Unknown(value);
        operands.push_back(it->second);
      }
      PJRTX_ASSIGN_OR_RETURN(Register result,
                             instructions_.Emit(instruction, operands));
      values_[instruction.results[0]] = std::move(result);
    }
    for (size_t i = 0; i < kernel_.outputs.size(); ++i) {
      const FusedOutput& output = kernel_.outputs[i];
      auto it = values_.find(output.value);
      if (it == values_.end()) return Unknown(output.value);
      Store(it->second,
            ElementAddress(output_addresses_[i], output.shape.type));
    }
    return absl::OkStatus();
  }

  // Declares parameter `name` and returns a register with its global
  // address.
  std::string GlobalPointer(const std::string& name) {
    parameters_.push_back(name);
    const std::string generic = builder_.NewRegister(RegisterClass::kB64);
    builder_.Emit("ld.param.u64", {generic, absl::StrCat("[", name, "]")});
    const std::string global = builder_.NewRegister(RegisterClass::kB64);
    builder_.Emit("cvta.to.global.u64", {global, generic});
    return global;
  }

  // index = ctaid.x * ntid.x + tid.x, stride = nctaid.x * ntid.x, in 64
  // bits so that tensors of 2^32 elements or more work.
  void StartIndexAndStride() {
    const std::string block = builder_.NewRegister(RegisterClass::kB32);
    builder_.Emit("mov.u32", {block, "%ctaid.x"});
    const std::string block_size = builder_.NewRegister(RegisterClass::kB32);
    builder_.Emit("mov.u32", {block_size, "%ntid.x"});
    const std::string thread = builder_.NewRegister(RegisterClass::kB32);
    builder_.Emit("mov.u32", {thread, "%tid.x"});
    const std::string thread_wide = builder_.NewRegister(RegisterClass::kB64);
    builder_.Emit("cvt.u64.u32", {thread_wide, thread});
    index_ = builder_.NewRegister(RegisterClass::kB64);
    builder_.Emit("mad.wide.u32", {index_, block, block_size, thread_wide});
    const std::string blocks = builder_.NewRegister(RegisterClass::kB32);
    builder_.Emit("mov.u32", {blocks, "%nctaid.x"});
    stride_ = builder_.NewRegister(RegisterClass::kB64);
    builder_.Emit("mul.wide.u32", {stride_, blocks, block_size});
  }

  // "[address]" of element index_ of an array at `base`. Byte offsets are
  // computed once per element size and loop iteration.
  std::string ElementAddress(const std::string& base, ElementType type) {
    const size_t size = ir::StorageSize(type);
    auto [offset, inserted] = offsets_.try_emplace(size);
    if (inserted) {
      if (size == 1) {
        offset->second = index_;
      } else {
        offset->second = builder_.NewRegister(RegisterClass::kB64);
        builder_.Emit("shl.b64", {offset->second, index_,
                                  absl::StrCat(std::countr_zero(size))});
      }
    }
    const std::string address = builder_.NewRegister(RegisterClass::kB64);
    builder_.Emit("add.u64", {address, base, offset->second});
    return absl::StrCat("[", address, "]");
  }

  Register Load(ElementType type, const std::string& address) {
    const std::string memory = absl::StrCat("ld.global.", MemoryType(type));
    if (type == ElementType::kPred) {
      const std::string byte = builder_.NewRegister(RegisterClass::kB32);
      builder_.Emit(memory, {byte, address});
      const std::string p = builder_.NewRegister(RegisterClass::kPred);
      builder_.Emit("setp.ne.u32", {p, byte, "0"});
      return Register{p, type};
    }
    const std::string r = builder_.NewRegister(*RegisterClassFor(type));
    builder_.Emit(memory, {r, address});
    return Register{r, type};
  }

  void Store(const Register& value, const std::string& address) {
    const std::string memory =
        absl::StrCat("st.global.", MemoryType(value.type));
    if (value.type == ElementType::kPred) {
      const std::string byte = builder_.NewRegister(RegisterClass::kB32);
      builder_.Emit("selp.u32", {byte, "1", "0", value.name});
      builder_.Emit(memory, {address, byte});
      return;
    }
    builder_.Emit(memory, {address, value.name});
  }

  std::string Module(int isa) const {
    std::vector<std::string> parameters;
    for (const std::string& name : parameters_) {
      parameters.push_back(absl::StrCat("  .param .u64 ", name));
    }
    return absl::StrCat(
        "// Generated by pjrtx (compiler_stub/ptx): a fused elementwise "
        "kernel.\n",
        ".version ", isa / 10, ".", isa % 10, "\n",  //
        ".target sm_", target_.sm, "\n",             //
        ".address_size 64\n\n",                      //
        ".visible .entry ", kernel_.name, "(\n",
        absl::StrJoin(parameters, ",\n"), "\n)\n{\n",
        builder_.RegisterDeclarations(), "\n", builder_.code(), "}\n");
  }

  const FusedKernel& kernel_;
  const PtxTarget& target_;
  PtxBuilder builder_;
  InstructionEmitter instructions_;
  std::vector<std::string> parameters_;
  std::vector<std::string> input_addresses_;   // Global, per input.
  std::vector<std::string> output_addresses_;  // Global, per output.
  std::map<int, Register> values_;
  std::map<size_t, std::string> offsets_;  // Element size -> byte offset.
  std::string index_;
  std::string stride_;
};

}  // namespace

absl::StatusOr<std::string> EmitPtx(const FusedKernel& kernel,
                                    const PtxTarget& target) {
  PJRTX_ASSIGN_OR_RETURN(int isa, TargetIsa(target));
  PJRTX_RETURN_IF_ERROR(CheckKernelName(kernel.name));
  return KernelEmitter(kernel, target).Run(isa);
}

}  // namespace pjrtx::ptx
