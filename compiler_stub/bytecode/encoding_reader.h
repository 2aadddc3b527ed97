// A bounds-checked cursor over MLIR bytecode: prefix varints, zigzag signed
// varints, raw bytes, NUL-terminated strings and sections. Every read checks
// the remaining bytes first, and every count that sizes an allocation is
// checked against them too, so that no input can make the reader allocate
// more than the input could justify or read past its end.
#ifndef PJRTX_COMPILER_STUB_BYTECODE_ENCODING_READER_H_
#define PJRTX_COMPILER_STUB_BYTECODE_ENCODING_READER_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pjrtx::bytecode {

// Section ids of the format (mlir/include/mlir/Bytecode/Encoding.h).
enum class SectionId : uint8_t {
  kString = 0,
  kDialect = 1,
  kAttrType = 2,
  kAttrTypeOffset = 3,
  kIr = 4,
  kResource = 5,
  kResourceOffset = 6,
  kDialectVersions = 7,
  kProperties = 8,
};
inline constexpr int kNumSections = 9;

struct Section {
  SectionId id = SectionId::kString;
  absl::Span<const uint8_t> data;
  size_t offset = 0;  // Of the data, from the start of the file.
};

class EncodingReader {
 public:
  // `offset` is where `data` starts in the file: errors name file offsets,
  // and section alignment is relative to the start of the file.
  explicit EncodingReader(absl::Span<const uint8_t> data, size_t offset = 0)
      : data_(data), base_(offset) {}

  bool empty() const { return position_ == data_.size(); }
  size_t remaining() const { return data_.size() - position_; }
  // The file offset of the next byte.
  size_t offset() const { return base_ + position_; }

  absl::StatusOr<uint8_t> ReadByte();
  absl::StatusOr<uint64_t> ReadVarInt();
  // Zigzag: (value << 1) ^ (value >> 63).
  absl::StatusOr<int64_t> ReadSignedVarInt();
  // A varint whose low bit is a flag: (value << 1) | flag.
  absl::Status ReadVarIntWithFlag(uint64_t* value, bool* flag);
  // A varint counting items that each take at least `min_bytes` more bytes
  // of this input; larger counts are errors before anything is allocated.
  absl::StatusOr<uint64_t> ReadCount(std::string_view what,
                                     size_t min_bytes = 1);
  absl::StatusOr<absl::Span<const uint8_t>> ReadBytes(uint64_t size);
  absl::StatusOr<std::string_view> ReadNulTerminated();
  // {id | hasAlignment << 7, length, [alignment, 0xCB padding], data}.
  absl::StatusOr<Section> ReadSection();

  // INVALID_ARGUMENT "bytecode offset N: <message>" at the next byte.
  absl::Status Error(std::string_view message) const;

 private:
  absl::Span<const uint8_t> data_;
  size_t base_ = 0;
  size_t position_ = 0;
};

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_ENCODING_READER_H_
