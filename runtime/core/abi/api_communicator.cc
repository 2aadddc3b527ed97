// Entry points of communicators (ABI 0.4). The plugin makes the
// communicator (Plugin::CreateCommunicator); this file checks arguments and
// converts between handles and the core's types.
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/core/abi/api_support.h"
#include "runtime/core/abi/handles.h"

namespace pjrtx::abi {
namespace {

// The default of `timeout_in_ms` <= 0, as the header documents.
constexpr int64_t kDefaultTimeoutMs = 60'000;

PJRTX_Error* ClientCreateCommunicator(
    PJRTX_Client_CreateCommunicator_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Client_CreateCommunicator_Args, args);
  args->communicator = nullptr;
  args->local_ranks = nullptr;
  args->num_local_ranks = 0;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->client, "client"));
  if (args->num_devices == 0) {
    return ToError(absl::InvalidArgumentError(
        "num_devices is 0; a communicator needs at least one device id"));
  }
  if (args->device_ids == nullptr) {
    return ToError(absl::InvalidArgumentError(absl::StrCat(
        "device_ids is NULL but num_devices is ", args->num_devices)));
  }
  const int64_t timeout_ms =
      args->timeout_in_ms > 0 ? args->timeout_in_ms : kDefaultTimeoutMs;
  absl::StatusOr<std::unique_ptr<Communicator>> communicator =
      ThePlugin().CreateCommunicator(
          args->client->state,
          absl::MakeConstSpan(args->device_ids, args->num_devices), timeout_ms);
  if (!communicator.ok()) return ToError(communicator.status());
  auto* handle = new PJRTX_Communicator();
  handle->client = args->client;
  handle->communicator = *std::move(communicator);
  const std::vector<int64_t>& local = handle->communicator->local_ranks();
  args->communicator = handle;
  args->local_ranks = local.data();
  args->num_local_ranks = local.size();
  return nullptr;
}

PJRTX_Error* CommunicatorDestroy(PJRTX_Communicator_Destroy_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Communicator_Destroy_Args, args);
  if (args->communicator == nullptr) return nullptr;
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->communicator, "communicator"));
  delete args->communicator;
  return nullptr;
}

// An enum field as the int a C caller stored. Loading an out-of-range value
// as the C++ enum type would be undefined, so the check reads the bytes.
template <typename Enum>
int RawEnum(const Enum& field) {
  static_assert(sizeof(Enum) == sizeof(int));
  int value;
  std::memcpy(&value, &field, sizeof(value));
  return value;
}

absl::Status CheckEnums(const PJRTX_Communicator_Collective_Args& args) {
  const int kind = RawEnum(args.kind);
  if (kind < PJRTX_Collective_ALL_REDUCE || kind > PJRTX_Collective_SEND_RECV) {
    return absl::InvalidArgumentError(absl::StrCat(
        "kind is ", kind,
        "; expected a PJRTX_CollectiveKind (0 ALL_REDUCE .. 5 SEND_RECV)"));
  }
  const bool reduces = kind == PJRTX_Collective_ALL_REDUCE ||
                       kind == PJRTX_Collective_REDUCE_SCATTER;
  const int reduce_op = RawEnum(args.reduce_op);
  if (reduces &&
      (reduce_op < PJRTX_ReduceOp_SUM || reduce_op > PJRTX_ReduceOp_MAX)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "reduce_op is ", reduce_op,
        "; expected a PJRTX_ReduceOp (0 SUM, 1 PRODUCT, 2 MIN, 3 MAX)"));
  }
  const int algorithm = RawEnum(args.algorithm);
  if (algorithm < PJRTX_CollectiveAlgorithm_AUTO ||
      algorithm > PJRTX_CollectiveAlgorithm_HIERARCHICAL) {
    return absl::InvalidArgumentError(
        absl::StrCat("algorithm is ", algorithm,
                     "; expected a PJRTX_CollectiveAlgorithm (0 AUTO, 1 "
                     "RING, 2 HALVING_DOUBLING, 3 HIERARCHICAL)"));
  }
  return absl::OkStatus();
}

// Checks `peers` (send_to or recv_from) of SEND_RECV: one rank or -1 per
// local rank.
absl::Status CheckPeers(const char* name, const int64_t* peers,
                        size_t num_local, int64_t size) {
  if (peers == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        name,
        " is NULL; SEND_RECV needs one peer rank (or -1) per local "
        "rank"));
  }
  for (size_t i = 0; i < num_local; ++i) {
    if (peers[i] < -1 || peers[i] >= size) {
      return absl::InvalidArgumentError(absl::StrCat(name, "[", i, "] is ",
                                                     peers[i],
                                                     "; expected -1 or a "
                                                     "rank in 0..",
                                                     size - 1));
    }
  }
  return absl::OkStatus();
}

