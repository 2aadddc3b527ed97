#include "runtime/client/client.h"

#include <cstring>
#include <numeric>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx::client {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<PluginLibrary> Minimal() {
  auto library = PluginLibrary::Load(MINIMAL_PLUGIN);
  EXPECT_TRUE(library.ok()) << library.status();
  return *library;
}

TEST(ClientTest, ParseOptionsTypesValuesBySchema) {
  auto library = Minimal();
  auto options = Client::ParseOptions(*library, {"device_count=3", "x=y"});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(std::get<int64_t>((*options)[0].value), 3);
  EXPECT_EQ(std::get<std::string>((*options)[1].value), "y");
  auto bad = Client::ParseOptions(*library, {"device_count=three"});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("'three'"));
}

TEST(ClientTest, RoundTripsThroughEveryDevice) {
  auto library = Minimal();
  auto client = Client::Create(library, {{"device_count", int64_t{3}}});
  ASSERT_TRUE(client.ok()) << client.status();
  std::vector<Device> devices = client->addressable_devices();
  ASSERT_EQ(devices.size(), 3u);
  std::vector<float> data(1000);
  std::iota(data.begin(), data.end(), 0.5f);
  auto buffer = client->BufferFromHost(data.data(), PJRTX_Buffer_Type_F32,
                                       {10, 100}, devices[0]);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  for (const Device& device : devices) {
    auto copy = buffer->CopyToDevice(device);
    ASSERT_TRUE(copy.ok()) << copy.status();
    EXPECT_EQ(copy->device().id(), device.id());
    auto bytes = copy->ToHostSync();
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    ASSERT_EQ(bytes->size(), data.size() * sizeof(float));
    EXPECT_EQ(std::memcmp(bytes->data(), data.data(), bytes->size()), 0);
  }
  auto counters = devices[1].transfer_counters();
  ASSERT_TRUE(counters.ok());
  EXPECT_EQ(counters->device_to_device_bytes, 4000);
}

TEST(ClientTest, UnknownOptionIsRejectedByName) {
  auto client = Client::Create(Minimal(), {{"devices", int64_t{3}}});
  EXPECT_EQ(client.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(client.status().message(), HasSubstr("'devices'"));
}

}  // namespace
}  // namespace pjrtx::client
