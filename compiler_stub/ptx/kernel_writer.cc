#include "compiler_stub/ptx/kernel_writer.h"

#include <bit>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/mlir/location_text.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
using ir::ElementType;

std::string Immediate(int64_t value) {
  if (value >= 0) return absl::StrCat(value);
  return HexImmediate(static_cast<uint64_t>(value), 16);
}

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  return strides;
}

absl::Status Unsupported(const ir::Instruction& instruction,
                         absl::string_view what) {
  return absl::UnimplementedError(absl::StrCat(
      mlir::LocationText(instruction.location), ": ", instruction.name,
      what.empty() ? "" : " ", what, " is not supported by the PTX kernels"));
}

absl::StatusOr<Register> ConvertRegister(KernelWriter& writer,
                                         const ir::Instruction& instruction,
                                         const Register& x,
                                         ir::ElementType to) {
  ir::Instruction convert;
  convert.opcode = ir::OpCode::kConvert;
  convert.name = instruction.name;
  convert.location = instruction.location;
  convert.operand_types = {ir::ValueType::Tensor(ir::Shape{x.type, {}})};
  convert.result_types = {ir::ValueType::Tensor(ir::Shape{to, {}})};
  return writer.emitter().Emit(convert, {x});
}

KernelWriter::KernelWriter(const PtxTarget& target, int num_inputs,
                           int num_outputs)
    : target_(target), emitter_(builder_, target.sm) {
  auto global_pointer = [&](const std::string& name) {
    parameters_.push_back(name);
    const std::string generic = NewB64();
    builder_.Emit("ld.param.u64", {generic, absl::StrCat("[", name, "]")});
    const std::string global = NewB64();
    builder_.Emit("cvta.to.global.u64", {global, generic});
    return global;
  };
  for (int i = 0; i < num_inputs; ++i) {
    inputs_.push_back(global_pointer(absl::StrCat("in", i)));
  }
  for (int i = 0; i < num_outputs; ++i) {
    outputs_.push_back(global_pointer(absl::StrCat("out", i)));
  }
  parameters_.push_back("n");
  n_ = NewB64();
  builder_.Emit("ld.param.u64", {n_, "[n]"});
}

std::string KernelWriter::BeginLoop() {
  // index = ctaid.x * ntid.x + tid.x, stride = nctaid.x * ntid.x, in 64
  // bits, as the fused kernels compute them.
  const std::string block = builder_.NewRegister(RegisterClass::kB32);
  builder_.Emit("mov.u32", {block, "%ctaid.x"});
  const std::string block_size = builder_.NewRegister(RegisterClass::kB32);
  builder_.Emit("mov.u32", {block_size, "%ntid.x"});
  const std::string thread = builder_.NewRegister(RegisterClass::kB32);
  builder_.Emit("mov.u32", {thread, "%tid.x"});
  const std::string thread_wide = NewB64();
  builder_.Emit("cvt.u64.u32", {thread_wide, thread});
  index_ = NewB64();
  builder_.Emit("mad.wide.u32", {index_, block, block_size, thread_wide});
  const std::string blocks = builder_.NewRegister(RegisterClass::kB32);
  builder_.Emit("mov.u32", {blocks, "%nctaid.x"});
  stride_ = NewB64();
  builder_.Emit("mul.wide.u32", {stride_, blocks, block_size});
  const std::string done = NewPred();
  builder_.Emit("setp.ge.u64", {done, index_, n_});
  builder_.Emit(absl::StrCat("@", done, " bra"), {"$L__done"});
  builder_.EmitLabel("$L__loop");
  return index_;
}

void KernelWriter::EndLoop() {
  builder_.EmitLabel("$L__next");
  builder_.Emit("add.u64", {index_, index_, stride_});
  const std::string more = NewPred();
  builder_.Emit("setp.lt.u64", {more, index_, n_});
  builder_.Emit(absl::StrCat("@", more, " bra"), {"$L__loop"});
  builder_.EmitLabel("$L__done");
  builder_.Emit("ret", {});
}

std::string KernelWriter::NewLabel(absl::string_view stem) {
  return absl::StrCat("$L__", stem, labels_++);
}

