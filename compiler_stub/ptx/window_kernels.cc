// reduce_window. One thread per output element walks its window in
// row-major order, folding each position into the init value as the CPU
// reference does (runtime/cpu/window_kernels.cc): a position on padding or
// between base-dilated elements folds in the init value itself, so float
// results are the same bits. A body of one binary op is applied directly;
// any other body, and several inputs reduced together, evaluate the
// body's region on the accumulators and the elements.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

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
  const int n = static_cast<int>(instruction.operands.size()) / 2;
  // The direct path needs one input and a one-op body.
  const ir::Instruction* reducer =
      n == 1 ? Reducer(program, instruction) : nullptr;
  const ir::Shape& input = instruction.operand_types[0].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  std::vector<ir::ElementType> types;
  for (int i = 0; i < n; ++i) {
    const ir::ElementType type = instruction.result_types[i].shape.type;
    if (instruction.operand_types[i].shape.type != type ||
        instruction.operand_types[n + i].shape.type != type ||
        (reducer != nullptr && reducer->result_types[0].shape.type != type)) {
      return Unsupported(instruction, "with differing element types");
    }
    if (instruction.operand_types[i].shape.dims != input.dims) {
      return Unsupported(instruction, "with inputs of different shapes");
    }
    if (!RegisterClassFor(type)) {
      return Unsupported(instruction,
                         absl::StrCat("on ", ir::ElementTypeToMlir(type)));
    }
    types.push_back(type);
  }
  const ir::WindowSpec& window = instruction.attributes.window;
  const size_t rank = input.dims.size();
  if (window.dimensions.size() != rank || result.dims.size() != rank) {
    return Unsupported(instruction, "whose window does not match its rank");
  }

  PtxBuilder& b = writer.builder();
  std::vector<Register> inits;
  for (int i = 0; i < n; ++i) {
    inits.push_back(
        writer.Load(types[i], absl::StrCat("[", writer.input(n + i), "]")));
  }
  const std::vector<int64_t> input_strides = RowMajorStrides(input.dims);
  bool empty_window = false;
  for (int64_t size : window.dimensions) empty_window |= size == 0;

  const std::string index = writer.BeginLoop();
  const std::vector<std::string> out = writer.Unflatten(index, result.dims);
  std::vector<Register> accumulators;
  for (int i = 0; i < n; ++i) {
    accumulators.push_back(
        Register{b.NewRegister(*RegisterClassFor(types[i])), types[i]});
    writer.Move(accumulators[i], inits[i]);
  }
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

  // One window position: acc = body(acc, x), x the inputs' elements there
  // or the init values on padding.
  auto fold = [&]() -> absl::Status {
    std::vector<Register> xs;
    for (int i = 0; i < n; ++i) {
      xs.push_back(
          Register{b.NewRegister(*RegisterClassFor(types[i])), types[i]});
    }
    const std::string padding = writer.NewLabel("padding");
    const std::string combine = writer.NewLabel("combine");
    std::vector<std::string> source_index;
    for (size_t d = 0; d < rank; ++d) {
      source_index.push_back(writer.DilatedElementOrBranch(
          coordinates[d], AtOr(window.base_dilations, d, 1), input.dims[d],
          padding));
    }
    const std::string source = writer.Affine(source_index, input_strides, 0);
    for (int i = 0; i < n; ++i) {
      writer.Move(xs[i], writer.Load(types[i], writer.Address(
                                                   writer.input(i), source,
                                                   ir::StorageSize(types[i]))));
    }
    b.Emit("bra", {combine});
    b.EmitLabel(padding);
    for (int i = 0; i < n; ++i) writer.Move(xs[i], inits[i]);
    b.EmitLabel(combine);
    if (reducer != nullptr) {
      return Fold(writer, program, instruction, *reducer, accumulators[0],
                  xs[0]);
    }
    return FoldRegion(writer, program, instruction, accumulators, xs);
  };
  if (!empty_window) {
    PJRTX_RETURN_IF_ERROR(
        writer.Loops(window.dimensions, steps, coordinates, fold));
  }
  for (int i = 0; i < n; ++i) {
    writer.Store(accumulators[i], writer.Address(writer.output(i), index,
                                                 ir::StorageSize(types[i])));
  }
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
