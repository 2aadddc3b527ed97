#include "runtime/collectives/ordered_worker.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx::collectives {
namespace {

using ::testing::ElementsAre;

TEST(OrderedWorkerTest, RunsInAddOrderWhateverTheReleaseOrder) {
  std::mutex mu;
  std::vector<int> ran;
  {
    OrderedWorker worker;
    std::vector<uint64_t> tickets;
    for (int i = 0; i < 3; ++i) {
      tickets.push_back(worker.Add([&, i] {
        std::lock_guard<std::mutex> lock(mu);
        ran.push_back(i);
      }));
    }
    // The last task is released first but must wait for the others.
    worker.Release(tickets[2]);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    {
      std::lock_guard<std::mutex> lock(mu);
      EXPECT_TRUE(ran.empty());
    }
    worker.Release(tickets[1]);
    worker.Release(tickets[0]);
  }  // The destructor runs everything added.
  EXPECT_THAT(ran, ElementsAre(0, 1, 2));
}

TEST(OrderedWorkerTest, DestructorWaitsForLateRelease) {
  std::atomic<bool> ran{false};
  std::thread releaser;
  {
    OrderedWorker worker;
    const uint64_t ticket = worker.Add([&] { ran = true; });
    releaser = std::thread([&worker, ticket] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      worker.Release(ticket);
    });
  }
  EXPECT_TRUE(ran);
  releaser.join();
}

}  // namespace
}  // namespace pjrtx::collectives
