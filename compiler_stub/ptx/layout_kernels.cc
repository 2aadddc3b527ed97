// Kernels that move elements (broadcast_in_dim, transpose, reshape, slice,
// concatenate, pad, reverse, bitcast_convert) and the ones that write what
// the shape says (iota, get_dimension_size). Each thread computes one output
// element: it splits its index into the output's multi-index and finds the
// source element with constant strides. Moves copy the bytes of the
// storage layout, so they serve every element type.
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
namespace {

using ir::Instruction;
using ir::OpCode;
using ir::Shape;

const Shape& OperandShape(const Instruction& instruction, int i) {
  return instruction.operand_types[i].shape;
}
const Shape& ResultShape(const Instruction& instruction) {
  return instruction.result_types[0].shape;
}

// Output element `index` = element `source` of input `input`.
void CopyFrom(KernelWriter& writer, const Instruction& instruction, int input,
              const std::string& source, const std::string& index) {
  const size_t size = ir::StorageSize(ResultShape(instruction).type);
  writer.Copy(size, writer.Address(writer.input(input), source, size),
              writer.Address(writer.output(0), index, size));
}

// The source offset of an output multi-index, for the ops where it is an
// affine function of it: constant + sum coefficients[d] * index[d].
struct AffineSource {
  std::vector<int64_t> coefficients;
  int64_t constant = 0;
};

AffineSource BroadcastSource(const Instruction& instruction) {
  const Shape& operand = OperandShape(instruction, 0);
  const std::vector<int64_t> strides = RowMajorStrides(operand.dims);
  AffineSource source;
  source.coefficients.assign(ResultShape(instruction).dims.size(), 0);
  const std::vector<int64_t>& mapping = instruction.attributes.dims;
  for (size_t d = 0; d < mapping.size(); ++d) {
    // A stretched dimension of size 1 reads its one element throughout.
    if (operand.dims[d] != 1) source.coefficients[mapping[d]] = strides[d];
  }
  return source;
}

AffineSource TransposeSource(const Instruction& instruction) {
  const std::vector<int64_t> strides =
      RowMajorStrides(OperandShape(instruction, 0).dims);
  AffineSource source;
  // Result dimension d is operand dimension permutation[d].
  for (int64_t from : instruction.attributes.dims) {
    source.coefficients.push_back(strides[from]);
  }
  return source;
}

AffineSource SliceSource(const Instruction& instruction) {
  const std::vector<int64_t> strides =
      RowMajorStrides(OperandShape(instruction, 0).dims);
  const ir::OpAttributes& a = instruction.attributes;
  AffineSource source;
  for (size_t d = 0; d < strides.size(); ++d) {
    const int64_t step = a.strides.empty() ? 1 : a.strides[d];
    source.coefficients.push_back(step * strides[d]);
    source.constant += a.start[d] * strides[d];
  }
  return source;
}

AffineSource ReverseSource(const Instruction& instruction) {
  const Shape& operand = OperandShape(instruction, 0);
  const std::vector<int64_t> strides = RowMajorStrides(operand.dims);
  AffineSource source;
  source.coefficients = strides;
  for (int64_t d : instruction.attributes.dims) {
    // Reversed: dims[d] - 1 - index[d].
    if (source.coefficients[d] == -strides[d]) continue;  // Listed twice.
    source.coefficients[d] = -strides[d];
    source.constant += (operand.dims[d] - 1) * strides[d];
  }
  return source;
}

absl::Status EmitAffine(KernelWriter& writer, const Instruction& instruction,
                        const AffineSource& affine) {
  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi =
      writer.Unflatten(index, ResultShape(instruction).dims);
  const std::string source =
      writer.Affine(multi, affine.coefficients, affine.constant);
  CopyFrom(writer, instruction, 0, source, index);
  writer.EndLoop();
  return absl::OkStatus();
}

absl::Status EmitReshape(KernelWriter& writer, const Instruction& instruction) {
  // Row-major order is the same on both sides: element i is element i.
  const std::string index = writer.BeginLoop();
  CopyFrom(writer, instruction, 0, index, index);
  writer.EndLoop();
  return absl::OkStatus();
}

absl::Status EmitConcatenate(KernelWriter& writer,
                             const Instruction& instruction) {
  const int64_t dimension = instruction.attributes.dimension;
  const std::string index = writer.BeginLoop();
  std::vector<std::string> multi =
      writer.Unflatten(index, ResultShape(instruction).dims);
  const std::string along = multi[dimension];
  int64_t start = 0;
  const int count = static_cast<int>(instruction.operands.size());
  for (int k = 0; k < count; ++k) {
    const Shape& operand = OperandShape(instruction, k);
    const int64_t size = operand.dims[dimension];
    if (size == 0) continue;  // Never the source of an element.
    const int64_t end = start + size;
    std::string next;
    if (end < ResultShape(instruction).dims[dimension]) {
      next = writer.NewLabel("concat");
      const std::string beyond = writer.NewPred();
      writer.builder().Emit("setp.ge.u64", {beyond, along, Immediate(end)});
      writer.builder().Emit(absl::StrCat("@", beyond, " bra"), {next});
    }
    // Within operand k: its own index along `dimension` starts at 0.
    std::string local = along;
    if (start != 0) {
      local = writer.NewB64();
      writer.builder().Emit("sub.u64", {local, along, Immediate(start)});
    }
    multi[dimension] = local;
    const std::string source =
        writer.Affine(multi, RowMajorStrides(operand.dims), 0);
    CopyFrom(writer, instruction, k, source, index);
    if (next.empty()) break;
    writer.builder().Emit("bra", {"$L__next"});
    writer.builder().EmitLabel(next);
    start = end;
  }
  writer.EndLoop();
  return absl::OkStatus();
}

absl::Status EmitPad(KernelWriter& writer, const Instruction& instruction) {
  const Shape& operand = OperandShape(instruction, 0);
  const ir::OpAttributes& a = instruction.attributes;
  const std::vector<int64_t> strides = RowMajorStrides(operand.dims);
  const size_t size = ir::StorageSize(operand.type);
  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi =
      writer.Unflatten(index, ResultShape(instruction).dims);
  // Both paths store here: computed before they part.
  const std::string destination = writer.Address(writer.output(0), index, size);
  const std::string padding = writer.NewLabel("pad");
  const std::string store = writer.NewLabel("store");
  PtxBuilder& b = writer.builder();
  // Output index o along d comes from operand element (o - low) / (interior
  // + 1) when o - low is in [0, (dims - 1) * (interior + 1)] and a
  // multiple of interior + 1; everything else is padding.
  std::vector<std::string> source_index(multi.size(), "0");
  for (size_t d = 0; d < multi.size(); ++d) {
    if (operand.dims[d] == 0) {
      b.Emit("bra", {padding});
      break;
    }
    const int64_t step = a.interior[d] + 1;
    std::string shifted = multi[d];
    if (a.low[d] != 0 || multi[d] == "0") {
      shifted = writer.NewB64();
      if (multi[d] == "0") {
        b.Emit("mov.u64", {shifted, Immediate(-a.low[d])});
      } else if (a.low[d] > 0) {
        b.Emit("sub.s64", {shifted, multi[d], Immediate(a.low[d])});
      } else {
        b.Emit("add.s64", {shifted, multi[d], Immediate(-a.low[d])});
      }
    }
    const std::string outside = writer.NewPred();
    if (a.low[d] > 0) {
      b.Emit("setp.lt.s64", {outside, shifted, "0"});
      b.Emit(absl::StrCat("@", outside, " bra"), {padding});
    }
    const std::string beyond = writer.NewPred();
    b.Emit("setp.gt.s64",
           {beyond, shifted, Immediate((operand.dims[d] - 1) * step)});
    b.Emit(absl::StrCat("@", beyond, " bra"), {padding});
    if (step == 1) {
      source_index[d] = shifted;
      continue;
    }
    // shifted >= 0 here: unsigned division is exact.
    const std::string remainder = writer.NewB64();
    b.Emit("rem.u64", {remainder, shifted, Immediate(step)});
    const std::string between = writer.NewPred();
    b.Emit("setp.ne.u64", {between, remainder, "0"});
    b.Emit(absl::StrCat("@", between, " bra"), {padding});
    source_index[d] = writer.NewB64();
    b.Emit("div.u64", {source_index[d], shifted, Immediate(step)});
  }
  const std::string source = writer.Affine(source_index, strides, 0);
  writer.Copy(size, writer.Address(writer.input(0), source, size), destination);
  b.Emit("bra", {store});
  b.EmitLabel(padding);
  writer.Copy(size, absl::StrCat("[", writer.input(1), "]"), destination);
  b.EmitLabel(store);
  writer.EndLoop();
  return absl::OkStatus();
}

absl::Status EmitIota(KernelWriter& writer, const Instruction& instruction) {
  const Shape& result = ResultShape(instruction);
  if (!RegisterClassFor(result.type)) {
    return Unsupported(instruction,
                       absl::StrCat("on ", ir::ElementTypeToMlir(result.type)));
  }
  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi = writer.Unflatten(index, result.dims);
  std::string value = multi[instruction.attributes.dimension];
  if (value == "0") {
    value = writer.NewB64();
    writer.builder().Emit("mov.u64", {value, "0"});
  }
  // The index converted as the CPU's iota does (an s64 converted to the
  // element type: integers wrap, floats round once).
  PJRTX_ASSIGN_OR_RETURN(
      Register element,
      ConvertRegister(writer, instruction,
                      Register{value, ir::ElementType::kS64}, result.type));
  writer.Store(element, writer.Address(writer.output(0), index,
                                       ir::StorageSize(result.type)));
  writer.EndLoop();
  return absl::OkStatus();
}

// The bits of an element of `size` storage bytes at `address`, in a new
// .b64 register, zero-extended.
std::string LoadBits(KernelWriter& writer, size_t size,
                     const std::string& address) {
  PtxBuilder& b = writer.builder();
  const std::string bits = writer.NewB64();
  if (size == 8) {
    b.Emit("ld.global.u64", {bits, address});
    return bits;
  }
  const std::string narrow =
      b.NewRegister(size == 2 ? RegisterClass::kB16 : RegisterClass::kB32);
  b.Emit(absl::StrCat("ld.global.u", 8 * size), {narrow, address});
  b.Emit(absl::StrCat("cvt.u64.u", size == 2 ? 16 : 32), {bits, narrow});
  return bits;
}

// Stores the low 8 * `size` bits of `bits` (a .b64 register).
void StoreBits(KernelWriter& writer, size_t size, const std::string& bits,
               const std::string& address) {
  PtxBuilder& b = writer.builder();
  if (size == 8) {
    b.Emit("st.global.u64", {address, bits});
    return;
  }
  const std::string narrow =
      b.NewRegister(size == 2 ? RegisterClass::kB16 : RegisterClass::kB32);
  b.Emit(absl::StrCat("cvt.u", size == 2 ? 16 : 32, ".u64"), {narrow, bits});
  b.Emit(absl::StrCat("st.global.u", 8 * size), {address, narrow});
}

// bitcast_convert between element types of different widths (the planner
// aliases the bytes where both are whole bytes): elements split or join
// little-endian, the first narrow element being the low bits of the wide
// one, as on the CPU. i1 is one bit of the wide element, one byte in
// memory.
absl::Status EmitBitcastConvert(KernelWriter& writer,
                                const Instruction& instruction) {
  const ir::ElementType from = OperandShape(instruction, 0).type;
  const ir::ElementType to = ResultShape(instruction).type;
  for (ir::ElementType type : {from, to}) {
    const int bits = ir::BitWidth(type);
    if (bits != 1 && bits != 8 * static_cast<int>(ir::StorageSize(type))) {
      return Unsupported(
          instruction,
          absl::StrCat("from or to ", ir::ElementTypeToMlir(type)));
    }
  }
  const int in_bits = ir::BitWidth(from);
  const int out_bits = ir::BitWidth(to);
  const size_t in_size = ir::StorageSize(from);
  const size_t out_size = ir::StorageSize(to);
  PtxBuilder& b = writer.builder();
  const std::string index = writer.BeginLoop();
  auto mask = [&](const std::string& value, int bits) {
    if (bits >= 64) return value;
    const std::string masked = writer.NewB64();
    b.Emit("and.b64",
           {masked, value,
            Immediate(static_cast<int64_t>((uint64_t{1} << bits) - 1))});
    return masked;
  };
  std::string result;
  if (in_bits == out_bits) {
    result = LoadBits(writer, in_size,
                      writer.Address(writer.input(0), index, in_size));
  } else if (in_bits > out_bits) {
    // Output i is bits [lane * out_bits, ...) of input i / ratio.
    const int log_ratio =
        std::countr_zero(static_cast<unsigned>(in_bits / out_bits));
    const std::string source = writer.NewB64();
    b.Emit("shr.u64", {source, index, absl::StrCat(log_ratio)});
    const std::string lane = writer.NewB64();
    b.Emit("and.b64", {lane, index, Immediate((int64_t{1} << log_ratio) - 1)});
    const std::string shift64 = writer.NewB64();
    b.Emit("mul.lo.u64", {shift64, lane, Immediate(out_bits)});
    const std::string shift = b.NewRegister(RegisterClass::kB32);
    b.Emit("cvt.u32.u64", {shift, shift64});
    const std::string wide = LoadBits(
        writer, in_size, writer.Address(writer.input(0), source, in_size));
    const std::string shifted = writer.NewB64();
    b.Emit("shr.b64", {shifted, wide, shift});
    result = mask(shifted, out_bits);
  } else {
    // Output j joins inputs j * ratio .. j * ratio + ratio - 1.
    const int ratio = out_bits / in_bits;
    const std::string first = writer.NewB64();
    b.Emit("mul.lo.u64", {first, index, Immediate(ratio)});
    result = writer.NewB64();
    b.Emit("mov.u64", {result, "0"});
    for (int k = 0; k < ratio; ++k) {
      const std::string element = writer.NewB64();
      b.Emit("add.u64", {element, first, Immediate(k)});
      const std::string part =
          mask(LoadBits(writer, in_size,
                        writer.Address(writer.input(0), element, in_size)),
               in_bits);
      const std::string placed = writer.NewB64();
      b.Emit("shl.b64", {placed, part, absl::StrCat(k * in_bits)});
      const std::string joined = writer.NewB64();
      b.Emit("or.b64", {joined, result, placed});
      result = joined;
    }
  }
  StoreBits(writer, out_size, result,
            writer.Address(writer.output(0), index, out_size));
  writer.EndLoop();
  return absl::OkStatus();
}

// get_dimension_size: the size, known when compiling, stored once.
absl::Status EmitDimensionSize(KernelWriter& writer,
                               const Instruction& instruction) {
  const int64_t size =
      OperandShape(instruction, 0).dims[instruction.attributes.dimension];
  const ir::ElementType type = ResultShape(instruction).type;
  if (ir::StorageSize(type) != 4) {
    return Unsupported(instruction,
                       absl::StrCat("to ", ir::ElementTypeToMlir(type)));
  }
  const std::string index = writer.BeginLoop();
  writer.builder().Emit(
      "st.global.u32",
      {writer.Address(writer.output(0), index, 4), Immediate(size)});
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace

absl::Status EmitLayoutKernel(KernelWriter& writer,
                              const Instruction& instruction) {
  switch (instruction.opcode) {
    case OpCode::kBroadcastInDim:
      return EmitAffine(writer, instruction, BroadcastSource(instruction));
    case OpCode::kTranspose:
      return EmitAffine(writer, instruction, TransposeSource(instruction));
    case OpCode::kSlice:
      return EmitAffine(writer, instruction, SliceSource(instruction));
    case OpCode::kReverse:
      return EmitAffine(writer, instruction, ReverseSource(instruction));
    case OpCode::kReshape:
      return EmitReshape(writer, instruction);
    case OpCode::kConcatenate:
      return EmitConcatenate(writer, instruction);
    case OpCode::kPad:
      return EmitPad(writer, instruction);
    case OpCode::kIota:
      return EmitIota(writer, instruction);
    case OpCode::kBitcastConvert:
      return EmitBitcastConvert(writer, instruction);
    case OpCode::kGetDimensionSize:
      return EmitDimensionSize(writer, instruction);
    default:
      return Unsupported(instruction, "");
  }
}

}  // namespace pjrtx::ptx
