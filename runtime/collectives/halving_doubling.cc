#include "runtime/collectives/halving_doubling.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "absl/types/span.h"
#include "runtime/collectives/buffer_chunks.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {

namespace {

// The `power` ranks left after the fold, and this rank among them.
struct FoldedRanks {
  int rank;
  int power;
  int extra;  // Pairs folded into one rank each.

  // The transport rank of folded rank `folded`.
  int Real(int folded) const {
    return folded < extra ? 2 * folded + 1 : folded + extra;
  }
};

// The tag of each step of one operation.
struct StepTag {
  uint32_t communicator;
  uint32_t sequence;

  uint64_t operator()(uint32_t step) const {
    return MakeTag(communicator, sequence, step);
  }
};

// Recursive doubling of the whole buffer: partners swap everything they
// hold and combine it in rank order (the lower folded rank's operand
// first), so both hold the same bits: floating-point operations are not
// commutative for NaN payloads, nor min and max over NaNs.
absl::Status WholeBufferDoubling(Transport& transport, const FoldedRanks& ranks,
                                 ReduceOp op, PJRTX_Buffer_Type type,
                                 uint8_t* bytes, size_t count,
                                 size_t element_size, uint8_t* incoming,
                                 const StepTag& tag, Deadline deadline) {
  const size_t total_bytes = count * element_size;
  uint32_t step = 1;
  for (int mask = 1; mask < ranks.power; mask *= 2, ++step) {
    const int partner = ranks.rank ^ mask;
    PJRTX_RETURN_IF_ERROR(transport.SendRecv(
        ranks.Real(partner), absl::MakeConstSpan(bytes, total_bytes),
        ranks.Real(partner), absl::MakeSpan(incoming, total_bytes), tag(step),
        deadline));
    if (ranks.rank < partner) {
      PJRTX_RETURN_IF_ERROR(Accumulate(op, type, bytes, incoming, count));
    } else {
      PJRTX_RETURN_IF_ERROR(Accumulate(op, type, incoming, bytes, count));
      std::memcpy(bytes, incoming, total_bytes);
    }
  }
  return absl::OkStatus();
}

// Rabenseifner's reduce-scatter by recursive halving, then all-gather by
// recursive doubling.
absl::Status HalvingThenDoubling(Transport& transport, const FoldedRanks& ranks,
                                 ReduceOp op, PJRTX_Buffer_Type type,
                                 uint8_t* bytes, size_t count,
                                 size_t element_size, uint8_t* incoming,
                                 const StepTag& tag, Deadline deadline) {
  const int power = ranks.power;
  const int folded_rank = ranks.rank;
  // Chunks first..first+chunks-1 of a split into `power` chunks.
  auto span_of = [&](int first, int chunks) {
    const size_t begin = ChunkBegin(count, power, first);
    const size_t end = ChunkBegin(count, power, first + chunks);
    return absl::MakeSpan(bytes + begin * element_size,
                          (end - begin) * element_size);
  };
  uint32_t step = 1;
  // Recursive halving: partners across the highest bit first split the
  // range they both hold, each keeping the half its bit selects, so rank
  // f ends holding chunk f reduced over all ranks.
  int first = 0;
  int chunks = power;
  for (int mask = power / 2; mask >= 1; mask /= 2, ++step) {
    const int half = chunks / 2;
    const bool keep_lower = (folded_rank & mask) == 0;
    const int keep = keep_lower ? first : first + half;
    const int give = keep_lower ? first + half : first;
    absl::Span<uint8_t> kept = span_of(keep, half);
    PJRTX_RETURN_IF_ERROR(transport.SendRecv(
        ranks.Real(folded_rank ^ mask), span_of(give, half),
        ranks.Real(folded_rank ^ mask), absl::MakeSpan(incoming, kept.size()),
        tag(step), deadline));
    PJRTX_RETURN_IF_ERROR(Accumulate(op, type, kept.data(), incoming,
                                     kept.size() / element_size));
    first = keep;
    chunks = half;
  }
  // Recursive doubling: the same pairs in reverse order swap the ranges
  // they hold, doubling them, until everyone holds every chunk.
  for (int mask = 1; mask < power; mask *= 2, ++step) {
    const int partner_first =
        (folded_rank & mask) == 0 ? first + chunks : first - chunks;
    PJRTX_RETURN_IF_ERROR(transport.SendRecv(
        ranks.Real(folded_rank ^ mask), span_of(first, chunks),
        ranks.Real(folded_rank ^ mask), span_of(partner_first, chunks),
        tag(step), deadline));
    first = std::min(first, partner_first);
    chunks *= 2;
  }
  return absl::OkStatus();
}

}  // namespace

bool UsesWholeBufferDoubling(size_t bytes, int power) {
  return power == 2 || bytes <= kWholeBufferDoublingBytes;
}

absl::Status HalvingDoublingAllReduce(Transport& transport, ReduceOp op,
                                      PJRTX_Buffer_Type type, void* data,
                                      size_t count, uint32_t communicator,
                                      uint32_t sequence, Deadline deadline) {
  PJRTX_ASSIGN_OR_RETURN(size_t element_size, ReducibleElementSize(type));
  PJRTX_RETURN_IF_ERROR(
      CheckHostBuffer("HalvingDoublingAllReduce", data, count));
  const int size = transport.size();
  const int rank = transport.rank();
  if (size == 1 || count == 0) return absl::OkStatus();
  auto* bytes = static_cast<uint8_t*>(data);
  const size_t total_bytes = count * element_size;

  int power = 1;
  int log2_power = 0;
  while (power * 2 <= size) {
    power *= 2;
    ++log2_power;
  }
  const int extra = size - power;
  const uint32_t unfold_step = 1 + 2 * static_cast<uint32_t>(log2_power);
  const StepTag tag{communicator, sequence};
  // The fold receives a whole buffer; later steps at most half of it.
  // Uninitialized: every byte read was received first.
  std::unique_ptr<uint8_t[]> incoming(new uint8_t[total_bytes]);

  // Fold: ranks below 2*extra combine in pairs, so that `power` ranks
  // remain, renumbered 0..power-1.
  int folded_rank = rank - extra;
  if (rank < 2 * extra) {
    if (rank % 2 == 0) {
      PJRTX_RETURN_IF_ERROR(transport.Send(
          rank + 1, absl::MakeConstSpan(bytes, total_bytes), tag(0), deadline));
      folded_rank = -1;
    } else {
      PJRTX_RETURN_IF_ERROR(
          transport.Recv(rank - 1, absl::MakeSpan(incoming.get(), total_bytes),
                         tag(0), deadline));
      PJRTX_RETURN_IF_ERROR(Accumulate(op, type, bytes, incoming.get(), count));
      folded_rank = rank / 2;
    }
  }

  if (folded_rank >= 0) {
    const FoldedRanks ranks{folded_rank, power, extra};
    PJRTX_RETURN_IF_ERROR(
        UsesWholeBufferDoubling(total_bytes, power)
            ? WholeBufferDoubling(transport, ranks, op, type, bytes, count,
                                  element_size, incoming.get(), tag, deadline)
            : HalvingThenDoubling(transport, ranks, op, type, bytes, count,
                                  element_size, incoming.get(), tag, deadline));
  }

  // Unfold: the odd rank of each pair hands the result back.
  if (rank < 2 * extra) {
    if (rank % 2 == 1) {
      return transport.Send(rank - 1, absl::MakeConstSpan(bytes, total_bytes),
                            tag(unfold_step), deadline);
    }
    return transport.Recv(rank + 1, absl::MakeSpan(bytes, total_bytes),
                          tag(unfold_step), deadline);
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::collectives
