#include "runtime/cpu/collective_groups.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"

namespace pjrtx::cpu {

GroupMode GroupModeFor(ir::OpCode opcode, const ir::CollectiveSpec& spec) {
  const bool channel = spec.channel_id > 0;
  switch (opcode) {
    case ir::OpCode::kAllGather:
    case ir::OpCode::kAllReduce:
    case ir::OpCode::kReduceScatter:
    case ir::OpCode::kCollectiveReduce:
      if (!channel) return GroupMode::kCrossReplica;
      return spec.use_global_device_ids ? GroupMode::kFlattenedIds
                                        : GroupMode::kCrossReplicaAndPartition;
    default:  // all_to_all, collective_permute, collective_broadcast.
      return channel ? GroupMode::kCrossPartition : GroupMode::kCrossReplica;
  }
}

absl::StatusOr<std::vector<std::vector<int64_t>>> ProcessGroups(
    GroupMode mode, const std::vector<std::vector<int64_t>>& groups,
    int64_t num_replicas, int64_t num_partitions) {
  const int64_t bound = mode == GroupMode::kCrossPartition ? num_partitions
                        : mode == GroupMode::kFlattenedIds
                            ? num_replicas * num_partitions
                            : num_replicas;
  const char* what = mode == GroupMode::kCrossPartition ? "partition"
                     : mode == GroupMode::kFlattenedIds ? "process"
                                                        : "replica";
  std::vector<std::vector<int64_t>> ids = groups;
  if (ids.empty()) {
    ids.emplace_back();
    for (int64_t i = 0; i < bound; ++i) ids.back().push_back(i);
  }
  std::set<int64_t> seen;
  for (const std::vector<int64_t>& group : ids) {
    for (int64_t id : group) {
      if (id < 0 || id >= bound) {
        return absl::InvalidArgumentError(
            absl::StrCat("replica_groups names ", what, " ", id,
                         "; the launch has ", bound, " (", num_replicas,
                         " replica(s) x ", num_partitions, " partition(s))"));
      }
      if (!seen.insert(id).second) {
        return absl::InvalidArgumentError(
            absl::StrCat("replica_groups names ", what, " ", id, " twice"));
      }
    }
  }
  std::vector<std::vector<int64_t>> result;
  switch (mode) {
    case GroupMode::kCrossReplica:
      for (int64_t p = 0; p < num_partitions; ++p) {
        for (const auto& group : ids) {
          result.emplace_back();
          for (int64_t r : group)
            result.back().push_back(r * num_partitions + p);
        }
      }
      break;
    case GroupMode::kCrossPartition:
      for (int64_t r = 0; r < num_replicas; ++r) {
        for (const auto& group : ids) {
          result.emplace_back();
          for (int64_t p : group)
            result.back().push_back(r * num_partitions + p);
        }
      }
      break;
    case GroupMode::kCrossReplicaAndPartition:
      for (const auto& group : ids) {
        result.emplace_back();
        for (int64_t p = 0; p < num_partitions; ++p) {
          for (int64_t r : group)
            result.back().push_back(r * num_partitions + p);
        }
      }
      break;
    case GroupMode::kFlattenedIds:
      result = ids;
      break;
  }
  return result;
}

std::vector<int64_t> GroupOf(const std::vector<std::vector<int64_t>>& groups,
                             int64_t process) {
  for (const auto& group : groups) {
    if (std::find(group.begin(), group.end(), process) != group.end()) {
      return group;
    }
  }
  return {};
}

}  // namespace pjrtx::cpu
