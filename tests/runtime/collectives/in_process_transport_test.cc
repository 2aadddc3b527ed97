#include "runtime/collectives/in_process_transport.h"

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/runtime/collectives/collective_test_util.h"

namespace pjrtx::collectives {
namespace {

using ::pjrtx::collectives::testing::DeadlineAfter;
using ::pjrtx::collectives::testing::RunRanks;
using ::testing::AllOf;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

TEST(InProcessTransportTest, MessagesWithOneTagArriveInOrder) {
  auto fabric = InProcessFabric::Create(2);
  auto sender = fabric->Endpoint(0);
  auto receiver = fabric->Endpoint(1);
  for (uint8_t value : {1, 2, 3}) {
    ASSERT_TRUE(
        sender->Send(1, std::vector<uint8_t>{value}, 7, DeadlineAfter(1s))
            .ok());
  }
  for (uint8_t expected : {1, 2, 3}) {
    uint8_t got = 0;
    ASSERT_TRUE(
        receiver->Recv(0, absl::MakeSpan(&got, 1), 7, DeadlineAfter(1s)).ok());
    EXPECT_EQ(got, expected);
  }
}

TEST(InProcessTransportTest, TagsAreSeparateMailboxes) {
  auto fabric = InProcessFabric::Create(2);
  auto sender = fabric->Endpoint(0);
  auto receiver = fabric->Endpoint(1);
  ASSERT_TRUE(
      sender->Send(1, std::vector<uint8_t>{10}, 1, DeadlineAfter(1s)).ok());
  ASSERT_TRUE(
      sender->Send(1, std::vector<uint8_t>{20}, 2, DeadlineAfter(1s)).ok());
  uint8_t got = 0;
  ASSERT_TRUE(
      receiver->Recv(0, absl::MakeSpan(&got, 1), 2, DeadlineAfter(1s)).ok());
  EXPECT_EQ(got, 20);
  ASSERT_TRUE(
      receiver->Recv(0, absl::MakeSpan(&got, 1), 1, DeadlineAfter(1s)).ok());
  EXPECT_EQ(got, 10);
}

TEST(InProcessTransportTest, SimultaneousExchangeAroundARingCompletes) {
  constexpr int kSize = 5;
  auto fabric = InProcessFabric::Create(kSize);
  std::vector<absl::Status> statuses(kSize);
  std::vector<uint8_t> received(kSize);
  RunRanks(kSize, [&](int rank) {
    auto endpoint = fabric->Endpoint(rank);
    const uint8_t mine = static_cast<uint8_t>(rank);
    statuses[rank] = endpoint->SendRecv(
        (rank + 1) % kSize, absl::MakeConstSpan(&mine, 1),
        (rank + kSize - 1) % kSize, absl::MakeSpan(&received[rank], 1), 0,
        DeadlineAfter(2s));
  });
  for (int rank = 0; rank < kSize; ++rank) {
    EXPECT_TRUE(statuses[rank].ok()) << statuses[rank];
    EXPECT_EQ(received[rank], (rank + kSize - 1) % kSize);
  }
}

TEST(InProcessTransportTest, CountersCountBothDirections) {
  auto fabric = InProcessFabric::Create(2);
  auto a = fabric->Endpoint(0);
  auto b = fabric->Endpoint(1);
  std::vector<uint8_t> payload(100);
  ASSERT_TRUE(a->Send(1, payload, 0, DeadlineAfter(1s)).ok());
  ASSERT_TRUE(a->Send(1, payload, 0, DeadlineAfter(1s)).ok());
  ASSERT_TRUE(b->Recv(0, absl::MakeSpan(payload), 0, DeadlineAfter(1s)).ok());
  EXPECT_EQ(a->counters().bytes_sent, 200);
  EXPECT_EQ(a->counters().messages_sent, 2);
  EXPECT_EQ(a->counters().bytes_received, 0);
  EXPECT_EQ(b->counters().bytes_received, 100);
  EXPECT_EQ(b->counters().messages_received, 1);
  EXPECT_EQ(b->counters().bytes_sent, 0);
}

TEST(InProcessTransportTest, OutOfRangeRanksAreRejected) {
  auto fabric = InProcessFabric::Create(3);
  EXPECT_EQ(fabric->Endpoint(3), nullptr);
  EXPECT_EQ(fabric->Endpoint(-1), nullptr);
  auto endpoint = fabric->Endpoint(0);
  absl::Status status =
      endpoint->Send(3, std::vector<uint8_t>{1}, 0, DeadlineAfter(1s));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), AllOf(HasSubstr("3"), HasSubstr("0..2")));
}

