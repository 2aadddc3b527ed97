#include "runtime/client/communicator.h"

#include <cstring>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/client/client.h"
#include "support/status_macros.h"

namespace pjrtx::client {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<Client> MakeClient(const char* path) {
  PJRTX_ASSIGN_OR_RETURN(auto library, PluginLibrary::Load(path));
  return Client::Create(library, {});
}

std::vector<float> Floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

TEST(CommunicatorTest, AllReduceAndAllGatherOverEveryChip) {
  auto client = MakeClient(TPU_EMU_PLUGIN);
  ASSERT_TRUE(client.ok()) << client.status();
  std::vector<Device> devices = client->addressable_devices();
  std::vector<int64_t> ids;
  for (const Device& device : devices) ids.push_back(device.id());
  auto communicator = Communicator::Create(*client, ids);
  ASSERT_TRUE(communicator.ok()) << communicator.status();
  ASSERT_EQ(communicator->local_ranks().size(), devices.size());
  std::vector<Buffer> inputs;
  std::vector<const Buffer*> input_pointers;
  for (size_t r = 0; r < devices.size(); ++r) {
    std::vector<float> data = {static_cast<float>(r), 1.0f};
    auto buffer = client->BufferFromHost(data.data(), PJRTX_Buffer_Type_F32,
                                         {2}, devices[r]);
    ASSERT_TRUE(buffer.ok()) << buffer.status();
    inputs.push_back(*std::move(buffer));
  }
  for (const Buffer& b : inputs) input_pointers.push_back(&b);
  const float n = static_cast<float>(devices.size());

  auto sum = communicator->AllReduce(input_pointers, PJRTX_ReduceOp_SUM);
  ASSERT_TRUE(sum.ok()) << sum.status();
  for (size_t r = 0; r < devices.size(); ++r) {
    ASSERT_TRUE(sum->done[r].Await().ok());
    auto bytes = sum->outputs[r].ToHostSync();
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    EXPECT_EQ(Floats(*bytes), (std::vector<float>{n * (n - 1) / 2, n}));
  }

  auto gathered = communicator->AllGather(input_pointers);
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  auto bytes = gathered->outputs.back().ToHostSync();
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  std::vector<float> values = Floats(*bytes);
  ASSERT_EQ(values.size(), 2 * devices.size());
  for (size_t r = 0; r < devices.size(); ++r) {
    EXPECT_EQ(values[2 * r], static_cast<float>(r));
  }
}

TEST(CommunicatorTest, PluginWithoutCollectivesIsUnimplemented) {
  auto client = MakeClient(MINIMAL_PLUGIN);
  ASSERT_TRUE(client.ok()) << client.status();
  auto communicator =
      Communicator::Create(*client, {client->addressable_devices()[0].id()});
  EXPECT_EQ(communicator.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(communicator.status().message(), HasSubstr("collectives"));
}

}  // namespace
}  // namespace pjrtx::client
