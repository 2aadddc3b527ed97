// How a collective addresses its host buffer: the checks every algorithm
// makes on it, and the split into per-rank chunks that reduce-scatter and
// all-gather agree on.
#ifndef PJRTX_RUNTIME_COLLECTIVES_BUFFER_CHUNKS_H_
#define PJRTX_RUNTIME_COLLECTIVES_BUFFER_CHUNKS_H_

#include <cstddef>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace pjrtx::collectives {

// Elements [begin, begin + size) of a buffer.
struct ChunkRange {
  size_t begin = 0;
  size_t size = 0;
};

// Where chunk `index` (0..parts, `parts` meaning the end) starts when
// `count` elements are split into `parts` chunks as evenly as possible: the
// first count % parts chunks have one element more, so chunks differ by at
// most one element and some are empty when count < parts.
size_t ChunkBegin(size_t count, int parts, int index);

// Chunk `index` (0..parts-1) of that split.
ChunkRange Chunk(size_t count, int parts, int index);

// OK, or INVALID_ARGUMENT naming `operation` when `data` is null while
// `count` is not zero.
absl::Status CheckHostBuffer(absl::string_view operation, const void* data,
                             size_t count);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_BUFFER_CHUNKS_H_
