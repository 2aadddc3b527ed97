#include "runtime/cpu/onednn_dot.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "runtime/cpu/cpu_features.h"
#include "runtime/cpu/index_util.h"
#include "runtime/cpu/onednn_thread.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

using dnnl::memory;
using DataType = memory::data_type;
// Sizes or strides of the three groups of an operand's matmul view, outer
// to inner: [B, M, K] for lhs, [B, K, N] for rhs, [B, M, N] for the result.
using Triple = std::array<int64_t, 3>;
// The operand dims making up each group, in the order that flattens them.
using Groups = std::array<std::vector<int64_t>, 3>;

// A transposed f32 lhs is copied to row-major first when the result has at
// least this many columns: the copy reads and writes the lhs once, the
// matmul reads it once per block of columns.
constexpr int64_t kMinColumnsToCopyTransposedLhs = 64;

// Matmuls of at least this many multiply-adds (a 64x128x128 one) run on
// the process's oneDNN thread; the hand-off costs tens of microseconds.
constexpr int64_t kMinMultiplyAddsOnOneDnnThread = int64_t{1} << 20;

// Scratch regions start on a cache line, as oneDNN's kernels prefer.
constexpr size_t kAlignment = 64;

size_t AlignUp(size_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

const dnnl::engine& CpuEngine() {
  // Never destroyed, so that plans released after static destructors ran
  // can still reach it.
  // Features first: they cap oneDNN's ISA, which it only accepts before
  // its first primitive.
  static const dnnl::engine* const engine =
      (HostCpuFeatures(), new dnnl::engine(dnnl::engine::kind::cpu, 0));
  return *engine;
}

std::optional<DataType> ToDnnl(ElementType type) {
  switch (type) {
    case ElementType::kF32:
      return DataType::f32;
    case ElementType::kBF16:
      return DataType::bf16;
    case ElementType::kS8:
      return DataType::s8;
    case ElementType::kS32:
      return DataType::s32;
    default:
      return std::nullopt;
  }
}

// The type the matmul reads its operands in, or nullopt when oneDNN does not
// run this combination.
std::optional<DataType> MatmulInputType(ElementType lhs, ElementType rhs,
                                        ElementType result,
                                        bool round_f32_to_bf16) {
  if (lhs != rhs) return std::nullopt;
  switch (lhs) {
    case ElementType::kF32:
      if (result != ElementType::kF32) return std::nullopt;
      return round_f32_to_bf16 ? DataType::bf16 : DataType::f32;
    case ElementType::kBF16:
      if (result != ElementType::kBF16 && result != ElementType::kF32) {
        return std::nullopt;
      }
      return DataType::bf16;
    case ElementType::kS8:
      if (result != ElementType::kS32) return std::nullopt;
      return DataType::s8;
    default:
      return std::nullopt;
  }
}

int64_t Product(const Shape& shape, absl::Span<const int64_t> dims) {
  int64_t product = 1;
  for (int64_t d : dims) product *= shape.dims[d];
  return product;
}

Triple PlainStrides(const Triple& sizes) {
  return {sizes[1] * sizes[2], sizes[2], 1};
}

// The stride that walks `group` of an operand as one dimension (row-major
// over the group's dims in the listed order), or nullopt when no single
// stride does. Size-1 dims constrain nothing; a group of only size-1 dims
// takes `unconstrained`.
std::optional<int64_t> GroupStride(const Shape& shape,
                                   absl::Span<const int64_t> strides,
                                   absl::Span<const int64_t> group,
                                   int64_t unconstrained) {
  std::optional<int64_t> stride;
  int64_t next = 0;  // The stride the next-outer dim must have.
  for (auto it = group.rbegin(); it != group.rend(); ++it) {
    const int64_t size = shape.dims[*it];
    if (size == 1) continue;
    if (!stride.has_value()) {
      stride = strides[*it];
    } else if (strides[*it] != next) {
      return std::nullopt;
    }
    next = strides[*it] * size;
  }
  return stride.value_or(unconstrained);
}

// A 2-d matmul view when there is no batch, which is what oneDNN's 2-d
// kernels are tuned for; 3-d otherwise.
memory::desc MatrixDesc(const Triple& sizes, const Triple& strides,
                        DataType type, bool batched) {
  if (batched) {
    return memory::desc({sizes[0], sizes[1], sizes[2]}, type,
                        {strides[0], strides[1], strides[2]});
  }
  return memory::desc({sizes[1], sizes[2]}, type, {strides[1], strides[2]});
}

dnnl::primitive_attr UserScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

// How the matmul reads one operand: in place through strides, or from a
// plain copy a reorder makes first.
struct OperandPlan {
  memory::desc matmul_desc;  // The operand as the matmul reads it.
  bool in_place_plain = false;
  bool copies = false;
  // When copying: the operand as given, the copy, and the pass between.
  memory::desc source_desc;
  memory::desc copy_desc;
  dnnl::reorder reorder;
  memory::desc scratchpad_desc;
};

// Plans `shape` read as a matmul operand of `groups` in `input_type`.
// `force_copy`: copy even when strides could describe the operand.
absl::StatusOr<OperandPlan> PlanOperand(const Shape& shape,
                                        const Groups& groups,
                                        DataType input_type, bool batched,
                                        bool force_copy) {
  const DataType type = *ToDnnl(shape.type);
  const std::vector<int64_t> strides = RowMajorStrides(shape.dims);
  Triple sizes;
  for (int g = 0; g < 3; ++g) sizes[g] = Product(shape, groups[g]);
  const Triple plain = PlainStrides(sizes);
  Triple group_strides;
  bool strided = true;
  for (int g = 0; g < 3; ++g) {
    std::optional<int64_t> stride =
        GroupStride(shape, strides, groups[g], plain[g]);
    strided = strided && stride.has_value();
    if (stride.has_value()) group_strides[g] = *stride;
  }

  OperandPlan plan;
  if (strided && !force_copy && type == input_type) {
    plan.matmul_desc = MatrixDesc(sizes, group_strides, type, batched);
    plan.in_place_plain = group_strides == plain;
    return plan;
  }
  plan.copies = true;
  plan.matmul_desc = MatrixDesc(sizes, plain, input_type, batched);
  if (strided) {
    plan.source_desc = MatrixDesc(sizes, group_strides, type, batched);
    plan.copy_desc = plan.matmul_desc;
  } else {
    // Every dim, in group order; size-1 dims move no data and are left out.
    memory::dims dims, source_strides;
    for (const std::vector<int64_t>& group : groups) {
      for (int64_t d : group) {
        if (shape.dims[d] == 1) continue;
        dims.push_back(shape.dims[d]);
        source_strides.push_back(strides[d]);
      }
    }
    if (dims.size() > DNNL_MAX_NDIMS) {
      return absl::UnimplementedError(
          absl::StrCat("oneDNN reorders at most ", DNNL_MAX_NDIMS, " dims; ",
                       shape.ToString(), " needs ", dims.size()));
    }
    plan.source_desc = memory::desc(dims, type, source_strides);
    plan.copy_desc = memory::desc(dims, input_type, RowMajorStrides(dims));
  }
  dnnl::reorder::primitive_desc pd(CpuEngine(), plan.source_desc, CpuEngine(),
                                   plan.copy_desc, UserScratchpad());
  plan.reorder = dnnl::reorder(pd);
  plan.scratchpad_desc = pd.scratchpad_desc();
  return plan;
}

}  // namespace

