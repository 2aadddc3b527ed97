// What the runtime offers a plugin whose device cannot run a program's
// collectives itself: each one runs on the host, on the CPU engine's
// implementation, and meets the launch's other runs through the client's
// launch rendezvous. The plugin moves the operands and results between its
// device and the host; it sees only bytes, never the engine's types.
#ifndef PJRTX_RUNTIME_CPU_HOST_COLLECTIVE_H_
#define PJRTX_RUNTIME_CPU_HOST_COLLECTIVE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "compiler_stub/ir/program.h"
#include "runtime/core/base/driver.h"

namespace pjrtx::cpu {

class LaunchCollectives;
class CollectiveSequence;

// The collectives of one run of a program on one device. Not thread-safe:
// a run issues its collectives in program order. `run` must outlive it.
class HostCollectives {
 public:
  explicit HostCollectives(const RunContext& run);
  ~HostCollectives();
  HostCollectives(const HostCollectives&) = delete;
  HostCollectives& operator=(const HostCollectives&) = delete;

  // Fills operand `k`'s host bytes (a tensor operand; tokens are skipped).
  using ReadOperand =
      std::function<absl::Status(size_t k, absl::Span<uint8_t> bytes)>;
  // Takes result `i`'s host bytes (a tensor result; tokens are skipped).
  using WriteResult =
      std::function<absl::Status(size_t i, absl::Span<const uint8_t> bytes)>;

  // Runs `instruction` (a collective, replica_id or partition_id) whose
  // reduction body, if any, is the single binary op `combine` (or another
  // body the engine cannot run here: then UNIMPLEMENTED). Reads every
  // tensor operand through `read`, then writes every tensor result through
  // `write`. FAILED_PRECONDITION, naming the op and its position, when the
  // run is outside a launch.
  absl::Status Run(const ir::Instruction& instruction,
                   std::optional<ir::BinaryOp> combine, const ReadOperand& read,
                   const WriteResult& write);

 private:
  std::unique_ptr<LaunchCollectives> launch_;  // Null outside a launch.
  std::unique_ptr<CollectiveSequence> sequence_;
};

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_HOST_COLLECTIVE_H_
