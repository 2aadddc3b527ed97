#include "plugins/cuda/collectives/nccl_communicator.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <variant>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugins/cuda/streams/issue_scope.h"
#include "plugins/cuda/streams/issued_events.h"
#include "runtime/collectives/collective_request.h"
#include "runtime/collectives/device_ids.h"
#include "runtime/collectives/operation_header.h"
#include "runtime/collectives/reduction.h"
#include "runtime/core/base/buffer.h"
#include "runtime/core/base/element_type.h"
#include "runtime/core/base/key_value_gather.h"
#include "support/status_macros.h"

namespace cuda_plugin {

// Everything a rank's part reads; immutable once enqueued except where
// marked.
struct NcclCommunicator::Operation {
  PJRTX_CollectiveKind kind = PJRTX_Collective_ALL_REDUCE;
  // Reductions run in `type`; everything else moves bytes (ncclInt8), so
  // that every element type can be gathered, broadcast and exchanged.
  ncclDataType_t type = ncclInt8;
  ncclRedOp_t op = ncclSum;
  int root = 0;
  size_t input_count = 0;  // Elements of each input.
  // Values of `type` a reduction combines per input: a complex buffer's
  // parts, twice its elements.
  size_t reduce_count = 0;
  size_t input_bytes = 0;
  size_t output_bytes = 0;
  // The outputs' element type and shape.
  PJRTX_Buffer_Type buffer_type = PJRTX_Buffer_Type_F32;
  std::vector<int64_t> output_dims;
  std::chrono::milliseconds timeout{0};
  // Wait events, inputs' definitions and, for donated inputs, their
  // readers: ordered before the NCCL calls, joined into every result.
  std::vector<pjrtx::EventRef> dependencies;
  // Adds `event` to the dependencies, unless it is ready and OK already.
  void Depend(const pjrtx::EventRef& event) {
    if (event->IsReady() && event->status().ok()) return;
    dependencies.push_back(event);
  }
  struct Part {
    std::shared_ptr<pjrtx::DeviceAllocation> input;
    std::shared_ptr<pjrtx::DeviceAllocation> output;  // Null: receives none.
    int send_to = -1;                                 // SEND_RECV.
    int recv_from = -1;                               // SEND_RECV.
    pjrtx::EventRef done;
    // Set when the communicator was aborted while the part was in flight:
    // its kernels were stopped. Guarded by the communicator's mu_.
    absl::Status aborted;
  };
  std::vector<Part> parts;  // Per local rank.
  // Where the local ranks meet before any of them issues (Meet).
  std::mutex meet_mu;
  std::condition_variable met;
  size_t arrived = 0;        // Guarded by meet_mu.
  bool all_arrived = false;  // Guarded by meet_mu.
  absl::Status broken;       // Guarded by meet_mu.
  // Guarded by the communicator's mu_: local parts issued so far, and the
  // deadline, set once all are.
  size_t issued = 0;
  std::chrono::steady_clock::time_point deadline =
      std::chrono::steady_clock::time_point::max();
};

namespace {

// How often the watchdog looks at the ranks while parts are in flight.
constexpr auto kPollInterval = std::chrono::milliseconds(10);

// NCCL reads and writes device memory only.
absl::Status CheckDeviceMemory(const pjrtx::ClientState& client, size_t index,
                               const pjrtx::Buffer& input) {
  if (input.memory() == client.default_memory(input.device())) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "inputs[", index, "] is in memory ", input.memory(),
      ", not its device's memory; NCCL reads and writes device memory "
      "only (copy it to the device first)"));
}

// A send/recv between local ranks that do not name each other, said by
// the ranks.
absl::Status UnmatchedByRank(
    const pjrtx::collectives::UnmatchedMessage& message) {
  return absl::InvalidArgumentError(absl::StrCat(
      "rank ", message.rank,
      message.sends ? " sends to rank " : " receives from rank ",
      message.peer_rank,
      message.sends ? ", which receives from " : ", which sends to ",
      message.peer_names, "; expected ", message.rank,
      message.sends ? " so that every message has a receiver"
                    : " so that every receive has a sender"));
}

void* Pointer(const std::shared_ptr<pjrtx::DeviceAllocation>& allocation) {
  return allocation == nullptr
             ? nullptr
             : reinterpret_cast<void*>(allocation->address().value);
}

// The major compute capability a device lists ("9.0" -> 9), or 0.
int ComputeMajor(const pjrtx::DeviceSpec& spec) {
  for (const pjrtx::Attribute& attribute : spec.attributes) {
    if (attribute.name != "compute_capability") continue;
    if (const auto* text = std::get_if<std::string>(&attribute.value)) {
      int major = 0;
      if (absl::SimpleAtoi(text->substr(0, text->find('.')), &major)) {
        return major;
      }
    }
  }
  return 0;
}

