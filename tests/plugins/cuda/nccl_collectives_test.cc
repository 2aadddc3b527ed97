// The CUDA plugin's NCCL collectives through the C ABI, on the fake driver
// and the fake NCCL, beyond what the conformance suite checks: every type
// NCCL reduces, types it cannot, collectives ordered with other queues'
// work on the GPU, communicators used from several threads at once, what a
// missing or old NCCL looks like, and each failure NCCL can report. The
// tests of a situation run only in the ctest entries that set it up
// (PJRTX_NCCL_PATH, FAKE_NCCL_* variables).
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/client/client.h"
#include "runtime/client/communicator.h"

namespace {

using ::pjrtx::client::Buffer;
using ::pjrtx::client::Client;
using ::pjrtx::client::Communicator;
using ::pjrtx::client::Device;
using ::pjrtx::client::PluginLibrary;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

// The situation a test needs: the value an environment variable must have
// in its ctest entry.
bool Situation(const char* variable, const std::string& value) {
  return Env(variable) == value;
}

// The exact encoding of a small non-negative integer `k` in a binary
// floating-point format with `mantissa` fraction bits and exponent `bias`
// (k < 2^(mantissa+1), so that it is exact).
uint32_t EncodeSmallInteger(uint32_t k, int mantissa, int bias) {
  if (k == 0) return 0;
  int exponent = 0;
  while ((k >> (exponent + 1)) != 0) ++exponent;
  const uint32_t fraction = (k - (1u << exponent)) << (mantissa - exponent);
  return (static_cast<uint32_t>(exponent + bias) << mantissa) | fraction;
}

class NcclCollectivesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto library = PluginLibrary::Load(CUDA_PLUGIN);
    ASSERT_TRUE(library.ok()) << library.status();
    library_ = *library;
    auto client = Client::Create(library_, {});
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::make_unique<Client>(*std::move(client));
    devices_ = client_->addressable_devices();
    ASSERT_GE(devices_.size(), 2u) << "the fake driver lists two GPUs";
    for (const Device& device : devices_) ids_.push_back(device.id());
  }

  // The plugin's capabilities, one per element.
  std::vector<std::string> Capabilities() const {
    return absl::StrSplit(
        library_->StringAttribute("pjrtx.capabilities").value_or(""), ',');
  }
  std::string NcclAttribute() const {
    return library_->StringAttribute("cuda.nccl").value_or("(none)");
  }

  absl::StatusOr<Communicator> MakeCommunicator(int64_t timeout_ms = 0) {
    return Communicator::Create(*client_, ids_, timeout_ms);
  }

  // One buffer per device of `bytes` (the same on every rank unless
  // `per_rank` gives each its own).
  std::vector<Buffer> Upload(
      PJRTX_Buffer_Type type, const std::vector<int64_t>& dims,
      const std::vector<std::vector<uint8_t>>& per_rank) {
    std::vector<Buffer> buffers;
    for (size_t r = 0; r < devices_.size(); ++r) {
      auto buffer =
          client_->BufferFromHost(per_rank[r].data(), type, dims, devices_[r]);
      EXPECT_TRUE(buffer.ok()) << buffer.status();
      if (buffer.ok()) buffers.push_back(*std::move(buffer));
    }
    return buffers;
  }

  static std::vector<const Buffer*> Pointers(const std::vector<Buffer>& all) {
    std::vector<const Buffer*> pointers;
    for (const Buffer& buffer : all) pointers.push_back(&buffer);
    return pointers;
  }

  std::vector<float> F32Input(size_t rank, size_t n) const {
    std::vector<float> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = rank * 100.0f + i;
    return values;
  }

  std::vector<Buffer> F32Inputs(size_t n) {
    std::vector<std::vector<uint8_t>> bytes;
    for (size_t r = 0; r < devices_.size(); ++r) {
      std::vector<float> values = F32Input(r, n);
      bytes.emplace_back(reinterpret_cast<const uint8_t*>(values.data()),
                         reinterpret_cast<const uint8_t*>(values.data() + n));
    }
    return Upload(PJRTX_Buffer_Type_F32, {static_cast<int64_t>(n)}, bytes);
  }

  std::vector<float> ExpectedSum(size_t n) const {
    std::vector<float> sum(n, 0.0f);
    for (size_t r = 0; r < devices_.size(); ++r) {
      std::vector<float> values = F32Input(r, n);
      for (size_t i = 0; i < n; ++i) sum[i] += values[i];
    }
    return sum;
  }

  static std::vector<float> Floats(const Buffer& buffer) {
    auto bytes = buffer.ToHostSync();
    EXPECT_TRUE(bytes.ok()) << bytes.status();
    if (!bytes.ok()) return {};
    std::vector<float> values(bytes->size() / sizeof(float));
    std::memcpy(values.data(), bytes->data(), values.size() * sizeof(float));
    return values;
  }

  std::shared_ptr<PluginLibrary> library_;
  std::unique_ptr<Client> client_;
  std::vector<Device> devices_;
  std::vector<int64_t> ids_;
};

