// TPU slice and pod shapes: parsing `v5e:2x2`-style names and laying out
// chips, slices and hosts.
#ifndef PJRTX_PLUGINS_TPU_EMU_TOPOLOGY_H_
#define PJRTX_PLUGINS_TPU_EMU_TOPOLOGY_H_

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tpu_emu {

// One slice's chip grid and the generation it emulates.
struct SliceShape {
  std::string generation;       // "v5e", "v4", ...
  std::string device_kind;      // "TPU v5 lite (emulated)".
  std::array<int64_t, 3> dims;  // x, y, z; z = 1 for 2-D generations.
  int rank = 2;                 // 2 or 3 axes in the name.

  int64_t num_chips() const { return dims[0] * dims[1] * dims[2]; }
  std::string ToString() const;  // Canonical name, e.g. "v5e:2x2".
  // Coordinates of linear chip index `chip` (x fastest).
  std::array<int64_t, 3> Coords(int64_t chip) const;
};

// Parses "<generation>:<X>x<Y>" (2-D generations) or "<X>x<Y>x<Z>" (3-D).
// INVALID_ARGUMENT names the bad value and lists the valid forms.
absl::StatusOr<SliceShape> ParseSliceShape(absl::string_view text);

// The valid forms, for messages and help: "v5e:2x2, v5e:4x4, ...".
std::string ValidTopologyForms();

// Where this process sits in a multislice job.
struct JobLayout {
  SliceShape slice;
  int64_t num_slices = 1;
  int64_t slice_index = 0;
  int64_t hosts_per_slice = 1;
  int64_t host_index = 0;

  int64_t chips_per_host() const { return slice.num_chips() / hosts_per_slice; }
  int64_t process_index() const {
    return slice_index * hosts_per_slice + host_index;
  }
  // Checks the indices against the counts; INVALID_ARGUMENT naming the
  // value and the valid range otherwise.
  absl::Status Validate() const;
};

}  // namespace tpu_emu

#endif  // PJRTX_PLUGINS_TPU_EMU_TOPOLOGY_H_