// Every process of the ranks says it has reached the creation of its NCCL
// ranks and waits (up to `timeout_ms` in all) for the others: NCCL's own
// joining would wait forever for a process that never comes.
absl::Status AwaitProcesses(pjrtx::KeyValueStore& store, const std::string& key,
                            const std::set<int>& processes, int mine,
                            int64_t timeout_ms) {
  const std::vector<int> all(processes.begin(), processes.end());
  PJRTX_ASSIGN_OR_RETURN(
      pjrtx::GatheredValues arrived,
      pjrtx::PublishAndGather(store, absl::StrCat(key, "/arrived/"), mine, "1",
                              all, timeout_ms));
  if (arrived.missing.empty()) return absl::OkStatus();
  return absl::DeadlineExceededError(absl::StrCat(
      "process(es) ", absl::StrJoin(arrived.missing, ", "),
      " did not create the communicator within ", timeout_ms,
      " ms; every process owning one of its devices must create it, in the "
      "same order as its other communicators"));
}

// How often ranks created without blocking are polled while NCCL works.
constexpr auto kProgressPoll = std::chrono::milliseconds(1);

// The same status with `prefix` before its message.
absl::Status Prefixed(const absl::Status& status, absl::string_view prefix) {
  return absl::Status(status.code(), absl::StrCat(prefix, status.message()));
}

}  // namespace

absl::StatusOr<std::unique_ptr<pjrtx::Communicator>> NcclCommunicator::Create(
    const NcclLibrary& nccl, GpuDriver& driver,
    std::shared_ptr<pjrtx::ClientState> client,
    absl::Span<const int64_t> device_ids, int64_t timeout_ms) {
  PJRTX_ASSIGN_OR_RETURN(
      std::vector<int> devices,
      pjrtx::collectives::ResolveDeviceIds(*client, device_ids));
  const int64_t size = static_cast<int64_t>(devices.size());
  const bool rank0_here = client->device(devices[0]).addressable;
  bool spans_processes = false;
  bool fp8 = nccl.version >= kNcclFp8Version;
  for (int64_t r = 0; r < size; ++r) {
    const pjrtx::DeviceSpec& spec = client->device(devices[r]);
    fp8 = fp8 && ComputeMajor(spec) >= 9;
    spans_processes = spans_processes || !spec.addressable;
  }
  pjrtx::KeyValueStore* store = client->key_value_store().get();
  if (spans_processes && store == nullptr) {
    return absl::FailedPreconditionError(
        "device_ids includes GPUs of other processes, whose NCCL ranks meet "
        "through the key-value store, but the client was created without "
        "key-value callbacks; pass them to PJRTX_Client_Create");
  }
  // Taken in every process alike, before anything can fail, so that the
  // processes' creations keep pairing up.
  const std::string key =
      spans_processes
          ? absl::StrCat(pjrtx::collectives::CommunicatorKey(device_ids),
                         "/nccl")
          : std::string();
  const std::string id_key = absl::StrCat(key, "/unique_id");
  std::unique_ptr<NcclCommunicator> communicator(
      new NcclCommunicator(nccl, driver, client, size, timeout_ms));
  for (int64_t r = 0; r < size; ++r) {
    if (!client->device(devices[r]).addressable) continue;
    communicator->local_ranks_.push_back(r);
    communicator->ranks_.push_back(Rank{r, devices[r], nullptr, {}});
  }
  communicator->fp8_reductions_ = fp8;

  const NcclApi& api = *nccl.api;
  ncclUniqueId id;
  if (rank0_here) {
    PJRTX_RETURN_IF_ERROR(
        NcclStatus(api, api.ncclGetUniqueId(&id), "ncclGetUniqueId"));
  }
  if (spans_processes) {
    // The process of rank 0 makes the id; the others read it (XLA's way).
    if (rank0_here) {
      PJRTX_RETURN_IF_ERROR(
          store->Put(id_key, absl::BytesToHexString(absl::string_view(
                                 id.internal, sizeof(id.internal)))));
    } else {
      absl::StatusOr<std::string> text = store->Get(id_key, timeout_ms);
      if (!text.ok()) {
        return absl::Status(
            text.status().code(),
            absl::StrCat("waiting for the NCCL unique id from the process of "
                         "rank 0 (device ",
                         device_ids[0], "): ", text.status().message()));
      }
      const std::string bytes = absl::HexStringToBytes(*text);
      if (bytes.size() != sizeof(id.internal)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the NCCL unique id under '", id_key, "' has ", bytes.size(),
            " bytes; expected ", sizeof(id.internal)));
      }
      std::memcpy(id.internal, bytes.data(), bytes.size());
    }
  }
  if (spans_processes) {
    std::set<int> processes;
    int mine = 0;
    for (int device : devices) {
      const pjrtx::DeviceSpec& spec = client->device(device);
      processes.insert(spec.process_index);
      if (spec.addressable) mine = spec.process_index;
    }
    PJRTX_RETURN_IF_ERROR(
        AwaitProcesses(*store, key, processes, mine, timeout_ms));
  }
  // One thread creates this process's ranks; NCCL allows that only inside
  // a group (each ncclCommInitRank on its own waits for the other ranks to
  // join). Where NCCL can, the ranks join without blocking and are polled
  // until joined: a peer that never joins (its process died after
  // arriving) ends in DEADLINE_EXCEEDED, not in a thread stuck in NCCL.
  const bool nonblocking = api.ncclCommInitRankConfig != nullptr;
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  auto joined = [&](ncclResult_t result) {
    return result == ncclSuccess || (nonblocking && result == ncclInProgress);
  };
  const char* const init_call =
      nonblocking ? "ncclCommInitRankConfig" : "ncclCommInitRank";
  absl::Status status = NcclStatus(api, api.ncclGroupStart(), "ncclGroupStart");
  if (status.ok()) {
    for (Rank& rank : communicator->ranks_) {
      // NCCL binds a rank to the current device.
      status = driver.gpu(rank.device).MakeCurrent();
      if (!status.ok()) break;
      const ncclResult_t result =
          nonblocking ? api.ncclCommInitRankConfig(
                            &rank.comm, static_cast<int>(size), id,
                            static_cast<int>(rank.rank), &config)
                      : api.ncclCommInitRank(&rank.comm, static_cast<int>(size),
                                             id, static_cast<int>(rank.rank));
      if (!joined(result)) {
        status = NcclStatus(api, result, init_call);
        break;
      }
    }
    // Ended even after a failure, so that the thread leaves the group;
    // the ranks are initialized here, so their errors surface here.
    const ncclResult_t ended = api.ncclGroupEnd();
    if (status.ok() && !joined(ended)) {
      status = NcclStatus(api, ended, "ncclGroupEnd after ncclCommInitRank");
    }
  }
  if (status.ok() && nonblocking) {
    status = AwaitJoined(api, communicator->ranks_, timeout_ms);
  }
  if (!status.ok()) {
    communicator->Abort(status);
    return Prefixed(status, absl::StrCat("creating the NCCL ranks of a ", size,
                                         "-rank communicator: "));
  }
  return std::unique_ptr<pjrtx::Communicator>(std::move(communicator));
}