std::vector<std::string> KernelWriter::Unflatten(
    const std::string& linear, const std::vector<int64_t>& dims) {
  std::vector<std::string> index(dims.size(), "0");
  // The outermost dimension that is not 1 takes the remaining quotient
  // whole: `linear` is in range, so no remainder is needed there.
  int outer = 0;
  while (outer < static_cast<int>(dims.size()) && dims[outer] == 1) ++outer;
  std::string rest = linear;
  for (int d = static_cast<int>(dims.size()) - 1; d >= outer; --d) {
    if (dims[d] == 1) continue;
    if (d == outer) {
      index[d] = rest;
      break;
    }
    const std::string size = Immediate(dims[d]);
    index[d] = NewB64();
    builder_.Emit("rem.u64", {index[d], rest, size});
    const std::string quotient = NewB64();
    builder_.Emit("div.u64", {quotient, rest, size});
    rest = quotient;
  }
  return index;
}

std::string KernelWriter::Affine(const std::vector<std::string>& index,
                                 const std::vector<int64_t>& coefficients,
                                 int64_t constant) {
  std::string sum = NewB64();
  builder_.Emit("mov.u64", {sum, Immediate(constant)});
  for (size_t d = 0; d < index.size(); ++d) {
    if (index[d] == "0" || coefficients[d] == 0) continue;
    const std::string next = NewB64();
    if (coefficients[d] == 1) {
      builder_.Emit("add.u64", {next, sum, index[d]});
    } else {
      builder_.Emit("mad.lo.u64",
                    {next, index[d], Immediate(coefficients[d]), sum});
    }
    sum = next;
  }
  return sum;
}

std::string KernelWriter::Address(const std::string& base,
                                  const std::string& element,
                                  size_t element_size) {
  std::string offset = element;
  if (element_size > 1) {
    offset = NewB64();
    builder_.Emit("shl.b64", {offset, element,
                              absl::StrCat(std::countr_zero(element_size))});
  }
  const std::string address = NewB64();
  builder_.Emit("add.u64", {address, base, offset});
  return absl::StrCat("[", address, "]");
}

Register KernelWriter::Load(ElementType type, const std::string& address) {
  const std::string memory = absl::StrCat("ld.global.", MemoryType(type));
  if (type == ElementType::kPred) {
    const std::string byte = builder_.NewRegister(RegisterClass::kB32);
    builder_.Emit(memory, {byte, address});
    const std::string p = NewPred();
    builder_.Emit("setp.ne.u32", {p, byte, "0"});
    return Register{p, type};
  }
  const std::string r = builder_.NewRegister(*RegisterClassFor(type));
  builder_.Emit(memory, {r, address});
  return Register{r, type};
}

void KernelWriter::Store(const Register& value, const std::string& address) {
  const std::string memory = absl::StrCat("st.global.", MemoryType(value.type));
  if (value.type == ElementType::kPred) {
    const std::string byte = builder_.NewRegister(RegisterClass::kB32);
    builder_.Emit("selp.u32", {byte, "1", "0", value.name});
    builder_.Emit(memory, {address, byte});
    return;
  }
  builder_.Emit(memory, {address, value.name});
}

void KernelWriter::Copy(size_t size, const std::string& from,
                        const std::string& to) {
  // Bytes go through a 32-bit register (there are no 8-bit ones).
  const RegisterClass register_class = size == 8   ? RegisterClass::kB64
                                       : size == 2 ? RegisterClass::kB16
                                                   : RegisterClass::kB32;
  const std::string type = size == 1 ? "u8" : absl::StrCat("b", 8 * size);
  const std::string r = builder_.NewRegister(register_class);
  builder_.Emit(absl::StrCat("ld.global.", type), {r, from});
  builder_.Emit(absl::StrCat("st.global.", type), {to, r});
}

void KernelWriter::Move(const Register& to, const Register& from) {
  std::string type;
  switch (*RegisterClassFor(to.type)) {
    case RegisterClass::kPred:
      type = "pred";
      break;
    case RegisterClass::kB16:
      type = "b16";
      break;
    case RegisterClass::kB32:
      type = "b32";
      break;
    case RegisterClass::kB64:
      type = "b64";
      break;
    case RegisterClass::kF32:
      type = "f32";
      break;
    case RegisterClass::kF64:
      type = "f64";
      break;
  }
  builder_.Emit(absl::StrCat("mov.", type), {to.name, from.name});
}

absl::Status KernelWriter::Loops(
    const std::vector<int64_t>& dims,
    const std::vector<std::vector<int64_t>>& strides,
    const std::vector<std::string>& offsets,
    const std::function<absl::Status()>& body) {
  return LoopsFrom(0, dims, strides, offsets, body);
}

