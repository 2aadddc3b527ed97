// Collective instructions on the CPU engine, in two steps: Start deposits
// this process's contribution and returns at once; Finish waits for the
// others' and computes the results. The interpreter runs independent
// instructions in between, so compute overlaps the exchange.
#ifndef PJRTX_RUNTIME_CPU_COLLECTIVE_OPS_H_
#define PJRTX_RUNTIME_CPU_COLLECTIVE_OPS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler_stub/ir/program.h"
#include "runtime/cpu/collective_context.h"
#include "runtime/cpu/interpreter.h"

namespace pjrtx::cpu {

// Combines contributions elementwise (an all_reduce body).
struct Combiner {
  // Set when the body is one binary op (add, max, ...): all contributions
  // are then combined in one fused pass over memory.
  std::optional<ir::BinaryOp> binary;
  // Any other body, two contributions at a time.
  std::function<absl::StatusOr<Literal>(const Literal&, const Literal&)> pair;
};

class StartedCollective {
 public:
  StartedCollective(const ir::Instruction& instruction,
                    std::vector<Literal> operands, std::vector<int64_t> group,
                    std::unique_ptr<PendingExchange> pending)
      : instruction_(instruction),
        operands_(std::move(operands)),
        group_(std::move(group)),
        pending_(std::move(pending)) {}

  // Waits for the exchange and returns the instruction's results.
  // `combine` is used by the reducing collectives.
  absl::StatusOr<std::vector<TensorValue>> Finish(int64_t process,
                                                  const Combiner& combine);

 private:
  const ir::Instruction& instruction_;
  std::vector<Literal> operands_;
  // The processes the exchange is among, in the spec's order (for
  // collective_permute: the source, if any).
  std::vector<int64_t> group_;
  std::unique_ptr<PendingExchange> pending_;  // Null: nothing to wait for.
};

// Starts collective instruction `instruction` (one of ir::IsExchangeOp) on
// its `operands`.
absl::StatusOr<std::unique_ptr<StartedCollective>> StartCollective(
    const ir::Instruction& instruction, absl::Span<const TensorValue> operands,
    CollectiveContext& context, CollectiveSequence& sequence);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_COLLECTIVE_OPS_H_
