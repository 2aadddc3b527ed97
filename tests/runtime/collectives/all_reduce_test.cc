// Ring and halving/doubling all-reduce (and the ring's two halves) checked
// against a directly computed reduction, for every op, several types and
// awkward counts, on 1 to 8 ranks.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/collectives/buffer_chunks.h"
#include "runtime/collectives/halving_doubling.h"
#include "runtime/collectives/in_process_transport.h"
#include "runtime/collectives/ring.h"
#include "runtime/core/base/element_type.h"
#include "tests/runtime/collectives/collective_test_util.h"

namespace pjrtx::collectives {
namespace {

using ::pjrtx::collectives::testing::DeadlineAfter;
using ::pjrtx::collectives::testing::ExpectedReduction;
using ::pjrtx::collectives::testing::MakeInput;
using ::pjrtx::collectives::testing::RunRanks;
using ::pjrtx::collectives::testing::TestedTypes;
using ::testing::AllOf;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

using AllReduceFunction = absl::Status (*)(Transport&, ReduceOp,
                                           PJRTX_Buffer_Type, void*, size_t,
                                           uint32_t, uint32_t, Deadline);

struct AllReduceCase {
  std::string name;
  AllReduceFunction function;
  int size;
};

class AllReduceTest : public ::testing::TestWithParam<AllReduceCase> {
 protected:
  // Runs the all-reduce on every rank; returns each rank's buffer and
  // bytes sent, asserting every rank succeeded.
  std::vector<std::vector<uint8_t>> Run(PJRTX_Buffer_Type type, ReduceOp op,
                                        size_t count,
                                        std::vector<int64_t>* bytes_sent) {
    const int size = GetParam().size;
    auto fabric = InProcessFabric::Create(size);
    std::vector<std::vector<uint8_t>> buffers(size);
    std::vector<absl::Status> statuses(size);
    if (bytes_sent != nullptr) bytes_sent->assign(size, 0);
    RunRanks(size, [&](int rank) {
      auto endpoint = fabric->Endpoint(rank);
      buffers[rank] = MakeInput(type, op, rank, count);
      statuses[rank] =
          GetParam().function(*endpoint, op, type, buffers[rank].data(), count,
                              3, 9, DeadlineAfter(5s));
      if (bytes_sent != nullptr) {
        (*bytes_sent)[rank] = endpoint->counters().bytes_sent;
      }
    });
    for (int rank = 0; rank < size; ++rank) {
      EXPECT_TRUE(statuses[rank].ok())
          << "rank " << rank << ": " << statuses[rank];
    }
    return buffers;
  }
};

TEST_P(AllReduceTest, MatchesDirectReductionBitwiseOnEveryRank) {
  const int size = GetParam().size;
  const std::vector<size_t> counts = {0, 1, static_cast<size_t>(size - 1),
                                      static_cast<size_t>(2 * size + 1), 257};
  for (PJRTX_Buffer_Type type : TestedTypes()) {
    for (ReduceOp op :
         {ReduceOp::kSum, ReduceOp::kProduct, ReduceOp::kMin, ReduceOp::kMax}) {
      for (size_t count : counts) {
        SCOPED_TRACE(absl::StrCat(ElementTypeName(type), " ", ReduceOpName(op),
                                  " count ", count));
        const std::vector<uint8_t> expected =
            ExpectedReduction(type, op, size, count);
        std::vector<std::vector<uint8_t>> results =
            Run(type, op, count, nullptr);
        for (int rank = 0; rank < size; ++rank) {
          ASSERT_EQ(results[rank], expected) << "rank " << rank;
        }
      }
    }
  }
}

TEST_P(AllReduceTest, LargeBufferMatches) {
  constexpr size_t kCount = 100003;
  for (PJRTX_Buffer_Type type :
       {PJRTX_Buffer_Type_F32, PJRTX_Buffer_Type_S64}) {
    SCOPED_TRACE(ElementTypeName(type));
    const std::vector<uint8_t> expected =
        ExpectedReduction(type, ReduceOp::kSum, GetParam().size, kCount);
    std::vector<std::vector<uint8_t>> results =
        Run(type, ReduceOp::kSum, kCount, nullptr);
    for (const std::vector<uint8_t>& result : results) {
      ASSERT_EQ(result, expected);
    }
  }
}

TEST_P(AllReduceTest, SendsTwiceTheNonOwnedFractionOfTheBuffer) {
  const int size = GetParam().size;
  // Halving/doubling sends 2(p-1)/p only when size is a power of two; the
  // fold adds whole-buffer messages otherwise.
  if (GetParam().function == &HalvingDoublingAllReduce &&
      (size & (size - 1)) != 0) {
    GTEST_SKIP() << "fold ranks send extra whole buffers";
  }
  // Above kWholeBufferDoublingBytes, where halving/doubling splits the
  // buffer (two ranks always swap it whole, which is the same bytes).
  for (size_t count : {size_t{840 * 8}, size_t{5001}}) {
    ASSERT_GT(count * 4, kWholeBufferDoublingBytes);
    std::vector<int64_t> bytes_sent;
    Run(PJRTX_Buffer_Type_F32, ReduceOp::kSum, count, &bytes_sent);
    const double bytes = static_cast<double>(count * 4);
    const double expected = 2.0 * (size - 1) / size * bytes;
    for (int rank = 0; rank < size; ++rank) {
      if (count % size == 0) {
        EXPECT_EQ(bytes_sent[rank], static_cast<int64_t>(expected))
            << "rank " << rank << " count " << count;
      } else {
        // Uneven chunks differ by one element; at most two are skipped.
        EXPECT_NEAR(bytes_sent[rank], expected, 2 * 4 + 1)
            << "rank " << rank << " count " << count;
      }
    }
  }
}

TEST_P(AllReduceTest, NanPayloadsGiveTheSameBitsOnEveryRank) {
  // Where two operands are NaNs, x86 keeps the payload of the first: ranks
  // that combined the same two values in different orders would disagree.
  const int size = GetParam().size;
  constexpr size_t kCount = 67;
  auto fabric = InProcessFabric::Create(size);
  for (ReduceOp op :
       {ReduceOp::kSum, ReduceOp::kProduct, ReduceOp::kMin, ReduceOp::kMax}) {
    SCOPED_TRACE(ReduceOpName(op));
    std::vector<std::vector<uint32_t>> buffers(size);
    std::vector<absl::Status> statuses(size);
    RunRanks(size, [&](int rank) {
      auto endpoint = fabric->Endpoint(rank);
      std::vector<uint32_t>& bits = buffers[rank];
      for (size_t i = 0; i < kCount; ++i) {
        // Quiet NaNs whose payload names the rank, between ordinary values.
        bits.push_back(i % 3 == 0 ? 0x3f800000u + static_cast<uint32_t>(i)
                                  : 0x7fc00000u | static_cast<uint32_t>(
                                                      (rank + 1) * 97 + i));
      }
      statuses[rank] = GetParam().function(
          *endpoint, op, PJRTX_Buffer_Type_F32, bits.data(), kCount, 4,
          static_cast<uint32_t>(op), DeadlineAfter(5s));
    });
    for (int rank = 0; rank < size; ++rank) {
      ASSERT_TRUE(statuses[rank].ok())
          << "rank " << rank << ": " << statuses[rank];
      EXPECT_EQ(buffers[rank], buffers[0]) << "rank " << rank;
    }
  }
}

TEST_P(AllReduceTest, PoisonedFabricFailsEveryRankPromptly) {
  const int size = GetParam().size;
  if (size < 2) GTEST_SKIP() << "one rank needs no peer";
  auto fabric = InProcessFabric::Create(size);
  // The last rank never joins, as if it had died; the fabric learns so.
  const int alive = size - 1;
  std::vector<absl::Status> statuses(alive);
  std::vector<std::chrono::steady_clock::duration> took(alive);
  std::thread killer([&] {
    std::this_thread::sleep_for(50ms);
    fabric->Fail(absl::UnavailableError("rank died"));
  });
  RunRanks(alive, [&](int rank) {
    auto endpoint = fabric->Endpoint(rank);
    std::vector<uint8_t> data =
        MakeInput(PJRTX_Buffer_Type_F32, ReduceOp::kSum, rank, 64);
    const auto start = std::chrono::steady_clock::now();
    statuses[rank] =
        GetParam().function(*endpoint, ReduceOp::kSum, PJRTX_Buffer_Type_F32,
                            data.data(), 64, 0, 0, DeadlineAfter(20s));
    took[rank] = std::chrono::steady_clock::now() - start;
  });
  killer.join();
  for (int rank = 0; rank < alive; ++rank) {
    EXPECT_EQ(statuses[rank].code(), absl::StatusCode::kUnavailable)
        << "rank " << rank << ": " << statuses[rank];
    EXPECT_LT(took[rank], 2s);
  }
}

TEST_P(AllReduceTest, MissingPeerExceedsTheDeadline) {
  const int size = GetParam().size;
  if (size < 2) GTEST_SKIP() << "one rank needs no peer";
  auto fabric = InProcessFabric::Create(size);
  const int alive = size - 1;
  std::vector<absl::Status> statuses(alive);
  std::vector<std::chrono::steady_clock::duration> took(alive);
  RunRanks(alive, [&](int rank) {
    auto endpoint = fabric->Endpoint(rank);
    std::vector<uint8_t> data =
        MakeInput(PJRTX_Buffer_Type_S32, ReduceOp::kMax, rank, 64);
    const auto start = std::chrono::steady_clock::now();
    statuses[rank] =
        GetParam().function(*endpoint, ReduceOp::kMax, PJRTX_Buffer_Type_S32,
                            data.data(), 64, 0, 0, DeadlineAfter(150ms));
    took[rank] = std::chrono::steady_clock::now() - start;
  });
  for (int rank = 0; rank < alive; ++rank) {
    EXPECT_EQ(statuses[rank].code(), absl::StatusCode::kDeadlineExceeded)
        << "rank " << rank << ": " << statuses[rank];
    EXPECT_LT(took[rank], 150ms + 500ms);
  }
}

TEST_P(AllReduceTest, MismatchedCountsNameBothSizes) {
  const int size = GetParam().size;
  if (size < 2) GTEST_SKIP() << "one rank has no one to disagree with";
  auto fabric = InProcessFabric::Create(size);
  std::vector<absl::Status> statuses(size);
  RunRanks(size, [&](int rank) {
    auto endpoint = fabric->Endpoint(rank);
    // Rank 0 has 8 elements per rank, everyone else 16.
    const size_t count = static_cast<size_t>(size) * (rank == 0 ? 8 : 16);
    std::vector<float> data(count, 1.0f);
    statuses[rank] =
        GetParam().function(*endpoint, ReduceOp::kSum, PJRTX_Buffer_Type_F32,
                            data.data(), count, 0, 0, DeadlineAfter(300ms));
  });
  int invalid = 0;
  for (int rank = 0; rank < size; ++rank) {
    EXPECT_FALSE(statuses[rank].ok()) << "rank " << rank;
    if (statuses[rank].code() == absl::StatusCode::kInvalidArgument) {
      ++invalid;
      EXPECT_THAT(statuses[rank].message(),
                  AllOf(HasSubstr("bytes"), HasSubstr("expected")));
    }
  }
  EXPECT_GE(invalid, 1);
  if (GetParam().function == &RingAllReduce) {
    // Rank 0 gets a 16-float chunk from rank size-1 where it expects 8.
    EXPECT_EQ(statuses[0].code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(statuses[0].message(),
                AllOf(HasSubstr("64 bytes"), HasSubstr("expected 32 bytes")));
  }
}

TEST_P(AllReduceTest, UnsupportedTypeFailsBeforeSending) {
  auto fabric = InProcessFabric::Create(GetParam().size);
  auto endpoint = fabric->Endpoint(0);
  std::vector<uint8_t> data(16);
  absl::Status status =
      GetParam().function(*endpoint, ReduceOp::kSum, PJRTX_Buffer_Type_C128,
                          data.data(), 1, 0, 0, DeadlineAfter(1s));
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(status.message(), HasSubstr("C128"));
  EXPECT_EQ(endpoint->counters().messages_sent, 0);
}

std::vector<AllReduceCase> Cases() {
  std::vector<AllReduceCase> cases;
  for (int size : {1, 2, 3, 4, 5, 8}) {
    cases.push_back({absl::StrCat("Ring", size), &RingAllReduce, size});
    cases.push_back({absl::StrCat("HalvingDoubling", size),
                     &HalvingDoublingAllReduce, size});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(
    Algorithms, AllReduceTest, ::testing::ValuesIn(Cases()),
    [](const ::testing::TestParamInfo<AllReduceCase>& info) {
      return info.param.name;
    });

TEST(HalvingDoublingTest, SmallBuffersSwapWholeBuffersInLog2PSteps) {
  for (int size : {2, 4, 8}) {
    const int steps = size == 2 ? 1 : (size == 4 ? 2 : 3);
    // Small buffers on any number of ranks, any buffer on two.
    std::vector<size_t> counts = {1, 64, kWholeBufferDoublingBytes / 4};
    if (size == 2) counts.push_back(40000);
    for (size_t count : counts) {
      SCOPED_TRACE(absl::StrCat(size, " ranks, count ", count));
      auto fabric = InProcessFabric::Create(size);
      std::vector<std::vector<uint8_t>> buffers(size);
      std::vector<TransportCounters> counters(size);
      RunRanks(size, [&](int rank) {
        auto endpoint = fabric->Endpoint(rank);
        buffers[rank] =
            MakeInput(PJRTX_Buffer_Type_F32, ReduceOp::kSum, rank, count);
        EXPECT_TRUE(HalvingDoublingAllReduce(
                        *endpoint, ReduceOp::kSum, PJRTX_Buffer_Type_F32,
                        buffers[rank].data(), count, 1, 2, DeadlineAfter(5s))
                        .ok());
        counters[rank] = endpoint->counters();
      });
      const std::vector<uint8_t> expected =
          ExpectedReduction(PJRTX_Buffer_Type_F32, ReduceOp::kSum, size, count);
      for (int rank = 0; rank < size; ++rank) {
        EXPECT_EQ(buffers[rank], expected) << "rank " << rank;
        EXPECT_EQ(counters[rank].messages_sent, steps) << "rank " << rank;
        EXPECT_EQ(counters[rank].bytes_sent,
                  static_cast<int64_t>(steps * count * 4))
            << "rank " << rank;
      }
    }
  }
}

TEST(RingTest, ReduceScatterLeavesEachRankItsOwnChunk) {
  for (int size : {2, 3, 5}) {
    const size_t count = 3 * size + 2;
    auto fabric = InProcessFabric::Create(size);
    std::vector<std::vector<uint8_t>> buffers(size);
    RunRanks(size, [&](int rank) {
      auto endpoint = fabric->Endpoint(rank);
      buffers[rank] =
          MakeInput(PJRTX_Buffer_Type_S32, ReduceOp::kSum, rank, count);
      EXPECT_TRUE(RingReduceScatter(*endpoint, ReduceOp::kSum,
                                    PJRTX_Buffer_Type_S32, buffers[rank].data(),
                                    count, 0, 0, DeadlineAfter(5s))
                      .ok());
    });
    const std::vector<uint8_t> expected =
        ExpectedReduction(PJRTX_Buffer_Type_S32, ReduceOp::kSum, size, count);
    for (int rank = 0; rank < size; ++rank) {
      const ChunkRange chunk = Chunk(count, size, rank);
      EXPECT_TRUE(std::equal(expected.begin() + chunk.begin * 4,
                             expected.begin() + (chunk.begin + chunk.size) * 4,
                             buffers[rank].begin() + chunk.begin * 4))
          << "size " << size << " rank " << rank;
    }
  }
}

TEST(RingTest, AllGatherCopiesEveryChunkFromItsOwner) {
  constexpr int kSize = 4;
  constexpr size_t kCount = 10;  // Chunks of 3, 3, 2, 2.
  auto fabric = InProcessFabric::Create(kSize);
  std::vector<std::vector<int32_t>> buffers(kSize);
  RunRanks(kSize, [&](int rank) {
    auto endpoint = fabric->Endpoint(rank);
    buffers[rank].assign(kCount, -1);
    const ChunkRange own = Chunk(kCount, kSize, rank);
    for (size_t i = own.begin; i < own.begin + own.size; ++i) {
      buffers[rank][i] = static_cast<int32_t>(100 * rank + i);
    }
    EXPECT_TRUE(RingAllGather(*endpoint, PJRTX_Buffer_Type_S32,
                              buffers[rank].data(), kCount, 0, 0,
                              DeadlineAfter(5s))
                    .ok());
  });
  for (int rank = 0; rank < kSize; ++rank) {
    for (int owner = 0; owner < kSize; ++owner) {
      const ChunkRange chunk = Chunk(kCount, kSize, owner);
      for (size_t i = chunk.begin; i < chunk.begin + chunk.size; ++i) {
        EXPECT_EQ(buffers[rank][i], static_cast<int32_t>(100 * owner + i));
      }
    }
  }
}

TEST(BufferChunksTest, ChunksAreContiguousAndDifferByAtMostOne) {
  EXPECT_EQ(Chunk(10, 4, 0).size, 3u);
  EXPECT_EQ(Chunk(10, 4, 3).begin, 8u);
  EXPECT_EQ(Chunk(10, 4, 3).size, 2u);
  EXPECT_EQ(Chunk(2, 4, 3).size, 0u);
  EXPECT_EQ(ChunkBegin(10, 4, 4), 10u);
  EXPECT_EQ(CheckHostBuffer("Op", nullptr, 3).code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pjrtx::collectives
