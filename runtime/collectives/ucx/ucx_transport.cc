#include "runtime/collectives/ucx/ucx_transport.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {

struct UcxTransport::Peer {
  UcxTransport* transport = nullptr;
  int rank = 0;
  uint16_t space = 0;  // Its tag space: the top bits of tags sent to it.
  ucp_ep_h endpoint = nullptr;
  // OK while the endpoint is usable; otherwise why it was closed.
  absl::Status failure;
  // Caller thread only: the operation whose header was last sent to and
  // received from this peer (one past its sequence; 0: none yet).
  uint64_t header_sent = 0;
  uint64_t header_received = 0;
};

// A message whose data is a StagedMemory, as UCX's generic datatype sees
// it: the operation header (when the message carries one), then the data.
namespace {

struct StagedMessage {
  uint8_t* header = nullptr;
  size_t header_bytes = 0;
  StagedMemory* data = nullptr;  // Null: not staged.

  size_t total() const { return header_bytes + data->size(); }

  // Copies [offset, offset + length) of the message out of it (into `out`)
  // or into it (from `in`), the header's part first.
  void Pack(size_t offset, uint8_t* out, size_t length) const {
    const size_t in_header =
        offset < header_bytes ? std::min(length, header_bytes - offset) : 0;
    if (in_header > 0) std::memcpy(out, header + offset, in_header);
    if (length > in_header) {
      data->ToHost(offset + in_header - header_bytes, out + in_header,
                   length - in_header);
    }
  }
  void Unpack(size_t offset, const uint8_t* in, size_t length) const {
    const size_t in_header =
        offset < header_bytes ? std::min(length, header_bytes - offset) : 0;
    if (in_header > 0) std::memcpy(header + offset, in, in_header);
    if (length > in_header) {
      data->FromHost(offset + in_header - header_bytes, in + in_header,
                     length - in_header);
    }
  }
};

// UCX's generic datatype over a StagedMessage: the state is the message
// itself, given as the buffer of the send or receive.
void* StartStagedPack(void* /*context*/, const void* buffer, size_t /*count*/) {
  return const_cast<void*>(buffer);
}
void* StartStagedUnpack(void* /*context*/, void* buffer, size_t /*count*/) {
  return buffer;
}
size_t StagedPackedSize(void* state) {
  return static_cast<const StagedMessage*>(state)->total();
}
size_t StagedPack(void* state, size_t offset, void* dest, size_t max_length) {
  const auto& message = *static_cast<const StagedMessage*>(state);
  const size_t total = message.total();
  const size_t length =
      offset >= total ? 0 : std::min(max_length, total - offset);
  message.Pack(offset, static_cast<uint8_t*>(dest), length);
  return length;
}
ucs_status_t StagedUnpack(void* state, size_t offset, const void* src,
                          size_t length) {
  const auto& message = *static_cast<const StagedMessage*>(state);
  // UCX checks the length against StagedPackedSize first; this guards the
  // buffer should it not.
  if (offset > message.total() || length > message.total() - offset) {
    return UCS_ERR_MESSAGE_TRUNCATED;
  }
  message.Unpack(offset, static_cast<const uint8_t*>(src), length);
  return UCS_OK;
}
void FinishStaged(void* /*state*/) {}

// Hands `message` to UCX as `type` (a datatype over StagedMessage), with
// `header` in front when given: sets `param`'s datatype and returns the
// buffer to pass (count 1).
void* AsStaged(StagedMessage& message, OperationHeader::Wire* header,
               ucp_datatype_t type, ucp_request_param_t& param) {
  if (header != nullptr) {
    message.header = header->data();
    message.header_bytes = header->size();
  }
  param.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
  param.datatype = type;
  return &message;
}

}  // namespace

