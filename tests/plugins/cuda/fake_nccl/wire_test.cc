// The frames between a rank of another process and the hub: fields come
// back as written, a short payload reads as not ok (never past its end),
// and a frame cut off by the peer going away is not delivered.
#include "tests/plugins/cuda/fake_nccl/wire.h"

#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace fake_nccl {
namespace {

TEST(FakeNcclWireTest, FieldsComeBackAsWritten) {
  Frame frame{FrameKind::kCollective, {}};
  PayloadWriter out(&frame);
  out.U64(0xfedcba9876543210ull);
  out.String("ncclAllReduce");
  const std::vector<uint8_t> bytes = {1, 2, 3, 0, 255};
  out.Bytes(bytes.data(), bytes.size());
  out.Bytes(nullptr, 0);
  PayloadReader in(frame);
  EXPECT_EQ(in.U64(), 0xfedcba9876543210ull);
  EXPECT_EQ(in.String(), "ncclAllReduce");
  EXPECT_EQ(in.Bytes(), bytes);
  EXPECT_TRUE(in.Bytes().empty());
  EXPECT_TRUE(in.ok());
  EXPECT_EQ(in.U64(), 0u);  // Past the end.
  EXPECT_FALSE(in.ok());
}

TEST(FakeNcclWireTest, ALengthBeyondThePayloadIsNotOk) {
  Frame frame{FrameKind::kDone, {}};
  PayloadWriter out(&frame);
  out.U64(1000);  // Claims 1000 bytes; none follow.
  PayloadReader in(frame);
  EXPECT_TRUE(in.Bytes().empty());
  EXPECT_FALSE(in.ok());
}

TEST(FakeNcclWireTest, FramesCrossASocketAndACutFrameIsNotDelivered) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  Frame sent{FrameKind::kAsyncError, {}};
  PayloadWriter out(&sent);
  out.U64(6);
  out.String(std::string(100000, 'x'));  // More than one socket buffer.
  std::thread writer([&] { EXPECT_TRUE(WriteFrame(fds[0], sent)); });
  Frame got;
  ASSERT_TRUE(ReadFrame(fds[1], &got));
  writer.join();
  EXPECT_EQ(got.kind, FrameKind::kAsyncError);
  EXPECT_EQ(got.payload, sent.payload);
  // A header promising more than arrives before the peer closes.
  const uint8_t header[9] = {5, 64, 0, 0, 0, 0, 0, 0, 0};
  ASSERT_EQ(write(fds[0], header, sizeof(header)), 9);
  ASSERT_EQ(write(fds[0], "abc", 3), 3);
  close(fds[0]);
  EXPECT_FALSE(ReadFrame(fds[1], &got));
  // Writing to a peer that is gone fails instead of raising SIGPIPE.
  EXPECT_FALSE(WriteFrame(fds[1], sent));
  close(fds[1]);
}

}  // namespace
}  // namespace fake_nccl