absl::Status NcclCommunicator::AwaitJoined(const NcclApi& api,
                                           const std::vector<Rank>& ranks,
                                           int64_t timeout_ms) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (const Rank& rank : ranks) {
    for (;;) {
      ncclResult_t state = ncclInProgress;
      const ncclResult_t queried = api.ncclCommGetAsyncError(rank.comm, &state);
      if (queried != ncclSuccess) {
        return NcclStatus(api, queried, "ncclCommGetAsyncError", rank.comm);
      }
      if (state == ncclSuccess) break;
      if (state != ncclInProgress) {
        return NcclStatus(api, state, "ncclCommInitRankConfig", rank.comm);
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        return absl::DeadlineExceededError(absl::StrCat(
            "rank ", rank.rank, " did not finish joining its peers within ",
            timeout_ms,
            " ms; a process of the communicator may have died after "
            "creating it"));
      }
      std::this_thread::sleep_for(kProgressPoll);
    }
  }
  return absl::OkStatus();
}

NcclCommunicator::NcclCommunicator(const NcclLibrary& nccl, GpuDriver& driver,
                                   std::shared_ptr<pjrtx::ClientState> client,
                                   int64_t size, int64_t timeout_ms)
    : nccl_(*nccl.api),
      driver_(driver),
      client_(std::move(client)),
      size_(size),
      timeout_ms_(timeout_ms),
      watchdog_([this] { Watch(); }) {}

