#include "runtime/collectives/host_communicator.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <thread>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "runtime/collectives/algorithm.h"
#include "runtime/collectives/all_to_all.h"
#include "runtime/collectives/broadcast.h"
#include "runtime/collectives/collective_request.h"
#include "runtime/collectives/device_ids.h"
#include "runtime/collectives/halving_doubling.h"
#include "runtime/collectives/hierarchical.h"
#include "runtime/collectives/in_process_transport.h"
#include "runtime/collectives/operation_header.h"
#include "runtime/collectives/reduction.h"
#include "runtime/collectives/ring.h"
#include "runtime/collectives/staged_ring.h"
#include "runtime/core/base/trace_recorder.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {

// Everything a rank's part reads; shared by the parts and immutable once
// issued, except `dependencies`, written before the parts are released.
struct HostCommunicator::Operation {
  PJRTX_CollectiveKind kind = PJRTX_Collective_ALL_REDUCE;
  ReduceOp op = ReduceOp::kSum;
  PJRTX_ReduceOp op_code = PJRTX_ReduceOp_SUM;  // The same, for headers.
  Algorithm algorithm = Algorithm::kRing;       // ALL_REDUCE only.
  int root = 0;
  uint32_t sequence = 0;
  std::chrono::milliseconds timeout{0};
  PJRTX_Buffer_Type type = PJRTX_Buffer_Type_F32;
  size_t input_count = 0;  // Elements of each input.
  // What a reduction combines: `reduce_count` values of `reduce_type` per
  // input (a complex buffer's parts: twice its elements).
  PJRTX_Buffer_Type reduce_type = PJRTX_Buffer_Type_F32;
  size_t reduce_count = 0;
  size_t input_bytes = 0;
  size_t output_bytes = 0;
  std::vector<int64_t> output_dims;  // Every output's.
  absl::Status dependencies;         // The joined dependencies' status.
  struct Part {
    std::shared_ptr<DeviceAllocation> input;
    std::shared_ptr<DeviceAllocation> output;  // Null: nothing received.
    int send_to = -1;                          // SEND_RECV.
    int recv_from = -1;                        // SEND_RECV.
    EventRef done;
  };
  std::vector<Part> parts;  // Per local rank.

  // What the first message to a remote peer carries, so that ranks that
  // disagree on the operation are told so.
  OperationHeader Header() const {
    OperationHeader header;
    header.sequence = sequence;
    header.kind = kind;
    header.op = op_code;
    header.type = type;
    header.count = static_cast<int64_t>(input_count);
    header.root = root;
    return header;
  }
};

namespace {

std::atomic<uint32_t> g_next_communicator_id{0};

// `status`, its message prefixed with the operation and the rank that saw
// it.
absl::Status NameRank(PJRTX_CollectiveKind kind, int rank,
                      const absl::Status& status) {
  if (status.ok()) return status;
  return absl::Status(status.code(),
                      absl::StrCat(CollectiveKindName(kind), " on rank ", rank,
                                   ": ", status.message()));
}

// A send/recv between local ranks that do not name each other, said by
// the arrays' indices.
absl::Status UnmatchedByIndex(const UnmatchedMessage& message) {
  return absl::InvalidArgumentError(absl::StrCat(
      message.sends ? "send_to[" : "recv_from[", message.index, "] is ",
      message.peer_rank, " but ", message.sends ? "recv_from[" : "send_to[",
      message.peer_index, "] (rank ", message.peer_rank, ") is ",
      message.peer_names, "; expected ", message.rank,
      message.sends ? " so that every message has a receiver"
                    : " so that every receive has a sender"));
}

Algorithm ToAlgorithm(PJRTX_CollectiveAlgorithm algorithm) {
  switch (algorithm) {
    case PJRTX_CollectiveAlgorithm_RING:
      return Algorithm::kRing;
    case PJRTX_CollectiveAlgorithm_HALVING_DOUBLING:
      return Algorithm::kHalvingDoubling;
    case PJRTX_CollectiveAlgorithm_HIERARCHICAL:
      return Algorithm::kHierarchical;
    default:
      return Algorithm::kAuto;
  }
}

// Only for memory the host can address.
uint8_t* HostPointer(const DeviceAllocation& allocation) {
  return reinterpret_cast<uint8_t*>(allocation.address().value);
}

}  // namespace

