#include "runtime/collectives/staged_ring.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/collectives/buffer_chunks.h"
#include "runtime/collectives/ring.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {
namespace {

int Wrap(int value, int size) { return ((value % size) + size) % size; }

// Bytes [offset, offset + size) of another StagedMemory.
class StagedRange final : public StagedMemory {
 public:
  StagedRange(StagedMemory& base, size_t offset, size_t size)
      : base_(base), offset_(offset), size_(size) {}

  size_t size() const override { return size_; }
  void ToHost(size_t offset, uint8_t* host, size_t bytes) override {
    base_.ToHost(offset_ + offset, host, bytes);
  }
  void FromHost(size_t offset, const uint8_t* host, size_t bytes) override {
    base_.FromHost(offset_ + offset, host, bytes);
  }
  bool reduces_on_device() const override { return base_.reduces_on_device(); }
  void ReduceFromHost(size_t offset, const uint8_t* host, size_t bytes,
                      ReduceOp op, PJRTX_Buffer_Type type) override {
    base_.ReduceFromHost(offset_ + offset, host, bytes, op, type);
  }
  void ResultToHost(size_t offset, uint8_t* host, size_t bytes) override {
    base_.ResultToHost(offset_ + offset, host, bytes);
  }

 private:
  StagedMemory& base_;
  const size_t offset_;
  const size_t size_;
};

// The result of a StagedMemory, for sending what a reduction on the device
// left there.
class ResultRange final : public StagedMemory {
 public:
  explicit ResultRange(StagedMemory& base) : base_(base) {}

  size_t size() const override { return base_.size(); }
  void ToHost(size_t offset, uint8_t* host, size_t bytes) override {
    base_.ResultToHost(offset, host, bytes);
  }
  void FromHost(size_t offset, const uint8_t* host, size_t bytes) override {
    base_.FromHost(offset, host, bytes);
  }

 private:
  StagedMemory& base_;
};

// Host memory the links address directly.
class HostRange final : public StagedMemory {
 public:
  HostRange(uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t size() const override { return size_; }
  uint8_t* host_data() override { return data_; }
  void ToHost(size_t offset, uint8_t* host, size_t bytes) override {
    std::memcpy(host, data_ + offset, bytes);
  }
  void FromHost(size_t offset, const uint8_t* host, size_t bytes) override {
    std::memcpy(data_ + offset, host, bytes);
  }

 private:
  uint8_t* const data_;
  const size_t size_;
};

// A receive into host memory that also writes each piece to the device as
// it lands (a final result that is still to be forwarded).
class TeeRange final : public StagedMemory {
 public:
  TeeRange(uint8_t* host, StagedMemory& device, size_t size)
      : host_(host), device_(device), size_(size) {}

  size_t size() const override { return size_; }
  void ToHost(size_t offset, uint8_t* host, size_t bytes) override {
    std::memcpy(host, host_ + offset, bytes);
  }
  void FromHost(size_t offset, const uint8_t* host, size_t bytes) override {
    std::memcpy(host_ + offset, host, bytes);
    device_.FromHost(offset, host, bytes);
  }

 private:
  uint8_t* const host_;
  StagedMemory& device_;
  const size_t size_;
};

// A receive that reduces as it lands. On the host: each piece of the
// incoming chunk is combined with the device's copy of the same bytes
// (copied out of the device for it, into the host chunk) and left reduced
// in the host chunk, and, when the reduction is final, also written back
// to the device while it is still in cache. On the device (only for a
// final reduction, on a device that reduces): each piece goes into the
// device, which reduces it with its own bytes; the host chunk is unused.
// Pieces may split elements; an element's incoming bytes wait here until
// they are all in.
class ReducingRange final : public StagedMemory {
 public:
  enum class Where { kHost, kHostThenDevice, kDevice };

  ReducingRange(StagedMemory& device, uint8_t* host, size_t size, ReduceOp op,
                PJRTX_Buffer_Type type, size_t element_size, Where where)
      : device_(device),
        host_(host),
        size_(size),
        op_(op),
        type_(type),
        element_size_(element_size),
        where_(where) {}

  size_t size() const override { return size_; }
  void ToHost(size_t offset, uint8_t* host, size_t bytes) override {
    std::memcpy(host, host_ + offset, bytes);
  }
  void FromHost(size_t offset, const uint8_t* incoming, size_t bytes) override {
    if (bytes == 0) return;
    if (where_ != Where::kDevice) device_.ToHost(offset, host_ + offset, bytes);
    const size_t end = offset + bytes;
    const size_t whole_begin =
        (offset + element_size_ - 1) / element_size_ * element_size_;
    const size_t whole_end = end / element_size_ * element_size_;
    if (whole_begin < whole_end) {
      Combine(whole_begin, incoming + (whole_begin - offset),
              whole_end - whole_begin);
    }
    // The elements the piece covers only in part: at most one at each end.
    const size_t first = offset / element_size_;
    const size_t last = (end - 1) / element_size_;
    if (offset % element_size_ != 0 || end < (first + 1) * element_size_) {
      Stash(first, offset, incoming, end);
    }
    if (last != first && end % element_size_ != 0) {
      Stash(last, offset, incoming, end);
    }
  }

 private:
  struct Partial {
    std::array<uint8_t, 16> bytes = {};
    size_t received = 0;
  };

