// Frames between a rank in another process and the process that made its
// unique id (hub.h, remote_clique.h), over a local stream socket: a kind
// byte, a payload length (8 bytes) and the payload, built and read field
// by field.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_WIRE_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_WIRE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace fake_nccl {

enum class FrameKind : uint8_t {
  kJoin = 1,        // -> hub: key, nranks, rank, device, process.
  kJoined = 2,      // <- hub: result, error text.
  kCollective = 3,  // -> hub: one collective's part and its input.
  kTransfers = 4,   // -> hub: one group's sends and receives.
  kDone = 5,        // <- hub: completed (or aborted), outputs.
  kAsyncError = 6,  // <- hub: result, message.
  kLeave = 7,       // -> hub: the rank is destroyed.
};

struct Frame {
  FrameKind kind = FrameKind::kJoin;
  std::vector<uint8_t> payload;
};

// The abstract socket name of the hub of process `process`.
std::string HubAddress(int64_t process);

// Connects to the hub of `process`: the descriptor, or -1 (errno set).
int ConnectToHub(int64_t process);

// Whole frames, or false (peer gone, socket shut down). Writes never raise
// SIGPIPE.
bool WriteFrame(int fd, const Frame& frame);
bool ReadFrame(int fd, Frame* frame);

class PayloadWriter {
 public:
  explicit PayloadWriter(Frame* frame) : out_(frame->payload) {}
  void U64(uint64_t value);
  void Bytes(const void* data, size_t size);  // Length, then the bytes.
  void String(const std::string& text) { Bytes(text.data(), text.size()); }

 private:
  std::vector<uint8_t>& out_;
};

// Reading past the end leaves ok() false and yields zeros.
class PayloadReader {
 public:
  explicit PayloadReader(const Frame& frame) : in_(frame.payload) {}
  uint64_t U64();
  std::vector<uint8_t> Bytes();
  std::string String();
  bool ok() const { return ok_; }

 private:
  const std::vector<uint8_t>& in_;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace fake_nccl

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_WIRE_H_