NcclCommunicator::~NcclCommunicator() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [this] { return pending_parts_ == 0; });
    stopping_ = true;
  }
  changed_.notify_all();
  watchdog_.join();
  std::unique_lock<std::shared_mutex> comms(comms_mu_);
  if (!aborted_.ok()) return;  // Aborting freed the ranks.
  // One thread per rank, as for the collectives: destroying may
  // synchronize the ranks of a clique, which one thread holding several
  // could not do.
  std::vector<std::thread> threads;
  for (Rank& rank : ranks_) {
    if (rank.comm == nullptr) continue;  // Creation failed before it.
    threads.emplace_back([this, &rank] {
      if (driver_.gpu(rank.device).MakeCurrent().ok()) {
        nccl_.ncclCommDestroy(rank.comm);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

absl::StatusOr<std::vector<pjrtx::CollectiveResult>>
NcclCommunicator::Collective(const pjrtx::CollectiveRequest& request) {
  {
    std::shared_lock<std::shared_mutex> comms(comms_mu_);
    if (!aborted_.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat(aborted_.message(),
                       "; destroy the communicator and create a new one"));
    }
  }
  PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<Operation> operation,
                         PlanOperation(request));
  // Everything is checked; acquire memory, then issue.
  PJRTX_ASSIGN_OR_RETURN(std::vector<pjrtx::CollectiveResult> results,
                         AcquireParts(request, *operation));
  Issue(operation);
  return results;
}

absl::StatusOr<std::shared_ptr<NcclCommunicator::Operation>>
NcclCommunicator::PlanOperation(const pjrtx::CollectiveRequest& request) {
  auto operation = std::make_shared<Operation>();
  Operation& op = *operation;
  std::vector<int> devices;
  for (const Rank& rank : ranks_) devices.push_back(rank.device);
  pjrtx::collectives::CollectiveRequestChecks checks;
  checks.client = client_.get();
  checks.size = size_;
  checks.local_ranks = local_ranks_;
  checks.local_devices = devices;
  checks.check_input = [this](size_t index, const pjrtx::Buffer& input) {
    return CheckDeviceMemory(*client_, index, input);
  };
  checks.reduction = [&](PJRTX_Buffer_Type type, PJRTX_ReduceOp reduce_op) {
    return NcclReduction(request.kind, type, reduce_op, op);
  };
  checks.unmatched = UnmatchedByRank;
  // The algorithm is NCCL's choice (NCCL_ALGO is process-wide), so the
  // requested one is accepted and not followed.
  PJRTX_ASSIGN_OR_RETURN(
      pjrtx::collectives::CheckedCollective checked,
      pjrtx::collectives::CheckCollectiveRequest(request, checks));
  op.kind = request.kind;
  op.root = static_cast<int>(request.root);
  op.timeout = std::chrono::milliseconds(
      request.timeout_ms > 0 ? request.timeout_ms : timeout_ms_);
  op.buffer_type = checked.type;
  op.output_dims = std::move(checked.output_dims);
  op.input_count = checked.input_count;
  op.reduce_count = checked.reduce_count;
  op.input_bytes = checked.input_bytes;
  op.output_bytes = checked.output_bytes;
  return operation;
}

absl::StatusOr<pjrtx::collectives::ReductionLayout>
NcclCommunicator::NcclReduction(PJRTX_CollectiveKind kind,
                                PJRTX_Buffer_Type type,
                                PJRTX_ReduceOp reduce_op, Operation& op) const {
  const std::string where =
      absl::StrCat(pjrtx::collectives::CollectiveKindName(kind), ": ");
  PJRTX_ASSIGN_OR_RETURN(op.op, NcclReduceOp(reduce_op));
  pjrtx::collectives::ReductionLayout layout{type, 1, 0};
  // Complex buffers sum as the pairs of floats they are.
  if (type == PJRTX_Buffer_Type_C64 || type == PJRTX_Buffer_Type_C128) {
    absl::StatusOr<pjrtx::collectives::ReductionLayout> parts =
        pjrtx::collectives::ReductionLayoutOf(
            type, pjrtx::collectives::ReduceOpOf(reduce_op));
    if (!parts.ok()) return Prefixed(parts.status(), where);
    layout.type = parts->type;
    layout.values_per_element = parts->values_per_element;
  }
  absl::StatusOr<ncclDataType_t> reduced =
      NcclReductionType(layout.type, fp8_reductions_);
  if (!reduced.ok()) return Prefixed(reduced.status(), where);
  op.type = *reduced;
  PJRTX_ASSIGN_OR_RETURN(layout.element_size,
                         pjrtx::SupportedElementSize(type));
  return layout;
}

absl::StatusOr<std::vector<pjrtx::CollectiveResult>>
NcclCommunicator::AcquireParts(const pjrtx::CollectiveRequest& request,
                               Operation& op) {
  const size_t num_local = ranks_.size();
  for (const pjrtx::EventRef& event : request.wait_for) op.Depend(event);
  op.parts.resize(num_local);
  for (size_t i = 0; i < num_local; ++i) {
    const pjrtx::Buffer& input = *request.inputs[i];
    Operation::Part& part = op.parts[i];
    PJRTX_ASSIGN_OR_RETURN(part.input, input.AcquireForUse("Collective"));
    op.Depend(input.definition_event());
    if (request.kind == PJRTX_Collective_SEND_RECV) {
      part.send_to = static_cast<int>(request.send_to[i]);
      part.recv_from = static_cast<int>(request.recv_from[i]);
    }
  }
  // NCCL works in place where the output has the input's size.
  const bool in_place = request.kind == PJRTX_Collective_ALL_REDUCE ||
                        request.kind == PJRTX_Collective_BROADCAST;
  auto donated = [&request](size_t i) {
    return i < request.donate.size() && request.donate[i];
  };
  // Memory first, so that a failure leaves the inputs as they were.
  for (size_t i = 0; i < num_local; ++i) {
    Operation::Part& part = op.parts[i];
    if (request.kind == PJRTX_Collective_SEND_RECV && part.recv_from < 0) {
      continue;
    }
    if (donated(i) && in_place) {
      part.output = part.input;
    } else {
      PJRTX_ASSIGN_OR_RETURN(
          part.output,
          client_->memory(client_->default_memory(ranks_[i].device))
              .Allocate(op.output_bytes));
    }
  }
  std::vector<pjrtx::CollectiveResult> results(num_local);
  for (size_t i = 0; i < num_local; ++i) {
    pjrtx::Buffer& input = *request.inputs[i];
    Operation::Part& part = op.parts[i];
    const int device = ranks_[i].device;
    part.done = pjrtx::Event::Create();
    results[i].done = part.done;
    if (part.output != nullptr) {
      results[i].output = pjrtx::Buffer::FromAllocation(
          client_, device, client_->default_memory(device), op.buffer_type,
          op.output_dims, part.output, part.done);
    }
    if (donated(i)) {
      // Writers to donated memory wait for every earlier reader.
      for (const pjrtx::EventRef& reader : input.TakeUsageEvents()) {
        op.Depend(reader);
      }
      input.Delete();
    } else {
      input.AddUsage(part.done);
    }
  }
  return results;
}

void NcclCommunicator::Issue(const std::shared_ptr<Operation>& operation) {
  const size_t num_local = ranks_.size();
  {
    std::lock_guard<std::mutex> lock(mu_);
    pending_parts_ += static_cast<int64_t>(num_local);
  }
  // Results are tasks of their queues (issued once the part's task is):
  // later work orders itself after them on the GPU.
  for (size_t i = 0; i < num_local; ++i) {
    driver_.issued_events().Register(operation->parts[i].done.get(),
                                     GpuDriver::QueueLane(ranks_[i].device));
  }
  // One order of operations on every queue, whichever threads issue them
  // and whichever communicators they belong to.
  static std::mutex* const issue_mu = new std::mutex;
  std::lock_guard<std::mutex> lock(*issue_mu);
  for (size_t i = 0; i < num_local; ++i) {
    client_->queue(ranks_[i].device)
        .Enqueue({}, [this, operation, i]() -> absl::Status {
          IssuePart(operation, i);
          // The part's errors go to its result, not to the task: a queue
          // finishes its tasks in order, a failed one failing those after.
          return absl::OkStatus();
        });
  }
}

void NcclCommunicator::IssuePart(const std::shared_ptr<Operation>& operation,
                                 size_t index) {
  const Operation& op = *operation;
  const Rank& rank = ranks_[index];
  absl::Status status;
  CUstream stream = nullptr;
  IssueScope* scope = IssueScope::Current();
  if (scope == nullptr) {
    status = absl::InternalError("NCCL part issued outside a device queue");
  } else {
    absl::StatusOr<CUstream> compute = scope->Use(StreamKind::kCompute);
    if (compute.ok()) {
      stream = *compute;
    } else {
      status = compute.status();
    }
  }
  // Every dependency is ordered before the NCCL calls, none skipped: the
  // outcomes are joined into the result later (Finish).
  for (const pjrtx::EventRef& dependency : operation->dependencies) {
    if (!status.ok()) break;
    absl::StatusOr<IssuedEvents::Order> order =
        driver_.issued_events().OrderAfter(
            dependency, GpuDriver::QueueLane(rank.device), stream);
    if (!order.ok()) {
      status = order.status();
    } else if (*order == IssuedEvents::Order::kHostWait) {
      dependency->Await().IgnoreError();
    }
  }
  const std::string where =
      absl::StrCat(pjrtx::collectives::CollectiveKindName(op.kind), " on rank ",
                   rank.rank, ": ");
  status = Meet(*operation, index, std::move(status));
  if (!status.ok()) {
    // No rank issued anything: the communicator is as it was.
    Finish(operation, index, Prefixed(status, where));
    return;
  }
  status = CallNccl(operation, index, stream);
  if (!status.ok()) {
    // Nothing of this rank reached the GPU; peers that did wait for it.
    AbortThenFinish(operation, index, Prefixed(status, where));
    return;
  }
  // Taken first: once the completion is added, the communicator may
  // finish and be destroyed before this returns.
  IssuedEvents& issued = driver_.issued_events();
  const pjrtx::Event* const done = op.parts[index].done.get();
  CUevent end = nullptr;
  const absl::Status recorded = scope->OnCompletion(
      stream,
      [this, operation, index](absl::Status device) {
        Completed(operation, index, std::move(device));
      },
      &end);
  // On a failure to record, the callback already ran with the error.
  if (recorded.ok()) issued.MarkIssued(done, end);
}

absl::Status NcclCommunicator::Meet(Operation& operation, size_t index,
                                    absl::Status status) {
  std::unique_lock<std::mutex> lock(operation.meet_mu);
  if (!operation.broken.ok()) return operation.broken;
  if (!status.ok()) {
    // Its peers must not issue either.
    operation.broken =
        absl::Status(status.code(),
                     absl::StrCat("rank ", ranks_[index].rank,
                                  " could not take part: ", status.message()));
    operation.met.notify_all();
    return status;
  }
  if (++operation.arrived == operation.parts.size()) {
    operation.all_arrived = true;
    operation.met.notify_all();
    return absl::OkStatus();
  }
  operation.met.wait_for(lock, operation.timeout, [&operation] {
    return operation.all_arrived || !operation.broken.ok();
  });
  if (operation.all_arrived) return absl::OkStatus();
  if (operation.broken.ok()) {
    operation.broken = absl::DeadlineExceededError(absl::StrCat(
        "the other local ranks' queues did not reach the operation within ",
        operation.timeout.count(), " ms (", operation.arrived, " of ",
        operation.parts.size(), " did); nothing was issued"));
    operation.met.notify_all();
  }
  return operation.broken;
}

absl::Status NcclCommunicator::CallNccl(
    const std::shared_ptr<Operation>& operation, size_t index,
    CUstream stream) {
  const Operation& op = *operation;
  std::shared_lock<std::shared_mutex> comms(comms_mu_);
  if (!aborted_.ok()) return aborted_;
  const Operation::Part& part = op.parts[index];
  const ncclComm_t comm = ranks_[index].comm;
  const auto* in = static_cast<const uint8_t*>(Pointer(part.input));
  auto* out = static_cast<uint8_t*>(Pointer(part.output));
  const size_t bytes = op.input_bytes;
  ncclResult_t result = ncclSuccess;
  const char* failed_call = nullptr;
  // Ranks created without blocking may answer ncclInProgress while NCCL
  // still enqueues; the rank is polled below until it has.
  bool enqueuing = false;
  auto call = [&](const char* name, ncclResult_t returned) {
    if (returned == ncclInProgress) {
      enqueuing = true;
      return;
    }
    if (result == ncclSuccess && returned != ncclSuccess) {
      result = returned;
      failed_call = name;
    }
  };
  // Zero bytes move nothing: every rank skips alike, as they agree on the
  // shapes.
  if (bytes > 0) {
    call("ncclGroupStart", nccl_.ncclGroupStart());
    switch (op.kind) {
      case PJRTX_Collective_ALL_REDUCE:
        call("ncclAllReduce",
             nccl_.ncclAllReduce(in, out, op.reduce_count, op.type, op.op, comm,
                                 stream));
        break;
      case PJRTX_Collective_REDUCE_SCATTER:
        call("ncclReduceScatter",
             nccl_.ncclReduceScatter(in, out, op.reduce_count / size_, op.type,
                                     op.op, comm, stream));
        break;
      case PJRTX_Collective_ALL_GATHER:
        call("ncclAllGather",
             nccl_.ncclAllGather(in, out, bytes, ncclInt8, comm, stream));
        break;
      case PJRTX_Collective_BROADCAST:
        call("ncclBroadcast", nccl_.ncclBroadcast(in, out, bytes, ncclInt8,
                                                  op.root, comm, stream));
        break;
      case PJRTX_Collective_ALL_TO_ALL: {
        const size_t block = bytes / size_;
        for (int64_t peer = 0; peer < size_; ++peer) {
          call("ncclSend",
               nccl_.ncclSend(in + peer * block, block, ncclInt8,
                              static_cast<int>(peer), comm, stream));
          call("ncclRecv",
               nccl_.ncclRecv(out + peer * block, block, ncclInt8,
                              static_cast<int>(peer), comm, stream));
        }
        break;
      }
      case PJRTX_Collective_SEND_RECV:
        if (part.send_to >= 0) {
          call("ncclSend",
               nccl_.ncclSend(in, bytes, ncclInt8, part.send_to, comm, stream));
        }
        if (part.recv_from >= 0) {
          call("ncclRecv", nccl_.ncclRecv(out, bytes, ncclInt8, part.recv_from,
                                          comm, stream));
        }
        break;
    }
    // Ended even after a failed call, so that the thread leaves the group.
    call("ncclGroupEnd", nccl_.ncclGroupEnd());
  }
  if (result == ncclSuccess && enqueuing) {
    const auto deadline = std::chrono::steady_clock::now() + op.timeout;
    ncclResult_t state = ncclInProgress;
    while (state == ncclInProgress &&
           std::chrono::steady_clock::now() < deadline) {
      if (nccl_.ncclCommGetAsyncError(comm, &state) != ncclSuccess) break;
      if (state == ncclInProgress) std::this_thread::sleep_for(kProgressPoll);
    }
    if (state != ncclSuccess) {
      if (state == ncclInProgress) {
        return absl::DeadlineExceededError(
            absl::StrCat("NCCL did not finish enqueuing the operation within ",
                         op.timeout.count(), " ms"));
      }
      result = state;
      failed_call = "ncclGroupEnd (an asynchronous error)";
    }
  }
  if (result != ncclSuccess) {
    return NcclStatus(nccl_, result, failed_call, comm);
  }
  // In flight from here; registered before `comms` is released, so that an
  // abort cannot miss it.
  std::lock_guard<std::mutex> lock(mu_);
  in_flight_.push_back(PartRef{operation, index, absl::OkStatus()});
  if (++operation->issued == operation->parts.size()) {
    // Timed from when every rank has issued: until then a rank may wait
    // for its queue's earlier work, which is not the collective hanging.
    operation->deadline = std::chrono::steady_clock::now() + op.timeout;
  }
  changed_.notify_all();
  return absl::OkStatus();
}

void NcclCommunicator::Completed(const std::shared_ptr<Operation>& operation,
                                 size_t index, absl::Status device) {
  absl::Status own = std::move(device);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = std::find_if(
        in_flight_.begin(), in_flight_.end(), [&](const PartRef& entry) {
          return entry.operation == operation && entry.index == index;
        });
    if (it != in_flight_.end()) in_flight_.erase(it);
    if (own.ok()) own = operation->parts[index].aborted;
  }
  if (own.ok()) {
    // An asynchronous error is the operation's that met it.
    std::shared_lock<std::shared_mutex> comms(comms_mu_);
    if (!aborted_.ok()) {
      own = ranks_[index].async_error;
    } else {
      ncclResult_t async = ncclSuccess;
      const ncclComm_t comm = ranks_[index].comm;
      own = NcclStatus(nccl_, nccl_.ncclCommGetAsyncError(comm, &async),
                       "ncclCommGetAsyncError", comm);
      if (own.ok() && async != ncclSuccess && async != ncclInProgress) {
        own = NcclStatus(nccl_, async,
                         "ncclCommGetAsyncError (an asynchronous error)", comm);
      }
    }
  }
  if (!own.ok()) {
    AbortThenFinish(
        operation, index,
        Prefixed(own, absl::StrCat(pjrtx::collectives::CollectiveKindName(
                                       operation->kind),
                                   " on rank ", ranks_[index].rank, ": ")));
    return;
  }
  CountTraffic(*operation, index);
  Finish(operation, index, absl::OkStatus());
}

void NcclCommunicator::Finish(const std::shared_ptr<Operation>& operation,
                              size_t index, absl::Status own) {
  const pjrtx::EventRef& done = operation->parts[index].done;
  driver_.issued_events().Remove(done.get());
  std::vector<pjrtx::EventRef> outcome = operation->dependencies;
  outcome.push_back(pjrtx::Event::MakeReady(std::move(own)));
  pjrtx::AfterAll(outcome)->AndThen([this, done](const absl::Status& status) {
    done->Set(status);
    // Notified under the lock: the destructor may run as soon as it is
    // released.
    std::lock_guard<std::mutex> lock(mu_);
    --pending_parts_;
    changed_.notify_all();
  });
}

void NcclCommunicator::CountTraffic(const Operation& operation, size_t index) {
  // What a ring moves from each rank (nccl-tests' bus bytes), so that the
  // counters compare with the host communicator's; NCCL may choose trees
  // or NVLink SHARP and move less.
  const int64_t p = size_;
  const int64_t m = static_cast<int64_t>(operation.input_bytes);
  const int64_t rank = ranks_[index].rank;
  int64_t bytes = 0;
  switch (operation.kind) {
    case PJRTX_Collective_ALL_REDUCE:
      bytes = 2 * (p - 1) * m / p;
      break;
    case PJRTX_Collective_REDUCE_SCATTER:
    case PJRTX_Collective_ALL_TO_ALL:
      bytes = (p - 1) * m / p;
      break;
    case PJRTX_Collective_ALL_GATHER:
      bytes = (p - 1) * m;
      break;
    case PJRTX_Collective_BROADCAST:
      // Every rank but the root's predecessor forwards the data.
      bytes = p > 1 && (rank + 1) % p != operation.root ? m : 0;
      break;
    case PJRTX_Collective_SEND_RECV: {
      const int send_to = operation.parts[index].send_to;
      bytes = send_to >= 0 && send_to != rank ? m : 0;
      break;
    }
  }
  if (bytes > 0) {
    client_->counters(ranks_[index].device).device_to_device.Add(bytes);
  }
}

void NcclCommunicator::AbortThenFinish(
    const std::shared_ptr<Operation>& operation, size_t index,
    absl::Status status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    failed_.push_back(PartRef{operation, index, std::move(status)});
  }
  changed_.notify_all();
}

