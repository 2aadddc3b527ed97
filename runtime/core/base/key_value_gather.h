// One value from each process of a job through the key-value store: every
// process puts its own and reads the others', all within one deadline, and
// the processes that never put theirs are named rather than waited for one
// after another.
#ifndef PJRTX_RUNTIME_CORE_BASE_KEY_VALUE_GATHER_H_
#define PJRTX_RUNTIME_CORE_BASE_KEY_VALUE_GATHER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "runtime/core/base/key_value_store.h"

namespace pjrtx {

struct GatheredValues {
  // By process, this one's included.
  std::map<int, std::string> values;
  // The processes whose value did not come within the timeout, in order.
  std::vector<int> missing;
};

// Puts `value` under `prefix` + `mine`, then reads `prefix` + p for every
// other p of `processes`, waiting `timeout_ms` in all. A store error other
// than a timeout is returned, naming the process it was reading.
absl::StatusOr<GatheredValues> PublishAndGather(KeyValueStore& store,
                                                absl::string_view prefix,
                                                int mine,
                                                absl::string_view value,
                                                absl::Span<const int> processes,
                                                int64_t timeout_ms);

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_KEY_VALUE_GATHER_H_
