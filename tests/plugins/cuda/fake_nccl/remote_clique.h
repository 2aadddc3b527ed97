// A rank of a unique id made by another process: its connection to that
// process's hub (hub.h). Each part of its work runs on its stream worker as
// a request carrying the bytes of its send buffer, answered once the clique
// has run the part, with the bytes to write to its receive buffer.
// Asynchronous errors arrive on the connection as they happen. Losing the
// connection (the other process died) is ncclRemoteError; the work then
// waits, as NCCL's kernels do, until the rank is aborted.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_REMOTE_CLIQUE_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_REMOTE_CLIQUE_H_

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tests/plugins/cuda/fake_nccl/rendezvous.h"
#include "tests/plugins/cuda/fake_nccl/wire.h"

namespace fake_nccl {

class RemoteClique : public Rendezvous {
 public:
  // Connects to the hub of `process` and asks to join unique id `key` as
  // `rank` on `device`; nullptr (with `error`) if the hub is unreachable.
  static std::shared_ptr<RemoteClique> Connect(const std::string& key,
                                               int64_t process, int nranks,
                                               int rank, int device,
                                               std::string* error);
  ~RemoteClique() override;

  int nranks() const override { return nranks_; }
  ncclResult_t AwaitComplete(std::string* error) override;
  void RunCollective(const std::shared_ptr<Member>& member, uint64_t sequence,
                     const Contribution& contribution,
                     CUresult stream_error) override;
  void RunTransfers(const std::shared_ptr<Member>& member,
                    const std::vector<Transfer>& transfers,
                    CUresult stream_error) override;
  void Abort() override;
  void Leave() override;

 private:
  RemoteClique(int fd, int64_t process, int nranks)
      : fd_(fd), process_(process), nranks_(nranks) {}

  // Sends `request` and waits for its kDone, applying asynchronous errors
  // that arrive first; false if the rank was aborted or the connection is
  // lost (then after the abort).
  bool Exchange(const std::shared_ptr<Member>& member, const Frame& request,
                Frame* done);
  // The connection is gone: ncclRemoteError, then waits for the abort.
  void Lost(const std::shared_ptr<Member>& member);

  const int fd_;
  const int64_t process_;
  const int nranks_;
  std::mutex mu_;
  std::condition_variable changed_;
  bool aborted_ = false;  // Guarded by mu_.
};

}  // namespace fake_nccl

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_REMOTE_CLIQUE_H_