bool NcclPresent() {
  return !Env("PJRTX_NCCL_PATH").empty() && Env("FAKE_NCCL_MODE").empty() &&
         Env("PJRTX_NCCL_PATH").find("nonexistent") == std::string::npos;
}

TEST_F(NcclCollectivesTest, NcclIsTheCollectivesBackend) {
  if (!NcclPresent()) GTEST_SKIP() << "runs with the fake NCCL";
  EXPECT_THAT(Capabilities(), Contains("collectives"));
  EXPECT_THAT(NcclAttribute(), HasSubstr("NCCL 2."));
  EXPECT_THAT(NcclAttribute(), HasSubstr(Env("PJRTX_NCCL_PATH")));
}

TEST_F(NcclCollectivesTest, AllReducesEveryTypeNcclReduces) {
  if (!NcclPresent()) GTEST_SKIP() << "runs with the fake NCCL";
  auto communicator = MakeCommunicator();
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  // Rank r contributes {1, 2, r + 1}: every sum is a small integer, exact
  // in every type (E5M2 included, with up to 2 ranks' sums below 8).
  struct Type {
    PJRTX_Buffer_Type type;
    size_t size;
    // Encodes a small non-negative integer.
    uint64_t (*encode)(uint32_t);
  };
  const std::vector<Type> types = {
      {PJRTX_Buffer_Type_S8, 1, [](uint32_t k) -> uint64_t { return k; }},
      {PJRTX_Buffer_Type_U8, 1, [](uint32_t k) -> uint64_t { return k; }},
      {PJRTX_Buffer_Type_S32, 4, [](uint32_t k) -> uint64_t { return k; }},
      {PJRTX_Buffer_Type_U32, 4, [](uint32_t k) -> uint64_t { return k; }},
      {PJRTX_Buffer_Type_S64, 8, [](uint32_t k) -> uint64_t { return k; }},
      {PJRTX_Buffer_Type_U64, 8, [](uint32_t k) -> uint64_t { return k; }},
      {PJRTX_Buffer_Type_F16, 2,
       [](uint32_t k) -> uint64_t { return EncodeSmallInteger(k, 10, 15); }},
      {PJRTX_Buffer_Type_BF16, 2,
       [](uint32_t k) -> uint64_t { return EncodeSmallInteger(k, 7, 127); }},
      {PJRTX_Buffer_Type_F32, 4,
       [](uint32_t k) -> uint64_t { return EncodeSmallInteger(k, 23, 127); }},
      {PJRTX_Buffer_Type_F64, 8,
       [](uint32_t k) -> uint64_t {
         return (uint64_t{EncodeSmallInteger(k, 20, 1023)} << 32);
       }},
      {PJRTX_Buffer_Type_F8E4M3FN, 1,
       [](uint32_t k) -> uint64_t { return EncodeSmallInteger(k, 3, 7); }},
      {PJRTX_Buffer_Type_F8E5M2, 1,
       [](uint32_t k) -> uint64_t { return EncodeSmallInteger(k, 2, 15); }},
  };
  const size_t p = devices_.size();
  for (const Type& type : types) {
    SCOPED_TRACE(type.type);
    auto encode = [&](const std::vector<uint32_t>& values) {
      std::vector<uint8_t> bytes(values.size() * type.size);
      for (size_t i = 0; i < values.size(); ++i) {
        const uint64_t bits = type.encode(values[i]);
        std::memcpy(bytes.data() + i * type.size, &bits, type.size);
      }
      return bytes;
    };
    std::vector<std::vector<uint8_t>> per_rank;
    std::vector<uint32_t> sum(3, 0);
    for (size_t r = 0; r < p; ++r) {
      const std::vector<uint32_t> values = {1, 2, static_cast<uint32_t>(r + 1)};
      per_rank.push_back(encode(values));
      for (size_t i = 0; i < 3; ++i) sum[i] += values[i];
    }
    std::vector<Buffer> inputs = Upload(type.type, {3}, per_rank);
    auto result = communicator->AllReduce(Pointers(inputs), PJRTX_ReduceOp_SUM);
    ASSERT_TRUE(result.ok()) << result.status();
    for (size_t r = 0; r < p; ++r) {
      ASSERT_TRUE(result->done[r].Await().ok()) << result->done[r].Await();
      auto got = result->outputs[r].ToHostSync();
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(*got, encode(sum)) << "rank " << r;
    }
  }
}

