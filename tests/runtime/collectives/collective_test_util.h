// Helpers shared by the collectives tests: running ranks on threads, and
// inputs whose reductions are exact in every element type, so results can
// be compared bit for bit with a reference computed directly.
#ifndef PJRTX_TESTS_RUNTIME_COLLECTIVES_COLLECTIVE_TEST_UTIL_H_
#define PJRTX_TESTS_RUNTIME_COLLECTIVES_COLLECTIVE_TEST_UTIL_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "pjrtx/pjrtx_c_api.h"
#include "runtime/collectives/reduction.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives::testing {

// Runs body(rank) for rank 0..size-1 on one thread each and joins them.
void RunRanks(int size, const std::function<void(int rank)>& body);

Deadline DeadlineAfter(std::chrono::milliseconds timeout);

// The types the reduction tests cover.
std::vector<PJRTX_Buffer_Type> TestedTypes();

// Small integers (|v| <= 15 for sum, min and max; 1, 2 or -1 for
// product), chosen so that sums and products over up to 8 ranks are exact
// even in BF16.
int64_t TestValue(PJRTX_Buffer_Type type, ReduceOp op, int rank, size_t i);

// `count` TestValues of `rank`, encoded as `type`.
std::vector<uint8_t> MakeInput(PJRTX_Buffer_Type type, ReduceOp op, int rank,
                               size_t count);

// The reduction of every rank's MakeInput, computed element by element in
// int64 and then encoded (integers wrap, as Accumulate's do).
std::vector<uint8_t> ExpectedReduction(PJRTX_Buffer_Type type, ReduceOp op,
                                       int size, size_t count);

// A deliberately wasteful all-reduce across slices, to compare the
// hierarchical one with: every rank sends its whole buffer to every other
// rank of `inter_slice` and adds up what it receives, (size-1) * M bytes
// per rank.
absl::Status NaiveWholeBufferAllReduce(Transport& inter_slice, ReduceOp op,
                                       PJRTX_Buffer_Type type, void* data,
                                       size_t count, Deadline deadline);

}  // namespace pjrtx::collectives::testing

#endif  // PJRTX_TESTS_RUNTIME_COLLECTIVES_COLLECTIVE_TEST_UTIL_H_
