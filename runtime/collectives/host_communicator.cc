#include "runtime/collectives/host_communicator.h"

#include <chrono>
#include <cstring>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/collectives/algorithm.h"
#include "runtime/collectives/all_to_all.h"
#include "runtime/collectives/broadcast.h"
#include "runtime/collectives/halving_doubling.h"
#include "runtime/collectives/hierarchical.h"
#include "runtime/collectives/in_process_transport.h"
#include "runtime/collectives/operation_header.h"
#include "runtime/collectives/reduction.h"
#include "runtime/collectives/ring.h"
#include "runtime/core/base/element_type.h"
#include "runtime/core/base/status_macros.h"

namespace pjrtx::collectives {

// Everything a rank's part reads; shared by the parts and immutable once
// issued, except `dependencies`, written before the parts are released.
struct HostCommunicator::Operation {
  PJRTX_CollectiveKind kind = PJRTX_Collective_ALL_REDUCE;
  ReduceOp op = ReduceOp::kSum;
  Algorithm algorithm = Algorithm::kRing;  // ALL_REDUCE only.
  int root = 0;
  uint32_t sequence = 0;
  std::chrono::milliseconds timeout{0};
  PJRTX_Buffer_Type type = PJRTX_Buffer_Type_F32;
  size_t input_count = 0;  // Elements of each input.
  size_t input_bytes = 0;
  size_t output_bytes = 0;
  absl::Status dependencies;  // The joined dependencies' status.
  struct Part {
    std::shared_ptr<DeviceAllocation> input;
    std::shared_ptr<DeviceAllocation> output;  // Null: nothing received.
    int send_to = -1;                          // SEND_RECV.
    int recv_from = -1;                        // SEND_RECV.
    EventRef done;
  };
  std::vector<Part> parts;  // Per local rank.
};

namespace {

std::atomic<uint32_t> g_next_communicator_id{0};

std::string Shape(PJRTX_Buffer_Type type, const std::vector<int64_t>& dims) {
  return absl::StrCat(ElementTypeName(type), "[", absl::StrJoin(dims, ","),
                      "]");
}

ReduceOp ToReduceOp(PJRTX_ReduceOp op) {
  switch (op) {
    case PJRTX_ReduceOp_PRODUCT:
      return ReduceOp::kProduct;
    case PJRTX_ReduceOp_MIN:
      return ReduceOp::kMin;
    case PJRTX_ReduceOp_MAX:
      return ReduceOp::kMax;
    default:
      return ReduceOp::kSum;
  }
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

// The output dimensions of `kind` over `size` ranks for inputs of `dims`.
absl::StatusOr<std::vector<int64_t>> OutputDims(
    PJRTX_CollectiveKind kind, const std::vector<int64_t>& dims, int64_t size) {
  const bool splits = kind == PJRTX_Collective_REDUCE_SCATTER ||
                      kind == PJRTX_Collective_ALL_TO_ALL;
  if ((splits || kind == PJRTX_Collective_ALL_GATHER) && dims.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(CollectiveKindName(kind),
                     " works along dimension 0, but the "
                     "inputs are scalars; expected rank >= 1"));
  }
  if (splits && dims[0] % size != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        CollectiveKindName(kind), " splits dimension 0 into ", size,
        " blocks, but it is ", dims[0], "; expected a multiple of ", size));
  }
  std::vector<int64_t> out = dims;
  if (kind == PJRTX_Collective_REDUCE_SCATTER) out[0] = dims[0] / size;
  if (kind == PJRTX_Collective_ALL_GATHER) out[0] = dims[0] * size;
  return out;
}

uint8_t* HostPointer(const std::shared_ptr<DeviceAllocation>& allocation) {
  return reinterpret_cast<uint8_t*>(allocation->address().value);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Communicator>> HostCommunicator::Create(
    std::shared_ptr<ClientState> client, absl::Span<const int64_t> device_ids,
    int64_t timeout_ms) {
  std::map<int64_t, int> index_of_id;
  for (int d = 0; d < client->num_devices(); ++d) {
    index_of_id[client->device(d).global_id] = d;
  }
  std::map<int64_t, size_t> position_of_id;
  std::vector<int> devices;
  for (size_t r = 0; r < device_ids.size(); ++r) {
    const int64_t id = device_ids[r];
    auto found = index_of_id.find(id);
    if (found == index_of_id.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "device_ids[", r, "] is ", id,
          ", which is not a device of this client; expected global device "
          "ids"));
    }
    auto [previous, inserted] = position_of_id.emplace(id, r);
    if (!inserted) {
      return absl::InvalidArgumentError(
          absl::StrCat("device id ", id, " appears twice in device_ids (at ",
                       previous->second, " and ", r,
                       "); each device may be "
                       "one rank only"));
    }
    const DeviceSpec& spec = client->device(found->second);
    if (!spec.addressable) {
      return absl::UnimplementedError(absl::StrCat(
          "device_ids[", r, "] is ", id, ", a device of process ",
          spec.process_index,
          "; communicators with ranks on other processes are not supported "
          "yet"));
    }
    const MemorySpace& memory =
        client->memory(client->default_memory(found->second));
    if (!memory.spec().host_addressable) {
      return absl::UnimplementedError(
          absl::StrCat("device ", id,
                       "'s memory is not host addressable, which this "
                       "communicator needs"));
    }
    devices.push_back(found->second);
  }
  return std::unique_ptr<Communicator>(
      new HostCommunicator(std::move(client), std::move(devices), timeout_ms));
}