TEST_F(NcclCollectivesTest, ReducingTypesNcclLacksIsUnimplementedSayingWhy) {
  if (!NcclPresent()) GTEST_SKIP() << "runs with the fake NCCL";
  auto communicator = MakeCommunicator();
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  const std::vector<std::vector<uint8_t>> zeros(devices_.size(),
                                                std::vector<uint8_t>(8, 0));
  std::vector<Buffer> s16 = Upload(PJRTX_Buffer_Type_S16, {4}, zeros);
  auto result = communicator->AllReduce(Pointers(s16), PJRTX_ReduceOp_SUM);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(result.status().message(), HasSubstr("S16"));
  EXPECT_THAT(result.status().message(),
              HasSubstr("NCCL has no 16-bit integer type"));
  std::vector<Buffer> pred = Upload(PJRTX_Buffer_Type_PRED, {4}, zeros);
  result = communicator->ReduceScatter(Pointers(pred), PJRTX_ReduceOp_MAX);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(result.status().message(), HasSubstr("reduce-scatter"));
  EXPECT_THAT(result.status().message(), HasSubstr("NCCL has no boolean type"));
  // Nothing was issued: the communicator goes on working.
  std::vector<Buffer> inputs = F32Inputs(4);
  auto sum = communicator->AllReduce(Pointers(inputs), PJRTX_ReduceOp_SUM);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(Floats(sum->outputs[1]), ExpectedSum(4));
}

TEST_F(NcclCollectivesTest, MovesTypesNcclCannotReduce) {
  if (!NcclPresent()) GTEST_SKIP() << "runs with the fake NCCL";
  auto communicator = MakeCommunicator();
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  std::vector<std::vector<uint8_t>> per_rank;
  std::vector<uint8_t> gathered;
  for (size_t r = 0; r < devices_.size(); ++r) {
    // Two S16 values per rank.
    const std::vector<uint8_t> block = {static_cast<uint8_t>(r), 0x11, 0x22,
                                        static_cast<uint8_t>(0x80 + r)};
    per_rank.push_back(block);
    gathered.insert(gathered.end(), block.begin(), block.end());
  }
  std::vector<Buffer> inputs = Upload(PJRTX_Buffer_Type_S16, {2}, per_rank);
  auto result = communicator->AllGather(Pointers(inputs));
  ASSERT_TRUE(result.ok()) << result.status();
  for (size_t r = 0; r < devices_.size(); ++r) {
    auto got = result->outputs[r].ToHostSync();
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, gathered) << "rank " << r;
  }
}

