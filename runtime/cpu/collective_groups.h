// The StableHLO spec's process groups: which processes of a launch a
// collective instruction runs among, from its replica_groups (or
// source_target_pairs), channel and use_global_device_ids.
#ifndef PJRTX_RUNTIME_CPU_COLLECTIVE_GROUPS_H_
#define PJRTX_RUNTIME_CPU_COLLECTIVE_GROUPS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"

namespace pjrtx::cpu {

enum class GroupMode {
  kCrossReplica,              // Groups of replicas, one per partition.
  kCrossPartition,            // Groups of partitions, one per replica.
  kCrossReplicaAndPartition,  // Groups of replicas, every partition.
  kFlattenedIds,              // Groups of process ids.
};

// The mode the spec gives instruction `opcode` with `spec`.
GroupMode GroupModeFor(ir::OpCode opcode, const ir::CollectiveSpec& spec);

// Every process group, each as processes (replica * num_partitions +
// partition) in the spec's order. `groups` empty means one group of all
// replicas (or partitions, or processes). INVALID_ARGUMENT naming the id
// when one is out of range or repeated.
absl::StatusOr<std::vector<std::vector<int64_t>>> ProcessGroups(
    GroupMode mode, const std::vector<std::vector<int64_t>>& groups,
    int64_t num_replicas, int64_t num_partitions);

// The group containing `process`, or an empty vector when none does.
std::vector<int64_t> GroupOf(const std::vector<std::vector<int64_t>>& groups,
                             int64_t process);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_COLLECTIVE_GROUPS_H_
