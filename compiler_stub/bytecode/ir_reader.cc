#include "compiler_stub/bytecode/ir_reader.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler_stub/bytecode/encoding_reader.h"
#include "support/status_macros.h"

namespace pjrtx::bytecode {
namespace {

// Bits of an op's encoding mask (Encoding.h, OpEncodingMask).
constexpr uint8_t kHasAttrs = 0x01;
constexpr uint8_t kHasResults = 0x02;
constexpr uint8_t kHasOperands = 0x04;
constexpr uint8_t kHasSuccessors = 0x08;
constexpr uint8_t kHasInlineRegions = 0x10;
constexpr uint8_t kHasUseListOrders = 0x20;
constexpr uint8_t kHasProperties = 0x40;

constexpr int kMaxNesting = 256;

// A value placeholder: the id given to the value in a slot of the scope.
constexpr uint64_t kUndefined = ~uint64_t{0};

// The format numbers values per isolated region: each region reserves
// slots for the values it defines directly when it is entered, and its
// nested non-isolated regions number after them.
struct ValueScope {
  std::vector<uint64_t> values;
  std::vector<size_t> next;  // The next free slot, per open region.
};

class IrReader {
 public:
  explicit IrReader(const BytecodeFile& file) : file_(file) {}

  absl::StatusOr<std::vector<RawOp>> Read() {
    EncodingReader reader(file_.ir, file_.ir_offset);
    scopes_.emplace_back();
    scopes_.back().next.push_back(0);
    RawBlock top;
    PJRTX_RETURN_IF_ERROR(ReadBlock(reader, top, 0));
    if (!reader.empty()) return reader.Error("trailing bytes in IR section");
    return std::move(top.operations);
  }

 private:
  absl::Status Define(EncodingReader& reader, uint64_t id) {
    ValueScope& scope = scopes_.back();
    if (scope.next.empty() || scope.next.back() >= scope.values.size()) {
      return reader.Error("region defines more values than it declared");
    }
    scope.values[scope.next.back()++] = id;
    return absl::OkStatus();
  }

  absl::Status ReadUseListOrders(EncodingReader& reader, uint64_t num_values) {
    uint64_t count = 1;
    if (num_values > 1) {
      PJRTX_ASSIGN_OR_RETURN(count, reader.ReadCount("use-list orders"));
    }
    for (uint64_t i = 0; i < count; ++i) {
      if (num_values > 1) PJRTX_RETURN_IF_ERROR(reader.ReadVarInt().status());
      uint64_t num_indices = 0;
      bool pairs = false;
      PJRTX_RETURN_IF_ERROR(reader.ReadVarIntWithFlag(&num_indices, &pairs));
      if (num_indices > reader.remaining()) {
        return reader.Error("use-list order longer than its input");
      }
      for (uint64_t j = 0; j < num_indices; ++j) {
        PJRTX_RETURN_IF_ERROR(reader.ReadVarInt().status());
      }
    }
    return absl::OkStatus();
  }

  absl::Status ReadBlock(EncodingReader& reader, RawBlock& block, int depth) {
    uint64_t num_ops = 0;
    bool has_arguments = false;
    PJRTX_RETURN_IF_ERROR(reader.ReadVarIntWithFlag(&num_ops, &has_arguments));
    if (num_ops > reader.remaining()) {
      return reader.Error("block has more ops than bytes left");
    }
    if (has_arguments) {
      PJRTX_ASSIGN_OR_RETURN(uint64_t count,
                             reader.ReadCount("block arguments"));
      block.first_argument_id = next_id_;
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t type = 0;
        if (file_.version >= kElideUnknownBlockArgLocation) {
          bool has_location = false;
          PJRTX_RETURN_IF_ERROR(
              reader.ReadVarIntWithFlag(&type, &has_location));
          if (has_location) {
            PJRTX_RETURN_IF_ERROR(reader.ReadVarInt().status());
          }
        } else {
          PJRTX_ASSIGN_OR_RETURN(type, reader.ReadVarInt());
          PJRTX_RETURN_IF_ERROR(reader.ReadVarInt().status());  // location
        }
        block.argument_types.push_back(type);
        PJRTX_RETURN_IF_ERROR(Define(reader, next_id_++));
      }
      if (file_.version >= kUseListOrdering) {
        PJRTX_ASSIGN_OR_RETURN(uint8_t has_orders, reader.ReadByte());
        if (has_orders) {
          PJRTX_RETURN_IF_ERROR(ReadUseListOrders(reader, count));
        }
      }
    }
    for (uint64_t i = 0; i < num_ops; ++i) {
      RawOp op;
      PJRTX_RETURN_IF_ERROR(ReadOp(reader, op, depth));
      block.operations.push_back(std::move(op));
    }
    return absl::OkStatus();
  }

