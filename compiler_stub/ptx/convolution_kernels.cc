// convolution with one thread per output element, walking the window
// positions in row-major order (unrolled: the window is known when
// compiling) and, at each position inside the padded, dilated input, the
// input features, accumulating as the CPU's reference kernel
// (runtime/cpu/convolution_kernel.cc) does (accumulation.h), so results
// are the same bits. Strides, padding, input and kernel dilation, window
// reversal and feature or batch grouping, over any dimension numbers.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/accumulation.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
namespace {

using ir::ElementType;
using ir::Instruction;

template <typename T>
T AtOr(const std::vector<T>& values, size_t d, T fallback) {
  return d < values.size() ? values[d] : fallback;
}

// `value` (a .b64 register or "0") times `factor`, in a new register.
std::string Times(KernelWriter& writer, const std::string& value,
                  int64_t factor) {
  if (value == "0") return value;
  const std::string r = writer.NewB64();
  writer.builder().Emit("mul.lo.u64", {r, value, Immediate(factor)});
  return r;
}

// `value` / `divisor` (unsigned, a constant), in a new register.
std::string Over(KernelWriter& writer, const std::string& value,
                 int64_t divisor) {
  if (value == "0" || divisor == 1) return value;
  const std::string r = writer.NewB64();
  writer.builder().Emit("div.u64", {r, value, Immediate(divisor)});
  return r;
}

}  // namespace

