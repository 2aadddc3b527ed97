#include "tests/plugins/cuda/fake_nccl/wire.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>

namespace fake_nccl {
namespace {

bool WriteAll(int fd, const void* data, size_t size) {
  const auto* at = static_cast<const uint8_t*>(data);
  while (size > 0) {
    const ssize_t sent = send(fd, at, size, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    at += sent;
    size -= static_cast<size_t>(sent);
  }
  return true;
}

bool ReadAll(int fd, void* data, size_t size) {
  auto* at = static_cast<uint8_t*>(data);
  while (size > 0) {
    const ssize_t got = recv(fd, at, size, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    at += got;
    size -= static_cast<size_t>(got);
  }
  return true;
}

}  // namespace

std::string HubAddress(int64_t process) {
  // Abstract (leading NUL): nothing in the file system to clean up.
  std::string address(1, '\0');
  address.append("pjrtx-fake-nccl.");
  address.append(std::to_string(process));
  return address;
}

int ConnectToHub(int64_t process) {
  const std::string address = HubAddress(process);
  sockaddr_un name{};
  name.sun_family = AF_UNIX;
  std::memcpy(name.sun_path, address.data(), address.size());
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const socklen_t length =
      static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + address.size());
  if (connect(fd, reinterpret_cast<const sockaddr*>(&name), length) != 0) {
    const int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

bool WriteFrame(int fd, const Frame& frame) {
  uint8_t header[9];
  header[0] = static_cast<uint8_t>(frame.kind);
  const uint64_t size = frame.payload.size();
  std::memcpy(header + 1, &size, sizeof(size));
  return WriteAll(fd, header, sizeof(header)) &&
         WriteAll(fd, frame.payload.data(), frame.payload.size());
}

bool ReadFrame(int fd, Frame* frame) {
  uint8_t header[9];
  if (!ReadAll(fd, header, sizeof(header))) return false;
  uint64_t size = 0;
  std::memcpy(&size, header + 1, sizeof(size));
  frame->kind = static_cast<FrameKind>(header[0]);
  frame->payload.resize(size);
  return ReadAll(fd, frame->payload.data(), size);
}

void PayloadWriter::U64(uint64_t value) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
  out_.insert(out_.end(), bytes, bytes + sizeof(value));
}

void PayloadWriter::Bytes(const void* data, size_t size) {
  U64(size);
  const auto* bytes = static_cast<const uint8_t*>(data);
  out_.insert(out_.end(), bytes, bytes + size);
}

uint64_t PayloadReader::U64() {
  uint64_t value = 0;
  if (!ok_ || in_.size() - at_ < sizeof(value)) {
    ok_ = false;
    return 0;
  }
  std::memcpy(&value, in_.data() + at_, sizeof(value));
  at_ += sizeof(value);
  return value;
}

std::vector<uint8_t> PayloadReader::Bytes() {
  const uint64_t size = U64();
  if (!ok_ || in_.size() - at_ < size) {
    ok_ = false;
    return {};
  }
  std::vector<uint8_t> bytes(in_.begin() + at_, in_.begin() + at_ + size);
  at_ += size;
  return bytes;
}

std::string PayloadReader::String() {
  const std::vector<uint8_t> bytes = Bytes();
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace fake_nccl