// One SendRecv call, shared by the calling thread (which waits for both
// halves) and the driving thread (which issues them and completes them;
// often the same thread).
struct UcxTransport::Exchange {
  UcxTransport* transport = nullptr;
  int to = -1;
  int from = -1;
  absl::Span<const uint8_t> send;
  absl::Span<uint8_t> recv;
  uint64_t tag = 0;
  // Set when the operation's header goes in front of the data: both sides
  // then move two-piece (iov) messages.
  std::optional<OperationHeader> expected;  // The header to receive.
  bool send_header = false;
  OperationHeader::Wire header_out = {};
  OperationHeader::Wire header_in = {};
  ucp_dt_iov_t send_iov[2] = {};
  ucp_dt_iov_t recv_iov[2] = {};
  // Set for SendRecvStaged: `send` and `recv` then only give the sizes, and
  // the data moves through these (header included) as UCX's generic
  // datatype, copied straight between the buffers and UCX's own.
  StagedMessage staged_send;
  StagedMessage staged_recv;

  // Driving thread only. A pending request is non-null; the reasons say
  // why a request was cut short by this side, and take precedence over the
  // bare UCX status it then completes with.
  void* send_request = nullptr;
  void* recv_request = nullptr;
  absl::Status send_abort_reason;
  absl::Status recv_cancel_reason;
  bool posting_recv = false;
  bool recv_completed_while_posting = false;

  // Written by the driving thread before the flag is set (release), read
  // by the caller after it saw the flag (acquire).
  std::atomic<bool> send_done{false};
  std::atomic<bool> recv_done{false};
  absl::Status send_status;
  absl::Status recv_status;
  size_t received_length = 0;  // Of the data, without a header.
};

namespace {

constexpr uint64_t kFullTagMask = ~uint64_t{0};
constexpr int kMaxRanks = 1 << 16;  // The sender field of UcxTagFor.

using Clock = std::chrono::steady_clock;

// Progresses `worker` inline until every request in `requests` completed or
// `timeout` passed, then frees them all (UCP releases an incomplete one
// when it completes). For teardown only, where blocking the progress
// thread is intended.
void DrainRequests(ucp_worker_h worker, std::vector<void*>& requests,
                   std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  auto pending = [&] {
    for (void* request : requests) {
      if (ucp_request_check_status(request) == UCS_INPROGRESS) return true;
    }
    return false;
  };
  while (pending() && Clock::now() < deadline) ucp_worker_progress(worker);
  for (void* request : requests) ucp_request_free(request);
  requests.clear();
}

// Keeps the request of a non-blocking call that did not finish at once.
void KeepIfPending(ucs_status_ptr_t result, std::vector<void*>& requests) {
  if (result != nullptr && !UCS_PTR_IS_ERR(result)) requests.push_back(result);
}

}  // namespace

