// How the processes of a job learn each other's GPUs: the description's
// round trip, malformed descriptions, and the exchange through a key-value
// store between processes (threads here) that publish in any order, or
// never.
#include "plugins/cuda/collectives/job_gpus.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/runtime/core/memory_key_value_store.h"

namespace cuda_plugin {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

using MemoryStore = pjrtx::testing::MemoryKeyValueStore;

GpuInfo Gpu(int ordinal, std::string name, int sm_count) {
  GpuInfo gpu;
  gpu.ordinal = ordinal;
  gpu.name = std::move(name);
  gpu.compute_major = 9;
  gpu.compute_minor = 0;
  gpu.sm_count = sm_count;
  gpu.memory_bytes = size_t{80} << 30;
  gpu.pci_bus_id = "0000:1" + std::to_string(ordinal) + ":00.0";
  return gpu;
}

void ExpectSame(const GpuInfo& got, const GpuInfo& want) {
  EXPECT_EQ(got.ordinal, want.ordinal);
  EXPECT_EQ(got.name, want.name);
  EXPECT_EQ(got.compute_major, want.compute_major);
  EXPECT_EQ(got.compute_minor, want.compute_minor);
  EXPECT_EQ(got.sm_count, want.sm_count);
  EXPECT_EQ(got.memory_bytes, want.memory_bytes);
  EXPECT_EQ(got.pci_bus_id, want.pci_bus_id);
}

TEST(JobGpusTest, DescriptionsSurviveTheirEncoding) {
  // Names are free-form: tabs and newlines must not break the lines.
  const std::vector<GpuInfo> gpus = {Gpu(0, "NVIDIA H100 80GB HBM3", 132),
                                     Gpu(1, "odd\tname\nhere", 114)};
  absl::StatusOr<std::vector<GpuInfo>> decoded = DecodeGpus(EncodeGpus(gpus));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), 2u);
  ExpectSame((*decoded)[0], gpus[0]);
  ExpectSame((*decoded)[1], gpus[1]);
}

TEST(JobGpusTest, MalformedDescriptionIsNamed) {
  absl::StatusOr<std::vector<GpuInfo>> decoded =
      DecodeGpus("0\tH100\t9\t0\tmany\t1024\t0000:01:00.0\n");
  EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(decoded.status().message(),
              AllOf(HasSubstr("many"), HasSubstr("expected ordinal")));
}

TEST(JobGpusTest, MalformedHostLineIsNamed) {
  absl::StatusOr<JobProcess> decoded =
      DecodeJobProcess("0\tH100\t9\t0\t132\t1024\t0000:01:00.0\n");
  EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(decoded.status().message(), HasSubstr("expected 'host'"));
}

TEST(JobGpusTest, ProcessesOfOneHostShareASlice) {
  std::vector<JobProcess> job = {
      {"b", {}}, {"a\tx", {}}, {"b", {}}, {"c", {}}, {"a\tx", {}}};
  for (JobProcess& process : job) {
    absl::StatusOr<JobProcess> decoded =
        DecodeJobProcess(EncodeJobProcess(process));
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->host, process.host);
  }
  EXPECT_THAT(SlicesOfProcesses(job), ElementsAre(0, 1, 0, 2, 1));
}

TEST(JobGpusTest, EveryProcessGetsEveryProcessesGpusInOrder) {
  constexpr int kProcesses = 3;
  MemoryStore store;
  std::vector<JobProcess> local = {
      {"h0", {Gpu(0, "A", 10), Gpu(1, "A", 11)}},
      {"h1", {Gpu(0, "B", 20)}},
      {"h0", {Gpu(0, "C", 30), Gpu(1, "C", 31), Gpu(2, "C", 32)}}};
  std::vector<absl::StatusOr<std::vector<JobProcess>>> seen(
      kProcesses, absl::UnknownError("not run"));
  std::vector<std::thread> processes;
  // The last process publishes first: order does not matter.
  for (int p = kProcesses - 1; p >= 0; --p) {
    processes.emplace_back([&, p] {
      seen[p] = ExchangeJobGpus(store, 0, kProcesses, p, local[p], 5000);
    });
  }
  for (std::thread& process : processes) process.join();
  for (int p = 0; p < kProcesses; ++p) {
    ASSERT_TRUE(seen[p].ok()) << "process " << p << ": " << seen[p].status();
    ASSERT_EQ(seen[p]->size(), 3u);
    for (int q = 0; q < kProcesses; ++q) {
      EXPECT_EQ((*seen[p])[q].host, local[q].host);
      ASSERT_EQ((*seen[p])[q].gpus.size(), local[q].gpus.size());
      for (size_t g = 0; g < local[q].gpus.size(); ++g) {
        ExpectSame((*seen[p])[q].gpus[g], local[q].gpus[g]);
      }
    }
  }
}

TEST(JobGpusTest, LaterClientsMeetTheirOwnCounterparts) {
  MemoryStore store;
  // Client 0 of both processes exchanged already; client 1 of process 1
  // must not see client 0's GPUs of process 0.
  ASSERT_TRUE(store
                  .Put("pjrtx/cuda/gpus/0/0",
                       EncodeJobProcess({"h", {Gpu(0, "old", 1)}}))
                  .ok());
  std::thread other([&] {
    ASSERT_TRUE(
        ExchangeJobGpus(store, 1, 2, 0, {"h", {Gpu(0, "new", 2)}}, 5000).ok());
  });
  absl::StatusOr<std::vector<JobProcess>> seen =
      ExchangeJobGpus(store, 1, 2, 1, {"h", {Gpu(0, "mine", 3)}}, 5000);
  other.join();
  ASSERT_TRUE(seen.ok()) << seen.status();
  EXPECT_EQ((*seen)[0].gpus[0].name, "new");
}

TEST(JobGpusTest, ProcessThatNeverPublishesIsNamed) {
  MemoryStore store;
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<JobProcess>> seen =
      ExchangeJobGpus(store, 0, 3, 1, {"h", {Gpu(0, "A", 1)}}, 100);
  EXPECT_EQ(seen.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(seen.status().message(), AllOf(HasSubstr("process(es) 0, 2 of 3"),
                                             HasSubstr("num_processes")));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(JobGpusTest, ProcessWithoutGpusIsRejected) {
  MemoryStore store;
  ASSERT_TRUE(store.Put("pjrtx/cuda/gpus/0/1", "host\th\n").ok());
  absl::StatusOr<std::vector<JobProcess>> seen =
      ExchangeJobGpus(store, 0, 2, 0, {"h", {Gpu(0, "A", 1)}}, 1000);
  EXPECT_EQ(seen.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(seen.status().message(),
              HasSubstr("process 1 of the job has no GPU"));
}

}  // namespace
}  // namespace cuda_plugin
