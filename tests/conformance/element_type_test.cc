// Every element type of version 0.1 round-trips bit-exactly; every other
// type is UNIMPLEMENTED with a message naming it.

#include <cstdint>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "element_types.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {
namespace {

using ::testing::ElementsAre;

std::string TypeParamName(
    const ::testing::TestParamInfo<PJRTX_Buffer_Type>& info) {
  return ElementTypeName(info.param);
}

class ElementTypeRoundTripTest
    : public ClientTest,
      public ::testing::WithParamInterface<PJRTX_Buffer_Type> {};

TEST_P(ElementTypeRoundTripTest, RoundTripsBitExactly) {
  const PJRTX_Buffer_Type type = GetParam();
  if (api()->pjrtx_api_version.minor_version < MinorIntroducing(type)) {
    GTEST_SKIP() << ElementTypeName(type) << " is required from ABI 0."
                 << MinorIntroducing(type);
  }
  const size_t size = 2 * 3 * ElementSize(type);
  std::vector<uint8_t> bytes = PatternBytes(size, static_cast<uint8_t>(type));
  // A PRED byte is 0 or 1; anything else is not a valid value.
  if (type == PJRTX_Buffer_Type_PRED) {
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = (i * 5 + 1) % 3 == 0;
  }
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(bytes.data(), type, {2, 3}, device()), &buffer));
  EXPECT_EQ(BufferElementType(buffer.get()), type);
  EXPECT_THAT(BufferDims(buffer.get()), ElementsAre(2, 3));
  EXPECT_EQ(OnDeviceSize(buffer.get()), size);
  std::vector<uint8_t> read;
  ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
  EXPECT_EQ(read, bytes);

  // And through a device copy, which must not convert either.
  BufferPtr copy;
  PJRTX_Device* target = addressable_devices().back();
  ASSERT_PJRTX_OK(CopyToDevice(buffer.get(), target, &copy));
  EXPECT_EQ(BufferElementType(copy.get()), type);
  ASSERT_PJRTX_OK(ToHost(copy.get(), &read));
  EXPECT_EQ(read, bytes);
}

INSTANTIATE_TEST_SUITE_P(Supported, ElementTypeRoundTripTest,
                         ::testing::ValuesIn(SupportedElementTypes()),
                         TypeParamName);

class UnsupportedElementTypeTest
    : public ClientTest,
      public ::testing::WithParamInterface<PJRTX_Buffer_Type> {};

TEST_P(UnsupportedElementTypeTest, IsUnimplementedNamingTheType) {
  const PJRTX_Buffer_Type type = GetParam();
  // More than any 2x3 array of any type needs, in case the plugin reads it.
  const std::vector<uint8_t> bytes = PatternBytes(256);
  BufferPtr buffer;
  EXPECT_TRUE(IsError(
      BufferFromHost(client(), DenseSpec(bytes.data(), type, {2, 3}, device()),
                     &buffer),
      PJRTX_Error_Code_UNIMPLEMENTED, {ElementTypeName(type)}));
  EXPECT_EQ(buffer, nullptr);
}

INSTANTIATE_TEST_SUITE_P(Unsupported, UnsupportedElementTypeTest,
                         ::testing::ValuesIn(UnsupportedElementTypes()),
                         TypeParamName);

}  // namespace
}  // namespace pjrtx::conformance