TEST_F(NcclCollectivesTest, OtherQueuesUseTheResultsWithoutWaitingForThem) {
  if (!NcclPresent()) GTEST_SKIP() << "runs with the fake NCCL";
  auto communicator = MakeCommunicator();
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  const size_t n = 1 << 16;  // Large enough to take a while on the fake.
  for (int round = 0; round < 4; ++round) {
    std::vector<Buffer> inputs = F32Inputs(n);
    auto result = communicator->AllReduce(Pointers(inputs), PJRTX_ReduceOp_SUM);
    ASSERT_TRUE(result.ok()) << result.status();
    // Copied to the next GPU at once: that copy is ordered after the
    // collective on the GPU, through the result's registered event.
    const size_t from = round % devices_.size();
    const size_t to = (from + 1) % devices_.size();
    auto copy = result->outputs[from].CopyToDevice(devices_[to]);
    ASSERT_TRUE(copy.ok()) << copy.status();
    EXPECT_EQ(Floats(*copy), ExpectedSum(n)) << "round " << round;
  }
}

TEST_F(NcclCollectivesTest, ACopyBetweenGpusBeforeACollectiveCannotDeadlock) {
  if (!NcclPresent()) GTEST_SKIP() << "runs with the fake NCCL";
  // The copy, queued on GPU 1 before its part of the all-reduce, makes GPU
  // 1 wait for what GPU 0's stream holds when the copy is issued. Were GPU
  // 0's part of the all-reduce there already, each GPU would wait for the
  // other until the timeout.
  auto communicator = MakeCommunicator(/*timeout_ms=*/20'000);
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  for (int round = 0; round < 40; ++round) {
    std::vector<Buffer> inputs = F32Inputs(1024);
    auto copy = inputs[0].CopyToDevice(devices_[1]);
    ASSERT_TRUE(copy.ok()) << copy.status();
    auto result = communicator->AllReduce(Pointers(inputs), PJRTX_ReduceOp_SUM);
    ASSERT_TRUE(result.ok()) << result.status();
    for (size_t r = 0; r < devices_.size(); ++r) {
      ASSERT_TRUE(result->done[r].Await().ok())
          << "round " << round << ": " << result->done[r].Await();
    }
    EXPECT_EQ(Floats(*copy), F32Input(0, 1024)) << "round " << round;
  }
}

TEST_F(NcclCollectivesTest, CommunicatorsUsedFromSeveralThreadsAtOnce) {
  if (!NcclPresent()) GTEST_SKIP() << "runs with the fake NCCL";
  // Each thread's operations reach the queues in one order on every GPU,
  // whichever thread gets there first; otherwise the GPUs would each wait
  // in another collective for the other.
  constexpr int kThreads = 3;
  constexpr int kRounds = 12;
  std::vector<Communicator> communicators;
  for (int t = 0; t < kThreads; ++t) {
    auto communicator = MakeCommunicator();
    ASSERT_TRUE(communicator.ok()) << communicator.status();
    communicators.push_back(*std::move(communicator));
  }
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        std::vector<Buffer> inputs = F32Inputs(64 + t);
        auto result =
            communicators[t].AllReduce(Pointers(inputs), PJRTX_ReduceOp_SUM);
        if (!result.ok()) {
          ++failures[t];
          continue;
        }
        for (size_t r = 0; r < devices_.size(); ++r) {
          if (Floats(result->outputs[r]) != ExpectedSum(64 + t)) ++failures[t];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures, std::vector<int>(kThreads, 0));
}

TEST_F(NcclCollectivesTest, EmptyArraysMoveNothing) {
  if (!NcclPresent()) GTEST_SKIP() << "runs with the fake NCCL";
  auto communicator = MakeCommunicator();
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  std::vector<Buffer> inputs = F32Inputs(0);
  auto result = communicator->AllReduce(Pointers(inputs), PJRTX_ReduceOp_SUM);
  ASSERT_TRUE(result.ok()) << result.status();
  for (size_t r = 0; r < devices_.size(); ++r) {
    EXPECT_TRUE(result->done[r].Await().ok()) << result->done[r].Await();
    EXPECT_EQ(result->outputs[r].size_in_bytes(), 0u);
  }
  // And the ranks still agree on what comes next.
  inputs = F32Inputs(5);
  result = communicator->AllReduce(Pointers(inputs), PJRTX_ReduceOp_SUM);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(Floats(result->outputs[0]), ExpectedSum(5));
}

// ctest entry cuda.nccl_missing: PJRTX_NCCL_PATH=/nonexistent/libnccl.so.2.
TEST_F(NcclCollectivesTest, WithoutNcclThereAreNoCollectivesAndItSaysWhy) {
  if (!Situation("PJRTX_NCCL_PATH", "/nonexistent/libnccl.so.2")) {
    GTEST_SKIP() << "runs with PJRTX_NCCL_PATH=/nonexistent/libnccl.so.2";
  }
  // Collectives inside programs run on the host and need no NCCL.
  EXPECT_THAT(Capabilities(), Not(Contains("collectives")));
  EXPECT_THAT(Capabilities(), Contains("program_collectives"));
  EXPECT_THAT(NcclAttribute(),
              HasSubstr("unavailable: cannot load /nonexistent/libnccl.so.2"));
  auto communicator = MakeCommunicator();
  ASSERT_FALSE(communicator.ok());
  EXPECT_EQ(communicator.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(communicator.status().message(),
              HasSubstr("NCCL is unavailable: cannot load"));
}

// ctest entry cuda.nccl_old: FAKE_NCCL_MODE=old.
TEST_F(NcclCollectivesTest, AnOldNcclIsNotUsed) {
  if (!Situation("FAKE_NCCL_MODE", "old")) {
    GTEST_SKIP() << "runs with FAKE_NCCL_MODE=old";
  }
  // Collectives inside programs run on the host and need no NCCL.
  EXPECT_THAT(Capabilities(), Not(Contains("collectives")));
  EXPECT_THAT(Capabilities(), Contains("program_collectives"));
  EXPECT_THAT(NcclAttribute(), HasSubstr("NCCL 2.12.3"));
  EXPECT_THAT(NcclAttribute(), HasSubstr("is too old; NCCL 2.13.0 or newer"));
}

// ctest entry cuda.nccl_init_fails: FAKE_NCCL_MODE=init_fails.
TEST_F(NcclCollectivesTest, AFailedNcclInitFailsTheCreationNamingIt) {
  if (!Situation("FAKE_NCCL_MODE", "init_fails")) {
    GTEST_SKIP() << "runs with FAKE_NCCL_MODE=init_fails";
  }
  auto communicator = MakeCommunicator();
  ASSERT_FALSE(communicator.ok());
  EXPECT_EQ(communicator.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(communicator.status().message(), HasSubstr("ncclCommInitRank"));
  EXPECT_THAT(communicator.status().message(), HasSubstr("init_fails"));
}

// ctest entry cuda.nccl_fault_allreduce: FAKE_NCCL_FAIL=ncclAllReduce.
TEST_F(NcclCollectivesTest, AFailedNcclCallFailsEveryRankNamingIt) {
  if (!Situation("FAKE_NCCL_FAIL", "ncclAllReduce")) {
    GTEST_SKIP() << "runs with FAKE_NCCL_FAIL=ncclAllReduce";
  }
  auto communicator = MakeCommunicator();
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  std::vector<Buffer> inputs = F32Inputs(8);
  auto result = communicator->AllReduce(Pointers(inputs), PJRTX_ReduceOp_SUM);
  ASSERT_TRUE(result.ok()) << result.status();
  for (size_t r = 0; r < devices_.size(); ++r) {
    const absl::Status status = result->done[r].Await();
    EXPECT_EQ(status.code(), absl::StatusCode::kInternal) << status;
    EXPECT_THAT(status.message(), HasSubstr("ncclAllReduce")) << r;
    EXPECT_THAT(status.message(), HasSubstr("FAKE_NCCL_FAIL")) << r;
    // The output is defined by the failure.
    EXPECT_FALSE(result->outputs[r].ToHostSync().ok()) << r;
  }
  // The communicator is aborted: it says so rather than hanging.
  auto next = communicator->AllGather(Pointers(inputs));
  ASSERT_FALSE(next.ok());
  EXPECT_EQ(next.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(next.status().message(), HasSubstr("aborted"));
  EXPECT_THAT(next.status().message(), HasSubstr("ncclAllReduce"));
  // A new one works, and so do the GPUs.
  auto fresh = MakeCommunicator();
  ASSERT_TRUE(fresh.ok()) << fresh.status();
  auto gathered = fresh->AllGather(Pointers(inputs));
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  EXPECT_TRUE(gathered->done[0].Await().ok()) << gathered->done[0].Await();
}

// ctest entry cuda.nccl_hang: FAKE_NCCL_HANG=ncclAllReduce.
TEST_F(NcclCollectivesTest, AHungCollectiveFailsAfterItsTimeout) {
  if (!Situation("FAKE_NCCL_HANG", "ncclAllReduce")) {
    GTEST_SKIP() << "runs with FAKE_NCCL_HANG=ncclAllReduce";
  }
  auto communicator = MakeCommunicator(/*timeout_ms=*/300);
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  std::vector<Buffer> inputs = F32Inputs(8);
  auto result = communicator->AllReduce(Pointers(inputs), PJRTX_ReduceOp_SUM);
  ASSERT_TRUE(result.ok()) << result.status();
  for (size_t r = 0; r < devices_.size(); ++r) {
    const absl::Status status = result->done[r].Await();
    EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
    EXPECT_THAT(status.message(), HasSubstr("did not complete within 300 ms"));
  }
}

// ctest entry cuda.nccl_join_hang: FAKE_NCCL_HANG=ncclCommInitRank, the
// ranks never finish joining (as when a peer died after getting the id).
TEST_F(NcclCollectivesTest, ARankThatNeverJoinsFailsTheCreationInItsTimeout) {
  if (!Situation("FAKE_NCCL_HANG", "ncclCommInitRank")) {
    GTEST_SKIP() << "runs with FAKE_NCCL_HANG=ncclCommInitRank";
  }
  const auto start = std::chrono::steady_clock::now();
  auto communicator = MakeCommunicator(/*timeout_ms=*/300);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(communicator.ok());
  EXPECT_EQ(communicator.status().code(), absl::StatusCode::kDeadlineExceeded)
      << communicator.status();
  EXPECT_THAT(communicator.status().message(),
              HasSubstr("did not finish joining its peers within 300 ms"));
  EXPECT_LT(took, std::chrono::seconds(5));
}

// ctest entry cuda.nccl_async_error: FAKE_NCCL_ASYNC_ERROR=ncclAllGather.
TEST_F(NcclCollectivesTest, AnAsynchronousErrorAbortsTheCommunicator) {
  if (!Situation("FAKE_NCCL_ASYNC_ERROR", "ncclAllGather")) {
    GTEST_SKIP() << "runs with FAKE_NCCL_ASYNC_ERROR=ncclAllGather";
  }
  // A timeout far beyond the test's: the error is found by polling.
  auto communicator = MakeCommunicator(/*timeout_ms=*/600'000);
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  std::vector<Buffer> inputs = F32Inputs(8);
  auto result = communicator->AllGather(Pointers(inputs));
  ASSERT_TRUE(result.ok()) << result.status();
  for (size_t r = 0; r < devices_.size(); ++r) {
    const absl::Status status = result->done[r].Await();
    EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
    EXPECT_THAT(status.message(), HasSubstr("ncclCommGetAsyncError"));
    EXPECT_THAT(status.message(),
                HasSubstr("remote process exited or there was a network "
                          "error"));
    EXPECT_THAT(status.message(), HasSubstr("FAKE_NCCL_ASYNC_ERROR"));
  }
}

}  // namespace
