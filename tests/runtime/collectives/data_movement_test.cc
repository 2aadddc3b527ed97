// Broadcast, all-to-all and point-to-point: collectives that move data
// without reducing it.
#include <chrono>
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/collectives/all_to_all.h"
#include "runtime/collectives/broadcast.h"
#include "runtime/collectives/in_process_transport.h"
#include "runtime/collectives/point_to_point.h"
#include "tests/runtime/collectives/collective_test_util.h"

namespace pjrtx::collectives {
namespace {

using ::pjrtx::collectives::testing::DeadlineAfter;
using ::pjrtx::collectives::testing::RunRanks;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

TEST(BroadcastTest, EveryRankGetsTheRootsBufferFromEveryRoot) {
  for (int size : {1, 2, 3, 5, 8}) {
    for (int root = 0; root < size; ++root) {
      auto fabric = InProcessFabric::Create(size);
      std::vector<std::vector<uint8_t>> buffers(size);
      std::vector<int64_t> received(size);
      RunRanks(size, [&](int rank) {
        auto endpoint = fabric->Endpoint(rank);
        buffers[rank].assign(300, static_cast<uint8_t>(rank == root ? 7 : 0));
        buffers[rank][299] = static_cast<uint8_t>(rank == root ? 99 : 0);
        EXPECT_TRUE(Broadcast(*endpoint, root, absl::MakeSpan(buffers[rank]), 0,
                              0, DeadlineAfter(5s))
                        .ok());
        received[rank] = endpoint->counters().bytes_received;
      });
      for (int rank = 0; rank < size; ++rank) {
        EXPECT_EQ(buffers[rank], buffers[root])
            << "size " << size << " root " << root << " rank " << rank;
        // A tree: every rank but the root receives the buffer exactly once.
        EXPECT_EQ(received[rank], rank == root ? 0 : 300);
      }
      EXPECT_EQ(buffers[root][299], 99);
    }
  }
}

TEST(BroadcastTest, BadRootIsNamed) {
  auto fabric = InProcessFabric::Create(2);
  auto endpoint = fabric->Endpoint(0);
  std::vector<uint8_t> data(4);
  absl::Status status =
      Broadcast(*endpoint, 2, absl::MakeSpan(data), 0, 0, DeadlineAfter(1s));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("root 2"));
}

TEST(AllToAllTest, BlockJOfRankRLandsAsBlockROfRankJ) {
  for (int size : {1, 2, 3, 4, 5, 8}) {
    constexpr size_t kBlock = 5;
    auto fabric = InProcessFabric::Create(size);
    std::vector<std::vector<uint8_t>> recv(size);
    RunRanks(size, [&](int rank) {
      auto endpoint = fabric->Endpoint(rank);
      std::vector<uint8_t> send(size * kBlock);
      for (int to = 0; to < size; ++to) {
        for (size_t i = 0; i < kBlock; ++i) {
          send[to * kBlock + i] = static_cast<uint8_t>(16 * rank + to + i);
        }
      }
      recv[rank].assign(size * kBlock, 0xff);
      EXPECT_TRUE(AllToAll(*endpoint, send, absl::MakeSpan(recv[rank]), 0, 0,
                           DeadlineAfter(5s))
                      .ok());
      EXPECT_EQ(endpoint->counters().bytes_sent,
                static_cast<int64_t>((size - 1) * kBlock));
    });
    for (int rank = 0; rank < size; ++rank) {
      for (int from = 0; from < size; ++from) {
        for (size_t i = 0; i < kBlock; ++i) {
          EXPECT_EQ(recv[rank][from * kBlock + i],
                    static_cast<uint8_t>(16 * from + rank + i));
        }
      }
    }
  }
}

TEST(AllToAllTest, BadSizesAndOverlapAreRejected) {
  auto fabric = InProcessFabric::Create(3);
  auto endpoint = fabric->Endpoint(0);
  std::vector<uint8_t> send(10);
  std::vector<uint8_t> recv(10);
  absl::Status status =
      AllToAll(*endpoint, send, absl::MakeSpan(recv), 0, 0, DeadlineAfter(1s));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("10 bytes"));
  EXPECT_THAT(status.message(), HasSubstr("3 ranks"));
  std::vector<uint8_t> both(12);
  status =
      AllToAll(*endpoint, both, absl::MakeSpan(both), 0, 0, DeadlineAfter(1s));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("overlap"));
}

TEST(PointToPointTest, SendToAndRecvFromPairUp) {
  auto fabric = InProcessFabric::Create(2);
  std::vector<uint8_t> got(3);
  RunRanks(2, [&](int rank) {
    auto endpoint = fabric->Endpoint(rank);
    if (rank == 0) {
      EXPECT_TRUE(SendTo(*endpoint, 1, std::vector<uint8_t>{4, 5, 6}, 2, 8,
                         DeadlineAfter(5s))
                      .ok());
    } else {
      EXPECT_TRUE(
          RecvFrom(*endpoint, 0, absl::MakeSpan(got), 2, 8, DeadlineAfter(5s))
              .ok());
    }
  });
  EXPECT_EQ(got, (std::vector<uint8_t>{4, 5, 6}));
}

TEST(PointToPointTest, NoPeerIsAnError) {
  auto fabric = InProcessFabric::Create(2);
  auto endpoint = fabric->Endpoint(0);
  absl::Status status =
      SendTo(*endpoint, -1, std::vector<uint8_t>{1}, 0, 0, DeadlineAfter(1s));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("-1"));
  std::vector<uint8_t> data(1);
  EXPECT_EQ(
      RecvFrom(*endpoint, 2, absl::MakeSpan(data), 0, 0, DeadlineAfter(1s))
          .code(),
      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pjrtx::collectives