// Where the ranks are: this process's devices, every rank's process and
// slice, and the rendezvous key of a communicator spanning processes.
struct HostCommunicator::Layout {
  std::vector<int> devices;  // Client device index of every rank.
  std::vector<bool> in_this_process;
  std::vector<std::vector<int>> slices;  // Ranks of each slice, in order.
  std::vector<int> slice_of;             // Slice of every rank.
  bool slices_within_processes = true;   // No slice spans processes.
  // Whether the host can address this process's device memory (else every
  // operation is staged through the driver's copies).
  bool device_memory_on_host = true;
  std::string key;  // Empty while single-process.
  std::shared_ptr<KeyValueStore> store;
  TransportFactory make_remote;
};

namespace {

// A chip's buffer handed to links that cannot address it: their copies out
// of `source` and into `destination` (the operation's input and output)
// are the rank's staging copies, so they are tallied for the counters.
class ChipMemory final : public StagedMemory {
 public:
  ChipMemory(const uint8_t* source, uint8_t* destination, size_t size)
      : source_(source), destination_(destination), size_(size) {}

  size_t size() const override { return size_; }
  void ToHost(size_t offset, uint8_t* host, size_t bytes) override {
    std::memcpy(host, source_ + offset, bytes);
    copied_out_ += bytes;
  }
  void FromHost(size_t offset, const uint8_t* host, size_t bytes) override {
    std::memcpy(destination_ + offset, host, bytes);
    copied_in_ += bytes;
  }
  // The chip reduces what comes in with its input as it writes its
  // output, as a real chip would reduce in its own memory.
  bool reduces_on_device() const override { return true; }
  void ReduceFromHost(size_t offset, const uint8_t* host, size_t bytes,
                      ReduceOp op, PJRTX_Buffer_Type type) override {
    const size_t element_size = *ReducibleElementSize(type);
    // Cannot fail: the type was checked before the operation started.
    (void)Reduce(op, type, destination_ + offset, source_ + offset, host,
                 bytes / element_size);
    copied_in_ += bytes;
  }
  void ResultToHost(size_t offset, uint8_t* host, size_t bytes) override {
    std::memcpy(host, destination_ + offset, bytes);
    copied_out_ += bytes;
  }
  size_t copied_out() const { return copied_out_; }
  size_t copied_in() const { return copied_in_; }

 private:
  const uint8_t* const source_;
  uint8_t* const destination_;
  const size_t size_;
  size_t copied_out_ = 0;
  size_t copied_in_ = 0;
};

}  // namespace

// A local rank's host memory for data crossing to other processes, grown
// on demand and kept (the pool), and the copies into and out of it, counted
// on the rank's device.
class HostCommunicator::Staging : public ShardStaging {
 public:
  Staging(ClientState& client, int device) : client_(client), device_(device) {}

  // One copy of a device buffer's first `bytes` into `host`: a memcpy
  // where the host can address the device's memory, the driver's copy
  // otherwise.
  absl::Status Out(uint8_t* host, const DeviceAllocation& device,
                   size_t bytes) {
    if (bytes == 0) return absl::OkStatus();
    if (OnHost(device)) {
      std::memcpy(host, HostPointer(device), bytes);
    } else {
      PJRTX_RETURN_IF_ERROR(client_.driver().CopyToHost(
          device.memory_index(), host, device.address(), bytes));
    }
    CountOut(bytes);
    return absl::OkStatus();
  }
  // One copy of `bytes` from `host` into a device buffer.
  absl::Status In(const DeviceAllocation& device, const uint8_t* host,
                  size_t bytes) {
    if (bytes == 0) return absl::OkStatus();
    if (OnHost(device)) {
      std::memcpy(HostPointer(device), host, bytes);
    } else {
      PJRTX_RETURN_IF_ERROR(client_.driver().CopyFromHost(
          device.memory_index(), device.address(), host, bytes));
    }
    CountIn(bytes);
    return absl::OkStatus();
  }

  // At least `bytes` of host memory, valid until the next call.
  uint8_t* Reserve(size_t bytes) {
    if (bytes > capacity_) {
      capacity_ = std::max(bytes, 2 * capacity_);
      memory_ = std::make_unique<uint8_t[]>(capacity_);
    }
    return memory_.get();
  }

