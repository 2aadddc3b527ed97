// A functional stand-in for libnccl.so.2, for testing the CUDA plugin's
// collectives without GPUs (tests load it through PJRTX_NCCL_PATH). It runs
// on the tests' fake libcuda (fake_cuda/), which it finds as the plugin
// does (PJRTX_CUDA_DRIVER_PATH) and drives through that driver's private
// entry points (fake_cuda/private_api.h).
//
// What it emulates: unique ids; ncclCommInitRank and
// ncclCommInitRankConfig (blocking or not: a rank created without blocking
// joins in the background, ncclInProgress until it has), whose ranks of one id
// meet (inside a group, at ncclGroupEnd; otherwise in the call), each bound
// to the current context's device, two ranks on one GPU refused as NCCL
// does; groups (ncclGroupStart/End nest; what is called inside runs at the
// outermost end, the sends and receives of one rank and stream as one
// unit that progresses together); ncclAllReduce, ncclReduceScatter,
// ncclAllGather, ncclBroadcast (in place too), ncclSend and ncclRecv, run
// on the caller's stream: each rank's part waits on its stream's worker
// for its peers', and the last to arrive moves the data for all, through
// the fake driver's view of device memory. Collectives are matched by
// their order on each rank, messages by their order per pair of ranks; a
// send completes once received. Ranks that disagree on a collective, a
// buffer that is not live device memory, or a stream that failed before
// the work, become asynchronous errors (ncclCommGetAsyncError, with the
// text in ncclGetLastError). ncclCommAbort wakes the waiting work of the
// whole clique, which then ends without moving data.
//
// Ranks in other processes: the process that made the unique id holds
// the clique; ranks of other processes join it over a local socket
// (hub.h, remote_clique.h), their bytes carried in the requests, so all
// of this works across the processes of one machine. A process that goes
// away gives the other ranks ncclRemoteError.
//
// What it does not: other entry points (configs, splits, registration,
// ncclAvg and custom operators, ncclAlltoAll, ...) are not exported.
//
// The environment, read at the first call that needs it:
//   FAKE_NCCL_MODE=ok|init_fails|old  "init_fails": ncclCommInitRank
//       returns ncclSystemError (a failed bootstrap); "old": ncclGetVersion
//       reports 2.12.3.
//   FAKE_NCCL_FAIL=name[,name...]      Those entry points (e.g.
//       ncclAllReduce) return ncclInternalError at once.
//   FAKE_NCCL_HANG=name[,name...]      Work of those calls never completes
//       until the communicator is aborted (a hung collective);
//       ncclCommInitRank: the ranks never finish joining.
//   FAKE_NCCL_ASYNC_ERROR=name[,name...]  Work of those calls sets
//       ncclRemoteError as every rank's asynchronous error and then hangs
//       until aborted, as a dead peer looks.
#include <cuda.h>
#include <nccl.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/plugins/cuda/fake_driver_link/driver_link.h"
#include "tests/plugins/cuda/fake_nccl/clique.h"
#include "tests/plugins/cuda/fake_nccl/config.h"
#include "tests/plugins/cuda/fake_nccl/hub.h"
#include "tests/plugins/cuda/fake_nccl/reduction.h"
#include "tests/plugins/cuda/fake_nccl/remote_clique.h"

// What ncclComm_t points to.
struct ncclComm {
  std::shared_ptr<fake_nccl::Member> member;
};

