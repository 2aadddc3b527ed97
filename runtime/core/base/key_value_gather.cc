#include "runtime/core/base/key_value_gather.h"

#include <algorithm>
#include <chrono>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pjrtx {

absl::StatusOr<GatheredValues> PublishAndGather(KeyValueStore& store,
                                                absl::string_view prefix,
                                                int mine,
                                                absl::string_view value,
                                                absl::Span<const int> processes,
                                                int64_t timeout_ms) {
  if (absl::Status put = store.Put(absl::StrCat(prefix, mine), value);
      !put.ok()) {
    return absl::Status(put.code(), absl::StrCat("publishing process ", mine,
                                                 "'s value: ", put.message()));
  }
  GatheredValues gathered;
  gathered.values[mine] = std::string(value);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (int process : processes) {
    if (process == mine) continue;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    // At least a millisecond: a value already there is still read.
    absl::StatusOr<std::string> got = store.Get(
        absl::StrCat(prefix, process), std::max<int64_t>(left.count(), 1));
    if (absl::IsDeadlineExceeded(got.status())) {
      gathered.missing.push_back(process);
    } else if (!got.ok()) {
      return absl::Status(got.status().code(),
                          absl::StrCat("reading process ", process,
                                       "'s value: ", got.status().message()));
    } else {
      gathered.values[process] = *std::move(got);
    }
  }
  return gathered;
}

}  // namespace pjrtx
