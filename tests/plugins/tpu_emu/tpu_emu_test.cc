// The TPU emulator through the C ABI: device identity, topology, memories,
// limits and bad options.
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/client/client.h"
#include "support/status_macros.h"

namespace {

using ::pjrtx::client::Client;
using ::pjrtx::client::Device;
using ::pjrtx::client::NamedValue;
using ::pjrtx::client::PluginLibrary;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::shared_ptr<PluginLibrary> Library() {
  auto library = PluginLibrary::Load(TPU_EMU_PLUGIN);
  EXPECT_TRUE(library.ok()) << library.status();
  return *library;
}

absl::StatusOr<Client> Make(const std::vector<std::string>& flags) {
  auto library = Library();
  PJRTX_ASSIGN_OR_RETURN(auto options, Client::ParseOptions(*library, flags));
  return Client::Create(library, options);
}

template <typename T>
T Attribute(const std::vector<NamedValue>& attributes,
            const std::string& name) {
  for (const NamedValue& a : attributes) {
    if (a.name == name) return std::get<T>(a.value);
  }
  ADD_FAILURE() << "no attribute " << name;
  return T();
}

TEST(TpuEmuTest, V5e2x2HasFourChipsWithCoordinates) {
  auto client = Make({"topology=v5e:2x2"});
  ASSERT_TRUE(client.ok()) << client.status();
  std::vector<Device> devices = client->addressable_devices();
  ASSERT_EQ(devices.size(), 4u);
  std::vector<std::vector<int64_t>> coords;
  for (size_t i = 0; i < devices.size(); ++i) {
    EXPECT_EQ(devices[i].id(), static_cast<int64_t>(i));
    EXPECT_EQ(devices[i].kind(), "TPU v5 lite (emulated)");
    auto attributes = devices[i].attributes();
    coords.push_back(Attribute<std::vector<int64_t>>(attributes, "coords"));
    EXPECT_EQ(Attribute<int64_t>(attributes, "core_on_chip"), 0);
    EXPECT_EQ(Attribute<int64_t>(attributes, "slice_index"), 0);
  }
  EXPECT_THAT(coords, ElementsAre(ElementsAre(0, 0, 0), ElementsAre(1, 0, 0),
                                  ElementsAre(0, 1, 0), ElementsAre(1, 1, 0)));
}

TEST(TpuEmuTest, V4Is3D) {
  auto client = Make({"topology=v4:2x2x2"});
  ASSERT_TRUE(client.ok()) << client.status();
  std::vector<Device> devices = client->addressable_devices();
  ASSERT_EQ(devices.size(), 8u);
  EXPECT_EQ(devices[7].kind(), "TPU v4 (emulated)");
  EXPECT_THAT(
      Attribute<std::vector<int64_t>>(devices[7].attributes(), "coords"),
      ElementsAre(1, 1, 1));
}

TEST(TpuEmuTest, EveryChipHasDeviceAndHostMemories) {
  auto client = Make({"topology=v5e:2x2"});
  ASSERT_TRUE(client.ok()) << client.status();
  for (const Device& device : client->addressable_devices()) {
    auto memories = device.memories();
    ASSERT_TRUE(memories.ok());
    std::vector<std::string> kinds;
    for (const auto& m : *memories) kinds.push_back(m.kind);
    EXPECT_THAT(kinds, ElementsAre("device", "pinned_host", "unpinned_host"));
    auto stats = device.memory_stats();
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->bytes_limit, int64_t{1} << 30);
  }
}

TEST(TpuEmuTest, Pod256ChipsCreatesListsAndCopiesToEveryChip) {
  auto client = Make({"topology=v5e:16x16"});
  ASSERT_TRUE(client.ok()) << client.status();
  std::vector<Device> devices = client->addressable_devices();
  ASSERT_EQ(devices.size(), 256u);
  std::vector<int32_t> data(4096);
  std::iota(data.begin(), data.end(), 7);
  auto source = client->BufferFromHost(data.data(), PJRTX_Buffer_Type_S32,
                                       {4096}, devices[0]);
  ASSERT_TRUE(source.ok()) << source.status();
  std::vector<pjrtx::client::Buffer> copies;
  for (const Device& device : devices) {
    auto copy = source->CopyToDevice(device);
    ASSERT_TRUE(copy.ok()) << copy.status();
    copies.push_back(*std::move(copy));
  }
  for (size_t i = 0; i < copies.size(); ++i) {
    auto bytes = copies[i].ToHostSync();
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    ASSERT_EQ(std::memcmp(bytes->data(), data.data(), bytes->size()), 0)
        << "chip " << i;
    EXPECT_EQ(copies[i].device().id(), static_cast<int64_t>(i));
  }
  EXPECT_EQ(
      Attribute<std::vector<int64_t>>(devices[255].attributes(), "coords"),
      (std::vector<int64_t>{15, 15, 0}));
}

