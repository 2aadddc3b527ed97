// The checkpoint file format (docs/checkpoint-format.md): a header naming
// each tensor's type, shape and place, then the raw tensors.
#ifndef PJRTX_SAMPLES_CHECKPOINT_BROADCAST_CHECKPOINT_FILE_H_
#define PJRTX_SAMPLES_CHECKPOINT_BROADCAST_CHECKPOINT_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pjrtx/pjrtx_c_api.h"

namespace checkpoint {

struct TensorEntry {
  std::string name;
  PJRTX_Buffer_Type type = PJRTX_Buffer_Type_F32;
  std::vector<int64_t> dims;
  uint64_t offset = 0;  // From the start of the file; a multiple of 64.
  uint64_t bytes = 0;
};

struct Header {
  std::vector<TensorEntry> tensors;
  uint64_t header_bytes = 0;  // Where the data may begin.
  uint64_t file_bytes = 0;    // Header, padding and data.

  // What a reader must fetch: the header and every tensor, not the padding
  // between them.
  uint64_t payload_bytes() const {
    uint64_t total = header_bytes;
    for (const TensorEntry& t : tensors) total += t.bytes;
    return total;
  }
};

// Lays out `tensors` (offsets and sizes filled in from type and dims) and
// encodes the header; INVALID_ARGUMENT for a type without a fixed size.
absl::StatusOr<std::string> EncodeHeader(std::vector<TensorEntry>& tensors,
                                         Header* layout);

// Decodes a header from the first bytes of a file. `prefix` may hold more
// than the header. INVALID_ARGUMENT naming the problem (bad magic, version,
// truncated entry, overlapping or misaligned data, size mismatch);
// OUT_OF_RANGE when `prefix` is too short, with at least how many bytes
// the header has in `*needed` (when not null), so a reader can fetch
// exactly the header in a few reads.
absl::StatusOr<Header> DecodeHeader(absl::Span<const uint8_t> prefix,
                                    uint64_t* needed = nullptr);

// Bytes of the fixed part before the entries: magic, version, count.
constexpr size_t kFixedHeaderBytes = 16;

}  // namespace checkpoint

#endif  // PJRTX_SAMPLES_CHECKPOINT_BROADCAST_CHECKPOINT_FILE_H_