  // Counts a copy out of (into) the device that the transport made into
  // (out of) its own host buffers; nothing when `bytes` is 0.
  void CountOut(size_t bytes) {
    if (bytes == 0) return;
    TransferCounters& counters = client_.counters(device_);
    counters.device_to_host.Add(static_cast<int64_t>(bytes));
    counters.staging.Add(static_cast<int64_t>(bytes));
  }
  void CountIn(size_t bytes) {
    if (bytes == 0) return;
    TransferCounters& counters = client_.counters(device_);
    counters.host_to_device.Add(static_cast<int64_t>(bytes));
    counters.staging.Add(static_cast<int64_t>(bytes));
  }

  // The operation's chip buffers as the links may reach them; what they
  // copied is counted by CountChipCopies.
  StagedMemory& Chip(const uint8_t* source, uint8_t* destination,
                     size_t bytes) {
    chip_.emplace(source, destination, bytes);
    return *chip_;
  }
  StagedMemory& Device(uint8_t* device, size_t bytes) override {
    return Chip(device, device, bytes);
  }
  uint8_t* Host(size_t bytes) override { return Reserve(bytes); }
  // Counts the copies made through Chip or Device since the last call: one
  // copy out of the device and one into it, however many pieces they took.
  void CountChipCopies() {
    if (!chip_.has_value()) return;
    CountOut(chip_->copied_out());
    CountIn(chip_->copied_in());
    chip_.reset();
  }

 private:
  bool OnHost(const DeviceAllocation& device) const {
    return client_.memory(device.memory_index()).spec().host_addressable;
  }

  ClientState& client_;
  const int device_;
  std::unique_ptr<uint8_t[]> memory_;
  size_t capacity_ = 0;
  std::optional<ChipMemory> chip_;
};

