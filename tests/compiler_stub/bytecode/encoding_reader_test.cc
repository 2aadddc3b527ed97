// The primitives of MLIR bytecode: prefix varints of every length, zigzag
// signed varints, bounds checks and sections.
#include "compiler_stub/bytecode/encoding_reader.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace pjrtx::bytecode {
namespace {

uint64_t VarInt(std::vector<uint8_t> bytes) {
  EncodingReader reader(bytes);
  absl::StatusOr<uint64_t> value = reader.ReadVarInt();
  EXPECT_TRUE(value.ok()) << value.status();
  EXPECT_TRUE(reader.empty());
  return value.value_or(~uint64_t{0});
}

TEST(EncodingReaderTest, PrefixVarIntsOfEachLength) {
  EXPECT_EQ(VarInt({0x01}), 0u);
  EXPECT_EQ(VarInt({0xff}), 127u);
  EXPECT_EQ(VarInt({0x02, 0x02}), 128u);  // (128 << 2) | 0b10
  EXPECT_EQ(VarInt({0xfe, 0xff}), (1u << 14) - 1);
  EXPECT_EQ(VarInt({0x04, 0x00, 0x02}), 1u << 14);  // 3 bytes
  EXPECT_EQ(VarInt({0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01}),
            uint64_t{1} << 48);  // 8 bytes: 56 value bits
  EXPECT_EQ(VarInt({0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}),
            ~uint64_t{0});  // 9 bytes
}

TEST(EncodingReaderTest, ZigzagSignedVarInts) {
  for (const auto& [byte, value] : std::vector<std::pair<uint8_t, int64_t>>{
           {0x01, 0}, {0x03, -1}, {0x05, 1}, {0x07, -2}}) {
    std::vector<uint8_t> bytes = {byte};
    EncodingReader reader(bytes);
    absl::StatusOr<int64_t> decoded = reader.ReadSignedVarInt();
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(*decoded, value);
  }
  // INT64_MIN, the dynamic dimension size: zigzag 2^64 - 1.
  std::vector<uint8_t> bytes = {0x00, 0xff, 0xff, 0xff, 0xff,
                                0xff, 0xff, 0xff, 0xff};
  EncodingReader reader(bytes);
  EXPECT_EQ(*reader.ReadSignedVarInt(), INT64_MIN);
}

TEST(EncodingReaderTest, TruncationAndHugeCountsAreErrors) {
  std::vector<uint8_t> truncated = {0x00, 0xff};
  EncodingReader a(truncated);
  EXPECT_FALSE(a.ReadVarInt().ok());
  std::vector<uint8_t> count = {0x00, 0xff, 0xff, 0xff, 0xff,
                                0xff, 0xff, 0xff, 0x0f, 0x01};
  EncodingReader b(count);
  absl::StatusOr<uint64_t> huge = b.ReadCount("things");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("things"), std::string::npos);
  std::vector<uint8_t> bytes = {0x05, 0x01};
  EncodingReader c(bytes);
  EXPECT_FALSE(c.ReadBytes(3).ok());
  EXPECT_FALSE(c.ReadNulTerminated().ok());
}

TEST(EncodingReaderTest, AlignedSectionsSkipPadding) {
  // Section 4, aligned (0x84), length 2, alignment 8, padding to offset 8.
  std::vector<uint8_t> bytes = {0x84, 0x05, 0x11, 0xcb, 0xcb,
                                0xcb, 0xcb, 0xcb, 0xaa, 0xbb};
  EncodingReader reader(bytes);
  absl::StatusOr<Section> section = reader.ReadSection();
  ASSERT_TRUE(section.ok()) << section.status();
  EXPECT_EQ(section->id, SectionId::kIr);
  EXPECT_EQ(section->offset, 8u);
  ASSERT_EQ(section->data.size(), 2u);
  EXPECT_EQ(section->data[0], 0xaa);
  bytes[4] = 0x00;  // Not the padding byte.
  EncodingReader bad(bytes);
  EXPECT_FALSE(bad.ReadSection().ok());
}

}  // namespace
}  // namespace pjrtx::bytecode
