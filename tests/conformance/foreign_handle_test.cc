// Handles of another plugin instance or another client are rejected with
// INVALID_ARGUMENT instead of being used (and crashing).

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"
#include "plugin_under_test.h"

namespace pjrtx::conformance {
namespace {

// A copy of a file under $TMPDIR, removed when this goes out of scope. The
// dynamic loader keys instances by path, so loading the copy gives a second,
// independent instance of the plugin.
class TemporaryCopy {
 public:
  explicit TemporaryCopy(const std::string& source) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern =
        std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") +
        "/pjrtx_conformance_plugin_XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd < 0) {
      error_ = "mkstemp(" + pattern + ") failed";
      return;
    }
    close(fd);
    path_ = pattern;
    std::ifstream in(source, std::ios::binary);
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out << in.rdbuf();
    if (!in || !out) error_ = "cannot copy " + source + " to " + path_;
  }
  ~TemporaryCopy() {
    if (!path_.empty()) unlink(path_.c_str());
  }
  TemporaryCopy(const TemporaryCopy&) = delete;
  TemporaryCopy& operator=(const TemporaryCopy&) = delete;

  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  std::string error_;
};

class ForeignHandleTest : public ClientTest {};

TEST_F(ForeignHandleTest, SecondPluginInstanceRejectsTheFirstOnesHandles) {
  TemporaryCopy copy(Plugin().path);
  ASSERT_EQ(copy.error(), "");
  OpenedPlugin second;
  std::string error;
  ASSERT_TRUE(OpenPlugin(copy.path(), &second, &error))
      << error << " (a TMPDIR mounted noexec cannot hold plugins)";
  ASSERT_NE(second.api, api()) << "the copy did not load as a new instance";
  ASSERT_EQ(ApiUnusableReason(second.api), "");
  ASSERT_EQ(InitializePlugin(second.api), "");
  const PJRTX_Api* api2 = second.api;

  ClientPtr client2;
  ASSERT_TRUE(IsOk(CreateClient(&client2, Plugin().options, api2)));
  const std::vector<PJRTX_Device*> devices2 =
      AddressableDevices(client2.get(), api2);
  ASSERT_FALSE(devices2.empty());

  const std::vector<uint8_t> host = PatternBytes(32);
  BufferPtr buffer1;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(host.data(), PJRTX_Buffer_Type_U8, {32}, device()),
      &buffer1));

  std::vector<uint8_t> dst(host.size());
  auto to_host = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_ToHostBuffer_Args);
  to_host.src = buffer1.get();
  to_host.dst = dst.data();
  to_host.dst_size = dst.size();
  ScopedError to_host_error(api2->Buffer_ToHostBuffer(&to_host), api2);
  EventPtr to_host_event(to_host.event, EventDeleter{api2});
  EXPECT_TRUE(IsError(to_host_error, PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_ToHostBuffer of instance 2 given a buffer of instance 1";

  auto copy_args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_CopyToDevice_Args);
  copy_args.buffer = buffer1.get();
  copy_args.dst_device = devices2.front();
  ScopedError copy_error(api2->Buffer_CopyToDevice(&copy_args), api2);
  BufferPtr copied(copy_args.dst_buffer, BufferDeleter{api2});
  EXPECT_TRUE(IsError(copy_error, PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_CopyToDevice of instance 2 given a buffer of instance 1";

  auto from_host =
      PJRTX_CONFORMANCE_ARGS(PJRTX_Client_BufferFromHostBuffer_Args);
  const int64_t dims[] = {32};
  from_host.client = client2.get();
  from_host.data = host.data();
  from_host.type = PJRTX_Buffer_Type_U8;
  from_host.dims = dims;
  from_host.num_dims = 1;
  from_host.device = device();
  ScopedError from_host_error(api2->Client_BufferFromHostBuffer(&from_host),
                              api2);
  BufferPtr created(from_host.buffer, BufferDeleter{api2});
  EventPtr done(from_host.done_with_host_buffer, EventDeleter{api2});
  EXPECT_TRUE(IsError(from_host_error, PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Client_BufferFromHostBuffer of instance 2 given a device of "
         "instance 1";
  // The second instance stays loaded; see OpenPlugin for why.
}

TEST_F(ForeignHandleTest, ClientRejectsAnotherClientsDevice) {
  ClientPtr other;
  ASSERT_PJRTX_OK(CreateClient(&other));
  const std::vector<PJRTX_Device*> other_devices =
      AddressableDevices(other.get());
  ASSERT_FALSE(other_devices.empty());
  PJRTX_Device* other_device = other_devices.front();

  const std::vector<uint8_t> host = PatternBytes(32);
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(host.data(), PJRTX_Buffer_Type_U8, {32}, device()),
      &buffer));

  BufferPtr copied;
  EXPECT_TRUE(IsError(CopyToDevice(buffer.get(), other_device, &copied),
                      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_CopyToDevice to a device of another client";

  PJRTX_Memory* other_memory = DefaultMemory(other_device);
  ASSERT_NE(other_memory, nullptr);
  BufferPtr moved;
  EXPECT_TRUE(IsError(CopyToMemory(buffer.get(), other_memory, &moved),
                      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_CopyToMemory to a memory of another client";

  BufferPtr created;
  EXPECT_TRUE(IsError(
      BufferFromHost(
          client(),
          DenseSpec(host.data(), PJRTX_Buffer_Type_U8, {32}, other_device),
          &created),
      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Client_BufferFromHostBuffer with a device of another client";
}

}  // namespace
}  // namespace pjrtx::conformance
