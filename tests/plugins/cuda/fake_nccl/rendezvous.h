// What the ranks of one unique id share, wherever they live: a rank
// (Member, what ncclComm_t stands for) meets its peers through a
// Rendezvous, the in-process Clique for ranks of the process that made the
// id, or a RemoteClique (a connection to that process) for ranks of other
// processes.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_RENDEZVOUS_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_RENDEZVOUS_H_

#include <cuda.h>
#include <nccl.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fake_nccl {

// The bytes of a rank in another process, carried over its connection in
// place of device memory the clique's process cannot reach.
struct HostData {
  bool send_live = true;  // Its buffers were live device memory there.
  bool recv_live = true;
  std::vector<uint8_t> input;   // What it sends.
  std::vector<uint8_t> output;  // What it receives, filled by the clique.
};

// One rank's part of a collective.
struct Contribution {
  const char* call = "";  // "ncclAllReduce", ... (a static string).
  ncclDataType_t type = ncclInt8;
  ncclRedOp_t op = ncclSum;
  size_t count = 0;  // As the call takes it (send count, recv count, ...).
  int root = 0;
  CUdeviceptr send = 0;
  CUdeviceptr recv = 0;
  HostData* host = nullptr;  // Set for a rank of another process.
};

// One send or receive of a group.
struct Transfer {
  bool send = false;
  int peer = 0;
  CUdeviceptr buffer = 0;
  size_t bytes = 0;
  uint64_t sequence = 0;     // Of this rank's messages to (from) `peer`.
  HostData* host = nullptr;  // Set for a rank of another process.
};

class Member;

class Rendezvous {
 public:
  virtual ~Rendezvous() = default;
  virtual int nranks() const = 0;
  // Waits until every rank has joined; ncclInvalidUsage when two ranks
  // share a GPU (NCCL does not support that).
  virtual ncclResult_t AwaitComplete(std::string* error) = 0;
  // On `member`'s stream worker: its part of collective `sequence`.
  // `stream_error` is the stream's error before it (the rank still meets
  // its peers, and reports the error asynchronously).
  virtual void RunCollective(const std::shared_ptr<Member>& member,
                             uint64_t sequence,
                             const Contribution& contribution,
                             CUresult stream_error) = 0;
  // On `member`'s stream worker: the sends and receives of one group, which
  // progress together (sends are posted first), each done when its peer
  // has received it, as NCCL's are.
  virtual void RunTransfers(const std::shared_ptr<Member>& member,
                            const std::vector<Transfer>& transfers,
                            CUresult stream_error) = 0;
  // Wakes every waiting rank: their work ends without moving data.
  virtual void Abort() = 0;
  // The rank is destroyed (ncclCommDestroy), its work done.
  virtual void Leave() {}
};

// One rank: what ncclComm_t stands for. Work in flight holds it, so it
// outlives ncclCommDestroy and ncclCommAbort.
class Member {
 public:
  // `process` tells GPUs of different processes apart (each process of
  // the tests has fake GPUs of its own).
  Member(std::shared_ptr<Rendezvous> rendezvous, int rank, int device,
         int64_t process)
      : rendezvous_(std::move(rendezvous)),
        rank_(rank),
        device_(device),
        process_(process) {}

  Rendezvous& rendezvous() const { return *rendezvous_; }
  int rank() const { return rank_; }
  int device() const { return device_; }
  int64_t process() const { return process_; }

  // Numbers the rank's next collective, and its next message to or from
  // `peer`: ranks match work by these, as NCCL matches by call order.
  uint64_t NextCollective();
  uint64_t NextSend(int peer);
  uint64_t NextRecv(int peer);

  // The first asynchronous error sticks (ncclCommGetAsyncError), with its
  // message (ncclGetLastError).
  void SetAsyncError(ncclResult_t error, std::string message);
  ncclResult_t async_error() const {
    return async_error_.load(std::memory_order_acquire);
  }
  // While the rank joins its peers in the background (created without
  // blocking): ncclCommGetAsyncError says ncclInProgress.
  void set_joining(bool joining) {
    joining_.store(joining, std::memory_order_release);
  }
  bool joining() const { return joining_.load(std::memory_order_acquire); }
  // Valid while async_error() is not ncclSuccess; never changes after.
  const std::string& async_message() const { return async_message_; }
  // Called with the first asynchronous error (a rank of another process
  // forwards it there). Set before the rank joins.
  void set_async_error_listener(
      std::function<void(ncclResult_t, const std::string&)> listener) {
    listener_ = std::move(listener);
  }

 private:
  const std::shared_ptr<Rendezvous> rendezvous_;
  const int rank_;
  const int device_;
  const int64_t process_;
  std::function<void(ncclResult_t, const std::string&)> listener_;
  std::mutex mu_;
  uint64_t next_collective_ = 0;       // Guarded by mu_.
  std::map<int, uint64_t> next_send_;  // Guarded by mu_.
  std::map<int, uint64_t> next_recv_;  // Guarded by mu_.
  std::string async_message_;          // Written once, under mu_.
  std::atomic<ncclResult_t> async_error_{ncclSuccess};
  std::atomic<bool> joining_{false};
};

// Where the fake reads or writes [address, address + bytes) of this
// process's device memory: nullptr when no live allocation holds it (or
// there is no fake driver).
void* Translate(CUdeviceptr address, size_t bytes, bool write);

// The bytes a collective reads from each rank and writes to each rank.
size_t InputBytes(const Contribution& contribution, int nranks);
size_t OutputBytes(const Contribution& contribution, int nranks);

}  // namespace fake_nccl

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_RENDEZVOUS_H_