HostCommunicator::HostCommunicator(std::shared_ptr<ClientState> client,
                                   std::vector<int> devices, int64_t timeout_ms)
    : client_(std::move(client)),
      devices_(std::move(devices)),
      timeout_ms_(timeout_ms),
      id_(g_next_communicator_id.fetch_add(1)) {
  // Every rank is local (Create checked), so one fabric links them all.
  std::shared_ptr<InProcessFabric> fabric =
      InProcessFabric::Create(static_cast<int>(devices_.size()));
  local_.resize(devices_.size());
  for (size_t r = 0; r < devices_.size(); ++r) {
    local_ranks_.push_back(static_cast<int64_t>(r));
    LocalRank& local = local_[r];
    local.rank = static_cast<int64_t>(r);
    local.device = devices_[r];
    local.transport = fabric->Endpoint(static_cast<int>(r));
    local.inter_slice = InProcessFabric::Create(1)->Endpoint(0);
    local.worker = std::make_unique<OrderedWorker>();
  }
}

HostCommunicator::~HostCommunicator() {
  // Each worker finishes its queue before it stops. Joining them one by one
  // is safe although ranks wait for each other inside an operation: the
  // workers not yet joined keep running theirs.
  for (LocalRank& local : local_) local.worker.reset();
}

absl::StatusOr<std::vector<CollectiveResult>> HostCommunicator::Collective(
    const CollectiveRequest& request) {
  const size_t num_local = local_.size();
  if (request.inputs.size() != num_local) {
    return absl::InvalidArgumentError(
        absl::StrCat("got ", request.inputs.size(), " inputs; expected ",
                     num_local, ", one per local rank"));
  }
  const Buffer& first = *request.inputs[0];
  for (size_t i = 0; i < num_local; ++i) {
    const Buffer& input = *request.inputs[i];
    if (input.device() != local_[i].device) {
      return absl::InvalidArgumentError(
          absl::StrCat("inputs[", i, "] lives on device ",
                       client_->device(input.device()).global_id,
                       "; local rank ", local_[i].rank, " is device ",
                       client_->device(local_[i].device).global_id));
    }
    if (input.type() != first.type() || input.dims() != first.dims()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "inputs[", i, "] is ", Shape(input.type(), input.dims()),
          " but inputs[0] is ", Shape(first.type(), first.dims()),
          "; every rank of a collective must pass the same type and shape"));
    }
  }
  auto operation = std::make_shared<Operation>();
  Operation& op = *operation;
  op.kind = request.kind;
  op.op = ToReduceOp(request.op);
  op.root = static_cast<int>(request.root);
  op.type = first.type();
  op.timeout = std::chrono::milliseconds(
      request.timeout_ms > 0 ? request.timeout_ms : timeout_ms_);
  const bool reduces = request.kind == PJRTX_Collective_ALL_REDUCE ||
                       request.kind == PJRTX_Collective_REDUCE_SCATTER;
  size_t element_size = 0;
  if (reduces) {
    PJRTX_ASSIGN_OR_RETURN(element_size, ReducibleElementSize(op.type));
  } else {
    PJRTX_ASSIGN_OR_RETURN(element_size, SupportedElementSize(op.type));
  }
  PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> out_dims,
                         OutputDims(request.kind, first.dims(), size()));
  PJRTX_ASSIGN_OR_RETURN(int64_t in_count, ElementCount(first.dims()));
  PJRTX_ASSIGN_OR_RETURN(int64_t out_count, ElementCount(out_dims));
  op.input_count = static_cast<size_t>(in_count);
  op.input_bytes = op.input_count * element_size;
  op.output_bytes = static_cast<size_t>(out_count) * element_size;
  if (request.kind == PJRTX_Collective_ALL_REDUCE) {
    // Every rank is in this process, hence in one slice.
    PJRTX_ASSIGN_OR_RETURN(
        op.algorithm,
        ChooseAlgorithm(ToAlgorithm(request.algorithm), op.input_bytes,
                        static_cast<int>(size()), 1));
  }
  if (request.kind == PJRTX_Collective_SEND_RECV) {
    // Every peer is local, so both sides of each message are known here.
    for (size_t i = 0; i < num_local; ++i) {
      const int64_t to = request.send_to[i];
      if (to >= 0 && request.recv_from[to] != local_[i].rank) {
        return absl::InvalidArgumentError(absl::StrCat(
            "send_to[", i, "] is ", to, " but recv_from[", to, "] is ",
            request.recv_from[to], "; expected ", local_[i].rank,
            " so that every message has a receiver"));
      }
      const int64_t from = request.recv_from[i];
      if (from >= 0 && request.send_to[from] != local_[i].rank) {
        return absl::InvalidArgumentError(absl::StrCat(
            "recv_from[", i, "] is ", from, " but send_to[", from, "] is ",
            request.send_to[from], "; expected ", local_[i].rank,
            " so that every receive has a sender"));
      }
    }
  }

  // Everything is checked; acquire memory, then issue.
  std::vector<EventRef> dependencies = request.wait_for;
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
                               out_dims, part.output, part.done);
  }
  for (size_t i = 0; i < num_local; ++i) {
    Buffer& input = *request.inputs[i];
    if (i < request.donate.size() && request.donate[i]) {
      input.Delete();
    } else {
      input.AddUsage(op.parts[i].done);
    }
  }

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
  return results;
}