absl::StatusOr<std::unique_ptr<UcxTransport>> UcxTransport::Create(
    KeyValueStore& store, absl::string_view communicator_key, int rank,
    int size, Options options) {
  if (size < 1 || size > kMaxRanks) {
    return absl::InvalidArgumentError(absl::StrCat(
        "UCX communicator size ", size, " is outside 1..", kMaxRanks));
  }
  if (rank < 0 || rank >= size) {
    return absl::InvalidArgumentError(
        absl::StrCat("rank ", rank, " is outside 0..", size - 1,
                     " of communicator \"", communicator_key, "\""));
  }
  std::shared_ptr<UcxContext> context = std::move(options.context);
  if (context == nullptr) {
    PJRTX_ASSIGN_OR_RETURN(context,
                           UcxContext::Create(options.context_options));
  }

  PJRTX_ASSIGN_OR_RETURN(uint16_t space, context->AllocateTagSpace());
  // Owns the space (and releases it) from here on, whatever fails below.
  std::unique_ptr<UcxTransport> transport(
      new UcxTransport(context, space, rank, size, options.flush_timeout_ms));

  static constexpr ucp_generic_dt_ops_t kStagedOps = {
      StartStagedPack, StartStagedUnpack, StagedPackedSize,
      StagedPack,      StagedUnpack,      FinishStaged};
  const ucs_status_t created =
      ucp_dt_create_generic(&kStagedOps, nullptr, &transport->staged_type_);
  if (created != UCS_OK) {
    transport->staged_type_ = 0;
    return absl::UnavailableError(absl::StrCat("ucp_dt_create_generic failed: ",
                                               ucs_status_string(created)));
  }

  // Published value: the tag space (2 bytes, host order), then the address.
  const std::string prefix = absl::StrCat(communicator_key, "/addr/");
  std::string published(sizeof(uint16_t), '\0');
  std::memcpy(published.data(), &space, sizeof(uint16_t));
  published += context->worker_address();
  PJRTX_RETURN_IF_ERROR(store.Put(absl::StrCat(prefix, rank), published));
  const Clock::time_point connect_deadline =
      Clock::now() + std::chrono::milliseconds(options.connect_timeout_ms);
  std::vector<std::string> addresses(size);
  for (int peer = 0; peer < size; ++peer) {
    const int64_t left_ms = std::max<int64_t>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(
               connect_deadline - Clock::now())
               .count());
    absl::StatusOr<std::string> address =
        store.Get(absl::StrCat(prefix, peer), left_ms);
    if (!address.ok()) {
      return absl::DeadlineExceededError(absl::StrCat(
          "rank ", peer, " of communicator \"", communicator_key,
          "\" did not publish its UCX address within ",
          options.connect_timeout_ms, " ms: ", address.status().message()));
    }
    if (address->size() <= sizeof(uint16_t)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the address rank ", peer, " of communicator \"", communicator_key,
          "\" published has ", address->size(),
          " bytes; expected a tag space and a UCX worker address"));
    }
    std::memcpy(&transport->peers_[peer]->space, address->data(),
                sizeof(uint16_t));
    addresses[peer] = address->substr(sizeof(uint16_t));
  }

  absl::Status connected;
  transport->context_->Run([&](ucp_worker_h worker) {
    connected = transport->Connect(worker, addresses);
  });
  if (!connected.ok()) return connected;
  return transport;
}

UcxTransport::UcxTransport(std::shared_ptr<UcxContext> context, uint16_t space,
                           int rank, int size, int64_t flush_timeout_ms)
    : context_(std::move(context)),
      space_(space),
      rank_(rank),
      size_(size),
      flush_timeout_ms_(flush_timeout_ms) {
  peers_.reserve(size);
  for (int peer = 0; peer < size; ++peer) {
    peers_.push_back(std::make_unique<Peer>());
    peers_.back()->transport = this;
    peers_.back()->rank = peer;
  }
}

absl::Status UcxTransport::Connect(ucp_worker_h worker,
                                   const std::vector<std::string>& addresses) {
  for (int peer = 0; peer < size_; ++peer) {
    ucp_ep_params_t params = {};
    params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS |
                        UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                        UCP_EP_PARAM_FIELD_ERR_HANDLER;
    params.address =
        reinterpret_cast<const ucp_address_t*>(addresses[peer].data());
    params.err_mode = UCP_ERR_HANDLING_MODE_PEER;
    params.err_handler.cb = &UcxTransport::OnEndpointError;
    params.err_handler.arg = peers_[peer].get();
    const ucs_status_t status =
        ucp_ep_create(worker, &params, &peers_[peer]->endpoint);
    if (status != UCS_OK) {
      peers_[peer]->endpoint = nullptr;
      // The destructor closes the endpoints opened so far.
      return absl::UnavailableError(
          absl::StrCat("cannot open a UCX endpoint from rank ", rank_,
                       " to rank ", peer, ": ", ucs_status_string(status)));
    }
  }
  return absl::OkStatus();
}