absl::StatusOr<std::unique_ptr<Communicator>> HostCommunicator::Create(
    std::shared_ptr<ClientState> client, absl::Span<const int64_t> device_ids,
    int64_t timeout_ms, TransportFactory make_remote) {
  PJRTX_ASSIGN_OR_RETURN(std::vector<int> devices,
                         ResolveDeviceIds(*client, device_ids));
  Layout layout;
  std::map<int64_t, int> slice_number;  // Slice index -> position.
  std::map<int, int> process_of_slice;
  bool any_local = false;
  for (size_t r = 0; r < device_ids.size(); ++r) {
    const DeviceSpec& spec = client->device(devices[r]);
    layout.devices.push_back(devices[r]);
    layout.in_this_process.push_back(spec.addressable);
    auto [slice, new_slice] = slice_number.emplace(
        SliceOf(spec), static_cast<int>(layout.slices.size()));
    if (new_slice) layout.slices.emplace_back();
    layout.slices[slice->second].push_back(static_cast<int>(r));
    layout.slice_of.push_back(slice->second);
    auto [process, first] =
        process_of_slice.emplace(slice->second, spec.process_index);
    if (!first && process->second != spec.process_index) {
      layout.slices_within_processes = false;
    }
    if (!spec.addressable) continue;
    any_local = true;
    const MemorySpace& memory =
        client->memory(client->default_memory(devices[r]));
    if (!memory.spec().host_addressable) layout.device_memory_on_host = false;
  }
  if (!any_local) {
    return absl::InvalidArgumentError(absl::StrCat(
        "none of the ", device_ids.size(),
        " devices in device_ids belongs to this process (process ",
        client->topology().process_index,
        "); a process creates communicators over its own devices and "
        "others'"));
  }
  const bool multi_process =
      std::find(layout.in_this_process.begin(), layout.in_this_process.end(),
                false) != layout.in_this_process.end();
  if (multi_process) {
    if (make_remote == nullptr) {
      return absl::UnimplementedError(
          "device_ids includes devices of other processes, but this plugin "
          "was built without a transport between processes (UCX)");
    }
    if (client->key_value_store() == nullptr) {
      return absl::FailedPreconditionError(
          "device_ids includes devices of other processes, whose ranks meet "
          "through the key-value store, but the client was created without "
          "key-value callbacks; pass them to PJRTX_Client_Create");
    }
    layout.key = CommunicatorKey(device_ids);
    layout.store = client->key_value_store();
    layout.make_remote = std::move(make_remote);
  }
  std::unique_ptr<HostCommunicator> communicator(
      new HostCommunicator(std::move(client), layout, timeout_ms));
  OrderedWorker::Options worker_options;
  // A caller waiting for its operation can run it only where it has one
  // local rank: with more, each rank's part needs a thread of its own.
  worker_options.defer_to_waiters = communicator->local_.size() == 1;
  for (LocalRank& local : communicator->local_) {
    PJRTX_ASSIGN_OR_RETURN(local.worker, OrderedWorker::Create(worker_options));
  }
  if (multi_process) {
    // Each local rank connects to every rank; they all wait for each other
    // to publish, so they connect side by side.
    const size_t n = communicator->local_.size();
    std::vector<absl::StatusOr<std::unique_ptr<Transport>>> remotes;
    for (size_t i = 0; i < n; ++i) {
      remotes.push_back(absl::UnknownError("not connected"));
    }
    std::vector<std::thread> threads;
    for (size_t i = 0; i < n; ++i) {
      threads.emplace_back([&, i] {
        remotes[i] = layout.make_remote(
            *layout.store, layout.key,
            static_cast<int>(communicator->local_[i].rank),
            static_cast<int>(layout.devices.size()), timeout_ms);
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (size_t i = 0; i < n; ++i) {
      if (!remotes[i].ok()) {
        const absl::Status& status = remotes[i].status();
        return absl::Status(
            status.code(),
            absl::StrCat(
                "connecting rank ", communicator->local_[i].rank,
                " to the ranks of other processes: ", status.message()));
      }
    }
    communicator->ConnectRemote(layout, remotes);
  }
  return std::unique_ptr<Communicator>(std::move(communicator));
}

HostCommunicator::HostCommunicator(std::shared_ptr<ClientState> client,
                                   const Layout& layout, int64_t timeout_ms)
    : client_(std::move(client)),
      size_(static_cast<int64_t>(layout.devices.size())),
      timeout_ms_(timeout_ms),
      id_(g_next_communicator_id.fetch_add(1)) {
  num_slices_ = static_cast<int>(layout.slices.size());
  for (const std::vector<int>& slice : layout.slices) {
    if (slice.size() != layout.slices[0].size()) equal_slices_ = false;
  }
  multi_process_ = !layout.key.empty();
  device_memory_on_host_ = layout.device_memory_on_host;
  shard_staging_ = multi_process_ && layout.slices_within_processes &&
                   device_memory_on_host_;
  // One fabric links the ranks of this process.
  std::shared_ptr<InProcessFabric> fabric =
      InProcessFabric::Create(static_cast<int>(size_));
  for (size_t r = 0; r < layout.devices.size(); ++r) {
    if (!layout.in_this_process[r]) continue;
    local_ranks_.push_back(static_cast<int64_t>(r));
    LocalRank& local = local_.emplace_back();
    local.rank = static_cast<int64_t>(r);
    local.device = layout.devices[r];
    local.transport = fabric->Endpoint(static_cast<int>(r));
    local.staging = std::make_unique<Staging>(*client_, local.device);
    if (!multi_process_) {
      // One slice: the cross-slice link of a hierarchical all-reduce has
      // this rank alone.
      local.inter_slice = InProcessFabric::Create(1)->Endpoint(0);
    }
  }
}

HostCommunicator::~HostCommunicator() {
  // Each worker finishes its queue before it stops. Joining them one by one
  // is safe although ranks wait for each other inside an operation: the
  // workers not yet joined keep running theirs.
  for (LocalRank& local : local_) local.worker.reset();
}

void HostCommunicator::ConnectRemote(
    const Layout& layout,
    std::vector<absl::StatusOr<std::unique_ptr<Transport>>>& remotes) {
  for (size_t i = 0; i < local_.size(); ++i) {
    LocalRank& local = local_[i];
    auto routed = std::make_unique<RoutedTransport>(layout.in_this_process,
                                                    std::move(local.transport),
                                                    *std::move(remotes[i]));
    local.routed = routed.get();
    local.transport = std::move(routed);
    const int slice = layout.slice_of[local.rank];
    const std::vector<int>& members = layout.slices[slice];
    const int position =
        static_cast<int>(std::find(members.begin(), members.end(), local.rank) -
                         members.begin());
    local.intra_slice =
        std::make_unique<SubsetTransport>(*local.transport, members);
    if (!equal_slices_) continue;
    std::vector<int> peers;
    for (const std::vector<int>& other : layout.slices) {
      peers.push_back(other[position]);
    }
    local.inter_slice =
        std::make_unique<SubsetTransport>(*local.transport, std::move(peers));
  }
}

absl::StatusOr<std::vector<CollectiveResult>> HostCommunicator::Collective(
    const CollectiveRequest& request) {
  PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<Operation> operation,
                         PlanOperation(request));
  // Everything is checked; acquire memory, then issue.
  std::vector<EventRef> dependencies = request.wait_for;
  PJRTX_ASSIGN_OR_RETURN(std::vector<CollectiveResult> results,
                         AcquireParts(request, *operation, dependencies));
  Issue(operation, std::move(dependencies));
  return results;
}

absl::StatusOr<std::shared_ptr<HostCommunicator::Operation>>
HostCommunicator::PlanOperation(const CollectiveRequest& request) {
  std::vector<int> devices;
  for (const LocalRank& local : local_) devices.push_back(local.device);
  CollectiveRequestChecks checks;
  checks.client = client_.get();
  checks.size = size();
  checks.local_ranks = local_ranks_;
  checks.local_devices = devices;
  checks.reduction = [](PJRTX_Buffer_Type type, PJRTX_ReduceOp op) {
    return ReductionLayoutOf(type, ReduceOpOf(op));
  };
  checks.unmatched = UnmatchedByIndex;
  PJRTX_ASSIGN_OR_RETURN(CheckedCollective checked,
                         CheckCollectiveRequest(request, checks));
  auto operation = std::make_shared<Operation>();
  Operation& op = *operation;
  op.kind = request.kind;
  op.op = ReduceOpOf(request.op);
  op.op_code = request.op;
  op.root = static_cast<int>(request.root);
  op.type = checked.type;
  op.timeout = std::chrono::milliseconds(
      request.timeout_ms > 0 ? request.timeout_ms : timeout_ms_);
  op.input_count = checked.input_count;
  op.reduce_type = checked.reduction.type;
  op.reduce_count = checked.reduce_count;
  op.input_bytes = checked.input_bytes;
  op.output_bytes = checked.output_bytes;
  op.output_dims = std::move(checked.output_dims);
  if (request.kind == PJRTX_Collective_ALL_REDUCE) {
    // A single process holds one slice.
    const int slices = multi_process_ ? num_slices_ : 1;
    PJRTX_ASSIGN_OR_RETURN(
        op.algorithm,
        ChooseAlgorithm(ToAlgorithm(request.algorithm), op.input_bytes,
                        static_cast<int>(size()), slices));
    if (op.algorithm == Algorithm::kHierarchical && !equal_slices_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "hierarchical all-reduce needs slices of equal size, but the ",
          size(), " ranks span ", num_slices_,
          " slices of different sizes; use ring or halving_doubling"));
    }
  }
  return operation;
}

