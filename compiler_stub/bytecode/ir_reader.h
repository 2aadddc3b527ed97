// The IR section of MLIR bytecode as a dialect-independent tree: each op
// with its name index, attribute and properties references, result types,
// operands (already resolved from the format's value numbering to the op
// or block argument that defines them) and regions.
#ifndef PJRTX_COMPILER_STUB_BYTECODE_IR_READER_H_
#define PJRTX_COMPILER_STUB_BYTECODE_IR_READER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/bytecode/bytecode_file.h"

namespace pjrtx::bytecode {

// Every value of the IR gets an id, unique in the file, in definition order.
struct RawRegion;

struct RawOp {
  uint64_t name = 0;  // Index into BytecodeFile::op_names.
  uint64_t location = 0;
  std::optional<uint64_t> attributes;  // A DictionaryAttr's index.
  std::optional<uint64_t> properties;  // Index into BytecodeFile::properties.
  std::vector<uint64_t> result_types;  // Type indices.
  uint64_t first_result_id = 0;        // Results have consecutive ids.
  std::vector<uint64_t> operand_ids;
  std::vector<RawRegion> regions;
  bool isolated = false;
};

struct RawBlock {
  std::vector<uint64_t> argument_types;
  uint64_t first_argument_id = 0;
  std::vector<RawOp> operations;
};

struct RawRegion {
  std::vector<RawBlock> blocks;
};

// Decodes the IR section: the ops of the top-level block (one
// builtin.module in practice). Operand references to values not (yet)
// defined in scope are errors, as are successors (no StableHLO op has any).
// Nesting is limited so that no input can exhaust the stack.
absl::StatusOr<std::vector<RawOp>> ReadIr(const BytecodeFile& file);

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_IR_READER_H_
