#include "tests/plugins/cuda/fake_nccl/clique.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <set>
#include <utility>

#include "tests/plugins/cuda/fake_nccl/config.h"
#include "tests/plugins/cuda/fake_nccl/reduction.h"

namespace fake_nccl {
namespace {

std::string Describe(const Contribution& c) {
  char text[160];
  std::snprintf(text, sizeof(text), "%s(count=%zu, type=%d, op=%d, root=%d)",
                c.call, c.count, static_cast<int>(c.type),
                static_cast<int>(c.op), c.root);
  return text;
}

std::string NotLive(int rank, const char* what, CUdeviceptr address,
                    size_t bytes) {
  char text[160];
  std::snprintf(text, sizeof(text),
                "rank %d's %s buffer 0x%" PRIx64
                " (%zu bytes) is not live device memory",
                rank, what, static_cast<uint64_t>(address), bytes);
  return text;
}

}  // namespace

ncclResult_t Clique::Join(const std::shared_ptr<Member>& member,
                          std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (members_.empty()) members_.resize(nranks_);
  if (members_[member->rank()] != nullptr) {
    *error = "rank " + std::to_string(member->rank()) +
             " joined the unique id twice";
    return ncclInvalidUsage;
  }
  members_[member->rank()] = member;
  ++joined_;
  changed_.notify_all();
  return ncclSuccess;
}

ncclResult_t Clique::AwaitComplete(std::string* error) {
  std::unique_lock<std::mutex> lock(mu_);
  // FAKE_NCCL_HANG=ncclCommInitRank: the ranks never finish joining, as
  // when a peer's process died after it was told the unique id.
  const bool hangs = GetConfig().hang.count("ncclCommInitRank") != 0;
  changed_.wait(lock,
                [&] { return (joined_ == nranks_ && !hangs) || aborted_; });
  if (aborted_) {
    *error = "the communicator was aborted while its ranks joined";
    return ncclInvalidUsage;
  }
  std::set<std::pair<int64_t, int>> devices;
  for (const std::shared_ptr<Member>& member : members_) {
    if (!devices.insert({member->process(), member->device()}).second) {
      *error =
          "Duplicate GPU detected: two ranks of one communicator on "
          "CUDA device " +
          std::to_string(member->device());
      return ncclInvalidUsage;
    }
  }
  return ncclSuccess;
}

void Clique::Abort() {
  std::lock_guard<std::mutex> lock(mu_);
  aborted_ = true;
  changed_.notify_all();
}

void Clique::FailAll(ncclResult_t error, const std::string& message) {
  std::vector<std::shared_ptr<Member>> members;
  {
    std::lock_guard<std::mutex> lock(mu_);
    members = members_;
  }
  std::fprintf(stderr, "fake_nccl: %s\n", message.c_str());
  for (const std::shared_ptr<Member>& member : members) {
    if (member != nullptr) member->SetAsyncError(error, message);
  }
}

void Clique::FailRound(Round& round, ncclResult_t error,
                       const std::string& message) {
  std::fprintf(stderr, "fake_nccl: %s\n", message.c_str());
  for (const std::shared_ptr<Member>& member : round.members) {
    member->SetAsyncError(error, message);
  }
}

void Clique::RunCollective(const std::shared_ptr<Member>& member,
                           uint64_t sequence, const Contribution& contribution,
                           CUresult stream_error) {
  std::unique_lock<std::mutex> lock(mu_);
  Round& round = rounds_[sequence];
  if (round.parts.empty()) {
    round.members.resize(nranks_);
    round.parts.resize(nranks_);
    round.stream_errors.assign(nranks_, CUDA_SUCCESS);
  }
  const int rank = member->rank();
  round.members[rank] = member;
  round.parts[rank] = contribution;
  round.stream_errors[rank] = stream_error;
  if (++round.arrived == nranks_) {
    round.done = Execute(round);
    changed_.notify_all();
  }
  changed_.wait(lock, [&] { return round.done || aborted_; });
  if (++round.left == nranks_) rounds_.erase(sequence);
}

bool Clique::Execute(Round& round) {
  const int n = nranks_;
  const Contribution& first = round.parts[0];
  for (int r = 1; r < n; ++r) {
    const Contribution& c = round.parts[r];
    if (std::strcmp(c.call, first.call) != 0 || c.type != first.type ||
        c.op != first.op || c.count != first.count || c.root != first.root) {
      FailRound(round, ncclInvalidUsage,
                "the ranks disagree on a collective: rank 0 called " +
                    Describe(first) + ", rank " + std::to_string(r) +
                    " called " + Describe(c));
      return true;
    }
  }
  const Config& config = GetConfig();
  if (config.async_error.count(first.call) != 0) {
    // As a dead peer looks: an error, and kernels that never finish.
    FailRound(round, ncclRemoteError,
              std::string(first.call) +
                  " met a remote error (FAKE_NCCL_ASYNC_ERROR)");
    return false;
  }
  if (config.hang.count(first.call) != 0) return false;
  for (int r = 0; r < n; ++r) {
    if (round.stream_errors[r] != CUDA_SUCCESS) {
      round.members[r]->SetAsyncError(
          ncclUnhandledCudaError, "rank " + std::to_string(r) +
                                      "'s stream had failed (CUresult " +
                                      std::to_string(round.stream_errors[r]) +
                                      ") before " + first.call);
      return true;
    }
  }
  const size_t element = TypeSize(first.type);
  const std::string call = first.call;
  const size_t in_bytes = InputBytes(first, n);
  const size_t out_bytes = OutputBytes(first, n);
  if (in_bytes == 0 && out_bytes == 0) return true;
  std::vector<const uint8_t*> in(n);
  std::vector<uint8_t*> out(n);
  for (int r = 0; r < n; ++r) {
    const Contribution& c = round.parts[r];
    // A broadcast reads the root's data only.
    if (call != "ncclBroadcast" || r == first.root) {
      in[r] =
          c.host != nullptr
              ? (c.host->send_live && c.host->input.size() == in_bytes
                     ? c.host->input.data()
                     : nullptr)
              : static_cast<const uint8_t*>(Translate(c.send, in_bytes, false));
      if (in[r] == nullptr && in_bytes > 0) {
        FailRound(round, ncclUnhandledCudaError,
                  NotLive(r, "send", c.send, in_bytes));
        return true;
      }
    }
    if (c.host != nullptr && c.host->recv_live)
      c.host->output.resize(out_bytes);
    out[r] = c.host != nullptr
                 ? (c.host->recv_live ? c.host->output.data() : nullptr)
                 : static_cast<uint8_t*>(Translate(c.recv, out_bytes, true));
    if (out[r] == nullptr && out_bytes > 0) {
      FailRound(round, ncclUnhandledCudaError,
                NotLive(r, "receive", c.recv, out_bytes));
      return true;
    }
  }
  // Every input is read before any output is written: buffers may be the
  // same (in place).
  std::vector<uint8_t> result;
  if (call == "ncclAllReduce" || call == "ncclReduceScatter") {
    result.assign(in[0], in[0] + in_bytes);
    for (int r = 1; r < n; ++r) {
      Reduce(first.type, first.op, result.data(), in[r], in_bytes / element);
    }
    for (int r = 0; r < n; ++r) {
      const size_t offset = call == "ncclReduceScatter" ? r * out_bytes : 0;
      std::memcpy(out[r], result.data() + offset, out_bytes);
    }
  } else if (call == "ncclAllGather") {
    for (int r = 0; r < n; ++r) {
      result.insert(result.end(), in[r], in[r] + in_bytes);
    }
    for (int r = 0; r < n; ++r) std::memcpy(out[r], result.data(), out_bytes);
  } else if (call == "ncclBroadcast") {
    result.assign(in[first.root], in[first.root] + in_bytes);
    for (int r = 0; r < n; ++r) std::memcpy(out[r], result.data(), out_bytes);
  }
  return true;
}

void Clique::RunTransfers(const std::shared_ptr<Member>& member,
                          const std::vector<Transfer>& transfers,
                          CUresult stream_error) {
  const int rank = member->rank();
  if (stream_error != CUDA_SUCCESS) {
    member->SetAsyncError(
        ncclUnhandledCudaError,
        "rank " + std::to_string(rank) + "'s stream had failed (CUresult " +
            std::to_string(stream_error) + ") before its sends and receives");
  }
  std::unique_lock<std::mutex> lock(mu_);
  const Config& config = GetConfig();
  for (const Transfer& t : transfers) {
    if (config.hang.count(t.send ? "ncclSend" : "ncclRecv") != 0) {
      changed_.wait(lock, [this] { return aborted_; });
      return;
    }
  }
  for (const Transfer& t : transfers) {
    if (!t.send) continue;
    std::vector<uint8_t> data(t.bytes);
    const void* from =
        t.host != nullptr
            ? (t.host->send_live && t.host->input.size() == t.bytes
                   ? t.host->input.data()
                   : nullptr)
            : Translate(t.buffer, t.bytes, false);
    if (from == nullptr && t.bytes > 0) {
      // The peer still gets a message, so that it does not wait forever.
      member->SetAsyncError(ncclUnhandledCudaError,
                            NotLive(rank, "send", t.buffer, t.bytes));
    } else if (t.bytes > 0) {
      std::memcpy(data.data(), from, t.bytes);
    }
    messages_[{rank, t.peer, t.sequence}] = std::move(data);
  }
  changed_.notify_all();
  for (const Transfer& t : transfers) {
    if (t.send) continue;
    const auto key = std::make_tuple(t.peer, rank, t.sequence);
    changed_.wait(lock, [&] { return aborted_ || messages_.count(key) != 0; });
    if (aborted_) return;
    const std::vector<uint8_t>& data = messages_[key];
    if (t.host != nullptr && t.host->recv_live && data.size() == t.bytes) {
      t.host->output.resize(t.bytes);
    }
    void* to = t.host != nullptr
                   ? (t.host->recv_live ? t.host->output.data() : nullptr)
                   : Translate(t.buffer, t.bytes, true);
    if (data.size() != t.bytes) {
      member->SetAsyncError(ncclInvalidUsage,
                            "rank " + std::to_string(rank) + " receives " +
                                std::to_string(t.bytes) + " bytes from rank " +
                                std::to_string(t.peer) + ", which sends " +
                                std::to_string(data.size()));
    } else if (to == nullptr && t.bytes > 0) {
      member->SetAsyncError(ncclUnhandledCudaError,
                            NotLive(rank, "receive", t.buffer, t.bytes));
    } else if (t.bytes > 0) {
      std::memcpy(to, data.data(), t.bytes);
    }
    messages_.erase(key);
    changed_.notify_all();
  }
  for (const Transfer& t : transfers) {
    if (!t.send) continue;
    const auto key = std::make_tuple(rank, t.peer, t.sequence);
    changed_.wait(lock, [&] { return aborted_ || messages_.count(key) == 0; });
    if (aborted_) return;
  }
}

std::shared_ptr<Clique> FindOrMakeClique(const std::string& key, int nranks,
                                         std::string* error) {
  static auto* mu = new std::mutex;
  static auto* cliques = new std::map<std::string, std::weak_ptr<Clique>>;
  std::lock_guard<std::mutex> lock(*mu);
  std::shared_ptr<Clique> clique = (*cliques)[key].lock();
  if (clique == nullptr) {
    clique = std::make_shared<Clique>(nranks);
    (*cliques)[key] = clique;
  }
  if (clique->nranks() != nranks) {
    *error = std::to_string(nranks) +
             " ranks, but the unique id's other ranks said " +
             std::to_string(clique->nranks());
    return nullptr;
  }
  return clique;
}

}  // namespace fake_nccl