absl::StatusOr<std::vector<CollectiveResult>> HostCommunicator::AcquireParts(
    const CollectiveRequest& request, Operation& op,
    std::vector<EventRef>& dependencies) {
  const size_t num_local = local_.size();
  op.parts.resize(num_local);
  for (size_t i = 0; i < num_local; ++i) {
    Buffer& input = *request.inputs[i];
    Operation::Part& part = op.parts[i];
    PJRTX_ASSIGN_OR_RETURN(part.input, input.AcquireForUse("Collective"));
    dependencies.push_back(input.definition_event());
    if (request.kind == PJRTX_Collective_SEND_RECV) {
      part.send_to = static_cast<int>(request.send_to[i]);
      part.recv_from = static_cast<int>(request.recv_from[i]);
    }
  }
  std::vector<CollectiveResult> results(num_local);
  for (size_t i = 0; i < num_local; ++i) {
    Buffer& input = *request.inputs[i];
    Operation::Part& part = op.parts[i];
    const bool donated = i < request.donate.size() && request.donate[i];
    // Reusing the input in place is only sound where the algorithm works
    // on one buffer of the input's size.
    const bool in_place = request.kind == PJRTX_Collective_ALL_REDUCE ||
                          request.kind == PJRTX_Collective_BROADCAST;
    if (donated) {
      // Writers to donated memory wait for every earlier reader.
      std::vector<EventRef> readers = input.TakeUsageEvents();
      dependencies.insert(dependencies.end(), readers.begin(), readers.end());
    }
    const int memory = client_->default_memory(local_[i].device);
    part.done = Event::Create();
    results[i].done = part.done;
    if (request.kind == PJRTX_Collective_SEND_RECV && part.recv_from < 0) {
      continue;
    }
    if (donated && in_place) {
      part.output = part.input;
    } else {
      PJRTX_ASSIGN_OR_RETURN(part.output,
                             client_->memory(memory).Allocate(op.output_bytes));
    }
    results[i].output =
        Buffer::FromAllocation(client_, local_[i].device, memory, op.type,
                               op.output_dims, part.output, part.done);
  }
  for (size_t i = 0; i < num_local; ++i) {
    Buffer& input = *request.inputs[i];
    if (i < request.donate.size() && request.donate[i]) {
      input.Delete();
    } else {
      input.AddUsage(op.parts[i].done);
    }
  }
  return results;
}