  absl::Status ReadRegion(EncodingReader& reader, RawRegion& region,
                          int depth) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t num_blocks, reader.ReadCount("blocks"));
    if (num_blocks == 0) return absl::OkStatus();
    PJRTX_ASSIGN_OR_RETURN(uint64_t num_values, reader.ReadCount("values"));
    // Each value a file defines takes at least a byte of its IR, so the
    // values all regions declare together cannot exceed the IR's size.
    reserved_ += num_values;
    if (reserved_ > file_.ir.size()) {
      return reader.Error("regions declare more values than the IR can hold");
    }
    ValueScope& scope = scopes_.back();
    const size_t start = scope.values.size();
    scope.values.resize(start + num_values, kUndefined);
    scope.next.push_back(start);
    region.blocks.resize(num_blocks);
    for (RawBlock& block : region.blocks) {
      PJRTX_RETURN_IF_ERROR(ReadBlock(reader, block, depth));
    }
    ValueScope& after = scopes_.back();
    after.values.resize(start);
    after.next.pop_back();
    return absl::OkStatus();
  }

  absl::Status ReadRegions(EncodingReader& reader, RawOp& op, uint64_t count,
                           int depth) {
    op.regions.resize(count);
    for (RawRegion& region : op.regions) {
      PJRTX_RETURN_IF_ERROR(ReadRegion(reader, region, depth + 1));
    }
    return absl::OkStatus();
  }

  absl::Status ReadOp(EncodingReader& reader, RawOp& op, int depth) {
    if (depth > kMaxNesting) {
      return reader.Error(
          absl::StrCat("regions nest deeper than ", kMaxNesting));
    }
    PJRTX_ASSIGN_OR_RETURN(op.name, reader.ReadVarInt());
    if (op.name >= file_.op_names.size()) {
      return reader.Error(
          absl::StrCat("op name index ", op.name, " out of range"));
    }
    PJRTX_ASSIGN_OR_RETURN(uint8_t mask, reader.ReadByte());
    PJRTX_ASSIGN_OR_RETURN(op.location, reader.ReadVarInt());
    if (mask & kHasAttrs) {
      PJRTX_ASSIGN_OR_RETURN(op.attributes, reader.ReadVarInt());
    }
    if (mask & kHasProperties) {
      if (file_.version < kNativePropertiesEncoding) {
        return reader.Error("op properties before bytecode version 5");
      }
      PJRTX_ASSIGN_OR_RETURN(op.properties, reader.ReadVarInt());
      if (*op.properties >= file_.properties.size()) {
        return reader.Error(
            absl::StrCat("properties index ", *op.properties, " out of range"));
      }
    }
    if (mask & kHasResults) {
      PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader.ReadCount("results"));
      op.result_types.reserve(count);
      for (uint64_t i = 0; i < count; ++i) {
        PJRTX_ASSIGN_OR_RETURN(uint64_t type, reader.ReadVarInt());
        op.result_types.push_back(type);
      }
    }
    if (mask & kHasOperands) {
      PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader.ReadCount("operands"));
      op.operand_ids.reserve(count);
      const ValueScope& scope = scopes_.back();
      for (uint64_t i = 0; i < count; ++i) {
        PJRTX_ASSIGN_OR_RETURN(uint64_t index, reader.ReadVarInt());
        if (index >= scope.values.size() || scope.values[index] == kUndefined) {
          return reader.Error(absl::StrCat(
              "operand refers to value ", index,
              ", which is not defined before its use in this scope"));
        }
        op.operand_ids.push_back(scope.values[index]);
      }
    }
    if (mask & kHasSuccessors) {
      return reader.Error("ops with successor blocks are not supported");
    }
    // Results are defined before the op's regions are read: values of the
    // regions number after them.
    op.first_result_id = next_id_;
    for (size_t i = 0; i < op.result_types.size(); ++i) {
      PJRTX_RETURN_IF_ERROR(Define(reader, next_id_++));
    }
    if (file_.version >= kUseListOrdering && (mask & kHasUseListOrders)) {
      PJRTX_RETURN_IF_ERROR(ReadUseListOrders(reader, op.result_types.size()));
    }
    if (mask & kHasInlineRegions) {
      uint64_t count = 0;
      PJRTX_RETURN_IF_ERROR(reader.ReadVarIntWithFlag(&count, &op.isolated));
      if (count > reader.remaining()) {
        return reader.Error("more regions than bytes left");
      }
      if (op.isolated) scopes_.emplace_back();
      if (op.isolated && file_.version >= kLazyLoading) {
        // The regions of an isolated op sit in a nested IR section.
        PJRTX_ASSIGN_OR_RETURN(Section section, reader.ReadSection());
        if (section.id != SectionId::kIr) {
          return reader.Error("expected an IR section holding regions");
        }
        EncodingReader nested(section.data, section.offset);
        PJRTX_RETURN_IF_ERROR(ReadRegions(nested, op, count, depth));
        if (!nested.empty()) return nested.Error("trailing bytes in regions");
      } else {
        PJRTX_RETURN_IF_ERROR(ReadRegions(reader, op, count, depth));
      }
      if (op.isolated) scopes_.pop_back();
    }
    return absl::OkStatus();
  }

  const BytecodeFile& file_;
  std::vector<ValueScope> scopes_;
  uint64_t next_id_ = 0;
  uint64_t reserved_ = 0;
};

}  // namespace

absl::StatusOr<std::vector<RawOp>> ReadIr(const BytecodeFile& file) {
  return IrReader(file).Read();
}

}  // namespace pjrtx::bytecode
