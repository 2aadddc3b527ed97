// Point-to-point links between the ranks of a communicator, which the
// collective algorithms are written against once: in-process (ICI between
// chips of one process) or UCX (DCN between processes).
#ifndef PJRTX_RUNTIME_COLLECTIVES_TRANSPORT_H_
#define PJRTX_RUNTIME_COLLECTIVES_TRANSPORT_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/collectives/operation_header.h"
#include "runtime/collectives/reduction.h"
#include "runtime/core/base/key_value_store.h"

namespace pjrtx::collectives {

using Deadline = std::chrono::steady_clock::time_point;

// Tags identify a message within a communicator: which operation (its
// sequence number, the same on every rank because all ranks issue
// operations in the same order) and which step or chunk of it.
// Layout, high to low: communicator id (16 bits), operation sequence
// (24 bits), step (24 bits).
constexpr uint64_t MakeTag(uint32_t communicator, uint32_t sequence,
                           uint32_t step) {
  return (uint64_t{communicator & 0xffff} << 48) |
         (uint64_t{sequence & 0xffffff} << 24) | uint64_t{step & 0xffffff};
}

// What one endpoint moved, for tests and benchmarks that prove how many
// bytes cross a link.
struct TransportCounters {
  int64_t bytes_sent = 0;
  int64_t messages_sent = 0;
  int64_t bytes_received = 0;
  int64_t messages_received = 0;
};

// A buffer in memory a transport may not address (a chip's): the transport
// reaches it only through these copies, into and out of host memory of its
// own, as the data moves. Each byte is copied once per message, so handing
// a transport a StagedMemory stages the buffer without a separate staging
// buffer. Thread-compatible: the transport may copy from its driving
// thread, never from two threads at once.
class StagedMemory {
 public:
  virtual ~StagedMemory() = default;
  virtual size_t size() const = 0;
  // The buffer itself when it is host memory the transport may address
  // (then it moves without these copies); null otherwise.
  virtual uint8_t* host_data() { return nullptr; }
  // Copies bytes [offset, offset + bytes) of the buffer into `host`.
  virtual void ToHost(size_t offset, uint8_t* host, size_t bytes) = 0;
  // Takes in `bytes` from `host` at `offset`: copies them into the buffer
  // (an implementation may combine them with what is there instead, as a
  // reduction does). Pieces may come in any order and split elements.
  virtual void FromHost(size_t offset, const uint8_t* host, size_t bytes) = 0;

  // Whether the device reduces incoming bytes with its own
  // (ReduceFromHost). A reduction there moves the incoming bytes into the
  // device, where reducing on the host moves the device's bytes out and
  // the result back in: one crossing of the data instead of two.
  virtual bool reduces_on_device() const { return false; }
  // Only where reduces_on_device(), once per element: writes op(the bytes
  // ToHost reads, the incoming bytes at `host`) as the result of the whole
  // elements [offset, offset + bytes). The default aborts: a buffer that
  // says it reduces must.
  virtual void ReduceFromHost(size_t offset, const uint8_t* host, size_t bytes,
                              ReduceOp op, PJRTX_Buffer_Type type);
  // Copies bytes [offset, offset + bytes) of the result, as FromHost and
  // ReduceFromHost left it, into `host`. The default is ToHost, for
  // buffers whose result replaces their contents.
  virtual void ResultToHost(size_t offset, uint8_t* host, size_t bytes) {
    ToHost(offset, host, bytes);
  }
};

// One rank's endpoint. Ranks are 0..size()-1 of the communicator. Messages
// from one rank to another with the same tag arrive in the order they were
// sent. An endpoint is used by one thread at a time.
class Transport {
 public:
  virtual ~Transport() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Sends `send` to rank `to` and receives exactly `recv.size()` bytes from
  // rank `from`, both with `tag`, and returns when both are done (`send`
  // may then be reused, `recv` is filled). Deadlock-free when every rank of
  // a ring or butterfly calls it at once, whatever the message sizes.
  // `send` and `recv` must not overlap: a transport may start receiving
  // before it has read all of `send` (the in-process fabric alone accepts
  // it). A peer of -1 skips that side. Errors: DEADLINE_EXCEEDED at `deadline`;
  // UNAVAILABLE when the peer is gone; INVALID_ARGUMENT when the message
  // that arrives is not `recv.size()` bytes (naming both sizes) or a peer
  // is out of range.
  virtual absl::Status SendRecv(int to, absl::Span<const uint8_t> send,
                                int from, absl::Span<uint8_t> recv,
                                uint64_t tag, Deadline deadline) = 0;

  // SendRecv of buffers the transport reaches only through copies: `send`
  // is read when `to` >= 0, `recv` written when `from` >= 0 (each then
  // non-null). Same contract and errors as SendRecv; when it returns,
  // neither buffer is touched any more. This default copies `send` into a
  // host buffer, runs SendRecv and copies the result into `recv` (sides
  // with host_data() move as they are); a transport with host buffers of
  // its own (UCX's bounce buffers) overrides it to copy straight into and
  // out of them.
  virtual absl::Status SendRecvStaged(int to, StagedMemory* send, int from,
                                      StagedMemory* recv, uint64_t tag,
                                      Deadline deadline);

  absl::Status Send(int to, absl::Span<const uint8_t> data, uint64_t tag,
                    Deadline deadline) {
    return SendRecv(to, data, -1, {}, tag, deadline);
  }
  absl::Status Recv(int from, absl::Span<uint8_t> data, uint64_t tag,
                    Deadline deadline) {
    return SendRecv(-1, {}, from, data, tag, deadline);
  }

  virtual TransportCounters counters() const = 0;

  // Announces the operation the next SendRecv calls belong to, so that a
  // transport between processes can check that its peers run the same one
  // (see OperationHeader). Transports whose peers were checked otherwise
  // ignore it.
  virtual void BeginOperation(const OperationHeader& /*header*/) {}
};

// Makes rank `rank` of a `size`-rank transport whose ranks meet under
// `key` in `store` (e.g. a UcxTransport); blocks until every rank is there
// or `timeout_ms` passes.
using TransportFactory =
    std::function<absl::StatusOr<std::unique_ptr<Transport>>(
        KeyValueStore& store, const std::string& key, int rank, int size,
        int64_t timeout_ms)>;

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_TRANSPORT_H_