void HostCommunicator::Issue(const std::shared_ptr<Operation>& operation,
                             std::vector<EventRef> dependencies) {
  Operation& op = *operation;
  const size_t num_local = local_.size();
  std::vector<uint64_t> tickets(num_local);
  {
    std::lock_guard<std::mutex> lock(issue_mu_);
    op.sequence = next_sequence_++;
    for (size_t i = 0; i < num_local; ++i) {
      tickets[i] = local_[i].worker->Add([this, operation, i] {
        Operation::Part& part = operation->parts[i];
        if (!operation->dependencies.ok()) {
          part.done->Set(operation->dependencies);
          return;
        }
        part.done->Set(RunPart(*operation, i));
      });
      // A caller that awaits the result through the ABI runs the part
      // itself (Event::AwaitHelping), saving a wake-up of this worker and
      // one of the caller (on a machine whose cores are all busy, each
      // waits for a core).
      op.parts[i].done->SetAwaitHelper(
          local_[i].worker->InlineRunner(tickets[i]));
    }
  }
  std::vector<OrderedWorker*> workers;
  for (LocalRank& local : local_) workers.push_back(local.worker.get());
  AfterAll(dependencies)
      ->AndThen([operation, workers = std::move(workers),
                 tickets = std::move(tickets)](const absl::Status& status) {
        // Written before any release, which publishes it to the workers.
        operation->dependencies = status;
        for (size_t i = 0; i < workers.size(); ++i) {
          workers[i]->Release(tickets[i]);
        }
      });
}

