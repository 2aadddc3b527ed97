// Error handling for sample programs: a failed step ends the program with
// a line naming the step and the error.
#ifndef PJRTX_SAMPLES_COMMON_MUST_H_
#define PJRTX_SAMPLES_COMMON_MUST_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace samples {

// Prints "<program>: <what>: <status>" to stderr and exits 1.
[[noreturn]] void Fail(absl::string_view what, const absl::Status& status);

template <typename T>
T Must(absl::StatusOr<T> value, absl::string_view what) {
  if (!value.ok()) Fail(what, value.status());
  return *std::move(value);
}

inline void Must(const absl::Status& status, absl::string_view what) {
  if (!status.ok()) Fail(what, status);
}

}  // namespace samples

#endif  // PJRTX_SAMPLES_COMMON_MUST_H_