UcxTransport::~UcxTransport() {
  context_->Run([this](ucp_worker_h worker) {
    // From here on endpoint errors are recorded, not posted: a posted
    // closure would run after this object is gone.
    destroying_ = true;
    // Flush first so that sends that completed locally (eager data still in
    // UCX's buffers) reach live peers; force-closing would drop them.
    std::vector<void*> requests;
    ucp_request_param_t param = {};
    for (const std::unique_ptr<Peer>& peer : peers_) {
      if (peer->endpoint == nullptr || !peer->failure.ok()) continue;
      KeepIfPending(ucp_ep_flush_nbx(peer->endpoint, &param), requests);
    }
    DrainRequests(worker, requests,
                  std::chrono::milliseconds(flush_timeout_ms_));
    ucp_request_param_t close_param = {};
    close_param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    close_param.flags = UCP_EP_CLOSE_FLAG_FORCE;
    for (const std::unique_ptr<Peer>& peer : peers_) {
      if (peer->endpoint == nullptr) continue;
      KeepIfPending(ucp_ep_close_nbx(peer->endpoint, &close_param), requests);
      peer->endpoint = nullptr;
    }
    requests.insert(requests.end(), closing_.begin(), closing_.end());
    closing_.clear();
    // Force closes complete locally; the bound only guards against a UCX
    // that thinks otherwise.
    DrainRequests(worker, requests, std::chrono::milliseconds(1000));
    current_ = nullptr;
  });
  context_->ReleaseTagSpace(space_);
  if (staged_type_ != 0) ucp_dt_destroy(staged_type_);
}

void UcxTransport::OnEndpointError(void* arg, ucp_ep_h /*endpoint*/,
                                   ucs_status_t status) {
  Peer* peer = static_cast<Peer*>(arg);
  UcxTransport* transport = peer->transport;
  absl::Status reason = absl::UnavailableError(
      absl::StrCat("rank ", peer->rank, " is unreachable from rank ",
                   transport->rank_, ": ", ucs_status_string(status)));
  if (transport->destroying_) {
    peer->failure = std::move(reason);
    return;
  }
  // Closing an endpoint from inside its own error callback (which runs
  // within ucp_worker_progress) is not allowed; do it right after.
  transport->context_->Post(
      [transport, peer, reason = std::move(reason)](ucp_worker_h worker) {
        transport->FailPeer(worker, *peer, reason);
      });
}

void UcxTransport::FailPeer(ucp_worker_h worker, Peer& peer,
                            absl::Status reason) {
  if (!peer.failure.ok()) return;
  peer.failure = reason;
  // A receive is matched per worker, so UCX does not fail it when the
  // sender dies: cancel it here.
  if (current_ != nullptr && current_->from == peer.rank &&
      current_->recv_request != nullptr && current_->recv_cancel_reason.ok()) {
    current_->recv_cancel_reason = reason;
    ucp_request_cancel(worker, current_->recv_request);
  }
  if (current_ != nullptr && current_->to == peer.rank &&
      current_->send_request != nullptr && current_->send_abort_reason.ok()) {
    current_->send_abort_reason = reason;
  }
  if (peer.endpoint != nullptr) {
    // Force mode completes outstanding sends on it with an error at once,
    // instead of waiting on a peer that will not answer.
    ucp_request_param_t param = {};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_EP_CLOSE_FLAG_FORCE;
    KeepIfPending(ucp_ep_close_nbx(peer.endpoint, &param), closing_);
    peer.endpoint = nullptr;
  }
}

void UcxTransport::FinishSend(Exchange& exchange, ucs_status_t status) {
  absl::Status result;
  if (status != UCS_OK) {
    result = !exchange.send_abort_reason.ok()
                 ? exchange.send_abort_reason
                 : absl::UnavailableError(absl::StrCat(
                       "sending ", exchange.send.size(), " bytes from rank ",
                       rank_, " to rank ", exchange.to,
                       " failed: ", ucs_status_string(status)));
  }
  exchange.send_status = std::move(result);
  exchange.send_done.store(true, std::memory_order_release);
  context_->NotifyWaiters();
}