namespace fake_nccl {
namespace {

// The version reported in FAKE_NCCL_MODE=old: below what the plugin needs.
constexpr int kOldVersion = 21203;

thread_local std::string last_error;

ncclResult_t Fail(ncclResult_t result, const std::string& message) {
  last_error = "fake_nccl: " + message;
  return result;
}

// FAKE_NCCL_FAIL's failure of `call`, or ncclSuccess.
ncclResult_t Injected(const char* call) {
  if (GetConfig().fail.count(call) == 0) return ncclSuccess;
  return Fail(ncclInternalError,
              std::string(call) + " failed as FAKE_NCCL_FAIL asks");
}

// Work of one rank on one stream, handed to the stream's worker.
struct Work {
  std::shared_ptr<Member> member;
  bool collective = true;
  uint64_t sequence = 0;
  Contribution contribution;
  std::vector<Transfer> transfers;
};

void RunWork(void* data, CUresult stream_error) {
  std::unique_ptr<Work> work(static_cast<Work*>(data));
  if (work->collective) {
    work->member->rendezvous().RunCollective(work->member, work->sequence,
                                             work->contribution, stream_error);
  } else {
    work->member->rendezvous().RunTransfers(work->member, work->transfers,
                                            stream_error);
  }
}

// A call to run: at once, or at the end of the group it is made in.
struct Pending {
  std::shared_ptr<Member> member;
  CUstream stream = nullptr;
  CUcontext context = nullptr;  // Current at the call; owns the stream.
  bool collective = true;
  uint64_t sequence = 0;
  Contribution contribution;
  Transfer transfer;
};

// A rank joining its peers: at once (blocking) or in the background, the
// rank's state ncclInProgress until it has joined.
struct Joining {
  std::shared_ptr<Rendezvous> rendezvous;
  std::shared_ptr<Member> member;
  bool blocking = true;
};

struct Group {
  int depth = 0;
  std::vector<Joining> joins;
  std::vector<Pending> pending;
};

thread_local Group group;

// Queues `pending` on their streams: each collective as its own work, the
// transfers of one rank and stream together, in the order of the calls.
ncclResult_t Launch(const std::vector<Pending>& pending) {
  const fake_driver_link::DriverLink* driver = fake_driver_link::Driver();
  if (driver == nullptr)
    return Fail(ncclSystemError, fake_driver_link::LinkError());
  struct Batch {
    CUstream stream;
    CUcontext context;
    std::unique_ptr<Work> work;
  };
  std::vector<Batch> batches;
  for (const Pending& p : pending) {
    Batch* batch = nullptr;
    if (!p.collective) {
      for (Batch& b : batches) {
        if (!b.work->collective && b.work->member == p.member &&
            b.stream == p.stream) {
          batch = &b;
        }
      }
    }
    if (batch == nullptr) {
      auto work = std::make_unique<Work>();
      work->member = p.member;
      work->collective = p.collective;
      work->sequence = p.sequence;
      work->contribution = p.contribution;
      batches.push_back(Batch{p.stream, p.context, std::move(work)});
      batch = &batches.back();
    }
    if (!p.collective) batch->work->transfers.push_back(p.transfer);
  }
  CUcontext saved = nullptr;
  driver->cuCtxGetCurrent(&saved);
  ncclResult_t result = ncclSuccess;
  for (Batch& batch : batches) {
    // NCCL switches to each rank's device itself.
    CUresult queued = driver->cuCtxSetCurrent(batch.context);
    if (queued == CUDA_SUCCESS) {
      queued =
          driver->enqueue_host_work(batch.stream, RunWork, batch.work.get());
    }
    if (queued != CUDA_SUCCESS) {
      char stream[32];
      std::snprintf(stream, sizeof(stream), "%p",
                    static_cast<void*>(batch.stream));
      result = Fail(ncclUnhandledCudaError,
                    std::string("cannot queue work on stream ") + stream +
                        " (CUresult " + std::to_string(queued) + ")");
      break;
    }
    batch.work.release();  // RunWork owns it now.
  }
  driver->cuCtxSetCurrent(saved);
  return result;
}

ncclResult_t Submit(Pending pending) {
  const fake_driver_link::DriverLink* driver = fake_driver_link::Driver();
  if (driver == nullptr)
    return Fail(ncclSystemError, fake_driver_link::LinkError());
  if (driver->cuCtxGetCurrent(&pending.context) != CUDA_SUCCESS ||
      pending.context == nullptr) {
    return Fail(ncclInvalidUsage, "no current CUDA context");
  }
  if (group.depth > 0) {
    group.pending.push_back(std::move(pending));
    return ncclSuccess;
  }
  return Launch({std::move(pending)});
}

// The checks every collective makes; `reduces` for those taking an op.
ncclResult_t CheckCollective(const char* call, const void* send, void* recv,
                             size_t count, ncclDataType_t type, ncclRedOp_t op,
                             bool reduces, ncclComm_t comm) {
  if (ncclResult_t injected = Injected(call); injected != ncclSuccess) {
    return injected;
  }
  if (comm == nullptr) {
    return Fail(ncclInvalidArgument, std::string(call) + ": comm is NULL");
  }
  if (TypeSize(type) == 0) {
    return Fail(ncclInvalidArgument,
                std::string(call) + ": invalid type " + std::to_string(type));
  }
  if (reduces && !KnownOp(op)) {
    return Fail(ncclInvalidArgument, std::string(call) +
                                         ": invalid reduction operation " +
                                         std::to_string(op));
  }
  if (count > 0 && (send == nullptr || recv == nullptr)) {
    return Fail(ncclInvalidArgument, std::string(call) +
                                         ": NULL buffer with count " +
                                         std::to_string(count));
  }
  return ncclSuccess;
}

ncclResult_t Collective(const char* call, const void* send, void* recv,
                        size_t count, ncclDataType_t type, ncclRedOp_t op,
                        int root, ncclComm_t comm, cudaStream_t stream) {
  Pending pending;
  pending.member = comm->member;
  pending.stream = stream;
  pending.collective = true;
  pending.sequence = comm->member->NextCollective();
  pending.contribution = Contribution{call,
                                      type,
                                      op,
                                      count,
                                      root,
                                      reinterpret_cast<uintptr_t>(send),
                                      reinterpret_cast<uintptr_t>(recv)};
  return Submit(std::move(pending));
}

ncclResult_t PointToPoint(const char* call, bool send, void* buffer,
                          size_t count, ncclDataType_t type, int peer,
                          ncclComm_t comm, cudaStream_t stream) {
  if (ncclResult_t injected = Injected(call); injected != ncclSuccess) {
    return injected;
  }
  if (comm == nullptr || TypeSize(type) == 0 ||
      (count > 0 && buffer == nullptr)) {
    return Fail(ncclInvalidArgument,
                std::string(call) + ": NULL comm or buffer, or invalid type");
  }
  if (peer < 0 || peer >= comm->member->rendezvous().nranks()) {
    return Fail(ncclInvalidArgument, std::string(call) + ": peer " +
                                         std::to_string(peer) +
                                         " is not a rank of the communicator");
  }
  Pending pending;
  pending.member = comm->member;
  pending.stream = stream;
  pending.collective = false;
  pending.transfer.send = send;
  pending.transfer.peer = peer;
  pending.transfer.buffer = reinterpret_cast<uintptr_t>(buffer);
  pending.transfer.bytes = count * TypeSize(type);
  pending.transfer.sequence =
      send ? comm->member->NextSend(peer) : comm->member->NextRecv(peer);
  return Submit(std::move(pending));
}

// Completes `join`: blocking, its error (with `error`) or ncclSuccess;
// otherwise ncclInProgress, the rank joining on a thread of its own.
ncclResult_t CompleteJoin(const Joining& join, std::string* error) {
  if (join.blocking) return join.rendezvous->AwaitComplete(error);
  join.member->set_joining(true);
  std::thread([join] {
    std::string message;
    const ncclResult_t result = join.rendezvous->AwaitComplete(&message);
    if (result != ncclSuccess) join.member->SetAsyncError(result, message);
    join.member->set_joining(false);
  }).detach();
  return ncclInProgress;
}

// ncclCommInitRank and ncclCommInitRankConfig.
ncclResult_t InitRank(const char* call, ncclComm_t* comm, int nranks,
                      const ncclUniqueId& id, int rank, bool blocking) {
  if (ncclResult_t injected = Injected(call); injected != ncclSuccess) {
    return injected;
  }
  if (IsMode("init_fails")) {
    return Fail(ncclSystemError,
                "bootstrap failed: no network interface for the ranks to "
                "meet (FAKE_NCCL_MODE=init_fails)");
  }
  if (comm == nullptr || nranks < 1 || rank < 0 || rank >= nranks) {
    return Fail(ncclInvalidArgument, std::string(call) +
                                         ": comm NULL, or rank " +
                                         std::to_string(rank) + " not in 0.." +
                                         std::to_string(nranks - 1));
  }
  const fake_driver_link::DriverLink* driver = fake_driver_link::Driver();
  if (driver == nullptr) {
    return Fail(ncclSystemError, fake_driver_link::LinkError());
  }
  CUcontext context = nullptr;
  CUdevice device = 0;
  if (driver->cuCtxGetCurrent(&context) != CUDA_SUCCESS || context == nullptr ||
      driver->cuCtxGetDevice(&device) != CUDA_SUCCESS) {
    return Fail(ncclUnhandledCudaError,
                std::string(call) + ": no current CUDA device");
  }
  const std::string key(id.internal, sizeof(id.internal));
  long long maker = -1;
  unsigned long long serial = 0;
  if (std::sscanf(id.internal, "fake_nccl:%lld:%llu", &maker, &serial) != 2) {
    return Fail(
        ncclInvalidArgument,
        std::string(call) + ": the unique id was not made by ncclGetUniqueId");
  }
  std::shared_ptr<Rendezvous> rendezvous;
  std::shared_ptr<Clique> clique;
  std::string error;
  if (maker == getpid()) {
    clique = FindOrMakeClique(key, nranks, &error);
    if (clique == nullptr) {
      return Fail(ncclInvalidUsage, std::string(call) + ": " + error);
    }
    rendezvous = clique;
  } else {
    rendezvous =
        RemoteClique::Connect(key, maker, nranks, rank, device, &error);
    if (rendezvous == nullptr) return Fail(ncclSystemError, error);
  }
  auto member = std::make_shared<Member>(rendezvous, rank, device, getpid());
  if (clique != nullptr) {
    if (ncclResult_t joined = clique->Join(member, &error);
        joined != ncclSuccess) {
      return Fail(joined, error);
    }
  }
  *comm = new ncclComm{member};
  Joining join{rendezvous, member, blocking};
  if (group.depth > 0) {
    group.joins.push_back(std::move(join));
    return ncclSuccess;
  }
  const ncclResult_t complete = CompleteJoin(join, &error);
  if (complete != ncclSuccess && complete != ncclInProgress) {
    return Fail(complete, error);
  }
  return complete;
}

}  // namespace
}  // namespace fake_nccl

