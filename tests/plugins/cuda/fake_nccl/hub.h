// Where ranks of other processes join the cliques of the process that made
// their unique id: ncclGetUniqueId starts a listener (an abstract local
// socket named after the process) and every connection is one remote rank,
// served by a thread of its own that acts for it in the clique (a proxy
// Member) with the bytes it sends. Its asynchronous errors are forwarded
// as they happen. A connection that ends without the rank leaving (its
// process died, or it aborted) gives every rank of the clique
// ncclRemoteError, as a dead peer looks to NCCL.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_HUB_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_HUB_H_

#include <string>

namespace fake_nccl {

// Starts this process's hub once; false (with `error`) if it cannot.
bool StartHub(std::string* error);

}  // namespace fake_nccl

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_HUB_H_