absl::Status EmitConvolutionKernel(KernelWriter& writer,
                                   const Instruction& instruction) {
  PJRTX_ASSIGN_OR_RETURN(ElementType acc_type, AccumulatorFor(instruction));
  const ir::Shape& lhs = instruction.operand_types[0].shape;
  const ir::Shape& rhs = instruction.operand_types[1].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  const ir::OpAttributes& a = instruction.attributes;
  const ir::ConvolutionDimensions& dims = a.convolution;
  const ir::ConvolutionWindow& window = a.convolution_window;
  const std::vector<int64_t> lhs_strides = RowMajorStrides(lhs.dims);
  const std::vector<int64_t> rhs_strides = RowMajorStrides(rhs.dims);
  const size_t spatial = dims.input_spatial.size();

  const int64_t output_features = result.dims[dims.output_feature];
  const int64_t output_batch = result.dims[dims.output_batch];
  const int64_t input_features = rhs.dims[dims.kernel_input_feature];
  const int64_t per_feature_group =
      std::max<int64_t>(output_features / a.feature_group_count, 1);
  const int64_t per_batch_group =
      std::max<int64_t>(output_features / a.batch_group_count, 1);
  const int64_t lhs_feature_stride = lhs_strides[dims.input_feature];
  const int64_t rhs_feature_stride = rhs_strides[dims.kernel_input_feature];
  std::vector<int64_t> kernel_dims;
  for (size_t d = 0; d < spatial; ++d) {
    kernel_dims.push_back(rhs.dims[dims.kernel_spatial[d]]);
  }

  PtxBuilder& b = writer.builder();
  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi = writer.Unflatten(index, result.dims);
  // Grouping: with feature groups, output feature f reads input features
  // [g * Ki, (g + 1) * Ki) for its group g; with batch groups it reads
  // input batch b + g * (output batch size).
  const std::string feature = multi[dims.output_feature];
  const std::string feature_group = Over(writer, feature, per_feature_group);
  const std::string batch_group = Over(writer, feature, per_batch_group);
  const std::string lhs_base =
      writer.Affine({multi[dims.output_batch], batch_group, feature_group},
                    {lhs_strides[dims.input_batch],
                     output_batch * lhs_strides[dims.input_batch],
                     input_features * lhs_feature_stride},
                    0);
  const std::string rhs_base =
      Times(writer, feature, rhs_strides[dims.kernel_output_feature]);
  const Register acc = NewAccumulator(writer, acc_type);

  // Each window position, row-major over the kernel's spatial dimensions.
  int64_t positions = input_features == 0 ? 0 : 1;
  for (int64_t k : kernel_dims) positions *= k;
  std::vector<int64_t> position(spatial, 0);
  for (int64_t w = 0; w < positions; ++w) {
    // The input coordinate x = out * stride + position * rhs_dilation -
    // pad_low lies in the padded, dilated input; padding and the holes of
    // dilation contribute zeros, so those positions are skipped.
    std::string inside;
    std::vector<std::string> lhs_terms = {lhs_base};
    std::vector<int64_t> lhs_coefficients = {1};
    int64_t kernel_offset = 0;
    for (size_t d = 0; d < spatial; ++d) {
      const int64_t stride = AtOr<int64_t>(window.strides, d, 1);
      const int64_t pad_low =
          AtOr<std::pair<int64_t, int64_t>>(window.padding, d, {0, 0}).first;
      const int64_t lhs_dilation = AtOr<int64_t>(window.lhs_dilation, d, 1);
      const int64_t rhs_dilation = AtOr<int64_t>(window.rhs_dilation, d, 1);
      const int64_t input_size = lhs.dims[dims.input_spatial[d]];
      const int64_t dilated = (input_size - 1) * lhs_dilation + 1;
      const std::string x =
          writer.Affine({multi[dims.output_spatial[d]]}, {stride},
                        position[d] * rhs_dilation - pad_low);
      std::vector<std::string> checks;
      const std::string not_below = writer.NewPred();
      b.Emit("setp.ge.s64", {not_below, x, "0"});
      checks.push_back(not_below);
      const std::string not_above = writer.NewPred();
      b.Emit("setp.lt.s64", {not_above, x, Immediate(dilated)});
      checks.push_back(not_above);
      std::string source = x;
      if (lhs_dilation > 1) {
        const std::string remainder = writer.NewB64();
        b.Emit("rem.s64", {remainder, x, Immediate(lhs_dilation)});
        const std::string on_point = writer.NewPred();
        b.Emit("setp.eq.s64", {on_point, remainder, "0"});
        checks.push_back(on_point);
        source = writer.NewB64();
        b.Emit("div.s64", {source, x, Immediate(lhs_dilation)});
      }
      for (const std::string& check : checks) {
        if (inside.empty()) {
          inside = check;
          continue;
        }
        const std::string both = writer.NewPred();
        b.Emit("and.pred", {both, inside, check});
        inside = both;
      }
      lhs_terms.push_back(source);
      lhs_coefficients.push_back(lhs_strides[dims.input_spatial[d]]);
      const bool reversed = AtOr<bool>(window.window_reversal, d, false);
      kernel_offset +=
          (reversed ? kernel_dims[d] - 1 - position[d] : position[d]) *
          rhs_strides[dims.kernel_spatial[d]];
    }
    const std::string lhs_offset =
        writer.Affine(lhs_terms, lhs_coefficients, 0);
    const std::string rhs_offset =
        writer.Affine({rhs_base}, {1}, kernel_offset);
    const std::string skip = writer.NewLabel("skip");
    if (!inside.empty()) {
      const std::string outside = writer.NewPred();
      b.Emit("not.pred", {outside, inside});
      b.Emit(absl::StrCat("@", outside, " bra"), {skip});
    }
    PJRTX_RETURN_IF_ERROR(writer.Loops(
        {input_features}, {{lhs_feature_stride}, {rhs_feature_stride}},
        {lhs_offset, rhs_offset}, [&]() {
          return LoadMultiplyAccumulate(writer, instruction, acc, lhs_offset,
                                        rhs_offset);
        }));
    b.EmitLabel(skip);
    // The next position, row-major.
    for (size_t d = spatial; d-- > 0;) {
      if (++position[d] < kernel_dims[d]) break;
      position[d] = 0;
    }
  }
  PJRTX_RETURN_IF_ERROR(StoreAccumulator(writer, instruction, acc, index));
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