void NcclCommunicator::Abort(const absl::Status& status) {
  std::unique_lock<std::shared_mutex> comms(comms_mu_);
  if (!aborted_.ok()) return;
  aborted_ = Prefixed(status, "the NCCL communicator was aborted: ");
  // The parts in flight are marked before their kernels are stopped, so
  // that none completes looking successful.
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const PartRef& entry : in_flight_) {
      absl::Status& aborted = entry.operation->parts[entry.index].aborted;
      if (aborted.ok()) aborted = aborted_;
    }
  }
  for (Rank& rank : ranks_) {
    if (rank.comm == nullptr) continue;
    // Kept for parts that completed just before the abort but had not yet
    // looked (Completed): the error is theirs too.
    ncclResult_t async = ncclSuccess;
    if (nccl_.ncclCommGetAsyncError(rank.comm, &async) == ncclSuccess &&
        async != ncclSuccess && async != ncclInProgress) {
      rank.async_error = NcclStatus(
          nccl_, async, "ncclCommGetAsyncError (an asynchronous error)",
          rank.comm);
    }
    driver_.gpu(rank.device).MakeCurrent().IgnoreError();
    // The rank is gone whatever this returns.
    nccl_.ncclCommAbort(rank.comm);
    rank.comm = nullptr;
  }
}

