#include "runtime/core/base/memory_space.h"

#include <map>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx {
namespace {

using ::testing::HasSubstr;

// Records allocations; never touches memory.
class CountingDriver : public Driver {
 public:
  TopologySpec Describe() override { return {}; }
  absl::StatusOr<DeviceAddress> Allocate(int memory, size_t size) override {
    live[next] = size;
    return DeviceAddress{next++};
  }
  void Free(int memory, DeviceAddress address, size_t size) override {
    EXPECT_EQ(live[address.value], size);
    live.erase(address.value);
  }
  absl::Status CopyFromHost(int, DeviceAddress, const void*, size_t) override {
    return absl::OkStatus();
  }
  absl::Status CopyToHost(int, void*, DeviceAddress, size_t) override {
    return absl::OkStatus();
  }
  absl::Status CopyBetween(int, DeviceAddress, int, DeviceAddress,
                           size_t) override {
    return absl::OkStatus();
  }
  std::map<uintptr_t, size_t> live;
  uintptr_t next = 0x1000;
};

std::shared_ptr<MemorySpace> MakeSpace(std::shared_ptr<CountingDriver> driver,
                                       int64_t limit) {
  MemorySpec spec;
  spec.kind = "device";
  spec.bytes_limit = limit;
  return std::make_shared<MemorySpace>(driver, 0, spec);
}

TEST(MemorySpaceTest, AccountsAllocationsAndPeak) {
  auto driver = std::make_shared<CountingDriver>();
  auto space = MakeSpace(driver, 0);
  {
    auto a = space->Allocate(100);
    auto b = space->Allocate(50);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(space->stats().bytes_in_use, 150);
    EXPECT_EQ(space->stats().num_allocs, 2);
    EXPECT_EQ(driver->live.size(), 2u);
  }
  EXPECT_EQ(space->stats().bytes_in_use, 0);
  EXPECT_EQ(space->stats().peak_bytes_in_use, 150);
  EXPECT_TRUE(driver->live.empty());
}

TEST(MemorySpaceTest, LimitIsResourceExhaustedNamingSizes) {
  auto driver = std::make_shared<CountingDriver>();
  auto space = MakeSpace(driver, 1000);
  auto a = space->Allocate(600);
  ASSERT_TRUE(a.ok());
  auto b = space->Allocate(500);
  ASSERT_EQ(b.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(b.status().message(), HasSubstr("500 bytes"));
  EXPECT_THAT(b.status().message(), HasSubstr("600 bytes in use"));
  EXPECT_THAT(b.status().message(), HasSubstr("1000 bytes"));
  EXPECT_EQ(space->stats().bytes_in_use, 600);
}

TEST(MemorySpaceTest, AliasSignalsReleaseInsteadOfFreeing) {
  auto driver = std::make_shared<CountingDriver>();
  auto space = MakeSpace(driver, 0);
  EventRef released = Event::Create();
  char host[16];
  {
    auto alias = space->WrapExternal(
        DeviceAddress{reinterpret_cast<uintptr_t>(host)}, sizeof(host),
        [released] { released->Set(absl::OkStatus()); });
    EXPECT_EQ(alias->address().value, reinterpret_cast<uintptr_t>(host));
    EXPECT_FALSE(released->IsReady());
  }
  EXPECT_TRUE(released->IsReady());
  EXPECT_TRUE(driver->live.empty());
  EXPECT_EQ(space->stats().bytes_in_use, 0);
}

}  // namespace
}  // namespace pjrtx
