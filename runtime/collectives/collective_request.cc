#include "runtime/collectives/collective_request.h"

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/collectives/output_dims.h"
#include "runtime/core/base/element_type.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {
namespace {

std::string Shape(PJRTX_Buffer_Type type, const std::vector<int64_t>& dims) {
  return absl::StrCat(ElementTypeName(type), "[", absl::StrJoin(dims, ","),
                      "]");
}

// One input per local rank, on its rank's device, all alike: every rank of
// a collective moves the same shape.
absl::Status CheckInputs(const CollectiveRequest& request,
                         const CollectiveRequestChecks& checks) {
  const size_t num_local = checks.local_ranks.size();
  if (request.inputs.size() != num_local) {
    return absl::InvalidArgumentError(
        absl::StrCat("got ", request.inputs.size(), " inputs; expected ",
                     num_local, ", one per local rank"));
  }
  const ClientState& client = *checks.client;
  const Buffer& first = *request.inputs[0];
  for (size_t i = 0; i < num_local; ++i) {
    const Buffer& input = *request.inputs[i];
    const int device = checks.local_devices[i];
    if (input.device() != device) {
      return absl::InvalidArgumentError(
          absl::StrCat("inputs[", i, "] lives on device ",
                       client.device(input.device()).global_id, "; local rank ",
                       checks.local_ranks[i], " is device ",
                       client.device(device).global_id));
    }
    if (checks.check_input) PJRTX_RETURN_IF_ERROR(checks.check_input(i, input));
    if (input.type() != first.type() || input.dims() != first.dims()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "inputs[", i, "] is ", Shape(input.type(), input.dims()),
          " but inputs[0] is ", Shape(first.type(), first.dims()),
          "; every rank of a collective must pass the same type and shape"));
    }
  }
  return absl::OkStatus();
}

// Where both sides of a message are local ranks, both are known here: an
// unmatched send or receive would wait forever. A message to or from
// another process is checked there (by its header, or its timeout).
absl::Status CheckLocalMessages(const CollectiveRequest& request,
                                const CollectiveRequestChecks& checks) {
  const absl::Span<const int64_t> ranks = checks.local_ranks;
  std::map<int64_t, size_t> local_index;
  for (size_t i = 0; i < ranks.size(); ++i) local_index[ranks[i]] = i;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const int64_t to = request.send_to[i];
    if (auto peer = local_index.find(to);
        to >= 0 && peer != local_index.end() &&
        request.recv_from[peer->second] != ranks[i]) {
      return checks.unmatched(
          UnmatchedMessage{true, i, ranks[i], peer->second, to,
                           request.recv_from[peer->second]});
    }
    const int64_t from = request.recv_from[i];
    if (auto peer = local_index.find(from);
        from >= 0 && peer != local_index.end() &&
        request.send_to[peer->second] != ranks[i]) {
      return checks.unmatched(UnmatchedMessage{false, i, ranks[i], peer->second,
                                               from,
                                               request.send_to[peer->second]});
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CheckedCollective> CheckCollectiveRequest(
    const CollectiveRequest& request, const CollectiveRequestChecks& checks) {
  PJRTX_RETURN_IF_ERROR(CheckInputs(request, checks));
  const Buffer& first = *request.inputs[0];
  CheckedCollective checked;
  checked.type = first.type();
  if (request.kind == PJRTX_Collective_ALL_REDUCE ||
      request.kind == PJRTX_Collective_REDUCE_SCATTER) {
    PJRTX_ASSIGN_OR_RETURN(checked.reduction,
                           checks.reduction(checked.type, request.op));
  } else {
    PJRTX_ASSIGN_OR_RETURN(checked.reduction.element_size,
                           SupportedElementSize(checked.type));
  }
  PJRTX_ASSIGN_OR_RETURN(
      checked.output_dims,
      CollectiveOutputDims(request.kind, first.dims(), checks.size));
  PJRTX_ASSIGN_OR_RETURN(int64_t in_count, ElementCount(first.dims()));
  PJRTX_ASSIGN_OR_RETURN(int64_t out_count, ElementCount(checked.output_dims));
  const size_t element_size = checked.reduction.element_size;
  checked.input_count = static_cast<size_t>(in_count);
  checked.reduce_count =
      checked.input_count * checked.reduction.values_per_element;
  checked.input_bytes = checked.input_count * element_size;
  checked.output_bytes = static_cast<size_t>(out_count) * element_size;
  if (request.kind == PJRTX_Collective_SEND_RECV) {
    PJRTX_RETURN_IF_ERROR(CheckLocalMessages(request, checks));
  }
  return checked;
}

}  // namespace pjrtx::collectives