struct OneDnnDot::Plan {
  size_t result_bytes = 0;
  // False when the result is empty or K is 0: Run then writes zeros.
  bool runs_matmul = false;
  int64_t multiply_adds = 0;  // B * M * N * K.
  OperandPlan lhs, rhs;
  memory::desc result_desc;
  dnnl::matmul matmul;
  memory::desc scratchpad_desc;
  std::string implementation;
  // Run's scratch: [lhs copy][rhs copy][scratchpad shared by the passes].
  size_t rhs_copy_offset = 0;
  size_t scratchpad_offset = 0;
  size_t scratch_bytes = 0;
};

OneDnnDot::OneDnnDot(std::unique_ptr<const Plan> plan)
    : plan_(std::move(plan)) {}

OneDnnDot::~OneDnnDot() = default;

absl::StatusOr<std::unique_ptr<OneDnnDot>> OneDnnDot::Create(
    const Shape& lhs, const Shape& rhs, const ir::DotDimensions& dims,
    const Shape& result, bool round_f32_to_bf16) {
  const std::optional<DataType> input_type =
      MatmulInputType(lhs.type, rhs.type, result.type, round_f32_to_bf16);
  if (!input_type.has_value()) {
    return absl::UnimplementedError(
        absl::StrCat("oneDNN matmul does not run ", lhs.ToString(), " x ",
                     rhs.ToString(), " -> ", result.ToString()));
  }
  if (*input_type == DataType::s8 && !HostCpuFeatures().exact_int8_matmul) {
    return absl::UnimplementedError(
        "oneDNN's int8 matmul saturates on this CPU (no VNNI or AMX)");
  }
  const std::vector<int64_t> lhs_free =
      ir::FreeDimensions(lhs.rank(), dims.lhs_batching, dims.lhs_contracting);
  const std::vector<int64_t> rhs_free =
      ir::FreeDimensions(rhs.rank(), dims.rhs_batching, dims.rhs_contracting);
  const Groups lhs_groups = {dims.lhs_batching, lhs_free, dims.lhs_contracting};
  const Groups rhs_groups = {dims.rhs_batching, dims.rhs_contracting, rhs_free};
  const Triple result_sizes = {Product(lhs, dims.lhs_batching),
                               Product(lhs, lhs_free), Product(rhs, rhs_free)};

  auto plan = std::make_unique<Plan>();
  plan->result_bytes = result.size_bytes();
  plan->runs_matmul =
      result.num_elements() > 0 && Product(lhs, dims.lhs_contracting) > 0;
  plan->multiply_adds =
      result.num_elements() * Product(lhs, dims.lhs_contracting);
  if (!plan->runs_matmul) {
    return std::unique_ptr<OneDnnDot>(new OneDnnDot(std::move(plan)));
  }
  const bool batched = result_sizes[0] > 1;
  // oneDNN reports errors as exceptions; none escapes this function.
  try {
    auto make_matmul = [&] {
      dnnl::matmul::primitive_desc pd(
          dnnl::matmul::desc(plan->lhs.matmul_desc, plan->rhs.matmul_desc,
                             plan->result_desc),
          UserScratchpad(), CpuEngine());
      plan->matmul = dnnl::matmul(pd);
      plan->scratchpad_desc = pd.scratchpad_desc();
      plan->implementation = pd.impl_info_str();
    };
    PJRTX_ASSIGN_OR_RETURN(
        OperandPlan lhs_plan,
        PlanOperand(lhs, lhs_groups, *input_type, batched, false));
    PJRTX_ASSIGN_OR_RETURN(
        OperandPlan rhs_plan,
        PlanOperand(rhs, rhs_groups, *input_type, batched, false));
    plan->lhs = std::move(lhs_plan);
    plan->rhs = std::move(rhs_plan);
    plan->result_desc = MatrixDesc(result_sizes, PlainStrides(result_sizes),
                                   *ToDnnl(result.type), batched);
    // oneDNN's f32 GEMM runs a transposed lhs (K outermost, as in the
    // weight gradients dW = x^T . dy that JAX's autodiff emits) about 1.5x
    // slower than a plain one; a transposing copy costs a few percent of a
    // matmul whose result has enough columns to amortize it.
    if (!batched && *input_type == DataType::f32 && !plan->lhs.copies &&
        !plan->lhs.in_place_plain &&
        result_sizes[2] >= kMinColumnsToCopyTransposedLhs) {
      PJRTX_ASSIGN_OR_RETURN(
          plan->lhs, PlanOperand(lhs, lhs_groups, *input_type, batched, true));
    }
    make_matmul();
    // oneDNN's reference matmul, its answer to unusual strides, is orders
    // of magnitude slower than a copy into a layout its fast kernels read.
    if (absl::StartsWith(plan->implementation, "ref")) {
      bool replanned = false;
      for (auto [operand, shape, groups] :
           {std::tuple{&plan->lhs, &lhs, &lhs_groups},
            std::tuple{&plan->rhs, &rhs, &rhs_groups}}) {
        if (operand->copies || operand->in_place_plain) continue;
        PJRTX_ASSIGN_OR_RETURN(
            *operand, PlanOperand(*shape, *groups, *input_type, batched, true));
        replanned = true;
      }
      if (replanned) make_matmul();
    }
  } catch (const dnnl::error& e) {
    // Typically bf16 on a CPU without AVX-512, which oneDNN 2.6 lacks
    // kernels for.
    return absl::UnimplementedError(absl::StrCat(
        "oneDNN has no matmul for ", lhs.ToString(), " x ", rhs.ToString(),
        " -> ", result.ToString(), " on this CPU: ", e.what()));
  }

  const size_t lhs_copy = plan->lhs.copies ? plan->lhs.copy_desc.get_size() : 0;
  const size_t rhs_copy = plan->rhs.copies ? plan->rhs.copy_desc.get_size() : 0;
  size_t scratchpad = plan->scratchpad_desc.get_size();
  for (const OperandPlan* operand : {&plan->lhs, &plan->rhs}) {
    if (operand->copies) {
      scratchpad = std::max(scratchpad, operand->scratchpad_desc.get_size());
    }
  }
  plan->rhs_copy_offset = AlignUp(lhs_copy);
  plan->scratchpad_offset = plan->rhs_copy_offset + AlignUp(rhs_copy);
  plan->scratch_bytes = plan->scratchpad_offset + AlignUp(scratchpad);
  return std::unique_ptr<OneDnnDot>(new OneDnnDot(std::move(plan)));
}