using fake_nccl::Fail;

ncclResult_t ncclGetVersion(int* version) {
  if (version == nullptr) return Fail(ncclInvalidArgument, "version is NULL");
  *version =
      fake_nccl::IsMode("old") ? fake_nccl::kOldVersion : NCCL_VERSION_CODE;
  return ncclSuccess;
}

ncclResult_t ncclGetUniqueId(ncclUniqueId* id) {
  if (id == nullptr) return Fail(ncclInvalidArgument, "uniqueId is NULL");
  // Ranks of other processes join this process's cliques through its hub.
  if (std::string error; !fake_nccl::StartHub(&error)) {
    return Fail(ncclSystemError, error);
  }
  static std::atomic<uint64_t> next{0};
  std::memset(id->internal, 0, sizeof(id->internal));
  std::snprintf(id->internal, sizeof(id->internal), "fake_nccl:%lld:%llu",
                static_cast<long long>(getpid()),
                static_cast<unsigned long long>(next.fetch_add(1)));
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id,
                              int rank) {
  return fake_nccl::InitRank("ncclCommInitRank", comm, nranks, id, rank,
                             /*blocking=*/true);
}

ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks,
                                    ncclUniqueId id, int rank,
                                    ncclConfig_t* config) {
  // NCCL_CONFIG_INITIALIZER's marks; blocking unless told otherwise.
  if (config != nullptr &&
      (config->magic != 0xcafebeef ||
       config->size < offsetof(ncclConfig_t, blocking) + sizeof(int))) {
    return Fail(ncclInvalidArgument,
                "ncclCommInitRankConfig: the config was not made with "
                "NCCL_CONFIG_INITIALIZER");
  }
  const bool blocking = config == nullptr || config->blocking != 0;
  return fake_nccl::InitRank("ncclCommInitRankConfig", comm, nranks, id, rank,
                             blocking);
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  if (comm == nullptr) return Fail(ncclInvalidArgument, "comm is NULL");
  comm->member->rendezvous().Leave();
  delete comm;
  return ncclSuccess;
}

