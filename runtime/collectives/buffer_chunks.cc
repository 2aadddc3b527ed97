#include "runtime/collectives/buffer_chunks.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace pjrtx::collectives {

size_t ChunkBegin(size_t count, int parts, int index) {
  const size_t n = static_cast<size_t>(parts);
  const size_t i = static_cast<size_t>(index);
  return i * (count / n) + std::min(i, count % n);
}

ChunkRange Chunk(size_t count, int parts, int index) {
  const size_t begin = ChunkBegin(count, parts, index);
  return ChunkRange{begin, ChunkBegin(count, parts, index + 1) - begin};
}

absl::Status CheckHostBuffer(absl::string_view operation, const void* data,
                             size_t count) {
  if (data == nullptr && count != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(operation, " was given a null buffer for ", count,
                     " elements; expected a host buffer"));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::collectives
