// Decodes, on demand and once each, the attributes and types of a bytecode
// file: builtin ones (BuiltinDialectBytecode.td) and VHLO ones
// (VhloBytecode.cpp). Attributes of other dialects (sdy, ...) are kept as
// opaque values naming their dialect. A location decodes to the one source
// position an error message needs (DecodedAttribute::location).
#ifndef PJRTX_COMPILER_STUB_BYTECODE_ATTRIBUTE_TABLE_H_
#define PJRTX_COMPILER_STUB_BYTECODE_ATTRIBUTE_TABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/bytecode/bytecode_file.h"
#include "compiler_stub/bytecode/decoded_attribute.h"
#include "compiler_stub/bytecode/encoding_reader.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::bytecode {

class AttributeTable {
 public:
  explicit AttributeTable(const BytecodeFile& file);

  absl::StatusOr<const DecodedAttribute*> Attribute(uint64_t index);
  absl::StatusOr<const mlir::Type*> Type(uint64_t index);

  // A reference read from `reader`: a varint index.
  absl::StatusOr<const DecodedAttribute*> ReadAttribute(EncodingReader& reader);
  absl::StatusOr<const mlir::Type*> ReadType(EncodingReader& reader);

 private:
  class Decoder;

  // Counts `weight` against the decoding budget.
  absl::Status Spend(uint64_t weight, const EncodingReader& reader);

  // The file name of a location, one copy per string attribute however
  // many locations name it.
  std::shared_ptr<const std::string> FileName(const DecodedAttribute& name);

  const BytecodeFile& file_;
  std::vector<std::unique_ptr<DecodedAttribute>> attributes_;
  std::vector<std::unique_ptr<mlir::Type>> types_;
  std::unordered_map<const DecodedAttribute*,
                     std::shared_ptr<const std::string>>
      file_names_;
  // Entries being decoded, to reject an entry that refers to itself.
  std::vector<bool> attribute_busy_;
  std::vector<bool> type_busy_;
  int depth_ = 0;
  uint64_t spent_ = 0;
  uint64_t budget_ = 0;
};

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_ATTRIBUTE_TABLE_H_
