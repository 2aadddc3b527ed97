#include "compiler_stub/bytecode/encoding_reader.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx::bytecode {
namespace {

// Padding before aligned section data is always this byte.
constexpr uint8_t kPaddingByte = 0xCB;
// Sections ask for small powers of two; anything larger is corrupt.
constexpr uint64_t kMaxAlignment = 4096;

}  // namespace

absl::Status EncodingReader::Error(std::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat("bytecode offset ", offset(), ": ",
                   absl::string_view(message.data(), message.size())));
}

absl::StatusOr<uint8_t> EncodingReader::ReadByte() {
  if (empty()) return Error("unexpected end of data");
  return data_[position_++];
}

absl::StatusOr<uint64_t> EncodingReader::ReadVarInt() {
  PJRTX_ASSIGN_OR_RETURN(uint8_t first, ReadByte());
  // The low bits of the first byte are a run of zeros ended by a one; the
  // zeros count the bytes that follow. All zeros: 8 full bytes follow.
  if (first & 1) return static_cast<uint64_t>(first >> 1);
  if (first == 0) {
    if (remaining() < 8) return Error("truncated 9-byte varint");
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) {
      value |= static_cast<uint64_t>(data_[position_ + i]) << (8 * i);
    }
    position_ += 8;
    return value;
  }
  int extra = 0;
  while (((first >> extra) & 1) == 0) ++extra;
  if (remaining() < static_cast<size_t>(extra)) {
    return Error("truncated varint");
  }
  uint64_t value = first;
  for (int i = 0; i < extra; ++i) {
    value |= static_cast<uint64_t>(data_[position_ + i]) << (8 * (i + 1));
  }
  position_ += extra;
  return value >> (extra + 1);
}

absl::StatusOr<int64_t> EncodingReader::ReadSignedVarInt() {
  PJRTX_ASSIGN_OR_RETURN(uint64_t value, ReadVarInt());
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

absl::Status EncodingReader::ReadVarIntWithFlag(uint64_t* value, bool* flag) {
  PJRTX_ASSIGN_OR_RETURN(uint64_t raw, ReadVarInt());
  *flag = raw & 1;
  *value = raw >> 1;
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> EncodingReader::ReadCount(std::string_view what,
                                                   size_t min_bytes) {
  PJRTX_ASSIGN_OR_RETURN(uint64_t count, ReadVarInt());
  if (min_bytes > 0 && count > remaining() / min_bytes) {
    return Error(absl::StrCat(
        "count of ", absl::string_view(what.data(), what.size()), " (", count,
        ") exceeds what the remaining ", remaining(), " bytes can hold"));
  }
  return count;
}

absl::StatusOr<absl::Span<const uint8_t>> EncodingReader::ReadBytes(
    uint64_t size) {
  if (size > remaining()) {
    return Error(absl::StrCat("length ", size, " exceeds the remaining ",
                              remaining(), " bytes"));
  }
  absl::Span<const uint8_t> bytes = data_.subspan(position_, size);
  position_ += size;
  return bytes;
}

absl::StatusOr<std::string_view> EncodingReader::ReadNulTerminated() {
  for (size_t i = position_; i < data_.size(); ++i) {
    if (data_[i] == 0) {
      std::string_view text(reinterpret_cast<const char*>(&data_[position_]),
                            i - position_);
      position_ = i + 1;
      return text;
    }
  }
  return Error("string without a terminating NUL");
}

absl::StatusOr<Section> EncodingReader::ReadSection() {
  PJRTX_ASSIGN_OR_RETURN(uint8_t id_and_aligned, ReadByte());
  const uint8_t id = id_and_aligned & 0x7f;
  if (id >= kNumSections) {
    return Error(absl::StrCat("unknown section id ", id));
  }
  PJRTX_ASSIGN_OR_RETURN(uint64_t length, ReadVarInt());
  if (id_and_aligned & 0x80) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t alignment, ReadVarInt());
    if (alignment == 0 || alignment > kMaxAlignment ||
        (alignment & (alignment - 1)) != 0) {
      return Error(absl::StrCat("section alignment ", alignment,
                                " is not a power of two up to ",
                                kMaxAlignment));
    }
    while (offset() % alignment != 0) {
      PJRTX_ASSIGN_OR_RETURN(uint8_t padding, ReadByte());
      if (padding != kPaddingByte) {
        return Error("section padding byte is not 0xCB");
      }
    }
  }
  Section section;
  section.id = static_cast<SectionId>(id);
  section.offset = offset();
  PJRTX_ASSIGN_OR_RETURN(section.data, ReadBytes(length));
  return section;
}

}  // namespace pjrtx::bytecode
