// The dialect-independent tables of an MLIR bytecode file
// (mlir/docs/BytecodeFormat.md): header, string table, dialects and op
// names, the attribute/type entries, the properties table, and the IR
// section still undecoded. Attributes and types stay raw bytes here; they
// are decoded on demand (attribute_decoder.h), so that what the IR never
// uses (e.g. locations) is never read.
#ifndef PJRTX_COMPILER_STUB_BYTECODE_BYTECODE_FILE_H_
#define PJRTX_COMPILER_STUB_BYTECODE_BYTECODE_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pjrtx::bytecode {

// The bytecode versions this reader decodes: 0 to 6.
inline constexpr uint64_t kNewestBytecodeVersion = 6;
// Features by the version that introduced them (Encoding.h).
inline constexpr uint64_t kDialectVersioning = 1;
inline constexpr uint64_t kLazyLoading = 2;
inline constexpr uint64_t kUseListOrdering = 3;
inline constexpr uint64_t kElideUnknownBlockArgLocation = 4;
inline constexpr uint64_t kNativePropertiesEncoding = 5;

struct Dialect {
  std::string_view name;
  // The dialect's own version blob, if it wrote one.
  absl::Span<const uint8_t> version;
};

struct OpName {
  size_t dialect = 0;
  std::string full_name;  // "vhlo.add_v1"
};

// One attribute or type: its dialect and its encoding.
struct AttrTypeEntry {
  size_t dialect = 0;
  bool has_custom_encoding = false;
  absl::Span<const uint8_t> data;
  size_t offset = 0;  // Of the data in the file, for messages.
};

struct BytecodeFile {
  uint64_t version = 0;
  std::string_view producer;
  std::vector<std::string_view> strings;
  std::vector<Dialect> dialects;
  std::vector<OpName> op_names;
  std::vector<AttrTypeEntry> attributes;
  std::vector<AttrTypeEntry> types;
  // Encoded properties of ops, by index (version >= 5).
  std::vector<absl::Span<const uint8_t>> properties;
  std::vector<size_t> properties_offsets;
  absl::Span<const uint8_t> ir;
  size_t ir_offset = 0;
};

// Reads the header and every section but the IR's contents. Bytecode
// versions newer than kNewestBytecodeVersion are INVALID_ARGUMENT naming
// both. `bytes` must outlive the result (it points into them).
absl::StatusOr<BytecodeFile> ReadBytecodeFile(absl::Span<const uint8_t> bytes);

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_BYTECODE_FILE_H_