void UcxTransport::FinishRecv(Exchange& exchange, ucs_status_t status,
                              size_t length) {
  absl::Status result;
  size_t header_bytes = 0;
  if (exchange.expected.has_value()) {
    header_bytes = OperationHeader::kWireBytes;
    // Ranks running different operations say so, whatever else went wrong
    // with the message; a header cut short tells nothing.
    std::optional<OperationHeader> got =
        OperationHeader::Decode(exchange.header_in);
    if (got.has_value() && !got->Matches(*exchange.expected)) {
      result = absl::InvalidArgumentError(absl::StrCat(
          "rank ", rank_, " runs ", exchange.expected->ToString(), " but rank ",
          exchange.from, " runs ", got->ToString(),
          "; every rank must issue the same operations in the same order"));
    }
  }
  const size_t data_length = length >= header_bytes ? length - header_bytes : 0;
  if (!result.ok()) {
  } else if (status == UCS_OK &&
             length != header_bytes + exchange.recv.size()) {
    result = absl::InvalidArgumentError(absl::StrCat(
        "rank ", rank_, " expected ", exchange.recv.size(), " bytes from rank ",
        exchange.from, " but the message has ", data_length, " bytes (tag ",
        exchange.tag, ")"));
  } else if (status == UCS_ERR_MESSAGE_TRUNCATED) {
    result = absl::InvalidArgumentError(absl::StrCat(
        "rank ", rank_, " expected ", exchange.recv.size(), " bytes from rank ",
        exchange.from, " but the message has ", data_length,
        " bytes, more than that (tag ", exchange.tag, ")"));
  } else if (status != UCS_OK) {
    result = !exchange.recv_cancel_reason.ok()
                 ? exchange.recv_cancel_reason
                 : absl::UnavailableError(absl::StrCat(
                       "receiving ", exchange.recv.size(), " bytes on rank ",
                       rank_, " from rank ", exchange.from,
                       " failed: ", ucs_status_string(status)));
  }
  exchange.recv_status = std::move(result);
  exchange.received_length = data_length;
  exchange.recv_done.store(true, std::memory_order_release);
  context_->NotifyWaiters();
}

void UcxTransport::OnSendDone(void* request, ucs_status_t status,
                              void* user_data) {
  Exchange* exchange = static_cast<Exchange*>(user_data);
  ucp_request_free(request);
  exchange->send_request = nullptr;
  exchange->transport->FinishSend(*exchange, status);
}

void UcxTransport::OnRecvDone(void* request, ucs_status_t status,
                              const ucp_tag_recv_info_t* info,
                              void* user_data) {
  Exchange* exchange = static_cast<Exchange*>(user_data);
  if (exchange->posting_recv) {
    // Start frees it once ucp_tag_recv_nbx has returned it.
    exchange->recv_completed_while_posting = true;
  } else {
    ucp_request_free(request);
    exchange->recv_request = nullptr;
  }
  exchange->transport->FinishRecv(*exchange, status,
                                  info != nullptr ? info->length : 0);
}

