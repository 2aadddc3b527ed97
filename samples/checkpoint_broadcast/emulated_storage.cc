#include "samples/checkpoint_broadcast/emulated_storage.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"

namespace checkpoint {

EmulatedStorage::EmulatedStorage(std::string path, double bytes_per_second,
                                 int concurrent_readers)
    : path_(std::move(path)),
      reader_bytes_per_second_(bytes_per_second / (concurrent_readers > 0
                                                       ? concurrent_readers
                                                       : 1)) {}

absl::Status EmulatedStorage::Read(uint64_t offset, absl::Span<uint8_t> out) {
  const auto start = std::chrono::steady_clock::now();
  const int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const std::string why = std::strerror(errno);
    return errno == ENOENT
               ? absl::NotFoundError(absl::StrCat(path_, ": ", why))
               : absl::UnavailableError(absl::StrCat(path_, ": ", why));
  }
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = pread(fd, out.data() + done, out.size() - done,
                            static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? std::strerror(errno) : "end of file";
      close(fd);
      return absl::OutOfRangeError(absl::StrCat(
          path_, ": reading ", out.size(), " bytes at ", offset, ": ", why));
    }
    done += static_cast<size_t>(n);
  }
  close(fd);
  bytes_read_ += out.size();
  if (reader_bytes_per_second_ > 0) {
    std::this_thread::sleep_until(
        start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(out.size() /
                                                  reader_bytes_per_second_)));
  }
  return absl::OkStatus();
}

}  // namespace checkpoint
