#include "plugins/cuda/memory/parallel_copy.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>

namespace cuda_plugin {

ParallelCopier::ParallelCopier(int threads) : threads_(std::max(threads, 1)) {
  if (threads_ > 1) {
    helpers_ = std::make_unique<pjrtx::ThreadPool>(threads_ - 1);
  }
}

int ParallelCopier::DefaultThreads() {
  const int hardware = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(hardware / 4, 1, 8);
}

void ParallelCopier::Copy(void* dst, const void* src, size_t bytes) const {
  const size_t parts = std::min<size_t>(threads_, bytes / kMinPart);
  if (helpers_ == nullptr || parts <= 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  // Parts of whole cache lines, the last one taking the remainder.
  const size_t part = (bytes / parts + 63) / 64 * 64;
  auto* to = static_cast<uint8_t*>(dst);
  const auto* from = static_cast<const uint8_t*>(src);
  std::mutex mu;
  std::condition_variable done;
  size_t left = parts - 1;
  for (size_t p = 1; p < parts; ++p) {
    const size_t begin = p * part;
    const size_t size = p + 1 == parts ? bytes - begin : part;
    helpers_->Schedule([&, begin, size] {
      std::memcpy(to + begin, from + begin, size);
      std::lock_guard<std::mutex> lock(mu);
      if (--left == 0) done.notify_one();
    });
  }
  std::memcpy(to, from, part);
  std::unique_lock<std::mutex> lock(mu);
  done.wait(lock, [&] { return left == 0; });
}

}  // namespace cuda_plugin
