#include "tests/plugins/cuda/fake_nccl/remote_clique.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace fake_nccl {

std::shared_ptr<RemoteClique> RemoteClique::Connect(const std::string& key,
                                                    int64_t process, int nranks,
                                                    int rank, int device,
                                                    std::string* error) {
  const int fd = ConnectToHub(process);
  if (fd < 0) {
    *error = "cannot reach process " + std::to_string(process) +
             ", which made the unique id: " + std::strerror(errno);
    return nullptr;
  }
  std::shared_ptr<RemoteClique> remote(new RemoteClique(fd, process, nranks));
  Frame join{FrameKind::kJoin, {}};
  PayloadWriter out(&join);
  out.String(key);
  out.U64(static_cast<uint64_t>(nranks));
  out.U64(static_cast<uint64_t>(rank));
  out.U64(static_cast<uint64_t>(device));
  out.U64(static_cast<uint64_t>(getpid()));
  if (!WriteFrame(fd, join)) {
    *error = "process " + std::to_string(process) +
             ", which made the unique id, closed the connection";
    return nullptr;
  }
  return remote;
}

RemoteClique::~RemoteClique() { close(fd_); }

ncclResult_t RemoteClique::AwaitComplete(std::string* error) {
  Frame reply;
  if (!ReadFrame(fd_, &reply) || reply.kind != FrameKind::kJoined) {
    *error = "process " + std::to_string(process_) +
             ", which made the unique id, went away while the ranks joined";
    return ncclRemoteError;
  }
  PayloadReader in(reply);
  const auto result = static_cast<ncclResult_t>(in.U64());
  *error = in.String();
  return in.ok() ? result : ncclInternalError;
}

void RemoteClique::Abort() {
  std::lock_guard<std::mutex> lock(mu_);
  aborted_ = true;
  // Wakes work blocked on the connection.
  shutdown(fd_, SHUT_RDWR);
  changed_.notify_all();
}

void RemoteClique::Leave() {
  WriteFrame(fd_, Frame{FrameKind::kLeave, {}});
  shutdown(fd_, SHUT_RDWR);
}

void RemoteClique::Lost(const std::shared_ptr<Member>& member) {
  std::unique_lock<std::mutex> lock(mu_);
  if (aborted_) return;
  lock.unlock();
  member->SetAsyncError(ncclRemoteError,
                        "lost the connection to process " +
                            std::to_string(process_) +
                            ", which holds the clique (it exited?)");
  lock.lock();
  changed_.wait(lock, [this] { return aborted_; });
}

bool RemoteClique::Exchange(const std::shared_ptr<Member>& member,
                            const Frame& request, Frame* done) {
  if (!WriteFrame(fd_, request)) {
    Lost(member);
    return false;
  }
  while (ReadFrame(fd_, done)) {
    if (done->kind == FrameKind::kDone) return true;
    if (done->kind == FrameKind::kAsyncError) {
      PayloadReader in(*done);
      const auto error = static_cast<ncclResult_t>(in.U64());
      std::string message = in.String();
      // The hub's text already starts with "fake_nccl: ".
      const std::string prefix = "fake_nccl: ";
      if (message.compare(0, prefix.size(), prefix) == 0) {
        message.erase(0, prefix.size());
      }
      member->SetAsyncError(error, message);
    }
  }
  Lost(member);
  return false;
}

void RemoteClique::RunCollective(const std::shared_ptr<Member>& member,
                                 uint64_t sequence,
                                 const Contribution& contribution,
                                 CUresult stream_error) {
  const size_t in_bytes = InputBytes(contribution, nranks_);
  const size_t out_bytes = OutputBytes(contribution, nranks_);
  const bool reads = std::strcmp(contribution.call, "ncclBroadcast") != 0 ||
                     contribution.root == member->rank();
  const void* send = reads && in_bytes > 0
                         ? Translate(contribution.send, in_bytes, false)
                         : nullptr;
  void* recv =
      out_bytes > 0 ? Translate(contribution.recv, out_bytes, true) : nullptr;
  Frame request{FrameKind::kCollective, {}};
  PayloadWriter out(&request);
  out.U64(sequence);
  out.String(contribution.call);
  out.U64(static_cast<uint64_t>(contribution.type));
  out.U64(static_cast<uint64_t>(contribution.op));
  out.U64(contribution.count);
  out.U64(static_cast<uint64_t>(contribution.root));
  out.U64(contribution.send);
  out.U64(contribution.recv);
  out.U64(static_cast<uint64_t>(stream_error));
  out.U64(!reads || in_bytes == 0 || send != nullptr ? 1 : 0);
  out.U64(out_bytes == 0 || recv != nullptr ? 1 : 0);
  out.Bytes(send, send != nullptr ? in_bytes : 0);
  Frame done;
  if (!Exchange(member, request, &done)) return;
  PayloadReader in(done);
  const bool completed = in.U64() != 0;
  const uint64_t outputs = in.U64();
  const std::vector<uint8_t> result =
      outputs == 1 ? in.Bytes() : std::vector<uint8_t>();
  if (completed && recv != nullptr && result.size() == out_bytes) {
    std::memcpy(recv, result.data(), out_bytes);
  }
}

void RemoteClique::RunTransfers(const std::shared_ptr<Member>& member,
                                const std::vector<Transfer>& transfers,
                                CUresult stream_error) {
  Frame request{FrameKind::kTransfers, {}};
  PayloadWriter out(&request);
  out.U64(static_cast<uint64_t>(stream_error));
  out.U64(transfers.size());
  struct Receive {
    void* at;
    size_t bytes;
  };
  std::vector<Receive> receives;
  for (const Transfer& t : transfers) {
    void* host = t.bytes > 0 ? Translate(t.buffer, t.bytes, !t.send) : nullptr;
    out.U64(t.send ? 1 : 0);
    out.U64(static_cast<uint64_t>(t.peer));
    out.U64(t.buffer);
    out.U64(t.bytes);
    out.U64(t.sequence);
    out.U64(t.bytes == 0 || host != nullptr ? 1 : 0);
    if (t.send) {
      out.Bytes(host, host != nullptr ? t.bytes : 0);
    } else {
      receives.push_back(Receive{host, t.bytes});
    }
  }
  Frame done;
  if (!Exchange(member, request, &done)) return;
  PayloadReader in(done);
  in.U64();  // Completed.
  const uint64_t outputs = in.U64();
  for (size_t i = 0; i < receives.size() && i < outputs; ++i) {
    // Empty when the receive failed (its error came asynchronously).
    const std::vector<uint8_t> bytes = in.Bytes();
    if (receives[i].at != nullptr && bytes.size() == receives[i].bytes) {
      std::memcpy(receives[i].at, bytes.data(), bytes.size());
    }
  }
}

}  // namespace fake_nccl