ncclResult_t ncclCommAbort(ncclComm_t comm) {
  if (comm == nullptr) return Fail(ncclInvalidArgument, "comm is NULL");
  comm->member->rendezvous().Abort();
  delete comm;
  return ncclSuccess;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* error) {
  if (comm == nullptr || error == nullptr) {
    return Fail(ncclInvalidArgument, "comm or asyncError is NULL");
  }
  *error = comm->member->async_error();
  if (*error == ncclSuccess && comm->member->joining()) *error = ncclInProgress;
  return ncclSuccess;
}

ncclResult_t ncclGroupStart() {
  ++fake_nccl::group.depth;
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd() {
  fake_nccl::Group& group = fake_nccl::group;
  if (group.depth == 0) {
    return Fail(ncclInvalidUsage, "ncclGroupEnd without ncclGroupStart");
  }
  if (--group.depth > 0) return ncclSuccess;
  std::vector<fake_nccl::Joining> joins = std::move(group.joins);
  std::vector<fake_nccl::Pending> pending = std::move(group.pending);
  group.joins.clear();
  group.pending.clear();
  bool in_progress = false;
  for (const fake_nccl::Joining& join : joins) {
    std::string error;
    const ncclResult_t complete = fake_nccl::CompleteJoin(join, &error);
    if (complete == ncclInProgress) {
      in_progress = true;
    } else if (complete != ncclSuccess) {
      return Fail(complete, error);
    }
  }
  if (in_progress) {
    return pending.empty() ? ncclInProgress : fake_nccl::Launch(pending);
  }
  return pending.empty() ? ncclSuccess : fake_nccl::Launch(pending);
}

ncclResult_t ncclAllReduce(const void* send, void* recv, size_t count,
                           ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                           cudaStream_t stream) {
  if (ncclResult_t checked = fake_nccl::CheckCollective(
          "ncclAllReduce", send, recv, count, type, op, true, comm);
      checked != ncclSuccess) {
    return checked;
  }
  return fake_nccl::Collective("ncclAllReduce", send, recv, count, type, op, 0,
                               comm, stream);
}

ncclResult_t ncclReduceScatter(const void* send, void* recv, size_t recvcount,
                               ncclDataType_t type, ncclRedOp_t op,
                               ncclComm_t comm, cudaStream_t stream) {
  if (ncclResult_t checked = fake_nccl::CheckCollective(
          "ncclReduceScatter", send, recv, recvcount, type, op, true, comm);
      checked != ncclSuccess) {
    return checked;
  }
  return fake_nccl::Collective("ncclReduceScatter", send, recv, recvcount, type,
                               op, 0, comm, stream);
}

ncclResult_t ncclAllGather(const void* send, void* recv, size_t sendcount,
                           ncclDataType_t type, ncclComm_t comm,
                           cudaStream_t stream) {
  if (ncclResult_t checked = fake_nccl::CheckCollective(
          "ncclAllGather", send, recv, sendcount, type, ncclSum, false, comm);
      checked != ncclSuccess) {
    return checked;
  }
  return fake_nccl::Collective("ncclAllGather", send, recv, sendcount, type,
                               ncclSum, 0, comm, stream);
}

ncclResult_t ncclBroadcast(const void* send, void* recv, size_t count,
                           ncclDataType_t type, int root, ncclComm_t comm,
                           cudaStream_t stream) {
  // Only the root's send buffer is read.
  if (ncclResult_t checked = fake_nccl::CheckCollective(
          "ncclBroadcast", send != nullptr ? send : recv, recv, count, type,
          ncclSum, false, comm);
      checked != ncclSuccess) {
    return checked;
  }
  if (root < 0 || root >= comm->member->rendezvous().nranks()) {
    return Fail(
        ncclInvalidArgument,
        "ncclBroadcast: root " + std::to_string(root) + " is not a rank");
  }
  return fake_nccl::Collective("ncclBroadcast", send, recv, count, type,
                               ncclSum, root, comm, stream);
}

ncclResult_t ncclSend(const void* send, size_t count, ncclDataType_t type,
                      int peer, ncclComm_t comm, cudaStream_t stream) {
  return fake_nccl::PointToPoint("ncclSend", true, const_cast<void*>(send),
                                 count, type, peer, comm, stream);
}

ncclResult_t ncclRecv(void* recv, size_t count, ncclDataType_t type, int peer,
                      ncclComm_t comm, cudaStream_t stream) {
  return fake_nccl::PointToPoint("ncclRecv", false, recv, count, type, peer,
                                 comm, stream);
}

const char* ncclGetErrorString(ncclResult_t result) {
  // NCCL's own words.
  switch (result) {
    case ncclSuccess:
      return "no error";
    case ncclUnhandledCudaError:
      return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case ncclSystemError:
      return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case ncclInternalError:
      return "internal error - please report this issue to the NCCL "
             "developers";
    case ncclInvalidArgument:
      return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case ncclInvalidUsage:
      return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case ncclRemoteError:
      return "remote process exited or there was a network error";
    case ncclInProgress:
      return "NCCL operation in progress";
    default:
      return "unknown result code";
  }
}

const char* ncclGetLastError(ncclComm_t comm) {
  if (comm != nullptr && comm->member->async_error() != ncclSuccess) {
    return comm->member->async_message().c_str();
  }
  return fake_nccl::last_error.c_str();
}
