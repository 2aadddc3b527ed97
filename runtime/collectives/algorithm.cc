#include "runtime/collectives/algorithm.h"

#include "absl/strings/str_cat.h"

namespace pjrtx::collectives {

absl::string_view AlgorithmName(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::kAuto:
      return "auto";
    case Algorithm::kRing:
      return "ring";
    case Algorithm::kHalvingDoubling:
      return "halving_doubling";
    case Algorithm::kHierarchical:
      return "hierarchical";
  }
  return "unknown";
}

absl::StatusOr<Algorithm> ParseAlgorithm(absl::string_view text) {
  for (Algorithm algorithm :
       {Algorithm::kAuto, Algorithm::kRing, Algorithm::kHalvingDoubling,
        Algorithm::kHierarchical}) {
    if (text == AlgorithmName(algorithm)) return algorithm;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown collective algorithm '", text,
                   "'; expected one of auto, ring, halving_doubling, "
                   "hierarchical"));
}

absl::StatusOr<Algorithm> ChooseAlgorithm(Algorithm requested, size_t bytes,
                                          int size, int num_slices,
                                          const GetEnvFunction& get_env) {
  Algorithm chosen = requested;
  if (chosen == Algorithm::kAuto) {
    const char* value = get_env(kAlgorithmEnvironmentVariable);
    if (value != nullptr && *value != '\0') {
      absl::StatusOr<Algorithm> parsed = ParseAlgorithm(value);
      if (!parsed.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            kAlgorithmEnvironmentVariable, ": ", parsed.status().message()));
      }
      chosen = *parsed;
    }
  }
  const bool sliced =
      num_slices > 1 && size > num_slices && size % num_slices == 0;
  if (chosen == Algorithm::kAuto) {
    if (sliced) return Algorithm::kHierarchical;
    return bytes < kSmallMessageBytes ? Algorithm::kHalvingDoubling
                                      : Algorithm::kRing;
  }
  if (chosen == Algorithm::kHierarchical &&
      (num_slices < 1 || size % num_slices != 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("hierarchical all-reduce needs equal slices, but ", size,
                     " ranks do not split into ", num_slices,
                     " slices; expected a slice count dividing the rank "
                     "count"));
  }
  return chosen;
}

}  // namespace pjrtx::collectives
