// select_and_scatter, serially on one thread as the CPU target computes
// it: the result starts as the init value everywhere; for each source
// element in row-major order, the select region picks one element of its
// window in the operand (the first one inside unless select prefers a
// later one; padding never competes), and the scatter region folds the
// source value into the result there. Serial, so elements picked by
// several windows fold their sources in the CPU's order whatever the
// regions; slow for large sources.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
namespace {

template <typename T>
T AtOr(const std::vector<T>& values, size_t d, T fallback) {
  return d < values.size() ? values[d] : fallback;
}

}  // namespace

absl::Status EmitSelectAndScatterKernel(KernelWriter& writer,
                                        const ir::Program& program,
                                        const ir::Instruction& instruction) {
  if (absl::Status types = CheckRegisterTypes(instruction); !types.ok()) {
    return types;
  }
  const ir::Shape& operand = instruction.operand_types[0].shape;
  const ir::Shape& source = instruction.operand_types[1].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  const ir::WindowSpec& window = instruction.attributes.window;
  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.dims);
  const size_t operand_size = ir::StorageSize(operand.type);
  const size_t source_size = ir::StorageSize(source.type);
  const size_t result_size = ir::StorageSize(result.type);
  const size_t rank = operand.dims.size();

  PtxBuilder& b = writer.builder();
  const std::string index = writer.BeginLoop();
  const std::string done = writer.NewLabel("select_done");
  // Thread 0 alone works.
  writer.BranchUnlessZero(index, done);
  // The result starts as the init value.
  PJRTX_RETURN_IF_ERROR(writer.CountedLoop(
      result.num_elements(), [&](const std::string& element) {
        writer.Copy(result_size, absl::StrCat("[", writer.input(2), "]"),
                    writer.Address(writer.output(0), element, result_size));
        return absl::OkStatus();
      }));

  int64_t positions = 1;
  for (int64_t k : window.dimensions) positions *= k;
  // Each source element in row-major order (none when windows are empty).
  PJRTX_RETURN_IF_ERROR(writer.CountedLoop(
      positions > 0 ? source.num_elements() : 0,
      [&](const std::string& u) -> absl::Status {
        const std::string after = writer.NewLabel("folded");
        const std::vector<std::string> multi = writer.Unflatten(u, source.dims);
        const std::string have = writer.NewPred();
        b.Emit("mov.pred", {have, "0"});
        const std::string selected = writer.NewB64();
        b.Emit("mov.u64", {selected, "0"});
        const Register chosen{b.NewRegister(*RegisterClassFor(operand.type)),
                              operand.type};
        std::vector<int64_t> position(rank, 0);
        for (int64_t w = 0; w < positions; ++w) {
          const std::string next_position = writer.NewLabel("position");
          // x = out * stride + position * window_dilation - pad_low, on the
          // operand dilated by base_dilation.
          std::vector<std::string> coordinates;
          for (size_t d = 0; d < rank; ++d) {
            const int64_t stride = AtOr<int64_t>(window.strides, d, 1);
            const int64_t window_dilation =
                AtOr<int64_t>(window.window_dilations, d, 1);
            const int64_t base_dilation =
                AtOr<int64_t>(window.base_dilations, d, 1);
            const int64_t pad_low =
                d < window.padding.size() ? window.padding[d].first : 0;
            const std::string x = writer.Affine(
                {multi[d]}, {stride}, position[d] * window_dilation - pad_low);
            coordinates.push_back(writer.DilatedElementOrBranch(
                x, base_dilation, operand.dims[d], next_position));
          }
          const std::string candidate =
              writer.Affine(coordinates, operand_strides, 0);
          const Register value = writer.Load(
              operand.type,
              writer.Address(writer.input(0), candidate, operand_size));
          const std::string take = writer.NewLabel("take");
          const std::string first = writer.NewPred();
          b.Emit("not.pred", {first, have});
          b.Emit(absl::StrCat("@", first, " bra"), {take});
          PJRTX_ASSIGN_OR_RETURN(
              Register keep,
              EmitScalarRegion(writer, program, instruction,
                               instruction.regions[0], {chosen, value}));
          if (keep.type != ir::ElementType::kPred) {
            return Unsupported(instruction,
                               "with a select region not returning i1");
          }
          b.Emit(absl::StrCat("@", keep.name, " bra"), {next_position});
          b.EmitLabel(take);
          b.Emit("mov.u64", {selected, candidate});
          writer.Move(chosen, value);
          b.Emit("mov.pred", {have, "1"});
          b.EmitLabel(next_position);
          for (size_t d = rank; d-- > 0;) {
            if (++position[d] < window.dimensions[d]) break;
            position[d] = 0;
          }
        }
        // Fold the source value into the result at the selected element.
        const std::string none = writer.NewPred();
        b.Emit("not.pred", {none, have});
        b.Emit(absl::StrCat("@", none, " bra"), {after});
        const std::string target =
            writer.Address(writer.output(0), selected, result_size);
        const Register current = writer.Load(result.type, target);
        const Register incoming = writer.Load(
            source.type, writer.Address(writer.input(1), u, source_size));
        PJRTX_ASSIGN_OR_RETURN(
            Register folded,
            EmitScalarRegion(writer, program, instruction,
                             instruction.regions[1], {current, incoming}));
        writer.Store(folded, target);
        b.EmitLabel(after);
        return absl::OkStatus();
      }));
  b.EmitLabel(done);
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
