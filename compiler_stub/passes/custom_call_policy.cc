#include "compiler_stub/passes/custom_call_policy.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/mlir/location_text.h"

namespace pjrtx::ir {
namespace {

std::string At(const mlir::Location& location) {
  return absl::StrCat(mlir::LocationText(location), ": ");
}

const mlir::Attribute* FindAttribute(
    const std::vector<std::pair<std::string, mlir::Attribute>>& attributes,
    absl::string_view name) {
  for (const auto& [key, value] : attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

std::string TargetOf(const mlir::Operation& op) {
  const mlir::Attribute* target =
      FindAttribute(op.attributes, "call_target_name");
  return target == nullptr ? std::string() : target->string_value;
}

// Custom calls that only say where a value lives or how it is sharded: on
// one device they compute their operand.
bool IsAnnotation(const std::string& target) {
  return target == "annotate_device_placement" || target == "Sharding" ||
         target == "SPMDFullToShardShape" || target == "SPMDShardToFullShape" ||
         target == "MoveToHost" || target == "MoveToDevice" ||
         absl::StartsWith(target, "xla.sdy.");
}

// Custom calls into a platform's libraries (JAX's LAPACK/BLAS, cuSOLVER,
// cuSPARSE, hipSOLVER/rocSOLVER kernels, TPU library calls and kernels):
// routines outside StableHLO that pjrtx does not provide.
bool IsPlatformLibraryCall(const std::string& target) {
  static const char* const kPrefixes[] = {
      "lapack_", "blas_",  "cusolver_", "cusparse_", "cublas",
      "cu_",     "hip",    "rocsolver", "rocblas",   "tpu_custom_call",
      "mosaic",  "triton", "__gpu$",    "__cudnn$",  "ducc_"};
  for (const char* prefix : kPrefixes) {
    if (absl::StartsWith(target, prefix)) return true;
  }
  // XLA's TPU library routines, named without a prefix.
  return target == "Qr" || target == "Eigh" || target == "LuDecomposition" ||
         target == "ProductOfElementaryHouseholderReflectors" ||
         target == "ApproxTopK";
}

bool SameType(const mlir::Type& a, const mlir::Type& b) {
  return a.kind == b.kind && a.element == b.element && a.dims == b.dims;
}

// The number of devices an HLO sharding string ("{devices=[2,1]<=[2]}",
// "{replicated}", "{maximal device=0}") tiles over; 1 when not tiled.
int64_t TiledDevices(const std::string& sharding) {
  const size_t at = sharding.find("devices=[");
  if (at == std::string::npos) return 1;
  int64_t product = 1;
  int64_t current = 0;
  for (size_t i = at + 9; i < sharding.size() && sharding[i] != ']'; ++i) {
    const char c = sharding[i];
    if (c >= '0' && c <= '9') {
      // Saturate: a hostile string must not overflow.
      current = current > (int64_t{1} << 40) ? current : current * 10 + c - '0';
    } else if (c == ',') {
      product = current > 0 && product < (int64_t{1} << 20) ? product * current
                                                            : product;
      current = 0;
    }
  }
  if (current > 0 && product < (int64_t{1} << 20)) product *= current;
  return product;
}

struct ShardingScan {
  bool annotated = false;    // Any sharding annotation at all.
  int64_t most_devices = 1;  // The largest tiling found.
  bool manual_computation = false;
  mlir::Location manual_location;
};

void ScanAttributes(
    const std::vector<std::pair<std::string, mlir::Attribute>>& attributes,
    ShardingScan& scan) {
  for (const auto& [name, value] : attributes) {
    if (name == "mhlo.sharding") {
      scan.annotated = true;
      if (value.kind == mlir::Attribute::Kind::kString) {
        scan.most_devices =
            std::max(scan.most_devices, TiledDevices(value.string_value));
      }
    } else if (absl::StartsWith(name, "sdy.")) {
      scan.annotated = true;
    }
  }
}

void ScanRegion(const mlir::Region& region, ShardingScan& scan) {
  for (const mlir::Block& block : region.blocks) {
    for (const mlir::Operation& op : block.operations) {
      ScanAttributes(op.attributes, scan);
      if (op.name == "sdy.manual_computation" && !scan.manual_computation) {
        scan.manual_computation = true;
        scan.manual_location = op.location;
      }
      if (op.name == "stablehlo.custom_call") {
        const std::string target = TargetOf(op);
        if (target == "Sharding" || absl::StartsWith(target, "SPMD") ||
            absl::StartsWith(target, "xla.sdy.")) {
          scan.annotated = true;
        }
      }
      for (const mlir::Region& nested : op.regions) ScanRegion(nested, scan);
    }
  }
}

std::string Key(const std::string& name, int index) {
  return absl::StrCat(name, "#", index);
}

// Rewrites the custom calls of one function. `renamed` maps dropped
// annotation results to the values they stand for; `constants` records the
// i1 constants seen, for shape_assertion. SSA names are unique within a
// function, so one map serves its nested regions too.
class FunctionRewriter {
 public:
  absl::Status Region(mlir::Region& region) {
    for (mlir::Block& block : region.blocks) {
      std::vector<mlir::Operation> kept;
      kept.reserve(block.operations.size());
      for (mlir::Operation& op : block.operations) {
        for (mlir::ValueRef& operand : op.operands) Rename(operand);
        for (mlir::Region& nested : op.regions) {
          absl::Status status = Region(nested);
          if (!status.ok()) return status;
        }
        bool drop = false;
        absl::Status status = Visit(op, drop);
        if (!status.ok()) return status;
        if (!drop) kept.push_back(std::move(op));
      }
      block.operations = std::move(kept);
    }
    return absl::OkStatus();
  }

 private:
  void Rename(mlir::ValueRef& ref) const {
    auto found = renamed_.find(Key(ref.name, ref.index));
    if (found == renamed_.end()) return;
    const mlir::Location location = ref.location;
    ref = found->second;
    ref.location = location;
  }

  absl::Status Visit(const mlir::Operation& op, bool& drop) {
    if (op.name == "stablehlo.constant" && op.num_results == 1 &&
        op.result_types.size() == 1 && op.result_types[0].element == "i1" &&
        op.result_types[0].dims.empty()) {
      const mlir::Attribute* value = FindAttribute(op.attributes, "value");
      if (value != nullptr &&
          value->kind == mlir::Attribute::Kind::kDenseElements) {
        const mlir::DenseElements& dense = value->dense;
        std::optional<bool> truth;
        if (dense.is_hex && !dense.hex_bytes.empty()) {
          truth = dense.hex_bytes[0] != 0;
        } else if (!dense.is_hex && !dense.values.empty()) {
          truth = dense.values[0] == "true" || dense.values[0] == "1";
        }
        if (truth.has_value()) constants_[Key(op.result_name, 0)] = *truth;
      }
      return absl::OkStatus();
    }
    if (op.name != "stablehlo.custom_call") return absl::OkStatus();
    const std::string target = TargetOf(op);
    if (IsPlatformLibraryCall(target)) {
      return absl::UnimplementedError(absl::StrCat(
          At(op.location), "custom_call target '", target,
          "' (a platform library call) is not supported: pjrtx has no "
          "implementation of that library routine"));
    }
    if (IsAnnotation(target)) {
      if (op.operands.size() != op.result_types.size() ||
          op.operand_types.size() != op.operands.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            At(op.location), "custom_call @", target, " has ",
            op.operands.size(), " operands and ", op.result_types.size(),
            " results; as an annotation it must pass each operand through"));
      }
      for (size_t i = 0; i < op.operands.size(); ++i) {
        if (!SameType(op.operand_types[i], op.result_types[i])) {
          // On one device a shard is the whole value; a type change would
          // mean a partitioned program.
          return absl::UnimplementedError(absl::StrCat(
              At(op.location), "custom_call @", target, " changes ",
              op.operand_types[i].text, " into ", op.result_types[i].text,
              ": a sharding over several devices; pjrtx has no SPMD "
              "partitioner yet"));
        }
        if (!op.result_name.empty()) {
          renamed_[Key(op.result_name, static_cast<int>(i))] = op.operands[i];
        }
      }
      drop = true;
      return absl::OkStatus();
    }
    if (target == "shape_assertion") {
      const mlir::Attribute* message =
          FindAttribute(op.attributes, "error_message");
      const std::string text = message == nullptr
                                   ? std::string("shape assertion failed")
                                   : message->string_value;
      if (op.operands.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            At(op.location), "custom_call @shape_assertion has no predicate"));
      }
      auto found =
          constants_.find(Key(op.operands[0].name, op.operands[0].index));
      if (found == constants_.end()) {
        return absl::UnimplementedError(absl::StrCat(
            At(op.location),
            "custom_call @shape_assertion checks a predicate computed at run "
            "time from dynamic shapes; pjrtx does not refine dynamic shapes "
            "yet, so it cannot check it (",
            text, ")"));
      }
      if (!found->second) {
        return absl::InvalidArgumentError(
            absl::StrCat(At(op.location), "shape assertion failed: ", text));
      }
      drop = true;
      return absl::OkStatus();
    }
    return absl::OkStatus();
  }

