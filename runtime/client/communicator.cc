#include "runtime/client/communicator.h"

#include <memory>
#include <utility>

#include "runtime/client/status_from_error.h"
#include "support/status_macros.h"

namespace pjrtx::client {

absl::StatusOr<Communicator> Communicator::Create(
    const Client& client, const std::vector<int64_t>& device_ids,
    int64_t timeout_ms) {
  const PJRTX_Api* api = client.api();
  PJRTX_CLIENT_ARGS(PJRTX_Client_CreateCommunicator_Args, args);
  args.client = client.handle();
  args.device_ids = device_ids.data();
  args.num_devices = device_ids.size();
  args.timeout_in_ms = timeout_ms;
  PJRTX_RETURN_IF_ERROR(TakeStatus(api, api->Client_CreateCommunicator(&args)));
  return Communicator(
      api, args.communicator,
      std::vector<int64_t>(args.local_ranks,
                           args.local_ranks + args.num_local_ranks));
}

Communicator::Communicator(Communicator&& other) noexcept
    : api_(other.api_),
      handle_(std::exchange(other.handle_, nullptr)),
      local_ranks_(std::move(other.local_ranks_)) {}

Communicator& Communicator::operator=(Communicator&& other) noexcept {
  if (this != &other) {
    this->~Communicator();
    api_ = other.api_;
    handle_ = std::exchange(other.handle_, nullptr);
    local_ranks_ = std::move(other.local_ranks_);
  }
  return *this;
}

Communicator::~Communicator() {
  if (handle_ == nullptr) return;
  PJRTX_CLIENT_ARGS(PJRTX_Communicator_Destroy_Args, args);
  args.communicator = handle_;
  TakeStatus(api_, api_->Communicator_Destroy(&args)).IgnoreError();
  handle_ = nullptr;
}

absl::StatusOr<Communicator::Result> Communicator::Run(
    PJRTX_Communicator_Collective_Args& args,
    const std::vector<const Buffer*>& inputs, const Options& options) const {
  std::vector<PJRTX_Buffer*> handles;
  for (const Buffer* b : inputs) handles.push_back(b->handle());
  // std::vector<bool> has no data(); the ABI wants a bool array.
  std::unique_ptr<bool[]> donate;
  if (!options.donate.empty()) {
    donate.reset(new bool[handles.size()]());
    for (size_t i = 0; i < options.donate.size() && i < handles.size(); ++i) {
      donate[i] = options.donate[i];
    }
  }
  std::vector<PJRTX_Buffer*> outputs(handles.size(), nullptr);
  std::vector<PJRTX_Event*> events(handles.size(), nullptr);
  args.communicator = handle_;
  args.inputs = handles.data();
  args.num_inputs = handles.size();
  args.donate_inputs = donate.get();
  args.algorithm = options.algorithm;
  args.timeout_in_ms = options.timeout_ms;
  args.outputs = outputs.data();
  args.events = events.data();
  PJRTX_RETURN_IF_ERROR(TakeStatus(api_, api_->Communicator_Collective(&args)));
  Result result;
  for (size_t i = 0; i < handles.size(); ++i) {
    result.outputs.emplace_back(api_, outputs[i]);
    result.done.emplace_back(api_, events[i]);
  }
  return result;
}

absl::StatusOr<Communicator::Result> Communicator::AllReduce(
    const std::vector<const Buffer*>& inputs, PJRTX_ReduceOp op,
    const Options& options) const {
  PJRTX_CLIENT_ARGS(PJRTX_Communicator_Collective_Args, args);
  args.kind = PJRTX_Collective_ALL_REDUCE;
  args.reduce_op = op;
  return Run(args, inputs, options);
}

absl::StatusOr<Communicator::Result> Communicator::ReduceScatter(
    const std::vector<const Buffer*>& inputs, PJRTX_ReduceOp op,
    const Options& options) const {
  PJRTX_CLIENT_ARGS(PJRTX_Communicator_Collective_Args, args);
  args.kind = PJRTX_Collective_REDUCE_SCATTER;
  args.reduce_op = op;
  return Run(args, inputs, options);
}

absl::StatusOr<Communicator::Result> Communicator::AllGather(
    const std::vector<const Buffer*>& inputs, const Options& options) const {
  PJRTX_CLIENT_ARGS(PJRTX_Communicator_Collective_Args, args);
  args.kind = PJRTX_Collective_ALL_GATHER;
  return Run(args, inputs, options);
}

absl::StatusOr<Communicator::Result> Communicator::Broadcast(
    const std::vector<const Buffer*>& inputs, int64_t root,
    const Options& options) const {
  PJRTX_CLIENT_ARGS(PJRTX_Communicator_Collective_Args, args);
  args.kind = PJRTX_Collective_BROADCAST;
  args.root = root;
  return Run(args, inputs, options);
}

absl::StatusOr<Communicator::Result> Communicator::AllToAll(
    const std::vector<const Buffer*>& inputs, const Options& options) const {
  PJRTX_CLIENT_ARGS(PJRTX_Communicator_Collective_Args, args);
  args.kind = PJRTX_Collective_ALL_TO_ALL;
  return Run(args, inputs, options);
}

absl::StatusOr<Communicator::Result> Communicator::SendRecv(
    const std::vector<const Buffer*>& inputs,
    const std::vector<int64_t>& send_to, const std::vector<int64_t>& recv_from,
    const Options& options) const {
  PJRTX_CLIENT_ARGS(PJRTX_Communicator_Collective_Args, args);
  args.kind = PJRTX_Collective_SEND_RECV;
  args.send_to = send_to.data();
  args.recv_from = recv_from.data();
  return Run(args, inputs, options);
}

}  // namespace pjrtx::client