absl::Status HostCommunicator::RunPart(const Operation& operation,
                                       size_t index) {
  LocalRank& local = local_[index];
  // The whole part, staging copies and waits for peers included: that is
  // how long the collective holds the device.
  ScopedTraceInterval trace(
      client_->device(local.device).global_id, "collective",
      [&operation] { return std::string(CollectiveKindName(operation.kind)); });
  const Operation::Part& part = operation.parts[index];
  const Deadline deadline =
      std::chrono::steady_clock::now() + operation.timeout;
  // Only dereferenced where the host can address device memory.
  uint8_t* const device_in =
      device_memory_on_host_ ? HostPointer(*part.input) : nullptr;
  uint8_t* const device_out = device_memory_on_host_ && part.output != nullptr
                                  ? HostPointer(*part.output)
                                  : nullptr;
  const size_t in_bytes = operation.input_bytes;
  const size_t out_bytes = part.output == nullptr ? 0 : operation.output_bytes;
  const int rank = static_cast<int>(local.rank);
  if (multi_process_) local.transport->BeginOperation(operation.Header());

  // Across processes the links cannot read device memory, nor can any
  // where the host cannot address it (a GPU's): the operation runs on host
  // copies, one copy out of the device and one back (the hierarchical
  // all-reduce over host-addressable chips stages only its cross-slice
  // shard itself).
  const bool shard_staged = operation.kind == PJRTX_Collective_ALL_REDUCE &&
                            operation.algorithm == Algorithm::kHierarchical &&
                            shard_staging_;
  const bool staged =
      (multi_process_ || !device_memory_on_host_) && !shard_staged;
  // Links may copy a chip's host-addressable memory piece by piece as the
  // data travels; other device memory is staged whole by the driver.
  const bool piecewise = staged && multi_process_ && device_memory_on_host_;
  Staging& staging = *local.staging;
  if (piecewise) {
    if (std::optional<absl::Status> status =
            RunPiecewise(operation, index, device_in, device_out, deadline)) {
      CountTraffic(local);
      return NameRank(operation.kind, rank, *status);
    }
  }
  const bool in_place = operation.kind == PJRTX_Collective_ALL_REDUCE ||
                        operation.kind == PJRTX_Collective_BROADCAST ||
                        operation.kind == PJRTX_Collective_ALL_GATHER;
  uint8_t* in = device_in;
  uint8_t* out = device_out;
  if (staged) {
    // The input's copy lands where the algorithm wants it: in the output
    // for operations that work in place, beside it otherwise.
    uint8_t* host = staging.Reserve(out_bytes + (in_place ? 0 : in_bytes));
    out = host;
    in = in_place ? host : host + out_bytes;
    if (operation.kind == PJRTX_Collective_ALL_GATHER) {
      in = host + rank * in_bytes;
    }
    if (absl::Status copied = staging.Out(in, *part.input, in_bytes);
        !copied.ok()) {
      return NameRank(operation.kind, rank, copied);
    }
  }
  absl::Status status =
      RunAlgorithm(operation, index, in, out, shard_staged, deadline);
  if (staged && status.ok() && out_bytes > 0) {
    status = staging.In(*part.output, out, out_bytes);
  }
  staging.CountChipCopies();
  CountTraffic(local);
  return NameRank(operation.kind, rank, status);
}

std::optional<absl::Status> HostCommunicator::RunPiecewise(
    const Operation& operation, size_t index, uint8_t* device_in,
    uint8_t* device_out, Deadline deadline) {
  LocalRank& local = local_[index];
  Staging& staging = *local.staging;
  if (operation.kind == PJRTX_Collective_SEND_RECV) {
    // Copied by the transport as it travels.
    return StagedSendRecv(operation, index, staging, device_in, device_out,
                          deadline);
  }
  if (operation.kind == PJRTX_Collective_ALL_REDUCE &&
      operation.algorithm != Algorithm::kHalvingDoubling &&
      operation.algorithm != Algorithm::kHierarchical) {
    // Reduced in host memory; the copies out of the chip and back are
    // made by the transfers themselves.
    const size_t out_bytes =
        operation.parts[index].output == nullptr ? 0 : operation.output_bytes;
    absl::Status status = StagedRingAllReduce(
        *local.transport, operation.op, operation.reduce_type,
        staging.Chip(device_in, device_out, out_bytes),
        staging.Reserve(out_bytes), operation.reduce_count, id_,
        operation.sequence, deadline);
    staging.CountChipCopies();
    return status;
  }
  return std::nullopt;
}

