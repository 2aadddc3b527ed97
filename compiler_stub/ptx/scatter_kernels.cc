// scatter, serially on one thread: it copies the operands to the results,
// then applies every update element in row-major order (so that updates
// to the same element combine in the order the CPU target combines them,
// whatever the update region), skipping those whose target lies outside
// the operands, as the CPU does. Several operands share their indices and
// their region combines them together. One thread is slow for large
// updates but exact for any region and any duplicate indices.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/index_vectors.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
using ir::Instruction;

absl::Status EmitScatterKernel(KernelWriter& writer, const ir::Program& program,
                               const Instruction& instruction) {
  // n operands, the indices, n updates.
  const int n = static_cast<int>(instruction.operands.size() - 1) / 2;
  if (absl::Status types = CheckRegisterTypes(instruction); !types.ok()) {
    return types;
  }
  const ir::ScatterDimensions& dims = instruction.attributes.scatter;
  const ir::Shape& operand = instruction.operand_types[0].shape;
  const ir::Shape& updates = instruction.operand_types[n + 1].shape;
  for (int k = 1; k < n; ++k) {
    if (instruction.operand_types[k].shape.dims != operand.dims ||
        instruction.operand_types[n + 1 + k].shape.dims != updates.dims) {
      return Unsupported(instruction, "with operands of different shapes");
    }
  }
  const int64_t rank = static_cast<int64_t>(operand.dims.size());
  PJRTX_ASSIGN_OR_RETURN(
      IndexVectors vectors,
      IndexVectors::Create(instruction, n, dims.index_vector_dim,
                           static_cast<int64_t>(updates.dims.size()),
                           dims.update_window_dims));
  const std::vector<int64_t> window_source =
      WindowSources(rank, dims.update_window_dims, dims.inserted_window_dims,
                    dims.input_batching_dims);
  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.dims);

  PtxBuilder& b = writer.builder();
  const std::string index = writer.BeginLoop();
  const std::string done = writer.NewLabel("scatter_done");
  // Thread 0 alone works.
  writer.BranchUnlessZero(index, done);
  // The results start as the operands.
  PJRTX_RETURN_IF_ERROR(writer.CountedLoop(
      operand.num_elements(), [&](const std::string& element) {
        for (int k = 0; k < n; ++k) {
          const size_t size =
              ir::StorageSize(instruction.operand_types[k].shape.type);
          writer.Copy(size, writer.Address(writer.input(k), element, size),
                      writer.Address(writer.output(k), element, size));
        }
        return absl::OkStatus();
      }));

  // Each update element in row-major order.
  PJRTX_RETURN_IF_ERROR(writer.CountedLoop(
      updates.num_elements(), [&](const std::string& u) -> absl::Status {
        const std::string skip = writer.NewLabel("skip");
        const std::vector<std::string> multi =
            writer.Unflatten(u, updates.dims);
        // Per operand dimension: the window offset (or batching coordinate),
        // and the start read from scatter_indices.
        std::vector<std::string> offsets(rank, "0"), starts(rank, "0");
        for (int64_t d = 0; d < rank; ++d) {
          if (window_source[d] >= 0) offsets[d] = multi[window_source[d]];
        }
        for (size_t i = 0; i < dims.input_batching_dims.size(); ++i) {
          offsets[dims.input_batching_dims[i]] =
              multi[vectors.WalkedDim(dims.scatter_indices_batching_dims[i])];
        }
        for (size_t i = 0; i < dims.scatter_dims_to_operand_dims.size(); ++i) {
          PJRTX_ASSIGN_OR_RETURN(
              std::string component,
              vectors.Component(writer, multi, static_cast<int64_t>(i)));
          starts[dims.scatter_dims_to_operand_dims[i]] = component;
        }
        // Inside the operand in every dimension (start compared, not added:
        // it comes from data and may be huge), and the target element.
        std::vector<std::string> coordinates;
        for (int64_t d = 0; d < rank; ++d) {
          const std::string limit = Immediate(operand.dims[d]);
          if (starts[d] == "0") {
            // A window offset alone (never negative).
            if (offsets[d] != "0") {
              const std::string above = writer.NewPred();
              b.Emit("setp.ge.u64", {above, offsets[d], limit});
              b.Emit(absl::StrCat("@", above, " bra"), {skip});
            }
            coordinates.push_back(offsets[d]);
            continue;
          }
          std::string low = "0";
          std::string high = limit;
          if (offsets[d] != "0") {
            low = writer.NewB64();
            b.Emit("neg.s64", {low, offsets[d]});
            high = writer.NewB64();
            b.Emit("sub.s64", {high, limit, offsets[d]});
          }
          const std::string below = writer.NewPred();
          b.Emit("setp.lt.s64", {below, starts[d], low});
          b.Emit(absl::StrCat("@", below, " bra"), {skip});
          const std::string above = writer.NewPred();
          b.Emit("setp.ge.s64", {above, starts[d], high});
          b.Emit(absl::StrCat("@", above, " bra"), {skip});
          std::string coordinate = starts[d];
          if (offsets[d] != "0") {
            coordinate = writer.NewB64();
            b.Emit("add.s64", {coordinate, starts[d], offsets[d]});
          }
          coordinates.push_back(coordinate);
        }
        const std::string target =
            writer.Affine(coordinates, operand_strides, 0);
        std::vector<std::string> target_addresses;
        std::vector<Register> arguments;
        for (int k = 0; k < n; ++k) {
          const ir::ElementType type = instruction.operand_types[k].shape.type;
          target_addresses.push_back(
              writer.Address(writer.output(k), target, ir::StorageSize(type)));
          arguments.push_back(writer.Load(type, target_addresses.back()));
        }
        for (int k = 0; k < n; ++k) {
          const ir::ElementType type =
              instruction.operand_types[n + 1 + k].shape.type;
          arguments.push_back(
              writer.Load(type, writer.Address(writer.input(n + 1 + k), u,
                                               ir::StorageSize(type))));
        }
        PJRTX_ASSIGN_OR_RETURN(
            std::vector<Register> combined,
            EmitScalarRegionResults(writer, program, instruction,
                                    instruction.regions[0], arguments));
        if (combined.size() != static_cast<size_t>(n)) {
          return Unsupported(instruction, "with a region of the wrong arity");
        }
        for (int k = 0; k < n; ++k) {
          writer.Store(combined[k], target_addresses[k]);
        }
        b.EmitLabel(skip);
        return absl::OkStatus();
      }));
  b.EmitLabel(done);
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