absl::Status HostCommunicator::RunPart(const Operation& operation,
                                       size_t index) {
  LocalRank& local = local_[index];
  const Operation::Part& part = operation.parts[index];
  Transport& transport = *local.transport;
  const Deadline deadline =
      std::chrono::steady_clock::now() + operation.timeout;
  const uint8_t* in = HostPointer(part.input);
  uint8_t* out = part.output == nullptr ? nullptr : HostPointer(part.output);
  const size_t in_bytes = operation.input_bytes;
  const int size = static_cast<int>(devices_.size());
  const int rank = static_cast<int>(local.rank);
  auto copy_input_to = [&](uint8_t* dst) {
    if (in_bytes > 0 && dst != in) std::memcpy(dst, in, in_bytes);
  };
  absl::Status status;
  switch (operation.kind) {
    case PJRTX_Collective_ALL_REDUCE:
      copy_input_to(out);
      switch (operation.algorithm) {
        case Algorithm::kHalvingDoubling:
          status = HalvingDoublingAllReduce(
              transport, operation.op, operation.type, out,
              operation.input_count, id_, operation.sequence, deadline);
          break;
        case Algorithm::kHierarchical:
          status = HierarchicalAllReduce(
              transport, *local.inter_slice, operation.op, operation.type, out,
              operation.input_count, id_, operation.sequence, deadline);
          break;
        default:
          status = RingAllReduce(transport, operation.op, operation.type, out,
                                 operation.input_count, id_, operation.sequence,
                                 deadline);
          break;
      }
      break;
    case PJRTX_Collective_REDUCE_SCATTER: {
      // The ring leaves every chunk but the rank's own half reduced, so it
      // works on a copy and only the rank's block lands in the output.
      std::vector<uint8_t> scratch(in, in + in_bytes);
      status = RingReduceScatter(transport, operation.op, operation.type,
                                 scratch.data(), operation.input_count, id_,
                                 operation.sequence, deadline);
      if (status.ok() && operation.output_bytes > 0) {
        std::memcpy(out, scratch.data() + rank * operation.output_bytes,
                    operation.output_bytes);
      }
      break;
    }
    case PJRTX_Collective_ALL_GATHER:
      copy_input_to(out + rank * in_bytes);
      status = RingAllGather(transport, operation.type, out,
                             operation.input_count * size, id_,
                             operation.sequence, deadline);
      break;
    case PJRTX_Collective_BROADCAST:
      copy_input_to(out);
      status = Broadcast(transport, operation.root,
                         absl::MakeSpan(out, operation.output_bytes), id_,
                         operation.sequence, deadline);
      break;
    case PJRTX_Collective_ALL_TO_ALL:
      status = AllToAll(transport, absl::MakeConstSpan(in, in_bytes),
                        absl::MakeSpan(out, operation.output_bytes), id_,
                        operation.sequence, deadline);
      break;
    case PJRTX_Collective_SEND_RECV:
      status = transport.SendRecv(
          part.send_to,
          part.send_to < 0 ? absl::Span<const uint8_t>()
                           : absl::MakeConstSpan(in, in_bytes),
          part.recv_from,
          part.recv_from < 0 ? absl::Span<uint8_t>()
                             : absl::MakeSpan(out, operation.output_bytes),
          MakeTag(id_, operation.sequence, 0), deadline);
      break;
  }
  // What this rank put on its links crossed ICI: count it on its device.
  const int64_t sent = transport.counters().bytes_sent;
  if (sent > local.bytes_counted) {
    client_->counters(local.device)
        .device_to_device.Add(sent - local.bytes_counted);
    local.bytes_counted = sent;
  }
  if (!status.ok()) {
    return absl::Status(
        status.code(), absl::StrCat(CollectiveKindName(operation.kind),
                                    " on rank ", rank, ": ", status.message()));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::collectives
