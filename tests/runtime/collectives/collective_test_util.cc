#include "tests/runtime/collectives/collective_test_util.h"

#include <algorithm>
#include <cstring>
#include <thread>

#include "absl/types/span.h"
#include "support/status_macros.h"

namespace pjrtx::collectives::testing {
namespace {

bool IsUnsigned(PJRTX_Buffer_Type type) {
  return type == PJRTX_Buffer_Type_U8 || type == PJRTX_Buffer_Type_U16 ||
         type == PJRTX_Buffer_Type_U32 || type == PJRTX_Buffer_Type_U64;
}

template <typename T>
void Put(uint8_t* out, T value) {
  std::memcpy(out, &value, sizeof(T));
}

void Encode(PJRTX_Buffer_Type type, int64_t value, uint8_t* out) {
  switch (type) {
    case PJRTX_Buffer_Type_S8:
      return Put(out, static_cast<int8_t>(value));
    case PJRTX_Buffer_Type_S16:
      return Put(out, static_cast<int16_t>(value));
    case PJRTX_Buffer_Type_S32:
      return Put(out, static_cast<int32_t>(value));
    case PJRTX_Buffer_Type_S64:
      return Put(out, value);
    case PJRTX_Buffer_Type_U8:
      return Put(out, static_cast<uint8_t>(value));
    case PJRTX_Buffer_Type_U16:
      return Put(out, static_cast<uint16_t>(value));
    case PJRTX_Buffer_Type_U32:
      return Put(out, static_cast<uint32_t>(value));
    case PJRTX_Buffer_Type_U64:
      return Put(out, static_cast<uint64_t>(value));
    case PJRTX_Buffer_Type_F32:
      return Put(out, static_cast<float>(value));
    case PJRTX_Buffer_Type_F64:
      return Put(out, static_cast<double>(value));
    case PJRTX_Buffer_Type_F16:
      return Put(out, FloatToHalf(static_cast<float>(value)));
    case PJRTX_Buffer_Type_BF16:
      return Put(out, FloatToBFloat16(static_cast<float>(value)));
    default:
      return;
  }
}

}  // namespace

void RunRanks(int size, const std::function<void(int rank)>& body) {
  std::vector<std::thread> threads;
  threads.reserve(size);
  for (int rank = 0; rank < size; ++rank) threads.emplace_back(body, rank);
  for (std::thread& thread : threads) thread.join();
}

Deadline DeadlineAfter(std::chrono::milliseconds timeout) {
  return std::chrono::steady_clock::now() + timeout;
}

std::vector<PJRTX_Buffer_Type> TestedTypes() {
  return {PJRTX_Buffer_Type_F32,  PJRTX_Buffer_Type_F64, PJRTX_Buffer_Type_S32,
          PJRTX_Buffer_Type_S64,  PJRTX_Buffer_Type_U32, PJRTX_Buffer_Type_U64,
          PJRTX_Buffer_Type_BF16, PJRTX_Buffer_Type_F16, PJRTX_Buffer_Type_S8,
          PJRTX_Buffer_Type_U16};
}

int64_t TestValue(PJRTX_Buffer_Type type, ReduceOp op, int rank, size_t i) {
  const int64_t mix = static_cast<int64_t>((i * 7 + rank * 13) % 31);
  if (op == ReduceOp::kProduct) {
    const int64_t factors[3] = {1, 2, IsUnsigned(type) ? 3 : -1};
    return factors[(i + 2 * rank) % 3];
  }
  return IsUnsigned(type) ? mix : mix - 15;
}

std::vector<uint8_t> MakeInput(PJRTX_Buffer_Type type, ReduceOp op, int rank,
                               size_t count) {
  const size_t element_size = *ReducibleElementSize(type);
  std::vector<uint8_t> data(count * element_size);
  for (size_t i = 0; i < count; ++i) {
    Encode(type, TestValue(type, op, rank, i), data.data() + i * element_size);
  }
  return data;
}

std::vector<uint8_t> ExpectedReduction(PJRTX_Buffer_Type type, ReduceOp op,
                                       int size, size_t count) {
  const size_t element_size = *ReducibleElementSize(type);
  std::vector<uint8_t> data(count * element_size);
  for (size_t i = 0; i < count; ++i) {
    int64_t result = TestValue(type, op, 0, i);
    for (int rank = 1; rank < size; ++rank) {
      const int64_t value = TestValue(type, op, rank, i);
      switch (op) {
        case ReduceOp::kSum:
          result += value;
          break;
        case ReduceOp::kProduct:
          result *= value;
          break;
        case ReduceOp::kMin:
          result = std::min(result, value);
          break;
        case ReduceOp::kMax:
          result = std::max(result, value);
          break;
      }
    }
    Encode(type, result, data.data() + i * element_size);
  }
  return data;
}

absl::Status NaiveWholeBufferAllReduce(Transport& inter_slice, ReduceOp op,
                                       PJRTX_Buffer_Type type, void* data,
                                       size_t count, Deadline deadline) {
  const size_t bytes = count * *ReducibleElementSize(type);
  const int size = inter_slice.size();
  const int rank = inter_slice.rank();
  auto* buffer = static_cast<uint8_t*>(data);
  const std::vector<uint8_t> own(buffer, buffer + bytes);
  std::vector<uint8_t> incoming(bytes);
  for (int step = 1; step < size; ++step) {
    PJRTX_RETURN_IF_ERROR(inter_slice.SendRecv(
        (rank + step) % size, own, (rank - step + size) % size,
        absl::MakeSpan(incoming), MakeTag(0, 0, step), deadline));
    PJRTX_RETURN_IF_ERROR(Accumulate(op, type, buffer, incoming.data(), count));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::collectives::testing
