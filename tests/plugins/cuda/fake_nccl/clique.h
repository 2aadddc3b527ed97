// The ranks of one unique id (a clique) and what they do together. Ranks
// meet on the stream workers of the fake driver, as NCCL kernels of
// different GPUs meet: each rank's work waits there until its peers'
// arrives (or the clique is aborted), so the host calls return at once and
// the order of work on each stream is what matters, as on a GPU.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_CLIQUE_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_CLIQUE_H_

#include <cuda.h>
#include <nccl.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace fake_nccl {

class Clique;

// One rank of a clique: what ncclComm_t stands for. Work in flight holds
// it, so it outlives ncclCommDestroy and ncclCommAbort.
class Member {
 public:
  Member(std::shared_ptr<Clique> clique, int rank, int device)
      : clique_(std::move(clique)), rank_(rank), device_(device) {}

  Clique& clique() const { return *clique_; }
  const std::shared_ptr<Clique>& shared_clique() const { return clique_; }
  int rank() const { return rank_; }
  int device() const { return device_; }

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
  // Valid while async_error() is not ncclSuccess; never changes after.
  const std::string& async_message() const { return async_message_; }

 private:
  const std::shared_ptr<Clique> clique_;
  const int rank_;
  const int device_;
  std::mutex mu_;
  uint64_t next_collective_ = 0;       // Guarded by mu_.
  std::map<int, uint64_t> next_send_;  // Guarded by mu_.
  std::map<int, uint64_t> next_recv_;  // Guarded by mu_.
  std::string async_message_;          // Written once, under mu_.
  std::atomic<ncclResult_t> async_error_{ncclSuccess};
};

// One rank's part of a collective.
struct Contribution {
  const char* call = "";  // "ncclAllReduce", ...
  ncclDataType_t type = ncclInt8;
  ncclRedOp_t op = ncclSum;
  size_t count = 0;  // As the call takes it (send count, recv count, ...).
  int root = 0;
  CUdeviceptr send = 0;
  CUdeviceptr recv = 0;
};

// One send or receive of a group.
struct Transfer {
  bool send = false;
  int peer = 0;
  CUdeviceptr buffer = 0;
  size_t bytes = 0;
  uint64_t sequence = 0;  // Of this rank's messages to (from) `peer`.
};

class Clique {
 public:
  explicit Clique(int nranks) : nranks_(nranks) {}
  int nranks() const { return nranks_; }

  // `member` joins as its rank; ncclInvalidUsage if the rank has joined.
  ncclResult_t Join(const std::shared_ptr<Member>& member, std::string* error);
  // Waits until every rank has joined; ncclInvalidUsage when two ranks
  // share a GPU (NCCL does not support that).
  ncclResult_t AwaitComplete(std::string* error);

  // On `member`'s stream worker: its part of collective `sequence`.
  // `stream_error` is the stream's error before it (the rank still meets
  // its peers, and reports the error asynchronously).
  void RunCollective(const std::shared_ptr<Member>& member, uint64_t sequence,
                     const Contribution& contribution, CUresult stream_error);
  // On `member`'s stream worker: the sends and receives of one group, which
  // progress together (sends are posted first), each done when its peer
  // has received it, as NCCL's are.
  void RunTransfers(const std::shared_ptr<Member>& member,
                    const std::vector<Transfer>& transfers,
                    CUresult stream_error);

  // Wakes every waiting rank: their work ends without moving data.
  void Abort();

 private:
  struct Round {
    std::vector<std::shared_ptr<Member>> members;
    std::vector<Contribution> parts;
    std::vector<CUresult> stream_errors;
    int arrived = 0;
    int left = 0;
    bool done = false;
  };

  // Runs a complete round (mu_ held): false while it is to hang.
  bool Execute(Round& round);
  // Fails every member of `round` with `error`, also logged on stderr.
  static void FailRound(Round& round, ncclResult_t error,
                        const std::string& message);

  const int nranks_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<std::shared_ptr<Member>> members_;  // Guarded by mu_.
  int joined_ = 0;                                // Guarded by mu_.
  bool aborted_ = false;                          // Guarded by mu_.
  std::map<uint64_t, Round> rounds_;              // Guarded by mu_.
  // Messages posted and not yet received: (from, to, sequence) -> data.
  std::map<std::tuple<int, int, uint64_t>, std::vector<uint8_t>>
      messages_;  // Guarded by mu_.
};

}  // namespace fake_nccl

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_CLIQUE_H_