absl::Status HostCommunicator::RunAlgorithm(const Operation& operation,
                                            size_t index, uint8_t* in,
                                            uint8_t* out, bool shard_staged,
                                            Deadline deadline) {
  LocalRank& local = local_[index];
  const Operation::Part& part = operation.parts[index];
  Transport& transport = *local.transport;
  const size_t in_bytes = operation.input_bytes;
  const size_t out_bytes = part.output == nullptr ? 0 : operation.output_bytes;
  const int size = static_cast<int>(size_);
  const int rank = static_cast<int>(local.rank);
  auto copy_input_to = [&](uint8_t* dst) {
    if (in_bytes > 0 && dst != in) std::memcpy(dst, in, in_bytes);
  };
  switch (operation.kind) {
    case PJRTX_Collective_ALL_REDUCE:
      copy_input_to(out);
      switch (operation.algorithm) {
        case Algorithm::kHalvingDoubling:
          return HalvingDoublingAllReduce(
              transport, operation.op, operation.reduce_type, out,
              operation.reduce_count, id_, operation.sequence, deadline);
        case Algorithm::kHierarchical:
          return HierarchicalAllReduce(
              multi_process_ ? *local.intra_slice : transport,
              *local.inter_slice, operation.op, operation.reduce_type, out,
              operation.reduce_count, id_, operation.sequence, deadline,
              shard_staged ? local.staging.get() : nullptr);
        default:
          return RingAllReduce(transport, operation.op, operation.reduce_type,
                               out, operation.reduce_count, id_,
                               operation.sequence, deadline);
      }
    case PJRTX_Collective_REDUCE_SCATTER: {
      // The ring leaves every chunk but the rank's own half reduced, so it
      // works on a copy and only the rank's block lands in the output.
      std::vector<uint8_t> scratch(in, in + in_bytes);
      absl::Status status = RingReduceScatter(
          transport, operation.op, operation.reduce_type, scratch.data(),
          operation.reduce_count, id_, operation.sequence, deadline);
      if (status.ok() && out_bytes > 0) {
        std::memcpy(out, scratch.data() + rank * out_bytes, out_bytes);
      }
      return status;
    }
    case PJRTX_Collective_ALL_GATHER:
      copy_input_to(out + rank * in_bytes);
      return RingAllGather(transport, operation.type, out,
                           operation.input_count * size, id_,
                           operation.sequence, deadline);
    case PJRTX_Collective_BROADCAST:
      copy_input_to(out);
      return Broadcast(transport, operation.root,
                       absl::MakeSpan(out, out_bytes), id_, operation.sequence,
                       deadline);
    case PJRTX_Collective_ALL_TO_ALL:
      return AllToAll(transport, absl::MakeConstSpan(in, in_bytes),
                      absl::MakeSpan(out, out_bytes), id_, operation.sequence,
                      deadline);
    case PJRTX_Collective_SEND_RECV:
      return transport.SendRecv(
          part.send_to,
          part.send_to < 0 ? absl::Span<const uint8_t>()
                           : absl::MakeConstSpan(in, in_bytes),
          part.recv_from,
          part.recv_from < 0 ? absl::Span<uint8_t>()
                             : absl::MakeSpan(out, out_bytes),
          MakeTag(id_, operation.sequence, 0), deadline);
  }
  return absl::OkStatus();
}

absl::Status HostCommunicator::StagedSendRecv(const Operation& operation,
                                              size_t index, Staging& staging,
                                              uint8_t* device_in,
                                              uint8_t* device_out,
                                              Deadline deadline) {
  const Operation::Part& part = operation.parts[index];
  ChipMemory send(device_in, nullptr,
                  part.send_to < 0 ? 0 : operation.input_bytes);
  ChipMemory recv(nullptr, device_out,
                  part.recv_from < 0 ? 0 : operation.output_bytes);
  absl::Status status = local_[index].transport->SendRecvStaged(
      part.send_to < 0 ? -1 : part.send_to, &send,
      part.recv_from < 0 ? -1 : part.recv_from, &recv,
      MakeTag(id_, operation.sequence, 0), deadline);
  // What was copied, even by a send/recv that failed half way.
  staging.CountOut(send.copied_out());
  staging.CountIn(recv.copied_in());
  return status;
}

void HostCommunicator::CountTraffic(LocalRank& local) {
  const TransportCounters all = local.transport->counters();
  TransportCounters remote;
  if (local.routed != nullptr) remote = local.routed->remote_counters();
  TransferCounters& counters = client_->counters(local.device);
  // Between chips of this process (ICI): what this rank put on its links.
  const int64_t ici_sent = all.bytes_sent - remote.bytes_sent;
  if (ici_sent > local.counted.bytes_sent) {
    counters.device_to_device.Add(ici_sent - local.counted.bytes_sent);
  }
  // To and from other processes (DCN), per message.
  const TransportCounters& last = local.counted_remote;
  if (remote.messages_sent > last.messages_sent) {
    counters.dcn_sent.Add(remote.bytes_sent - last.bytes_sent,
                          remote.messages_sent - last.messages_sent);
  }
  if (remote.messages_received > last.messages_received) {
    counters.dcn_received.Add(
        remote.bytes_received - last.bytes_received,
        remote.messages_received - last.messages_received);
  }
  local.counted.bytes_sent = std::max(local.counted.bytes_sent, ici_sent);
  local.counted_remote = remote;
}

}  // namespace pjrtx::collectives
