// PublishAndGather: every process's value, in any order of arrival, and
// the absent ones named within one timeout in all.
#include "runtime/core/base/key_value_gather.h"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/runtime/core/memory_key_value_store.h"

namespace pjrtx {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

TEST(KeyValueGatherTest, EveryProcessGetsEveryValueWhateverTheOrder) {
  testing::MemoryKeyValueStore store;
  const std::vector<int> processes = {0, 1, 2};
  std::vector<absl::StatusOr<GatheredValues>> results(3);
  std::vector<std::thread> threads;
  // Later processes publish first.
  for (int p = 2; p >= 0; --p) {
    threads.emplace_back([&, p] {
      results[p] = PublishAndGather(store, "job/", p, std::string(1, 'a' + p),
                                    processes, 10'000);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (std::thread& thread : threads) thread.join();
  for (int p = 0; p < 3; ++p) {
    ASSERT_TRUE(results[p].ok()) << results[p].status();
    EXPECT_THAT(results[p]->values,
                ElementsAre(Pair(0, "a"), Pair(1, "b"), Pair(2, "c")));
    EXPECT_THAT(results[p]->missing, IsEmpty());
  }
}

TEST(KeyValueGatherTest, AbsentProcessesAreNamedWithinOneTimeout) {
  testing::MemoryKeyValueStore store;
  ASSERT_TRUE(store.Put("job/2", "c").ok());
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<GatheredValues> gathered =
      PublishAndGather(store, "job/", 0, "a", {0, 1, 2, 3}, 200);
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  EXPECT_THAT(gathered->missing, ElementsAre(1, 3));
  EXPECT_THAT(gathered->values, ElementsAre(Pair(0, "a"), Pair(2, "c")));
  // One timeout in all, not one per absent process.
  EXPECT_LT(waited, std::chrono::milliseconds(390));
}

}  // namespace
}  // namespace pjrtx
