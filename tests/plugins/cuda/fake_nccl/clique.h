// The ranks of one unique id (a clique) and what they do together, in the
// process that made the id. Ranks meet on the stream workers of the fake
// driver, as NCCL kernels of different GPUs meet: each rank's work waits
// there until its peers' arrives (or the clique is aborted), so the host
// calls return at once and the order of work on each stream is what
// matters, as on a GPU. Ranks of other processes take part through the
// hub (hub.h), which acts for them here with their bytes.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_CLIQUE_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_CLIQUE_H_

#include <cuda.h>
#include <nccl.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "tests/plugins/cuda/fake_nccl/rendezvous.h"

namespace fake_nccl {

class Clique : public Rendezvous {
 public:
  explicit Clique(int nranks) : nranks_(nranks) {}
  int nranks() const override { return nranks_; }

  // `member` joins as its rank; ncclInvalidUsage if the rank has joined.
  ncclResult_t Join(const std::shared_ptr<Member>& member, std::string* error);
  ncclResult_t AwaitComplete(std::string* error) override;
  void RunCollective(const std::shared_ptr<Member>& member, uint64_t sequence,
                     const Contribution& contribution,
                     CUresult stream_error) override;
  void RunTransfers(const std::shared_ptr<Member>& member,
                    const std::vector<Transfer>& transfers,
                    CUresult stream_error) override;
  void Abort() override;

  // Every rank gets `error` as its asynchronous error (a peer's process
  // went away); work already waiting keeps waiting, as NCCL's kernels do,
  // until the ranks are aborted.
  void FailAll(ncclResult_t error, const std::string& message);

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

// The clique of unique id `key` in this process, made (for `nranks`) on
// first use; the members keep it alive. Null, with `error`, when the id's
// clique has another number of ranks.
std::shared_ptr<Clique> FindOrMakeClique(const std::string& key, int nranks,
                                         std::string* error);

}  // namespace fake_nccl

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_CLIQUE_H_
