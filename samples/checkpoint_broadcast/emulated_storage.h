// A file read through a storage service of limited bandwidth shared by
// its readers (an object store, a network file system), counting what it
// serves.
#ifndef PJRTX_SAMPLES_CHECKPOINT_BROADCAST_EMULATED_STORAGE_H_
#define PJRTX_SAMPLES_CHECKPOINT_BROADCAST_EMULATED_STORAGE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace checkpoint {

class EmulatedStorage {
 public:
  // `bytes_per_second` is the service's total (0: unlimited), split evenly
  // among `concurrent_readers` (this one included): each read takes at
  // least its size over bytes_per_second / concurrent_readers.
  EmulatedStorage(std::string path, double bytes_per_second,
                  int concurrent_readers);

  // Reads `out.size()` bytes at `offset`. NOT_FOUND / UNAVAILABLE naming
  // the path; OUT_OF_RANGE when the file ends first.
  absl::Status Read(uint64_t offset, absl::Span<uint8_t> out);

  uint64_t bytes_read() const { return bytes_read_; }

 private:
  const std::string path_;
  const double reader_bytes_per_second_;
  uint64_t bytes_read_ = 0;
};

}  // namespace checkpoint

#endif  // PJRTX_SAMPLES_CHECKPOINT_BROADCAST_EMULATED_STORAGE_H_
