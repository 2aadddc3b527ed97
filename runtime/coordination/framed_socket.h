// A TCP connection that carries messages: each message is a list of byte
// strings, framed with lengths so values may hold any bytes (NULs included).
#ifndef PJRTX_RUNTIME_COORDINATION_FRAMED_SOCKET_H_
#define PJRTX_RUNTIME_COORDINATION_FRAMED_SOCKET_H_

#include <chrono>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/coordination/host_port.h"

namespace pjrtx {

// Wire format, all integers big-endian: u32 field count, then per field a
// u32 byte length and the bytes. One message is sent with one write so a
// request and its reply cost one round trip (TCP_NODELAY is set).
//
// Owns its file descriptor. ReadMessage/WriteMessage must not race with each
// other on one socket; Shutdown may be called from any thread at any time
// while the object lives, and wakes a reader blocked in another thread.
class FramedSocket {
 public:
  using Clock = std::chrono::steady_clock;
  // A deadline that never passes.
  static constexpr Clock::time_point kNoDeadline = Clock::time_point::max();

  // One connection attempt to every address `host_port` resolves to.
  // UNAVAILABLE when the host does not resolve or nothing accepts by
  // `deadline`; the caller decides whether to retry.
  static absl::StatusOr<FramedSocket> Dial(const HostPort& host_port,
                                           Clock::time_point deadline);

  // Takes ownership of a connected socket and makes it non-blocking.
  explicit FramedSocket(int fd);
  ~FramedSocket();
  FramedSocket(FramedSocket&& other) noexcept;
  FramedSocket& operator=(FramedSocket&& other) noexcept;
  FramedSocket(const FramedSocket&) = delete;
  FramedSocket& operator=(const FramedSocket&) = delete;

  // UNAVAILABLE when the peer is gone, DEADLINE_EXCEEDED when `deadline`
  // passes first. After an error the stream position is unknown: discard
  // the socket.
  absl::Status WriteMessage(const std::vector<std::string>& fields,
                            Clock::time_point deadline);
  absl::StatusOr<std::vector<std::string>> ReadMessage(
      Clock::time_point deadline);

  // Ends both directions; the peer and any local reader see end of stream.
  void Shutdown();

 private:
  absl::Status ReadExactly(char* data, size_t size, Clock::time_point deadline);
  absl::Status WaitFor(short events, Clock::time_point deadline);
  void Close();

  int fd_ = -1;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_COORDINATION_FRAMED_SOCKET_H_