void UcxTransport::Start(ucp_worker_h worker,
                         const std::shared_ptr<Exchange>& exchange) {
  current_ = exchange;
  if (exchange->from >= 0) {
    // Posted before the send so a message to this rank itself, and in
    // general any message already here, matches without a detour.
    ucp_request_param_t param = {};
    // Always through the callback: the immediate-completion path of UCX
    // 1.13 does not fill in the received length. The callback may then run
    // inside ucp_tag_recv_nbx, before the request is returned.
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                         UCP_OP_ATTR_FIELD_USER_DATA |
                         UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
    param.cb.recv = &UcxTransport::OnRecvDone;
    param.user_data = exchange.get();
    void* buffer = exchange->recv.data();
    size_t count = exchange->recv.size();
    if (exchange->staged_recv.data != nullptr) {
      buffer = AsStaged(
          exchange->staged_recv,
          exchange->expected.has_value() ? &exchange->header_in : nullptr,
          staged_type_, param);
      count = 1;
    } else if (exchange->expected.has_value()) {
      exchange->recv_iov[0] = {exchange->header_in.data(),
                               exchange->header_in.size()};
      exchange->recv_iov[1] = {exchange->recv.data(), exchange->recv.size()};
      param.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
      param.datatype = ucp_dt_make_iov();
      buffer = exchange->recv_iov;
      count = 2;
    }
    exchange->posting_recv = true;
    ucs_status_ptr_t result = ucp_tag_recv_nbx(
        worker, buffer, count, UcxTagFor(space_, exchange->tag, exchange->from),
        kFullTagMask, &param);
    exchange->posting_recv = false;
    if (UCS_PTR_IS_ERR(result)) {
      FinishRecv(*exchange, UCS_PTR_STATUS(result), 0);
    } else if (exchange->recv_completed_while_posting) {
      if (result != nullptr) ucp_request_free(result);
    } else if (result == nullptr) {
      // Not expected with NO_IMM_CMPL; UCX then reports no length.
      FinishRecv(*exchange, UCS_OK,
                 exchange->recv.size() + (exchange->expected.has_value()
                                              ? OperationHeader::kWireBytes
                                              : 0));
    } else {
      exchange->recv_request = result;
      // Whatever that peer sent before it failed has been matched above;
      // nothing more will come.
      const absl::Status& failure = peers_[exchange->from]->failure;
      if (!failure.ok()) {
        exchange->recv_cancel_reason = failure;
        ucp_request_cancel(worker, result);
      }
    }
  }
  if (exchange->to >= 0) {
    Peer& peer = *peers_[exchange->to];
    if (peer.endpoint == nullptr) {
      absl::Status failure = peer.failure.ok()
                                 ? absl::UnavailableError(absl::StrCat(
                                       "no UCX endpoint from rank ", rank_,
                                       " to rank ", peer.rank))
                                 : peer.failure;
      exchange->send_abort_reason = failure;
      FinishSend(*exchange, UCS_ERR_CANCELED);
      return;
    }
    ucp_request_param_t param = {};
    param.op_attr_mask =
        UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    param.cb.send = &UcxTransport::OnSendDone;
    param.user_data = exchange.get();
    const void* buffer = exchange->send.data();
    size_t count = exchange->send.size();
    if (exchange->staged_send.data != nullptr) {
      buffer = AsStaged(exchange->staged_send,
                        exchange->send_header ? &exchange->header_out : nullptr,
                        staged_type_, param);
      count = 1;
    } else if (exchange->send_header) {
      exchange->send_iov[0] = {exchange->header_out.data(),
                               exchange->header_out.size()};
      exchange->send_iov[1] = {const_cast<uint8_t*>(exchange->send.data()),
                               exchange->send.size()};
      param.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
      param.datatype = ucp_dt_make_iov();
      buffer = exchange->send_iov;
      count = 2;
    }
    ucs_status_ptr_t result =
        ucp_tag_send_nbx(peer.endpoint, buffer, count,
                         UcxTagFor(peer.space, exchange->tag, rank_), &param);
    if (result == nullptr) {
      FinishSend(*exchange, UCS_OK);
    } else if (UCS_PTR_IS_ERR(result)) {
      FinishSend(*exchange, UCS_PTR_STATUS(result));
    } else {
      exchange->send_request = result;
    }
  }
}

void UcxTransport::Abandon(ucp_worker_h worker,
                           const std::shared_ptr<Exchange>& exchange) {
  if (exchange->recv_request != nullptr && exchange->recv_cancel_reason.ok()) {
    exchange->recv_cancel_reason = absl::DeadlineExceededError(
        absl::StrCat("rank ", rank_, " received no ", exchange->recv.size(),
                     "-byte message from rank ", exchange->from, " with tag ",
                     exchange->tag, " by the deadline"));
    ucp_request_cancel(worker, exchange->recv_request);
  }
  if (exchange->send_request != nullptr) {
    // A send cannot be cancelled, but the caller's buffer must be released
    // when SendRecv returns: give up on the endpoint instead.
    absl::Status reason = absl::DeadlineExceededError(absl::StrCat(
        "rank ", rank_, " could not send ", exchange->send.size(),
        " bytes to rank ", exchange->to, " with tag ", exchange->tag,
        " by the deadline; its endpoint is closed"));
    exchange->send_abort_reason = reason;
    FailPeer(worker, *peers_[exchange->to], std::move(reason));
  }
}