  // Keeps the bytes of `element` that the piece [offset, end) at
  // `incoming` holds, and reduces the element once all its bytes are in.
  void Stash(size_t element, size_t offset, const uint8_t* incoming,
             size_t end) {
    const size_t element_begin = element * element_size_;
    const size_t from = std::max(offset, element_begin);
    const size_t to = std::min(end, element_begin + element_size_);
    Partial& partial = partials_[element];
    std::memcpy(partial.bytes.data() + (from - element_begin),
                incoming + (from - offset), to - from);
    partial.received += to - from;
    if (partial.received == element_size_) {
      Combine(element_begin, partial.bytes.data(), element_size_);
      partials_.erase(element);
    }
  }

  // Reduces the whole elements [offset, offset + bytes) with `incoming`.
  void Combine(size_t offset, const uint8_t* incoming, size_t bytes) {
    if (where_ == Where::kDevice) {
      device_.ReduceFromHost(offset, incoming, bytes, op_, type_);
      return;
    }
    // Cannot fail: the type was checked before the ring started.
    (void)Accumulate(op_, type_, host_ + offset, incoming,
                     bytes / element_size_);
    if (where_ == Where::kHostThenDevice) {
      device_.FromHost(offset, host_ + offset, bytes);
    }
  }

  StagedMemory& device_;
  uint8_t* const host_;
  const size_t size_;
  const ReduceOp op_;
  const PJRTX_Buffer_Type type_;
  const size_t element_size_;
  const Where where_;
  std::map<size_t, Partial> partials_;  // Few: at most two per piece.
};

}  // namespace

absl::Status StagedRingAllReduce(Transport& transport, ReduceOp op,
                                 PJRTX_Buffer_Type type, StagedMemory& device,
                                 uint8_t* host, size_t count,
                                 uint32_t communicator, uint32_t sequence,
                                 Deadline deadline) {
  PJRTX_ASSIGN_OR_RETURN(size_t element_size, ReducibleElementSize(type));
  PJRTX_RETURN_IF_ERROR(CheckHostBuffer("StagedRingAllReduce", host, count));
  if (device.size() != count * element_size) {
    return absl::InvalidArgumentError(absl::StrCat(
        "StagedRingAllReduce of ", count, " elements was given ", device.size(),
        " bytes of device memory; expected ", count * element_size));
  }
  const int size = transport.size();
  const int rank = transport.rank();
  if (size == 1 || count == 0) return absl::OkStatus();
  auto bytes_of = [&](int chunk) {
    const ChunkRange range = Chunk(count, size, chunk);
    return std::pair<size_t, size_t>(range.begin * element_size,
                                     range.size * element_size);
  };
  // Reduce-scatter: as RingReduceScatter, but the chunk sent first comes
  // from the device, and each chunk reduced is reduced from the device's
  // copy into the host buffer; the rank's own chunk, reduced last, is
  // reduced by the device where it can, and sent on from there.
  const bool own_on_device = device.reduces_on_device();
  for (int step = 0; step < size - 1; ++step) {
    const auto [send_begin, send_bytes] = bytes_of(Wrap(rank - step - 1, size));
    const auto [recv_begin, recv_bytes] = bytes_of(Wrap(rank - step - 2, size));
    StagedRange send_device(device, send_begin, send_bytes);
    HostRange send_host(host + send_begin, send_bytes);
    StagedRange recv_device(device, recv_begin, recv_bytes);
    // The last step completes the rank's own chunk.
    using Where = ReducingRange::Where;
    const Where where = step < size - 2 ? Where::kHost
                        : own_on_device ? Where::kDevice
                                        : Where::kHostThenDevice;
    ReducingRange reduce(recv_device, host + recv_begin, recv_bytes, op, type,
                         element_size, where);
    PJRTX_RETURN_IF_ERROR(transport.SendRecvStaged(
        Wrap(rank + 1, size),
        step == 0 ? static_cast<StagedMemory*>(&send_device) : &send_host,
        Wrap(rank - 1, size), &reduce, MakeTag(communicator, sequence, step),
        deadline));
  }
  // All-gather: as RingAllGather in the host buffer, each chunk written to
  // the device as it arrives; the chunk that arrives last (nobody needs it
  // forwarded) goes straight to the device only. The own chunk, sent
  // first, comes from the device where the device reduced it.
  for (int step = 0; step < size - 1; ++step) {
    const auto [send_begin, send_bytes] = bytes_of(Wrap(rank - step, size));
    const auto [recv_begin, recv_bytes] = bytes_of(Wrap(rank - step - 1, size));
    HostRange send_host(host + send_begin, send_bytes);
    StagedRange send_device(device, send_begin, send_bytes);
    ResultRange send_result(send_device);
    StagedRange recv_device(device, recv_begin, recv_bytes);
    TeeRange recv_both(host + recv_begin, recv_device, recv_bytes);
    PJRTX_RETURN_IF_ERROR(transport.SendRecvStaged(
        Wrap(rank + 1, size),
        step == 0 && own_on_device ? static_cast<StagedMemory*>(&send_result)
                                   : &send_host,
        Wrap(rank - 1, size),
        step == size - 2 ? static_cast<StagedMemory*>(&recv_device)
                         : &recv_both,
        MakeTag(communicator, sequence, kRingAllGatherFirstStep + step),
        deadline));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::collectives