TEST(InProcessTransportTest, WrongMessageSizeNamesBothSizes) {
  auto fabric = InProcessFabric::Create(2);
  auto a = fabric->Endpoint(0);
  auto b = fabric->Endpoint(1);
  ASSERT_TRUE(a->Send(1, std::vector<uint8_t>(24), 5, DeadlineAfter(1s)).ok());
  std::vector<uint8_t> recv(40);
  absl::Status status = b->Recv(0, absl::MakeSpan(recv), 5, DeadlineAfter(1s));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(),
              AllOf(HasSubstr("24 bytes"), HasSubstr("expected 40 bytes")));
}

TEST(InProcessTransportTest, MissingPeerExceedsTheDeadlineOnTime) {
  auto fabric = InProcessFabric::Create(2);
  auto endpoint = fabric->Endpoint(1);
  std::vector<uint8_t> recv(8);
  const auto start = std::chrono::steady_clock::now();
  absl::Status status =
      endpoint->Recv(0, absl::MakeSpan(recv), 0, DeadlineAfter(100ms));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(status.message(), HasSubstr("rank 0"));
  EXPECT_GE(elapsed, 100ms);
  EXPECT_LT(elapsed, 600ms);
}

TEST(InProcessTransportTest, FailWakesBlockedCallsAndPoisonsLaterOnes) {
  auto fabric = InProcessFabric::Create(2);
  auto endpoint = fabric->Endpoint(1);
  absl::Status blocked;
  std::chrono::steady_clock::duration waited{};
  std::thread waiter([&] {
    std::vector<uint8_t> recv(8);
    const auto start = std::chrono::steady_clock::now();
    blocked = endpoint->Recv(0, absl::MakeSpan(recv), 0, DeadlineAfter(10s));
    waited = std::chrono::steady_clock::now() - start;
  });
  std::this_thread::sleep_for(50ms);
  fabric->Fail(absl::UnavailableError("rank 0 died"));
  waiter.join();
  EXPECT_EQ(blocked.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(blocked.message(), HasSubstr("rank 0 died"));
  EXPECT_LT(waited, 2s);
  auto other = fabric->Endpoint(0);
  EXPECT_EQ(
      other->Send(1, std::vector<uint8_t>{1}, 0, DeadlineAfter(1s)).code(),
      absl::StatusCode::kUnavailable);
}

TEST(InProcessTransportTest, WaitingReceiveGetsItsMessageAfterEarlierOnes) {
  // The first message waits in the mailbox; the second arrives while the
  // receiver waits and is copied into its buffer. Order holds either way.
  auto fabric = InProcessFabric::Create(2);
  auto sender = fabric->Endpoint(0);
  auto receiver = fabric->Endpoint(1);
  ASSERT_TRUE(
      sender->Send(1, std::vector<uint8_t>{1, 1}, 3, DeadlineAfter(1s)).ok());
  std::vector<uint8_t> first(2);
  std::vector<uint8_t> second(2);
  absl::Status first_status;
  absl::Status second_status;
  std::thread waiter([&] {
    first_status =
        receiver->Recv(0, absl::MakeSpan(first), 3, DeadlineAfter(10s));
    second_status =
        receiver->Recv(0, absl::MakeSpan(second), 3, DeadlineAfter(10s));
  });
  std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(
      sender->Send(1, std::vector<uint8_t>{2, 2}, 3, DeadlineAfter(1s)).ok());
  waiter.join();
  ASSERT_TRUE(first_status.ok()) << first_status;
  ASSERT_TRUE(second_status.ok()) << second_status;
  EXPECT_EQ(first, (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(second, (std::vector<uint8_t>{2, 2}));
}

TEST(InProcessTransportTest, WrongSizeForAWaitingReceiveFailsOnlyIt) {
  auto fabric = InProcessFabric::Create(2);
  auto a = fabric->Endpoint(0);
  auto b = fabric->Endpoint(1);
  absl::Status received;
  std::thread waiter([&] {
    std::vector<uint8_t> recv(40);
    received = b->Recv(0, absl::MakeSpan(recv), 5, DeadlineAfter(10s));
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_TRUE(a->Send(1, std::vector<uint8_t>(24), 5, DeadlineAfter(1s)).ok());
  waiter.join();
  EXPECT_EQ(received.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(received.message(),
              AllOf(HasSubstr("24 bytes"), HasSubstr("expected 40 bytes")));
}

TEST(InProcessTransportTest, ReceiveThatTimedOutLeavesLaterMessagesToOthers) {
  // The expired receive is withdrawn: the next message goes to the
  // mailbox (not into the buffer of a call that has returned) and the next
  // receive finds it.
  auto fabric = InProcessFabric::Create(2);
  auto sender = fabric->Endpoint(0);
  auto receiver = fabric->Endpoint(1);
  std::vector<uint8_t> stale(4, 0);
  EXPECT_EQ(
      receiver->Recv(0, absl::MakeSpan(stale), 9, DeadlineAfter(20ms)).code(),
      absl::StatusCode::kDeadlineExceeded);
  ASSERT_TRUE(
      sender->Send(1, std::vector<uint8_t>{4, 3, 2, 1}, 9, DeadlineAfter(1s))
          .ok());
  EXPECT_EQ(stale, (std::vector<uint8_t>(4, 0)));
  std::vector<uint8_t> fresh(4);
  ASSERT_TRUE(
      receiver->Recv(0, absl::MakeSpan(fresh), 9, DeadlineAfter(1s)).ok());
  EXPECT_EQ(fresh, (std::vector<uint8_t>{4, 3, 2, 1}));
}

TEST(InProcessTransportTest, ExchangeInPlaceSwapsBuffers) {
  // Each rank sends from and receives into one buffer: its contents must
  // be read out before the peer's message may land in it.
  for (int round = 0; round < 50; ++round) {
    auto fabric = InProcessFabric::Create(2);
    std::vector<std::vector<uint8_t>> buffers = {std::vector<uint8_t>(64, 1),
                                                 std::vector<uint8_t>(64, 2)};
    std::vector<absl::Status> statuses(2);
    RunRanks(2, [&](int rank) {
      auto endpoint = fabric->Endpoint(rank);
      statuses[rank] = endpoint->SendRecv(1 - rank, buffers[rank], 1 - rank,
                                          absl::MakeSpan(buffers[rank]), 0,
                                          DeadlineAfter(2s));
    });
    for (int rank = 0; rank < 2; ++rank) {
      ASSERT_TRUE(statuses[rank].ok()) << statuses[rank];
      EXPECT_EQ(buffers[rank], std::vector<uint8_t>(64, 2 - rank)) << round;
    }
  }
}

TEST(InProcessTransportTest, SendToItselfInPlace) {
  auto fabric = InProcessFabric::Create(1);
  auto endpoint = fabric->Endpoint(0);
  std::vector<uint8_t> buffer = {5, 6, 7};
  ASSERT_TRUE(
      endpoint
          ->SendRecv(0, buffer, 0, absl::MakeSpan(buffer), 4, DeadlineAfter(1s))
          .ok());
  EXPECT_EQ(buffer, (std::vector<uint8_t>{5, 6, 7}));
}

TEST(InProcessTransportTest, SendThatWentOutCountsWhenTheReceiveFails) {
  auto fabric = InProcessFabric::Create(2);
  auto a = fabric->Endpoint(0);
  std::vector<uint8_t> payload(10);
  std::vector<uint8_t> recv(10);
  EXPECT_EQ(
      a->SendRecv(1, payload, 1, absl::MakeSpan(recv), 0, DeadlineAfter(20ms))
          .code(),
      absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(a->counters().bytes_sent, 10);
  EXPECT_EQ(a->counters().messages_sent, 1);
  EXPECT_EQ(a->counters().bytes_received, 0);
}

}  // namespace
}  // namespace pjrtx::collectives