TEST(TpuEmuTest, MultisliceGivesGlobalIdsAndAddressesOwnSliceOnly) {
  auto client = Make({"topology=v5e:2x2", "num_slices=3", "slice_index=1"});
  ASSERT_TRUE(client.ok()) << client.status();
  EXPECT_EQ(client->devices().size(), 12u);
  EXPECT_EQ(client->process_index(), 1);
  std::vector<int64_t> ids;
  for (const Device& d : client->addressable_devices()) {
    ids.push_back(d.id());
    EXPECT_EQ(d.process_index(), 1);
    EXPECT_EQ(Attribute<int64_t>(d.attributes(), "slice_index"), 1);
  }
  EXPECT_THAT(ids, ElementsAre(4, 5, 6, 7));
  EXPECT_FALSE(client->devices()[0].is_addressable());
  EXPECT_EQ(client->devices()[8].process_index(), 2);
}

TEST(TpuEmuTest, HostsSplitASlice) {
  auto client = Make({"topology=v5e:2x2", "hosts_per_slice=2", "host_index=1"});
  ASSERT_TRUE(client.ok()) << client.status();
  std::vector<int64_t> ids;
  for (const Device& d : client->addressable_devices()) ids.push_back(d.id());
  EXPECT_THAT(ids, ElementsAre(2, 3));
  EXPECT_EQ(client->process_index(), 1);
}

TEST(TpuEmuTest, HbmLimitIsResourceExhaustedNamingSizes) {
  auto client = Make({"topology=v5e:2x2", "hbm_bytes=1048576"});
  ASSERT_TRUE(client.ok()) << client.status();
  std::vector<uint8_t> big((1 << 20) + 1);
  auto buffer = client->BufferFromHost(big.data(), PJRTX_Buffer_Type_U8,
                                       {static_cast<int64_t>(big.size())},
                                       client->addressable_devices()[0]);
  ASSERT_EQ(buffer.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(buffer.status().message(),
              AllOf(HasSubstr("1048577 bytes"), HasSubstr("1048576 bytes")));
}

TEST(TpuEmuTest, SyncModeRunsEverythingOnOneThread) {
  auto client = Make({"topology=v5e:2x2", "mode=sync"});
  ASSERT_TRUE(client.ok()) << client.status();
  float x[3] = {1, 2, 3};
  auto devices = client->addressable_devices();
  auto buffer =
      client->BufferFromHost(x, PJRTX_Buffer_Type_F32, {3}, devices[0]);
  ASSERT_TRUE(buffer.ok());
  auto copy = buffer->CopyToDevice(devices[3]);
  ASSERT_TRUE(copy.ok());
  auto bytes = copy->ToHostSync();
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(std::memcmp(bytes->data(), x, sizeof(x)), 0);
}

struct BadOption {
  std::vector<std::string> flags;
  std::vector<std::string> message_parts;
};

class TpuEmuBadOptionTest : public ::testing::TestWithParam<BadOption> {};

TEST_P(TpuEmuBadOptionTest, IsInvalidArgumentNamingValueAndValidForms) {
  auto client = Make(GetParam().flags);
  ASSERT_EQ(client.status().code(), absl::StatusCode::kInvalidArgument)
      << client.status();
  for (const std::string& part : GetParam().message_parts) {
    EXPECT_THAT(client.status().message(), HasSubstr(part));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Options, TpuEmuBadOptionTest,
    ::testing::Values(
        BadOption{{"topology=v5e:2x3x"}, {"'v5e:2x3x'", "v5e:2x2", "v4:2x2x2"}},
        BadOption{{"topology=v9:2x2"}, {"unknown generation 'v9'"}},
        BadOption{{"topology=v4:2x2"}, {"v4 needs 3 axes"}},
        BadOption{{"topology=v5e:0x2"}, {"axis '0'"}},
        BadOption{{"topology=v5e:64x64x"}, {"needs 2 axes"}},
        BadOption{{"topology=v5p:64x64x64"}, {"at most 4096 chips"}},
        BadOption{{"num_slices=2", "slice_index=2"},
                  {"slice_index is 2", "0..1"}},
        BadOption{{"num_slices=0"}, {"num_slices is 0"}},
        BadOption{{"hosts_per_slice=3"}, {"hosts_per_slice is 3", "divisor"}},
        BadOption{{"hosts_per_slice=2", "host_index=-1"}, {"host_index is -1"}},
        BadOption{{"hbm_bytes=-5"}, {"hbm_bytes is -5", "1 MiB"}},
        BadOption{{"hbm_bytes=9223372036854775807"},
                  {"hbm_bytes is 9223372036854775807"}},
        BadOption{{"mode=fast"}, {"'fast'", "'async' or 'sync'"}},
        BadOption{{"matmul_precision=fast"}, {"'fast'", "'highest' or 'tpu'"}},
        BadOption{{"topology=5"}, {"Invalid topology '5'"}}));

}  // namespace
