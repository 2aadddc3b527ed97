#include "runtime/collectives/hierarchical.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "runtime/collectives/in_process_transport.h"
#include "runtime/core/base/element_type.h"
#include "tests/runtime/collectives/collective_test_util.h"

namespace pjrtx::collectives {
namespace {

using ::pjrtx::collectives::testing::DeadlineAfter;
using ::pjrtx::collectives::testing::ExpectedReduction;
using ::pjrtx::collectives::testing::MakeInput;
using ::pjrtx::collectives::testing::NaiveWholeBufferAllReduce;
using ::pjrtx::collectives::testing::RunRanks;
using namespace std::chrono_literals;

// s slices of c chips: one intra-slice fabric per slice and one
// inter-slice fabric per chip index (chip r of every slice), as the
// runtime lays them out over ICI and DCN.
struct SliceTopology {
  SliceTopology(int slices, int chips) : slices(slices), chips(chips) {
    for (int s = 0; s < slices; ++s) {
      intra.push_back(InProcessFabric::Create(chips));
    }
    for (int c = 0; c < chips; ++c) {
      inter.push_back(InProcessFabric::Create(slices));
    }
  }
  int slices;
  int chips;
  std::vector<std::shared_ptr<InProcessFabric>> intra;
  std::vector<std::shared_ptr<InProcessFabric>> inter;
};

struct ChipResult {
  std::vector<uint8_t> data;
  absl::Status status;
  TransportCounters intra;
  TransportCounters inter;
};

// Runs the hierarchical all-reduce on every chip; global rank
// slice * chips + chip supplies MakeInput(rank).
std::vector<ChipResult> RunHierarchical(int slices, int chips,
                                        PJRTX_Buffer_Type type, ReduceOp op,
                                        size_t count) {
  SliceTopology topology(slices, chips);
  std::vector<ChipResult> results(slices * chips);
  RunRanks(slices * chips, [&](int rank) {
    const int slice = rank / chips;
    const int chip = rank % chips;
    auto intra = topology.intra[slice]->Endpoint(chip);
    auto inter = topology.inter[chip]->Endpoint(slice);
    ChipResult& result = results[rank];
    result.data = MakeInput(type, op, rank, count);
    result.status =
        HierarchicalAllReduce(*intra, *inter, op, type, result.data.data(),
                              count, 1, 2, DeadlineAfter(5s));
    result.intra = intra->counters();
    result.inter = inter->counters();
  });
  return results;
}

TEST(HierarchicalTest, MatchesDirectReductionOnEveryChip) {
  const int shapes[][2] = {{1, 4}, {4, 1}, {2, 2}, {3, 2}, {2, 4}, {4, 2}};
  for (const auto& shape : shapes) {
    const int slices = shape[0];
    const int chips = shape[1];
    const int size = slices * chips;
    for (PJRTX_Buffer_Type type : {PJRTX_Buffer_Type_F32, PJRTX_Buffer_Type_S64,
                                   PJRTX_Buffer_Type_BF16}) {
      for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kProduct, ReduceOp::kMin,
                          ReduceOp::kMax}) {
        for (size_t count :
             {size_t{0}, size_t{1}, static_cast<size_t>(size - 1),
              static_cast<size_t>(2 * size + 3), size_t{1000}}) {
          SCOPED_TRACE(absl::StrCat(slices, "x", chips, " ",
                                    ElementTypeName(type), " ",
                                    ReduceOpName(op), " count ", count));
          const std::vector<uint8_t> expected =
              ExpectedReduction(type, op, size, count);
          for (const ChipResult& result :
               RunHierarchical(slices, chips, type, op, count)) {
            ASSERT_TRUE(result.status.ok()) << result.status;
            ASSERT_EQ(result.data, expected);
          }
        }
      }
    }
  }
}

