// The ring all-reduce of device memory the links reach only through copies:
// results bit for bit against a direct reduction, every device byte copied
// out exactly once and back exactly once, and pieces that split elements
// and arrive in any order.
#include "runtime/collectives/staged_ring.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/collectives/in_process_transport.h"
#include "runtime/core/base/element_type.h"
#include "tests/runtime/collectives/collective_test_util.h"

namespace pjrtx::collectives {
namespace {

using ::pjrtx::collectives::testing::DeadlineAfter;
using ::pjrtx::collectives::testing::ExpectedReduction;
using ::pjrtx::collectives::testing::MakeInput;
using ::pjrtx::collectives::testing::RunRanks;
using ::pjrtx::collectives::testing::TestedTypes;
using ::testing::Each;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

// A chip's buffer: readable only through the copies, which are tallied per
// byte. As a collective's chip buffers, its input and its result are
// separate memory (the result starts as garbage), or one buffer reduced in
// place (as the hierarchical all-reduce's shard). One that reduces on the
// device combines incoming bytes with its input into its result.
class DeviceBuffer final : public StagedMemory {
 public:
  DeviceBuffer(std::vector<uint8_t> input, bool reduces, bool in_place)
      : input_(std::move(input)),
        separate_result_(in_place ? 0 : input_.size(), 0x5a),
        result_(in_place ? input_.data() : separate_result_.data()),
        reduces_(reduces),
        copied_out_(input_.size()),
        copied_in_(input_.size()) {}
  // result_ may point into input_.
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  size_t size() const override { return input_.size(); }
  void ToHost(size_t offset, uint8_t* host, size_t bytes) override {
    std::memcpy(host, input_.data() + offset, bytes);
    Count(copied_out_, offset, bytes);
  }
  void FromHost(size_t offset, const uint8_t* host, size_t bytes) override {
    std::memcpy(result_ + offset, host, bytes);
    Count(copied_in_, offset, bytes);
  }
  bool reduces_on_device() const override { return reduces_; }
  void ReduceFromHost(size_t offset, const uint8_t* host, size_t bytes,
                      ReduceOp op, PJRTX_Buffer_Type type) override {
    ASSERT_TRUE(reduces_) << "ReduceFromHost on a device that does not reduce";
    const size_t element_size = *ReducibleElementSize(type);
    ASSERT_EQ(offset % element_size, 0u) << "a reduction splits an element";
    ASSERT_EQ(bytes % element_size, 0u) << "a reduction splits an element";
    ASSERT_TRUE(Reduce(op, type, result_ + offset, input_.data() + offset, host,
                       bytes / element_size)
                    .ok());
    Count(copied_in_, offset, bytes);
  }
  void ResultToHost(size_t offset, uint8_t* host, size_t bytes) override {
    std::memcpy(host, result_ + offset, bytes);
    Count(copied_out_, offset, bytes);
  }

  std::vector<uint8_t> result() const {
    return std::vector<uint8_t>(result_, result_ + input_.size());
  }
  // How often each byte was copied out of (into) the buffer.
  const std::vector<int>& copied_out() const { return copied_out_; }
  const std::vector<int>& copied_in() const { return copied_in_; }

 private:
  static void Count(std::vector<int>& tally, size_t offset, size_t bytes) {
    for (size_t i = offset; i < offset + bytes; ++i) ++tally[i];
  }

  std::vector<uint8_t> input_;
  std::vector<uint8_t> separate_result_;
  uint8_t* const result_;
  const bool reduces_;
  std::vector<int> copied_out_;
  std::vector<int> copied_in_;
};

// A link that copies staged buffers in small pieces which split elements,
// and hands the received pieces over last first, as a transport with its
// own buffers may.
class PiecewiseTransport final : public Transport {
 public:
  explicit PiecewiseTransport(std::unique_ptr<Transport> link)
      : link_(std::move(link)) {}

  int rank() const override { return link_->rank(); }
  int size() const override { return link_->size(); }
  absl::Status SendRecv(int to, absl::Span<const uint8_t> send, int from,
                        absl::Span<uint8_t> recv, uint64_t tag,
                        Deadline deadline) override {
    return link_->SendRecv(to, send, from, recv, tag, deadline);
  }
  absl::Status SendRecvStaged(int to, StagedMemory* send, int from,
                              StagedMemory* recv, uint64_t tag,
                              Deadline deadline) override {
    std::vector<uint8_t> out(to < 0 ? 0 : send->size());
    std::vector<uint8_t> in(from < 0 ? 0 : recv->size());
    for (size_t offset = 0; offset < out.size(); offset += kPiece) {
      send->ToHost(offset, out.data() + offset,
                   std::min(kPiece, out.size() - offset));
    }
    absl::Status status =
        link_->SendRecv(to, out, from, absl::MakeSpan(in), tag, deadline);
    if (!status.ok() || in.empty()) return status;
    for (size_t offset = (in.size() - 1) / kPiece * kPiece;; offset -= kPiece) {
      recv->FromHost(offset, in.data() + offset,
                     std::min(kPiece, in.size() - offset));
      if (offset == 0) break;
    }
    return status;
  }
  TransportCounters counters() const override { return link_->counters(); }