absl::Status OneDnnDot::Run(const void* lhs, const void* rhs, void* out) const {
  const Plan& plan = *plan_;
  if (!plan.runs_matmul) {
    // A sum over an empty K is zero; an empty result has no bytes.
    if (plan.result_bytes > 0) std::memset(out, 0, plan.result_bytes);
    return absl::OkStatus();
  }
  // Scratch per run, not per plan, so that concurrent runs share nothing.
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::unique_ptr<void, Free> scratch;
  if (plan.scratch_bytes > 0) {
    scratch.reset(std::aligned_alloc(kAlignment, plan.scratch_bytes));
    if (scratch == nullptr) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "dot_general scratch of ", plan.scratch_bytes, " bytes"));
    }
  }
  uint8_t* const base = static_cast<uint8_t*>(scratch.get());
  absl::Status status;
  auto run = [&] {
    try {
      const dnnl::engine& engine = CpuEngine();
      dnnl::stream stream(engine);
      // Adds the scratchpad argument a primitive asks for (none when its
      // scratchpad is empty).
      auto with_scratchpad = [&](const memory::desc& desc,
                                 std::unordered_map<int, memory> args) {
        if (desc.get_size() > 0) {
          args.emplace(DNNL_ARG_SCRATCHPAD,
                       memory(desc, engine, base + plan.scratchpad_offset));
        }
        return args;
      };
      auto read = [&](const OperandPlan& operand, const void* data,
                      uint8_t* copy) {
        // oneDNN takes non-const handles; it only reads sources.
        void* const handle = const_cast<void*>(data);
        if (!operand.copies) return memory(operand.matmul_desc, engine, handle);
        operand.reorder.execute(
            stream,
            with_scratchpad(
                operand.scratchpad_desc,
                {{DNNL_ARG_FROM, memory(operand.source_desc, engine, handle)},
                 {DNNL_ARG_TO, memory(operand.copy_desc, engine, copy)}}));
        return memory(operand.matmul_desc, engine, copy);
      };
      memory a = read(plan.lhs, lhs, base);
      memory b = read(plan.rhs, rhs, base + plan.rhs_copy_offset);
      plan.matmul.execute(
          stream, with_scratchpad(
                      plan.scratchpad_desc,
                      {{DNNL_ARG_SRC, a},
                       {DNNL_ARG_WEIGHTS, b},
                       {DNNL_ARG_DST, memory(plan.result_desc, engine, out)}}));
      stream.wait();
    } catch (const dnnl::error& e) {
      status = absl::InternalError(
          absl::StrCat("oneDNN dot_general failed: ", e.what()));
    }
  };
  // Large matmuls run on the one thread that calls oneDNN (one OpenMP
  // team, onednn_thread.h); small ones here, where the hand-off would cost
  // more than the matmul.
  if (plan.multiply_adds >= kMinMultiplyAddsOnOneDnnThread) {
    RunOnOneDnnThread(run);
  } else {
    run();
  }
  return status;
}

std::string OneDnnDot::implementation() const { return plan_->implementation; }

bool OneDnnDot::copies_lhs() const { return plan_->lhs.copies; }

bool OneDnnDot::copies_rhs() const { return plan_->rhs.copies; }

}  // namespace pjrtx::cpu