absl::Status NcclCommunicator::PollAsyncErrors() {
  std::shared_lock<std::shared_mutex> comms(comms_mu_);
  if (!aborted_.ok()) return absl::OkStatus();
  for (const Rank& rank : ranks_) {
    ncclResult_t async = ncclSuccess;
    absl::Status status =
        NcclStatus(nccl_, nccl_.ncclCommGetAsyncError(rank.comm, &async),
                   "ncclCommGetAsyncError", rank.comm);
    if (status.ok() && async != ncclSuccess && async != ncclInProgress) {
      status = NcclStatus(nccl_, async,
                          "ncclCommGetAsyncError (an asynchronous error)",
                          rank.comm);
    }
    if (!status.ok()) {
      return Prefixed(status, absl::StrCat("rank ", rank.rank, ": "));
    }
  }
  return absl::OkStatus();
}

void NcclCommunicator::Watch() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    changed_.wait(lock, [this] {
      return stopping_ || !in_flight_.empty() || !failed_.empty();
    });
    if (stopping_) return;
    std::vector<PartRef> failed = std::move(failed_);
    failed_.clear();
    absl::Status reason;
    if (!failed.empty()) reason = failed.front().status;
    if (reason.ok()) {
      const auto now = std::chrono::steady_clock::now();
      for (const PartRef& entry : in_flight_) {
        const Operation& op = *entry.operation;
        if (now < op.deadline || !op.parts[entry.index].aborted.ok()) {
          continue;
        }
        reason = absl::DeadlineExceededError(
            absl::StrCat(pjrtx::collectives::CollectiveKindName(op.kind),
                         " did not complete within ", op.timeout.count(),
                         " ms of every rank issuing it (rank ",
                         ranks_[entry.index].rank, " still waiting)"));
        break;
      }
    }
    if (reason.ok() && !in_flight_.empty()) {
      lock.unlock();
      reason = PollAsyncErrors();
      lock.lock();
    }
    if (!reason.ok()) {
      lock.unlock();
      Abort(reason);
      for (PartRef& part : failed) {
        Finish(part.operation, part.index, std::move(part.status));
      }
      lock.lock();
      continue;
    }
    changed_.wait_for(lock, kPollInterval);
  }
}

}  // namespace cuda_plugin