TEST(HierarchicalTest, InterSliceBytesPerChipAreAShardAndFlatInSlices) {
  constexpr int kChips = 2;
  constexpr size_t kCount = 2 * 3 * 4 * 100;  // Divisible by s * c below.
  constexpr int64_t kBytes = kCount * 4;
  for (int slices : {1, 2, 3, 4}) {
    SCOPED_TRACE(absl::StrCat(slices, " slices"));
    for (const ChipResult& result : RunHierarchical(
             slices, kChips, PJRTX_Buffer_Type_F32, ReduceOp::kSum, kCount)) {
      ASSERT_TRUE(result.status.ok()) << result.status;
      // 2 (s-1)/s * M/c over DCN, exactly.
      EXPECT_EQ(result.inter.bytes_sent,
                2 * (slices - 1) * kBytes / (slices * kChips));
      EXPECT_EQ(result.inter.bytes_received, result.inter.bytes_sent);
      EXPECT_LT(result.inter.bytes_sent, 2 * kBytes / kChips);
      // 2 (c-1)/c * M over ICI, whatever s is.
      EXPECT_EQ(result.intra.bytes_sent, 2 * (kChips - 1) * kBytes / kChips);
    }
  }
}

TEST(HierarchicalTest, NaiveWholeBufferSchemeGrowsLinearlyInSlices) {
  constexpr size_t kCount = 2 * 3 * 4 * 100;
  constexpr int64_t kBytes = kCount * 4;
  std::vector<int64_t> naive_bytes;
  for (int slices : {2, 3, 4}) {
    auto fabric = InProcessFabric::Create(slices);
    std::vector<int64_t> sent(slices);
    std::vector<std::vector<uint8_t>> data(slices);
    RunRanks(slices, [&](int rank) {
      auto endpoint = fabric->Endpoint(rank);
      data[rank] =
          MakeInput(PJRTX_Buffer_Type_F32, ReduceOp::kSum, rank, kCount);
      EXPECT_TRUE(NaiveWholeBufferAllReduce(
                      *endpoint, ReduceOp::kSum, PJRTX_Buffer_Type_F32,
                      data[rank].data(), kCount, DeadlineAfter(5s))
                      .ok());
      sent[rank] = endpoint->counters().bytes_sent;
    });
    const std::vector<uint8_t> expected = ExpectedReduction(
        PJRTX_Buffer_Type_F32, ReduceOp::kSum, slices, kCount);
    for (int rank = 0; rank < slices; ++rank) {
      EXPECT_EQ(data[rank], expected);
      EXPECT_EQ(sent[rank], (slices - 1) * kBytes);
    }
    naive_bytes.push_back(sent[0]);
    // The hierarchical scheme on the same slices, with 2 chips each,
    // sends less than one whole buffer per chip over DCN at every s.
    for (const ChipResult& result : RunHierarchical(
             slices, 2, PJRTX_Buffer_Type_F32, ReduceOp::kSum, kCount)) {
      EXPECT_LT(result.inter.bytes_sent, kBytes);
    }
  }
  EXPECT_EQ(naive_bytes[1] - naive_bytes[0], naive_bytes[2] - naive_bytes[1]);
}

TEST(HierarchicalTest, DeadSliceFailsEveryChip) {
  SliceTopology topology(2, 2);
  std::vector<absl::Status> statuses(4);
  std::thread killer([&] {
    std::this_thread::sleep_for(50ms);
    for (auto& fabric : topology.inter) {
      fabric->Fail(absl::UnavailableError("slice 1 is gone"));
    }
  });
  // Only slice 0 runs.
  RunRanks(2, [&](int chip) {
    auto intra = topology.intra[0]->Endpoint(chip);
    auto inter = topology.inter[chip]->Endpoint(0);
    std::vector<float> data(64, 1.0f);
    statuses[chip] = HierarchicalAllReduce(
        *intra, *inter, ReduceOp::kSum, PJRTX_Buffer_Type_F32, data.data(),
        data.size(), 0, 0, DeadlineAfter(20s));
  });
  killer.join();
  for (int chip = 0; chip < 2; ++chip) {
    EXPECT_EQ(statuses[chip].code(), absl::StatusCode::kUnavailable)
        << statuses[chip];
  }
}

}  // namespace
}  // namespace pjrtx::collectives
