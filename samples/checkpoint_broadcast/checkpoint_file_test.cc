#include "samples/checkpoint_broadcast/checkpoint_file.h"

#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace checkpoint {
namespace {

using ::testing::HasSubstr;

absl::Span<const uint8_t> Bytes(const std::string& s) {
  return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()),
                             s.size());
}

std::string TwoTensorHeader(Header* layout) {
  std::vector<TensorEntry> tensors = {
      {"a", PJRTX_Buffer_Type_F32, {3, 5}, 0, 0},
      {"bias", PJRTX_Buffer_Type_BF16, {7}, 0, 0}};
  absl::StatusOr<std::string> encoded = EncodeHeader(tensors, layout);
  EXPECT_TRUE(encoded.ok()) << encoded.status();
  return *encoded;
}

TEST(CheckpointFileTest, EncodedHeaderDecodesToTheSameLayout) {
  Header layout;
  const std::string encoded = TwoTensorHeader(&layout);
  absl::StatusOr<Header> decoded = DecodeHeader(Bytes(encoded));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->tensors.size(), 2u);
  EXPECT_EQ(decoded->tensors[0].name, "a");
  EXPECT_EQ(decoded->tensors[0].dims, (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(decoded->tensors[0].bytes, 60u);
  EXPECT_EQ(decoded->tensors[0].offset % 64, 0u);
  EXPECT_GE(decoded->tensors[0].offset, encoded.size());
  EXPECT_EQ(decoded->tensors[1].type, PJRTX_Buffer_Type_BF16);
  EXPECT_EQ(decoded->tensors[1].bytes, 14u);
  EXPECT_EQ(decoded->tensors[1].offset, 128u + 64u);
  EXPECT_EQ(decoded->header_bytes, encoded.size());
  EXPECT_EQ(decoded->file_bytes, layout.file_bytes);
  EXPECT_EQ(decoded->payload_bytes(), encoded.size() + 60 + 14);
}

TEST(CheckpointFileTest, ShortPrefixSaysHowMuchMoreItNeeds) {
  Header layout;
  const std::string encoded = TwoTensorHeader(&layout);
  uint64_t needed = 0;
  absl::StatusOr<Header> decoded =
      DecodeHeader(Bytes(encoded.substr(0, kFixedHeaderBytes)), &needed);
  ASSERT_TRUE(absl::IsOutOfRange(decoded.status())) << decoded.status();
  EXPECT_GT(needed, kFixedHeaderBytes);
  EXPECT_LE(needed, encoded.size());
  // Feeding what it asks for, repeatedly, reaches the whole header.
  std::string prefix = encoded.substr(0, needed);
  while (!DecodeHeader(Bytes(prefix), &needed).ok()) {
    ASSERT_GT(needed, prefix.size());
    prefix = encoded.substr(0, needed);
  }
  EXPECT_EQ(prefix.size(), encoded.size());
}

TEST(CheckpointFileTest, RejectsAFileThatIsNotACheckpoint) {
  absl::StatusOr<Header> decoded =
      DecodeHeader(Bytes(std::string("GIF89a..........")));
  EXPECT_TRUE(absl::IsInvalidArgument(decoded.status()));
  EXPECT_THAT(decoded.status().message(), HasSubstr("PJXCKPT"));
}

TEST(CheckpointFileTest, RejectsAnotherVersion) {
  Header layout;
  std::string encoded = TwoTensorHeader(&layout);
  const uint32_t version = 9;
  std::memcpy(&encoded[8], &version, 4);
  absl::StatusOr<Header> decoded = DecodeHeader(Bytes(encoded));
  EXPECT_THAT(decoded.status().message(), HasSubstr("version 9"));
}

TEST(CheckpointFileTest, RejectsASizeThatDoesNotMatchTheShape) {
  Header layout;
  std::string encoded = TwoTensorHeader(&layout);
  // The first entry's byte count sits 8 bytes before the second entry:
  // fixed part, name length, "a", type, rank, 2 dims, offset, then bytes.
  const size_t bytes_at = kFixedHeaderBytes + 4 + 1 + 4 + 4 + 16 + 8;
  const uint64_t wrong = 61;
  std::memcpy(&encoded[bytes_at], &wrong, 8);
  absl::StatusOr<Header> decoded = DecodeHeader(Bytes(encoded));
  EXPECT_TRUE(absl::IsInvalidArgument(decoded.status()));
  EXPECT_THAT(decoded.status().message(),
              HasSubstr("claims 61 bytes; its shape needs 60"));
}

TEST(CheckpointFileTest, RejectsOverlappingTensors) {
  Header layout;
  std::string encoded = TwoTensorHeader(&layout);
  const size_t offset_at = kFixedHeaderBytes + 4 + 1 + 4 + 4 + 16;
  const uint64_t inside_header = 0;
  std::memcpy(&encoded[offset_at], &inside_header, 8);
  absl::StatusOr<Header> decoded = DecodeHeader(Bytes(encoded));
  EXPECT_TRUE(absl::IsInvalidArgument(decoded.status()));
  EXPECT_THAT(decoded.status().message(), HasSubstr("overlaps"));
}

TEST(CheckpointFileTest, RejectsTypesWithoutAFixedSize) {
  std::vector<TensorEntry> tensors = {
      {"t", PJRTX_Buffer_Type_TOKEN, {1}, 0, 0}};
  Header layout;
  EXPECT_TRUE(absl::IsInvalidArgument(EncodeHeader(tensors, &layout).status()));
}

}  // namespace
}  // namespace checkpoint
