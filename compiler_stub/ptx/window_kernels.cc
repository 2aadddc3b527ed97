// reduce_window with one input and a body that is one binary op. One
// thread per output element walks its window in row-major order, folding
// each position into the init value as the CPU reference does
// (runtime/cpu/window_kernels.cc): a position on padding or between
// base-dilated elements folds in the init value itself, so float results
// are the same bits.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/kernel_writer.h"

namespace pjrtx::ptx {
namespace {

// `values[d]`, or `fallback` where the attribute was left out.
int64_t AtOr(const std::vector<int64_t>& values, size_t d, int64_t fallback) {
  return d < values.size() ? values[d] : fallback;
}

}  // namespace

absl::Status EmitReduceWindowKernel(KernelWriter& writer,
                                    const ir::Program& program,
                                    const ir::Instruction& instruction) {
  if (instruction.operands.size() != 2 || instruction.results.size() != 1) {
    return Unsupported(
        instruction,
        absl::StrCat("with ", instruction.operands.size() / 2, " inputs"));
  }
  const ir::Instruction* reducer = Reducer(program, instruction);
  if (reducer == nullptr) {
    return Unsupported(instruction,
                       "with a body other than one add, multiply, maximum, "
                       "minimum, and or or of its parameters");
  }
  const ir::Shape& input = instruction.operand_types[0].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  const ir::ElementType type = result.type;
  if (input.type != type || instruction.operand_types[1].shape.type != type ||
      reducer->result_types[0].shape.type != type) {
    return Unsupported(instruction, "with differing element types");
  }
  if (!RegisterClassFor(type)) {
    return Unsupported(instruction,
                       absl::StrCat("on ", ir::ElementTypeToMlir(type)));
  }
  const ir::WindowSpec& window = instruction.attributes.window;
  const size_t rank = input.dims.size();
  if (window.dimensions.size() != rank || result.dims.size() != rank) {
    return Unsupported(instruction, "whose window does not match its rank");
  }

  PtxBuilder& b = writer.builder();
  const Register init =
      writer.Load(type, absl::StrCat("[", writer.input(1), "]"));
  const std::vector<int64_t> input_strides = RowMajorStrides(input.dims);
  bool empty_window = false;
  for (int64_t size : window.dimensions) empty_window |= size == 0;

  const std::string index = writer.BeginLoop();
  const std::vector<std::string> out = writer.Unflatten(index, result.dims);
  const Register acc{b.NewRegister(*RegisterClassFor(type)), type};
  writer.Move(acc, init);
  // Per dimension, the padded-input coordinate of the window position,
  // starting at the window's first position and stepping by the window
  // dilation as the loops run.
  std::vector<std::string> coordinates;
  std::vector<std::vector<int64_t>> steps(rank, std::vector<int64_t>(rank, 0));
  for (size_t d = 0; d < rank; ++d) {
    coordinates.push_back(writer.Affine(
        {out[d]}, {AtOr(window.strides, d, 1)},
        -(d < window.padding.size() ? window.padding[d].first : 0)));
    steps[d][d] = AtOr(window.window_dilations, d, 1);
  }

  // One window position: acc = body(acc, x), x the input element there or
  // the init value on padding.
  auto fold = [&]() -> absl::Status {
    const Register x{b.NewRegister(*RegisterClassFor(type)), type};
    const std::string padding = writer.NewLabel("padding");
    const std::string combine = writer.NewLabel("combine");
    std::vector<std::string> source_index;
    for (size_t d = 0; d < rank; ++d) {
      const std::string& c = coordinates[d];
      const std::string before = writer.NewPred();
      b.Emit("setp.lt.s64", {before, c, "0"});
      b.Emit(absl::StrCat("@", before, " bra"), {padding});
      std::string element = c;
      const int64_t base_dilation = AtOr(window.base_dilations, d, 1);
      if (base_dilation != 1) {
        // c >= 0 here: unsigned division is exact.
        const std::string remainder = writer.NewB64();
        b.Emit("rem.u64", {remainder, c, Immediate(base_dilation)});
        const std::string between = writer.NewPred();
        b.Emit("setp.ne.u64", {between, remainder, "0"});
        b.Emit(absl::StrCat("@", between, " bra"), {padding});
        element = writer.NewB64();
        b.Emit("div.u64", {element, c, Immediate(base_dilation)});
      }
      const std::string beyond = writer.NewPred();
      b.Emit("setp.ge.s64", {beyond, element, Immediate(input.dims[d])});
      b.Emit(absl::StrCat("@", beyond, " bra"), {padding});
      source_index.push_back(element);
    }
    const std::string source = writer.Affine(source_index, input_strides, 0);
    writer.Move(x, writer.Load(type, writer.Address(writer.input(0), source,
                                                    ir::StorageSize(type))));
    b.Emit("bra", {combine});
    b.EmitLabel(padding);
    writer.Move(x, init);
    b.EmitLabel(combine);
    return Fold(writer, program, instruction, *reducer, acc, x);
  };
  if (!empty_window) {
    absl::Status status =
        writer.Loops(window.dimensions, steps, coordinates, fold);
    if (!status.ok()) return status;
  }
  writer.Store(acc,
               writer.Address(writer.output(0), index, ir::StorageSize(type)));
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