PJRTX_Error* CommunicatorCollective(PJRTX_Communicator_Collective_Args* args) {
  PJRTX_CHECK_ARGS(PJRTX_Communicator_Collective_Args, args);
  PJRTX_RETURN_ERROR_IF(CheckHandle(args->communicator, "communicator"));
  PJRTX_Communicator& c = *args->communicator;
  const size_t num_local = c.communicator->local_ranks().size();
  const int64_t size = c.communicator->size();
  PJRTX_RETURN_ERROR_IF(CheckEnums(*args));
  if (args->num_inputs != num_local) {
    return ToError(absl::InvalidArgumentError(absl::StrCat(
        "num_inputs is ", args->num_inputs, "; expected ", num_local,
        ", one input per local rank of the communicator")));
  }
  if (args->inputs == nullptr) {
    return ToError(absl::InvalidArgumentError(
        absl::StrCat("inputs is NULL; expected ", num_local, " buffers")));
  }
  if (args->outputs == nullptr || args->events == nullptr) {
    return ToError(absl::InvalidArgumentError(absl::StrCat(
        args->outputs == nullptr ? "outputs" : "events",
        " is NULL; expected a caller array of ", num_local, " entries")));
  }
  for (size_t i = 0; i < num_local; ++i) {
    args->outputs[i] = nullptr;
    args->events[i] = nullptr;
  }
  if (args->kind == PJRTX_Collective_BROADCAST &&
      (args->root < 0 || args->root >= size)) {
    return ToError(absl::InvalidArgumentError(absl::StrCat(
        "root is ", args->root, "; expected a rank in 0..", size - 1)));
  }
  CollectiveRequest request;
  if (args->kind == PJRTX_Collective_SEND_RECV) {
    PJRTX_RETURN_ERROR_IF(
        CheckPeers("send_to", args->send_to, num_local, size));
    PJRTX_RETURN_ERROR_IF(
        CheckPeers("recv_from", args->recv_from, num_local, size));
    request.send_to.assign(args->send_to, args->send_to + num_local);
    request.recv_from.assign(args->recv_from, args->recv_from + num_local);
  }
  for (size_t i = 0; i < num_local; ++i) {
    PJRTX_Buffer* input = args->inputs[i];
    PJRTX_RETURN_ERROR_IF(CheckHandle(input, "inputs", i));
    if (input->client != c.client) {
      return ToError(absl::InvalidArgumentError(absl::StrCat(
          "inputs[", i, "] belongs to another client than the communicator")));
    }
    request.inputs.push_back(input->buffer.get());
    request.donate.push_back(args->donate_inputs != nullptr &&
                             args->donate_inputs[i]);
  }
  PJRTX_RETURN_ERROR_IF(ReadWaitEvents(args->wait_events, args->num_wait_events,
                                       &request.wait_for));
  request.kind = args->kind;
  // Read only where CheckEnums validated it: other kinds ignore the field,
  // whatever the caller left there.
  if (args->kind == PJRTX_Collective_ALL_REDUCE ||
      args->kind == PJRTX_Collective_REDUCE_SCATTER) {
    request.op = args->reduce_op;
  }
  request.root = args->root;
  request.algorithm = args->algorithm;
  request.timeout_ms = args->timeout_in_ms;
  absl::StatusOr<std::vector<CollectiveResult>> results =
      c.communicator->Collective(request);
  if (!results.ok()) return ToError(results.status());
  for (size_t i = 0; i < num_local; ++i) {
    CollectiveResult& result = (*results)[i];
    if (result.output != nullptr) {
      auto* buffer = new PJRTX_Buffer();
      buffer->client = c.client;
      buffer->buffer = std::move(result.output);
      args->outputs[i] = buffer;
    }
    auto* event = new PJRTX_Event();
    event->event = std::move(result.done);
    args->events[i] = event;
  }
  return nullptr;
}

}  // namespace

void FillCommunicatorSlots(PJRTX_Api& api) {
  api.Client_CreateCommunicator = ClientCreateCommunicator;
  api.Communicator_Destroy = CommunicatorDestroy;
  api.Communicator_Collective = CommunicatorCollective;
}

}  // namespace pjrtx::abi
