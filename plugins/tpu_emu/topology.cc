#include "plugins/tpu_emu/topology.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace tpu_emu {
namespace {

struct Generation {
  const char* name;
  const char* device_kind;
  int rank;
};

// TPU generations with 2-D (torus-less or 2-D torus) or 3-D chip grids.
constexpr Generation kGenerations[] = {
    {"v2", "TPU v2 (emulated)", 2},   {"v3", "TPU v3 (emulated)", 2},
    {"v4", "TPU v4 (emulated)", 3},   {"v5e", "TPU v5 lite (emulated)", 2},
    {"v5p", "TPU v5p (emulated)", 3}, {"v6e", "TPU v6 lite (emulated)", 2},
};

// A slice is at most this many chips along an axis and in total, which
// covers every real slice shape and keeps one process's bookkeeping small.
constexpr int64_t kMaxAxis = 64;
constexpr int64_t kMaxChips = 4096;

absl::Status BadTopology(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("Invalid topology '", text, "': ", why,
                   ". Valid forms: ", ValidTopologyForms()));
}

}  // namespace

std::string ValidTopologyForms() {
  return "<generation>:<X>x<Y> for v2, v3, v5e, v6e (e.g. v5e:2x2, v5e:4x4, "
         "v5e:16x16) and <generation>:<X>x<Y>x<Z> for v4, v5p (e.g. "
         "v4:2x2x2); each axis 1..64, at most 4096 chips";
}

std::string SliceShape::ToString() const {
  std::vector<int64_t> axes(dims.begin(), dims.begin() + rank);
  return absl::StrCat(generation, ":", absl::StrJoin(axes, "x"));
}

std::array<int64_t, 3> SliceShape::Coords(int64_t chip) const {
  return {chip % dims[0], (chip / dims[0]) % dims[1],
          chip / (dims[0] * dims[1])};
}

absl::StatusOr<SliceShape> ParseSliceShape(absl::string_view text) {
  std::vector<absl::string_view> parts = absl::StrSplit(text, ':');
  if (parts.size() != 2) return BadTopology(text, "expected one ':'");
  const Generation* generation = nullptr;
  for (const Generation& g : kGenerations) {
    if (parts[0] == g.name) generation = &g;
  }
  if (generation == nullptr) {
    return BadTopology(text,
                       absl::StrCat("unknown generation '", parts[0], "'"));
  }
  std::vector<absl::string_view> axes = absl::StrSplit(parts[1], 'x');
  if (static_cast<int>(axes.size()) != generation->rank) {
    return BadTopology(text, absl::StrCat(generation->name, " needs ",
                                          generation->rank, " axes"));
  }
  SliceShape shape;
  shape.generation = generation->name;
  shape.device_kind = generation->device_kind;
  shape.rank = generation->rank;
  shape.dims = {1, 1, 1};
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t n;
    if (!absl::SimpleAtoi(axes[i], &n) || n < 1 || n > kMaxAxis) {
      return BadTopology(
          text, absl::StrCat("axis '", axes[i], "' is not an integer in 1..",
                             kMaxAxis));
    }
    shape.dims[i] = n;
  }
  if (shape.num_chips() > kMaxChips) {
    return BadTopology(text, absl::StrCat(shape.num_chips(),
                                          " chips is more than ", kMaxChips));
  }
  return shape;
}

absl::Status JobLayout::Validate() const {
  if (num_slices < 1 || num_slices > 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_slices is ", num_slices, "; expected 1..1024"));
  }
  if (slice_index < 0 || slice_index >= num_slices) {
    return absl::InvalidArgumentError(
        absl::StrCat("slice_index is ", slice_index, "; expected 0..",
                     num_slices - 1, " for num_slices=", num_slices));
  }
  if (hosts_per_slice < 1 || slice.num_chips() % hosts_per_slice != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "hosts_per_slice is ", hosts_per_slice, "; expected a divisor of the ",
        slice.num_chips(), " chips of ", slice.ToString()));
  }
  if (host_index < 0 || host_index >= hosts_per_slice) {
    return absl::InvalidArgumentError(absl::StrCat(
        "host_index is ", host_index, "; expected 0..", hosts_per_slice - 1,
        " for hosts_per_slice=", hosts_per_slice));
  }
  return absl::OkStatus();
}

}  // namespace tpu_emu
