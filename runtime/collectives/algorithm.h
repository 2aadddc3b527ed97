// Which all-reduce algorithm a call uses: asked for by the caller, forced
// by the environment, or picked from the buffer size and topology.
#ifndef PJRTX_RUNTIME_COLLECTIVES_ALGORITHM_H_
#define PJRTX_RUNTIME_COLLECTIVES_ALGORITHM_H_

#include <cstddef>
#include <cstdlib>
#include <functional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace pjrtx::collectives {

enum class Algorithm { kAuto, kRing, kHalvingDoubling, kHierarchical };

// The environment variable that overrides the choice for every call that
// does not ask for an algorithm itself.
inline constexpr char kAlgorithmEnvironmentVariable[] =
    "PJRTX_COLLECTIVE_ALGORITHM";

// Below this many bytes latency dominates, and halving/doubling's log2(p)
// steps beat the ring's p-1; both send the same bytes.
inline constexpr size_t kSmallMessageBytes = 64 * 1024;

// "auto", "ring", "halving_doubling" or "hierarchical".
absl::string_view AlgorithmName(Algorithm algorithm);

// The inverse of AlgorithmName; INVALID_ARGUMENT naming `text` and the
// accepted names otherwise.
absl::StatusOr<Algorithm> ParseAlgorithm(absl::string_view text);

// Looks up an environment variable, as std::getenv does (nullptr when
// unset). Injectable so that tests need not touch the process environment.
using GetEnvFunction = std::function<const char*(const char*)>;

// The algorithm for an all-reduce of `bytes` over `size` ranks in
// `num_slices` equal slices: `requested` unless it is kAuto; else the
// environment variable's value unless unset, empty or "auto"; else
// hierarchical for several slices, halving/doubling below
// kSmallMessageBytes, and ring above. Never returns kAuto.
// INVALID_ARGUMENT for a bad environment value (naming the variable), or
// when hierarchical is asked for and `num_slices` does not divide `size`.
absl::StatusOr<Algorithm> ChooseAlgorithm(
    Algorithm requested, size_t bytes, int size, int num_slices,
    const GetEnvFunction& get_env = [](const char* name) {
      return std::getenv(name);
    });

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_ALGORITHM_H_
