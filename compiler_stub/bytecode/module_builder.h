// Maps the decoded IR of a StableHLO portable artifact (VHLO ops, builtin
// module, func attributes) onto the syntax tree the text parser builds for
// the equivalent StableHLO text in MLIR's generic form: the same op names,
// operands, attribute names and shapes (dimension numbers imploded into
// #stablehlo.gather<...>, dense arrays as array<i64: ...>, defaults left
// out as the StableHLO printer leaves them out), regions and functions.
// What VhloLegalizeToStablehlo.cpp does to IR, this does to the tree. Each
// op's Location is the source position its MLIR location names (for JAX,
// the user's file:line:col), where the text parser puts the op's place in
// the text.
#ifndef PJRTX_COMPILER_STUB_BYTECODE_MODULE_BUILDER_H_
#define PJRTX_COMPILER_STUB_BYTECODE_MODULE_BUILDER_H_

#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/bytecode/attribute_table.h"
#include "compiler_stub/bytecode/bytecode_file.h"
#include "compiler_stub/bytecode/ir_reader.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::bytecode {

// Unknown op names and VHLO op versions are INVALID_ARGUMENT naming the op
// and the newest VHLO version this reader handles.
absl::StatusOr<mlir::Module> BuildModule(const BytecodeFile& file,
                                         AttributeTable& table,
                                         const std::vector<RawOp>& top_level);

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_MODULE_BUILDER_H_
