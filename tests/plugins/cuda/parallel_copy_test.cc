// ParallelCopier: every byte copied, whatever the size and the number of
// threads, also from several callers at once.
#include "plugins/cuda/memory/parallel_copy.h"

#include <cstdint>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace cuda_plugin {
namespace {

std::vector<uint8_t> Pattern(size_t bytes, uint32_t seed) {
  std::vector<uint8_t> values(bytes);
  uint32_t state = seed;
  for (uint8_t& value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<uint8_t>(state >> 24);
  }
  return values;
}

TEST(ParallelCopyTest, CopiesEveryByteForAnySizeAndThreadCount) {
  for (int threads : {1, 2, 4, 7}) {
    const ParallelCopier copier(threads);
    EXPECT_EQ(copier.threads(), threads);
    for (size_t bytes :
         {size_t{0}, size_t{1}, ParallelCopier::kMinPart - 1,
          2 * ParallelCopier::kMinPart, 3 * ParallelCopier::kMinPart + 17,
          (size_t{9} << 20) + 5}) {
      const std::vector<uint8_t> source = Pattern(bytes, 7 + bytes);
      // One guard byte past the end catches a part that runs over.
      std::vector<uint8_t> destination(bytes + 1, 0xA5);
      copier.Copy(destination.data(), source.data(), bytes);
      EXPECT_TRUE(std::equal(source.begin(), source.end(), destination.begin()))
          << threads << " threads, " << bytes << " bytes";
      EXPECT_EQ(destination[bytes], 0xA5)
          << threads << " threads, " << bytes << " bytes";
    }
  }
}

TEST(ParallelCopyTest, SeveralCallersShareOneCopier) {
  const ParallelCopier copier(4);
  const size_t bytes = (size_t{6} << 20) + 3;
  std::vector<std::vector<uint8_t>> sources, destinations;
  for (int c = 0; c < 3; ++c) {
    sources.push_back(Pattern(bytes, 100 + c));
    destinations.emplace_back(bytes);
  }
  std::vector<std::thread> callers;
  for (int c = 0; c < 3; ++c) {
    callers.emplace_back([&, c] {
      for (int round = 0; round < 5; ++round) {
        copier.Copy(destinations[c].data(), sources[c].data(), bytes);
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  for (int c = 0; c < 3; ++c) EXPECT_EQ(destinations[c], sources[c]) << c;
}

TEST(ParallelCopyTest, DefaultIsBetweenOneAndEight) {
  EXPECT_GE(ParallelCopier::DefaultThreads(), 1);
  EXPECT_LE(ParallelCopier::DefaultThreads(), 8);
}

}  // namespace
}  // namespace cuda_plugin