absl::Status KernelWriter::LoopsFrom(
    size_t d, const std::vector<int64_t>& dims,
    const std::vector<std::vector<int64_t>>& strides,
    const std::vector<std::string>& offsets,
    const std::function<absl::Status()>& body) {
  if (d == dims.size()) return body();
  if (dims[d] == 1) return LoopsFrom(d + 1, dims, strides, offsets, body);
  const std::string counter = NewB64();
  builder_.Emit("mov.u64", {counter, "0"});
  const std::string top = NewLabel("dim");
  builder_.EmitLabel(top);
  PJRTX_RETURN_IF_ERROR(LoopsFrom(d + 1, dims, strides, offsets, body));
  for (size_t k = 0; k < offsets.size(); ++k) {
    if (strides[k][d] == 0) continue;
    builder_.Emit("add.u64",
                  {offsets[k], offsets[k], Immediate(strides[k][d])});
  }
  builder_.Emit("add.u64", {counter, counter, "1"});
  const std::string more = NewPred();
  builder_.Emit("setp.lt.u64", {more, counter, Immediate(dims[d])});
  builder_.Emit(absl::StrCat("@", more, " bra"), {top});
  for (size_t k = 0; k < offsets.size(); ++k) {
    if (strides[k][d] == 0) continue;
    builder_.Emit("sub.u64",
                  {offsets[k], offsets[k], Immediate(strides[k][d] * dims[d])});
  }
  return absl::OkStatus();
}

absl::Status KernelWriter::CountedLoop(
    int64_t n, const std::function<absl::Status(const std::string&)>& body) {
  if (n <= 0) return absl::OkStatus();
  const std::string index = NewB64();
  builder_.Emit("mov.u64", {index, "0"});
  const std::string top = NewLabel("count");
  builder_.EmitLabel(top);
  if (absl::Status status = body(index); !status.ok()) return status;
  builder_.Emit("add.u64", {index, index, "1"});
  const std::string more = NewPred();
  builder_.Emit("setp.lt.u64", {more, index, Immediate(n)});
  builder_.Emit(absl::StrCat("@", more, " bra"), {top});
  return absl::OkStatus();
}

void KernelWriter::BranchUnlessZero(const std::string& value,
                                    const std::string& label) {
  const std::string nonzero = NewPred();
  builder_.Emit("setp.ne.u64", {nonzero, value, "0"});
  builder_.Emit(absl::StrCat("@", nonzero, " bra"), {label});
}

std::string KernelWriter::DilatedElementOrBranch(const std::string& x,
                                                 int64_t dilation, int64_t size,
                                                 const std::string& padding) {
  const std::string before = NewPred();
  builder_.Emit("setp.lt.s64", {before, x, "0"});
  builder_.Emit(absl::StrCat("@", before, " bra"), {padding});
  std::string element = x;
  if (dilation != 1) {
    // x >= 0 here: unsigned division is exact.
    const std::string remainder = NewB64();
    builder_.Emit("rem.u64", {remainder, x, Immediate(dilation)});
    const std::string hole = NewPred();
    builder_.Emit("setp.ne.u64", {hole, remainder, "0"});
    builder_.Emit(absl::StrCat("@", hole, " bra"), {padding});
    element = NewB64();
    builder_.Emit("div.u64", {element, x, Immediate(dilation)});
  }
  const std::string beyond = NewPred();
  builder_.Emit("setp.ge.s64", {beyond, element, Immediate(size)});
  builder_.Emit(absl::StrCat("@", beyond, " bra"), {padding});
  return element;
}

std::string KernelWriter::Module(const std::string& name,
                                 absl::string_view comment, int isa) const {
  std::vector<std::string> parameters;
  for (const std::string& parameter : parameters_) {
    parameters.push_back(absl::StrCat("  .param .u64 ", parameter));
  }
  return absl::StrCat("// Generated by pjrtx (compiler_stub/ptx): ", comment,
                      "\n", ".version ", isa / 10, ".", isa % 10, "\n",  //
                      ".target sm_", target_.sm, "\n",                   //
                      ".address_size 64\n\n",                            //
                      ".visible .entry ", name, "(\n",
                      absl::StrJoin(parameters, ",\n"), "\n)\n{\n",
                      builder_.RegisterDeclarations(), "\n", builder_.code(),
                      "}\n");
}

absl::Status CheckRegisterTypes(const ir::Instruction& instruction) {
  for (const std::vector<ir::ValueType>* types :
       {&instruction.operand_types, &instruction.result_types}) {
    for (const ir::ValueType& type : *types) {
      if (!RegisterClassFor(type.shape.type)) {
        return Unsupported(
            instruction,
            absl::StrCat("on ", ir::ElementTypeToMlir(type.shape.type)));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