  std::map<std::string, mlir::ValueRef> renamed_;
  std::map<std::string, bool> constants_;
};

}  // namespace

absl::Status RequireOneDevice(const mlir::Module& module) {
  ShardingScan scan;
  int64_t partitions = 1;
  for (const auto& [name, value] : module.attributes) {
    if (name == "mhlo.num_partitions" &&
        value.kind == mlir::Attribute::Kind::kInteger) {
      partitions = value.integer;
    }
    if (name == "mhlo.frontend_attributes" || absl::StartsWith(name, "sdy.")) {
      // xla.sdy.meshes and the like: sharding annotations.
      scan.annotated = true;
    }
  }
  for (const mlir::Function& function : module.functions) {
    for (const mlir::FunctionArgument& argument : function.arguments) {
      ScanAttributes(argument.attributes, scan);
    }
    for (const auto& attributes : function.result_attributes) {
      ScanAttributes(attributes, scan);
    }
    ScanRegion(function.body, scan);
  }
  for (const mlir::Operation& op : module.other_operations) {
    if (op.name == "sdy.mesh") scan.annotated = true;
  }
  if (partitions > 1 && scan.annotated) {
    return absl::UnimplementedError(
        absl::StrCat("this program is annotated for ", partitions,
                     " devices (mhlo.num_partitions = ", partitions,
                     "); pjrtx has no SPMD partitioner yet"));
  }
  if (scan.most_devices > 1) {
    return absl::UnimplementedError(absl::StrCat(
        "this program is annotated for ", scan.most_devices,
        " devices (an mhlo.sharding tiled over ", scan.most_devices,
        " devices); pjrtx has no SPMD partitioner yet"));
  }
  if (scan.manual_computation) {
    return absl::UnimplementedError(absl::StrCat(
        At(scan.manual_location),
        "sdy.manual_computation over several devices: this program is "
        "annotated for several devices; pjrtx has no SPMD partitioner yet"));
  }
  return absl::OkStatus();
}

absl::Status ResolveCustomCalls(mlir::Module& module) {
  for (mlir::Function& function : module.functions) {
    FunctionRewriter rewriter;
    absl::Status status = rewriter.Region(function.body);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::ir