 private:
  static constexpr size_t kPiece = 7;  // Splits 2-, 4- and 8-byte elements.
  const std::unique_ptr<Transport> link_;
};

struct RankResult {
  absl::Status status;
  std::unique_ptr<DeviceBuffer> device;
};

// Where the reduction runs, and whether the device's result replaces its
// input.
struct DeviceKind {
  bool reduces_on_device = false;
  bool in_place = false;
};

std::vector<RankResult> RunStagedRing(int size, PJRTX_Buffer_Type type,
                                      ReduceOp op, size_t count,
                                      DeviceKind kind) {
  auto fabric = InProcessFabric::Create(size);
  std::vector<RankResult> results(size);
  RunRanks(size, [&](int rank) {
    PiecewiseTransport link(fabric->Endpoint(rank));
    results[rank].device =
        std::make_unique<DeviceBuffer>(MakeInput(type, op, rank, count),
                                       kind.reduces_on_device, kind.in_place);
    // Garbage: the host buffer's contents must not matter.
    std::vector<uint8_t> host(results[rank].device->size(), 0xa5);
    results[rank].status =
        StagedRingAllReduce(link, op, type, *results[rank].device, host.data(),
                            count, 3, 9, DeadlineAfter(5s));
  });
  return results;
}

// Whether the device reduces its own chunk (as tpu_emu's chips do) or
// every reduction happens on the host, and whether the result is separate
// memory or the input itself, each byte crosses once each way.
class StagedRingAllReduceTest : public ::testing::TestWithParam<DeviceKind> {};

TEST_P(StagedRingAllReduceTest, MatchesDirectReductionCopyingEveryByteOnce) {
  for (int size : {1, 2, 3, 5}) {
    const std::vector<size_t> counts = {0, 1, static_cast<size_t>(size + 1),
                                        static_cast<size_t>(2 * size + 1), 257};
    for (PJRTX_Buffer_Type type : TestedTypes()) {
      for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kProduct, ReduceOp::kMin,
                          ReduceOp::kMax}) {
        for (size_t count : counts) {
          SCOPED_TRACE(absl::StrCat(size, " ranks, ", ElementTypeName(type),
                                    " ", ReduceOpName(op), " count ", count));
          const std::vector<uint8_t> expected =
              ExpectedReduction(type, op, size, count);
          std::vector<RankResult> results =
              RunStagedRing(size, type, op, count, GetParam());
          for (int rank = 0; rank < size; ++rank) {
            SCOPED_TRACE(absl::StrCat("rank ", rank));
            ASSERT_TRUE(results[rank].status.ok()) << results[rank].status;
            // One rank has nobody to reduce with: nothing moves, and its
            // result is its input, which the caller copies.
            if (size == 1) {
              EXPECT_THAT(results[rank].device->copied_out(), Each(0));
              EXPECT_THAT(results[rank].device->copied_in(), Each(0));
              continue;
            }
            const DeviceBuffer& device = *results[rank].device;
            ASSERT_EQ(device.result(), expected);
            EXPECT_THAT(device.copied_out(), Each(1));
            EXPECT_THAT(device.copied_in(), Each(1));
          }
        }
      }
    }
  }
}

TEST_P(StagedRingAllReduceTest, LargeBufferMatches) {
  constexpr size_t kCount = 100003;
  const std::vector<uint8_t> expected =
      ExpectedReduction(PJRTX_Buffer_Type_F32, ReduceOp::kSum, 3, kCount);
  for (const RankResult& result : RunStagedRing(
           3, PJRTX_Buffer_Type_F32, ReduceOp::kSum, kCount, GetParam())) {
    ASSERT_TRUE(result.status.ok()) << result.status;
    EXPECT_EQ(result.device->result(), expected);
  }
}

INSTANTIATE_TEST_SUITE_P(
    ReducingOnHostOrDevice, StagedRingAllReduceTest,
    ::testing::Values(DeviceKind{false, false}, DeviceKind{true, false},
                      DeviceKind{false, true}, DeviceKind{true, true}),
    [](const ::testing::TestParamInfo<DeviceKind>& info) {
      return absl::StrCat(info.param.reduces_on_device ? "OnDevice" : "OnHost",
                          info.param.in_place ? "InPlace" : "");
    });

TEST(StagedRingAllReduceErrorsTest, DeviceOfTheWrongSizeIsNamed) {
  auto fabric = InProcessFabric::Create(1);
  std::unique_ptr<Transport> link = fabric->Endpoint(0);
  DeviceBuffer device(std::vector<uint8_t>(10), /*reduces=*/false,
                      /*in_place=*/false);
  std::vector<uint8_t> host(12);
  const absl::Status status =
      StagedRingAllReduce(*link, ReduceOp::kSum, PJRTX_Buffer_Type_F32, device,
                          host.data(), 3, 3, 9, DeadlineAfter(1s));
  EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("given 10 bytes"));
  EXPECT_THAT(status.message(), HasSubstr("expected 12"));
}

}  // namespace
}  // namespace pjrtx::collectives