absl::Status UcxTransport::SendRecv(int to, absl::Span<const uint8_t> send,
                                    int from, absl::Span<uint8_t> recv,
                                    uint64_t tag, Deadline deadline) {
  auto exchange = std::make_shared<Exchange>();
  exchange->send = send;
  exchange->recv = recv;
  return Run(to, from, tag, deadline, std::move(exchange));
}

absl::Status UcxTransport::SendRecvStaged(int to, StagedMemory* send, int from,
                                          StagedMemory* recv, uint64_t tag,
                                          Deadline deadline) {
  auto exchange = std::make_shared<Exchange>();
  // Without host data the spans give only the sizes (for checks and
  // messages), and the data goes through the StagedMemory.
  // Host memory moves as it is (contiguous eager sends, no pack callback).
  if (to >= 0) {
    exchange->send = absl::Span<const uint8_t>(send->host_data(), send->size());
    if (send->host_data() == nullptr) exchange->staged_send.data = send;
  }
  if (from >= 0) {
    exchange->recv = absl::Span<uint8_t>(recv->host_data(), recv->size());
    if (recv->host_data() == nullptr) exchange->staged_recv.data = recv;
  }
  return Run(to, from, tag, deadline, std::move(exchange));
}

absl::Status UcxTransport::Run(int to, int from, uint64_t tag,
                               Deadline deadline,
                               std::shared_ptr<Exchange> exchange) {
  for (int peer : {to, from}) {
    if (peer < -1 || peer >= size_) {
      return absl::InvalidArgumentError(
          absl::StrCat("peer rank ", peer, " is outside 0..", size_ - 1,
                       " (or -1 for none) on rank ", rank_));
    }
  }
  exchange->transport = this;
  exchange->to = to;
  exchange->from = from;
  exchange->tag = tag;
  exchange->send_done.store(to < 0, std::memory_order_relaxed);
  exchange->recv_done.store(from < 0, std::memory_order_relaxed);
  if (operation_.has_value()) {
    // The first message of the operation in each direction between two
    // ranks carries the header; a rank's messages to itself need none.
    const uint64_t marker = uint64_t{operation_->sequence} + 1;
    if (to >= 0 && to != rank_ && peers_[to]->header_sent != marker) {
      peers_[to]->header_sent = marker;
      exchange->send_header = true;
      exchange->header_out = operation_->Encode();
    }
    if (from >= 0 && from != rank_ && peers_[from]->header_received != marker) {
      peers_[from]->header_received = marker;
      exchange->expected = operation_;
    }
  }
  auto done = [&exchange] {
    return exchange->send_done.load(std::memory_order_acquire) &&
           exchange->recv_done.load(std::memory_order_acquire);
  };
  if (!context_->Await(done, deadline, [this, exchange](ucp_worker_h worker) {
        Start(worker, exchange);
      })) {
    context_->Post(
        [this, exchange](ucp_worker_h worker) { Abandon(worker, exchange); });
    // Cancellation and force close complete locally, so this is short.
    context_->Await(done, Clock::time_point::max());
  }

  if (to >= 0 && exchange->send_status.ok()) {
    bytes_sent_.fetch_add(static_cast<int64_t>(exchange->send.size()));
    messages_sent_.fetch_add(1);
  }
  if (from >= 0 && exchange->recv_status.ok()) {
    bytes_received_.fetch_add(static_cast<int64_t>(exchange->received_length));
    messages_received_.fetch_add(1);
  }
  // A specific failure says more than the deadline it may have caused.
  for (const absl::Status* status :
       {&exchange->send_status, &exchange->recv_status}) {
    if (!status->ok() && !absl::IsDeadlineExceeded(*status)) return *status;
  }
  if (!exchange->send_status.ok()) return exchange->send_status;
  return exchange->recv_status;
}

void UcxTransport::BeginOperation(const OperationHeader& header) {
  operation_ = header;
}

TransportCounters UcxTransport::counters() const {
  TransportCounters counters;
  counters.bytes_sent = bytes_sent_.load();
  counters.messages_sent = messages_sent_.load();
  counters.bytes_received = bytes_received_.load();
  counters.messages_received = messages_received_.load();
  return counters;
}

}  // namespace pjrtx::collectives
