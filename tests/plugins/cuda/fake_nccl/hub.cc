#include "tests/plugins/cuda/fake_nccl/hub.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/plugins/cuda/fake_nccl/clique.h"
#include "tests/plugins/cuda/fake_nccl/wire.h"

namespace fake_nccl {
namespace {

// The entry point a remote rank named, as the static string the clique
// compares and prints.
const char* KnownCall(const std::string& name) {
  for (const char* call : {"ncclAllReduce", "ncclReduceScatter",
                           "ncclAllGather", "ncclBroadcast"}) {
    if (name == call) return call;
  }
  return "an unknown call";
}

// The writing end of a connection, shared with the proxy's error
// listener, which may outlive the connection's thread.
class Outbox {
 public:
  explicit Outbox(int fd) : fd_(fd) {}
  ~Outbox() { close(fd_); }
  int fd() const { return fd_; }
  bool Send(const Frame& frame) {
    std::lock_guard<std::mutex> lock(mu_);
    return WriteFrame(fd_, frame);
  }

 private:
  const int fd_;
  std::mutex mu_;
};

// One remote rank's connection.
class Connection {
 public:
  explicit Connection(int fd)
      : fd_(fd), outbox_(std::make_shared<Outbox>(fd)) {}

  void Serve();

 private:
  bool Send(const Frame& frame) { return outbox_->Send(frame); }
  // Returns false when the rank cannot join (the reply says why).
  bool Join(const Frame& frame);
  void Collective(const Frame& frame);
  void Transfers(const Frame& frame);
  void Reply(bool completed, const std::vector<const HostData*>& outputs);

  const int fd_;
  const std::shared_ptr<Outbox> outbox_;
  std::shared_ptr<Clique> clique_;
  std::shared_ptr<Member> member_;  // The proxy.
};

bool Connection::Join(const Frame& frame) {
  PayloadReader in(frame);
  const std::string key = in.String();
  const int nranks = static_cast<int>(in.U64());
  const int rank = static_cast<int>(in.U64());
  const int device = static_cast<int>(in.U64());
  const int64_t process = static_cast<int64_t>(in.U64());
  Frame reply{FrameKind::kJoined, {}};
  PayloadWriter out(&reply);
  std::string error;
  ncclResult_t result = ncclSuccess;
  if (!in.ok() || frame.kind != FrameKind::kJoin) {
    result = ncclInternalError;
    error = "malformed join request";
  } else {
    clique_ = FindOrMakeClique(key, nranks, &error);
    if (clique_ == nullptr) {
      result = ncclInvalidUsage;
      error = "joining the unique id: " + error;
    } else {
      member_ = std::make_shared<Member>(clique_, rank, device, process);
      member_->set_async_error_listener(
          [outbox = outbox_](ncclResult_t error, const std::string& message) {
            Frame frame{FrameKind::kAsyncError, {}};
            PayloadWriter out(&frame);
            out.U64(static_cast<uint64_t>(error));
            out.String(message);
            outbox->Send(frame);
          });
      result = clique_->Join(member_, &error);
      if (result == ncclSuccess) result = clique_->AwaitComplete(&error);
    }
  }
  out.U64(static_cast<uint64_t>(result));
  out.String(error);
  Send(reply);
  return result == ncclSuccess;
}

void Connection::Reply(bool completed,
                       const std::vector<const HostData*>& outputs) {
  Frame reply{FrameKind::kDone, {}};
  PayloadWriter out(&reply);
  out.U64(completed ? 1 : 0);
  out.U64(outputs.size());
  for (const HostData* data : outputs) {
    out.Bytes(data->output.data(), data->output.size());
  }
  Send(reply);
}

void Connection::Collective(const Frame& frame) {
  PayloadReader in(frame);
  HostData data;
  Contribution c;
  const uint64_t sequence = in.U64();
  c.call = KnownCall(in.String());
  c.type = static_cast<ncclDataType_t>(in.U64());
  c.op = static_cast<ncclRedOp_t>(in.U64());
  c.count = in.U64();
  c.root = static_cast<int>(in.U64());
  c.send = in.U64();
  c.recv = in.U64();
  const auto stream_error = static_cast<CUresult>(in.U64());
  data.send_live = in.U64() != 0;
  data.recv_live = in.U64() != 0;
  data.input = in.Bytes();
  c.host = &data;
  if (!in.ok()) {
    member_->SetAsyncError(ncclInternalError, "malformed collective request");
  }
  clique_->RunCollective(member_, sequence, c, stream_error);
  Reply(true, {&data});
}

void Connection::Transfers(const Frame& frame) {
  PayloadReader in(frame);
  const auto stream_error = static_cast<CUresult>(in.U64());
  const uint64_t n = in.U64();
  std::vector<HostData> data(in.ok() ? n : 0);
  std::vector<Transfer> transfers(data.size());
  std::vector<const HostData*> received;
  for (size_t i = 0; i < transfers.size(); ++i) {
    Transfer& t = transfers[i];
    t.send = in.U64() != 0;
    t.peer = static_cast<int>(in.U64());
    t.buffer = in.U64();
    t.bytes = in.U64();
    t.sequence = in.U64();
    data[i].send_live = data[i].recv_live = in.U64() != 0;
    if (t.send) data[i].input = in.Bytes();
    t.host = &data[i];
    if (!t.send) received.push_back(&data[i]);
  }
  if (!in.ok()) {
    member_->SetAsyncError(ncclInternalError, "malformed transfer request");
  }
  clique_->RunTransfers(member_, transfers, stream_error);
  Reply(true, received);
}

void Connection::Serve() {
  Frame frame;
  if (!ReadFrame(fd_, &frame) || !Join(frame)) return;
  while (ReadFrame(fd_, &frame)) {
    switch (frame.kind) {
      case FrameKind::kCollective:
        Collective(frame);
        break;
      case FrameKind::kTransfers:
        Transfers(frame);
        break;
      case FrameKind::kLeave:
        return;
      default:
        member_->SetAsyncError(ncclInternalError, "unexpected frame");
        break;
    }
  }
  // Gone without leaving: the process died or aborted its rank.
  clique_->FailAll(ncclRemoteError,
                   "rank " + std::to_string(member_->rank()) + "'s process " +
                       std::to_string(member_->process()) +
                       " went away (it exited or aborted the communicator)");
}

void Listen(int listener) {
  for (;;) {
    const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;
    }
    // Detached: a connection lives as long as its rank (or the process).
    std::thread([fd] { Connection(fd).Serve(); }).detach();
  }
}

}  // namespace

bool StartHub(std::string* error) {
  static std::once_flag once;
  static std::string* failure = new std::string;
  std::call_once(once, [] {
    const std::string address = HubAddress(getpid());
    sockaddr_un name{};
    name.sun_family = AF_UNIX;
    std::memcpy(name.sun_path, address.data(), address.size());
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const socklen_t length = static_cast<socklen_t>(
        offsetof(sockaddr_un, sun_path) + address.size());
    if (fd < 0 ||
        bind(fd, reinterpret_cast<const sockaddr*>(&name), length) != 0 ||
        listen(fd, 64) != 0) {
      *failure = std::string("cannot listen for other processes' ranks: ") +
                 std::strerror(errno);
      if (fd >= 0) close(fd);
      return;
    }
    std::thread(Listen, fd).detach();
  });
  *error = *failure;
  return failure->empty();
}

}  // namespace fake_nccl
