// The flags every multi-process sample takes: where the plugin is, how many
// slices (processes) and what each slice is.
#ifndef PJRTX_SAMPLES_COMMON_JOB_FLAGS_H_
#define PJRTX_SAMPLES_COMMON_JOB_FLAGS_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace samples {

struct JobFlags {
  std::string plugin;  // The tpu_emu plugin by default (set by the sample).
  int64_t slices = 2;  // 1..64.
  std::string topology = "v5e:2x2";
};

// When `arg` is --plugin=, --slices= or --topology=, stores its value in
// `flags`, sets `*valid` to whether the value is acceptable and returns
// true; returns false for any other argument.
bool ConsumeJobFlag(absl::string_view arg, JobFlags& flags, bool* valid);

}  // namespace samples

#endif  // PJRTX_SAMPLES_COMMON_JOB_FLAGS_H_
