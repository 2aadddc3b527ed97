#include "runtime/core/base/launch_rendezvous.h"

#include <memory>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx {
namespace {

using ::testing::HasSubstr;

LaunchRendezvous::Exchange MakeExchange(int64_t self, std::string payload,
                                        std::vector<int64_t> sources,
                                        int participants) {
  LaunchRendezvous::Exchange e;
  e.key = "launch 1/0/all_reduce 0,1#0";
  e.self = self;
  e.payload = std::make_shared<const std::string>(std::move(payload));
  e.sources = std::move(sources);
  e.local_participants = participants;
  e.description = "all_reduce over devices 0, 1";
  return e;
}

TEST(LaunchRendezvousTest, ParticipantsGetEachOthersPayloads) {
  LaunchRendezvous rendezvous(nullptr, std::chrono::seconds(10));
  auto a = MakeExchange(0, "from 0", {0, 1}, 2);
  auto b = MakeExchange(1, "from 1", {0, 1}, 2);
  ASSERT_TRUE(rendezvous.Start(a).ok());
  absl::StatusOr<std::vector<LaunchRendezvous::Payload>> got_b;
  std::thread second([&] {
    ASSERT_TRUE(rendezvous.Start(b).ok());
    got_b = rendezvous.Finish(b);
  });
  auto got_a = rendezvous.Finish(a);
  second.join();
  ASSERT_TRUE(got_a.ok()) << got_a.status();
  ASSERT_TRUE(got_b.ok()) << got_b.status();
  for (const auto* got : {&*got_a, &*got_b}) {
    ASSERT_EQ(got->size(), 2u);
    EXPECT_EQ(*(*got)[0], "from 0");
    EXPECT_EQ(*(*got)[1], "from 1");
  }
}

TEST(LaunchRendezvousTest, MissingParticipantIsNamedAfterTheTimeout) {
  LaunchRendezvous rendezvous(nullptr, std::chrono::milliseconds(50));
  auto a = MakeExchange(0, "x", {0, 1}, 2);
  ASSERT_TRUE(rendezvous.Start(a).ok());
  auto got = rendezvous.Finish(a);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(got.status().message(), HasSubstr("device(s) 1 did not reach"));
  EXPECT_THAT(got.status().message(),
              HasSubstr("all_reduce over devices 0, 1"));
}

TEST(LaunchRendezvousTest, RemoteParticipantWithoutStoreIsAClearError) {
  LaunchRendezvous rendezvous(nullptr, std::chrono::seconds(1));
  auto a = MakeExchange(0, "x", {0, 7}, 1);
  a.source_is_remote = {false, true};
  a.publish = true;
  absl::Status started = rendezvous.Start(a);
  EXPECT_EQ(started.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(started.message(), HasSubstr("key-value store"));
}

// The same key used by a later launch (a new ordinal makes a new key in
// practice) starts from scratch once every participant finished or
// withdrew.
TEST(LaunchRendezvousTest, FinishedExchangesAreForgotten) {
  LaunchRendezvous rendezvous(nullptr, std::chrono::milliseconds(50));
  auto a = MakeExchange(0, "old", {0}, 2);
  auto b = MakeExchange(1, "old", {0}, 2);
  ASSERT_TRUE(rendezvous.Start(a).ok());
  ASSERT_TRUE(rendezvous.Finish(a).ok());
  rendezvous.Withdraw(b);
  // Now nobody has deposited under the key: a reader times out.
  auto c = MakeExchange(1, "new", {0}, 1);
  auto got = rendezvous.Finish(c);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kDeadlineExceeded);
}

TEST(LaunchRendezvousTest, OrdinalsCountRunsPerDeviceAndLaunch) {
  LaunchRendezvous rendezvous(nullptr, std::chrono::seconds(1));
  EXPECT_EQ(rendezvous.NextOrdinal(0, 5), 0);
  EXPECT_EQ(rendezvous.NextOrdinal(0, 5), 1);
  EXPECT_EQ(rendezvous.NextOrdinal(1, 5), 0);
  EXPECT_EQ(rendezvous.NextOrdinal(0, 6), 0);
}

}  // namespace
}  // namespace pjrtx
