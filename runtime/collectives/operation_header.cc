#include "runtime/collectives/operation_header.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "runtime/core/base/element_type.h"

namespace pjrtx::collectives {
namespace {

// Marks an encoded header (and its layout version): a receive buffer that
// was not filled by a header never decodes as one.
constexpr uint32_t kMagic = 0x70784831;  // "pxH1"

const char* ReduceOpName(PJRTX_ReduceOp op) {
  switch (op) {
    case PJRTX_ReduceOp_SUM:
      return "sum";
    case PJRTX_ReduceOp_PRODUCT:
      return "product";
    case PJRTX_ReduceOp_MIN:
      return "min";
    case PJRTX_ReduceOp_MAX:
      return "max";
  }
  return "unknown op";
}

template <typename T>
void Put(uint8_t*& at, T value) {
  std::memcpy(at, &value, sizeof(value));
  at += sizeof(value);
}

template <typename T>
T Take(const uint8_t*& at) {
  T value;
  std::memcpy(&value, at, sizeof(value));
  at += sizeof(value);
  return value;
}

}  // namespace

const char* CollectiveKindName(PJRTX_CollectiveKind kind) {
  switch (kind) {
    case PJRTX_Collective_ALL_REDUCE:
      return "all-reduce";
    case PJRTX_Collective_REDUCE_SCATTER:
      return "reduce-scatter";
    case PJRTX_Collective_ALL_GATHER:
      return "all-gather";
    case PJRTX_Collective_BROADCAST:
      return "broadcast";
    case PJRTX_Collective_ALL_TO_ALL:
      return "all-to-all";
    case PJRTX_Collective_SEND_RECV:
      return "send/recv";
  }
  return "collective";
}

// Host byte order: the processes of a job share one architecture.
OperationHeader::Wire OperationHeader::Encode() const {
  Wire wire = {};
  uint8_t* at = wire.data();
  Put<uint32_t>(at, kMagic);
  Put<uint32_t>(at, sequence);
  Put<int32_t>(at, kind);
  Put<int32_t>(at, op);
  Put<int32_t>(at, type);
  Put<uint32_t>(at, 0);  // Padding, keeps the int64s aligned.
  Put<int64_t>(at, count);
  Put<int64_t>(at, root);
  return wire;
}

std::optional<OperationHeader> OperationHeader::Decode(
    absl::Span<const uint8_t> wire) {
  if (wire.size() != kWireBytes) return std::nullopt;
  const uint8_t* at = wire.data();
  if (Take<uint32_t>(at) != kMagic) return std::nullopt;
  OperationHeader header;
  header.sequence = Take<uint32_t>(at);
  header.kind = static_cast<PJRTX_CollectiveKind>(Take<int32_t>(at));
  header.op = static_cast<PJRTX_ReduceOp>(Take<int32_t>(at));
  header.type = static_cast<PJRTX_Buffer_Type>(Take<int32_t>(at));
  Take<uint32_t>(at);
  header.count = Take<int64_t>(at);
  header.root = Take<int64_t>(at);
  return header;
}

bool OperationHeader::Matches(const OperationHeader& other) const {
  const bool reduces = kind == PJRTX_Collective_ALL_REDUCE ||
                       kind == PJRTX_Collective_REDUCE_SCATTER;
  return sequence == other.sequence && kind == other.kind &&
         type == other.type && count == other.count &&
         (!reduces || op == other.op) &&
         (kind != PJRTX_Collective_BROADCAST || root == other.root);
}

std::string OperationHeader::ToString() const {
  std::string text = CollectiveKindName(kind);
  if (kind == PJRTX_Collective_ALL_REDUCE ||
      kind == PJRTX_Collective_REDUCE_SCATTER) {
    absl::StrAppend(&text, " (", ReduceOpName(op), ")");
  }
  if (kind == PJRTX_Collective_BROADCAST) {
    absl::StrAppend(&text, " from rank ", root);
  }
  absl::StrAppend(&text, " of ", count, " x ", ElementTypeName(type),
                  ", operation ", sequence);
  return text;
}

}  // namespace pjrtx::collectives
